"""The page served at ``/`` and the offline HTML report, driven in a real headless browser.

The handler tests (content negotiation, assets, headers, local mode) need no browser.
The browser tests use Debian's ``chromium`` and ``chromium-driver`` through selenium
(``.ci/browser.sh`` installs them) and skip, with the reason, only when neither exists.
"""

from __future__ import annotations

import base64
import datetime as dt
import io
import json
import os
import re
import shutil
import socketserver
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

import pytest

import citeverify
from citeverify import Court, Document
from citeverify.http import HttpRequest, Service, open_store
from citeverify.http._cli import is_loopback
from citeverify.http._handler import PAGE_CSP
from citeverify.http._wsgi import WsgiApp
from citeverify.providers import Memory
from citeverify.providers._base import Authority, AuthorityText
from citeverify.report import render_html

ROOT = Path(__file__).resolve().parent.parent
BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

# --- a provider that knows two cases, one with its text ---------------------------------

ROE_TEXT = (
    "The Court holds that the right of personal privacy includes the abortion decision, "
    "but that this right is not unqualified and must be considered against important "
    "state interests in regulation. The State has a legitimate interest in protecting "
    "maternal health."
)
ROE = Authority(
    kind="case",
    reference="t:roe",
    provider="courtlistener",
    citations=("410 U.S. 113",),
    name="Roe v. Wade",
    court=Court("Supreme Court of the United States", "us"),
    court_id="scotus",
    decided=dt.date(1973, 1, 22),
    first_page=113,
    last_page=178,
    documents=(
        Document(
            provider="courtlistener",
            url="https://www.courtlistener.com/api/rest/v4/opinions/108713/",
            format="html",
        ),
    ),
    load_text=lambda: AuthorityText(ROE_TEXT, pages=((0, 153),)),
)
MIRANDA = Authority(
    kind="case",
    reference="t:miranda",
    provider="test",
    citations=("384 U.S. 436",),
    name="Miranda v. Arizona",
    court=Court("Supreme Court of the United States", "us"),
    court_id="scotus",
    decided=dt.date(1966, 6, 13),
    first_page=436,
    last_page=545,
)
PROVIDER = Memory([ROE, MIRANDA], complete=["U.S."], as_of="2024-01-01T00:00:00Z")

ROE_CITE = "Roe v. Wade, 410 U.S. 113, 153 (1973)"
MIRANDA_WRONG = "Miranda v. Ohio, 384 U.S. 436 (1966)"
FABRICATED = "Smith v. Jones, 410 U.S. 999 (1973)"
MISQUOTE = "the right of personal privacy includes the abortion decision, but that this right is entirely unqualified"  # noqa: E501


SAMPLE = ROOT / "examples" / "sample_brief.txt"
SAMPLE_TEXT = SAMPLE.read_text("utf-8")


def _expected(text: str, provider: Any = PROVIDER) -> list[dict[str, Any]]:
    """What the library answers for ``text``: the results the page must show."""
    return list(citeverify.verify_document_request({"text": text}, provider=provider)["results"])


class _ThreadingServer(socketserver.ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _QuietHandler(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class Server:
    """The Service's WSGI app on a loopback port, in a thread (``provider=None``: the
    embedded corpus, as ``citeverify serve`` uses)."""

    def __init__(self, tmp: Path, *, provider: Any = PROVIDER, local: bool = False) -> None:
        self.store = open_store(str(tmp / "state.sqlite3"))
        self.key = self.store.create("page-test", 1000, "month")
        # the real Service: POST /api/v1/verify-document is citeverify's own endpoint
        self.service = Service(self.store, provider=provider, local=local)
        self.httpd = make_server(
            "127.0.0.1", 0, WsgiApp(self.service), _ThreadingServer, handler_class=_QuietHandler
        )
        self.url = f"http://127.0.0.1:{self.httpd.server_port}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.store.close()


# --- the handler, without a browser ------------------------------------------------------


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    with open_store(str(tmp_path / "s.sqlite3")) as store:
        yield Service(store, provider=PROVIDER)


class TestHandler:
    def test_browsers_get_the_page(self, service: Service) -> None:
        """A browser's Accept gets the HTML page with a strict CSP and no inline script."""
        got = service.handle(HttpRequest("GET", "/", (("accept", BROWSER_ACCEPT),)))
        assert got.status == 200
        assert got.header("content-type") == "text/html; charset=utf-8"
        assert got.header("content-security-policy") == PAGE_CSP
        assert "default-src 'self'" in PAGE_CSP
        assert "unsafe-inline" not in PAGE_CSP
        assert got.header("vary") == "Accept"
        assert got.header("x-content-type-options") == "nosniff"
        page = got.body.decode()
        assert 'data-role="brief"' in page
        assert 'data-role="key"' in page
        assert 'data-mode="key"' in page
        assert "{{" not in page
        # every script is an external file of this server; no inline handler or script
        assert re.findall(r"<script[^>]*>", page) == [
            f'<script src="static/page.js?v={citeverify.__version__}" defer>'
        ]
        assert not re.search(r"\son[a-z]+=", page)
        assert "http://" not in page
        assert "https://" not in page

    @pytest.mark.parametrize(
        "accept", [None, "*/*", "application/json", "application/json, text/html", "text/html;q=0"]
    )
    def test_api_clients_keep_the_json(self, service: Service, accept: str | None) -> None:
        """Clients that do not prefer HTML still get the service description."""
        headers = () if accept is None else (("accept", accept),)
        got = service.handle(HttpRequest("GET", "/", headers))
        assert got.header("content-type") == "application/json"
        assert got.json()["service"] == "citeverify"
        assert got.header("vary") == "Accept"

    @pytest.mark.parametrize(
        ("path", "ctype", "needle"),
        [
            ("/static/page.js", "text/javascript; charset=utf-8", b"verify-document"),
            ("/static/page.css", "text/css; charset=utf-8", b"@media print"),
        ],
    )
    def test_assets(self, service: Service, path: str, ctype: str, needle: bytes) -> None:
        """The page's assets are served with their types, caching and the CSP; HEAD is empty."""
        got = service.handle(HttpRequest("GET", path))
        assert got.status == 200
        assert got.header("content-type") == ctype
        assert "max-age=" in (got.header("cache-control") or "")
        assert got.header("content-security-policy") == PAGE_CSP
        assert needle in got.body
        assert got.header("content-length") == str(len(got.body))
        head = service.handle(HttpRequest("HEAD", path))
        assert head.body == b""
        assert head.header("content-length") == str(len(got.body))

    def test_no_other_static_file(self, service: Service) -> None:
        """Only the named assets exist: no path walks into the package."""
        for path in ("/static/index.html", "/static/../_handler.py", "/static/", "/static/x.js"):
            got = service.handle(HttpRequest("GET", path))
            assert got.status == 404
            assert got.header("content-type") == "application/json"

    def test_local_mode_asks_no_key(self, tmp_path: Path) -> None:
        """In local mode the page hides the key and verify needs none; otherwise 401."""
        body = json.dumps({"items": [{"id": "1", "type": "case", "rawText": ROE_CITE}]}).encode()
        post = HttpRequest("POST", "/api/v1/verify", (("content-type", "application/json"),), body)
        with open_store(str(tmp_path / "l.sqlite3")) as store:
            keyed = Service(store, provider=PROVIDER)
            local = Service(store, provider=PROVIDER, local=True)
            assert keyed.handle(post).status == 401
            answer = local.handle(post)
            assert answer.status == 200
            assert answer.json()["results"][0]["verdict"]["status"] == "verified"
            assert answer.json()["usage"]["remaining"] > 10**9
            page = local.handle(HttpRequest("GET", "/", (("accept", "text/html"),)))
            assert b'data-mode="local"' in page.body

    def test_local_mode_covers_the_document_endpoint(self, tmp_path: Path) -> None:
        """The page's endpoint is charged like verify: a key is needed unless local; local
        answers what the library answers for the same text."""
        body = json.dumps({"text": BRIEF}).encode()
        post = HttpRequest(
            "POST", "/api/v1/verify-document", (("content-type", "application/json"),), body
        )
        with open_store(str(tmp_path / "d.sqlite3")) as store:
            assert Service(store, provider=PROVIDER).handle(post).status == 401
            answer = Service(store, provider=PROVIDER, local=True).handle(post)
            assert answer.status == 200
            assert answer.json()["results"] == _expected(BRIEF)

    @pytest.mark.parametrize(
        ("host", "loopback"),
        [
            ("127.0.0.1", True),
            ("127.3.2.1", True),
            ("::1", True),
            ("[::1]", True),
            ("localhost", True),
            ("0.0.0.0", False),
            ("::", False),
            ("192.168.1.5", False),
            ("example.org", False),
        ],
    )
    def test_loopback(self, host: str, loopback: bool) -> None:
        """Only loopback hosts count as loopback."""
        assert is_loopback(host) is loopback

    def test_serve_local_refuses_other_hosts(self, tmp_path: Path) -> None:
        """``serve --local`` on a non-loopback host exits 1 with a clear message."""
        done = subprocess.run(
            [sys.executable, "-m", "citeverify", "serve", "--local", "--host", "0.0.0.0",
             "--state", str(tmp_path / "x.sqlite3")],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 1
        assert "loopback" in done.stderr
        assert "serving" not in done.stderr


@pytest.mark.slow
def test_wheel_ships_the_page(tmp_path: Path) -> None:
    """A built wheel holds the page's three files next to the handler."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        pytest.skip(f"cannot build a wheel here: {done.stderr[-300:]}")
    wheel = next(tmp_path.glob("citeverify_legal-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in ("index.html", "page.css", "page.js"):
        assert f"citeverify/http/_page/{name}" in names
    assert "citeverify/report.py" in names


# --- the browser ------------------------------------------------------------------------


def _browser_paths() -> tuple[str, str] | None:
    binary = next(
        (
            shutil.which(n)
            for n in ("chromium", "chromium-browser", "google-chrome")
            if shutil.which(n)
        ),
        None,
    )
    driver = shutil.which("chromedriver")
    return (binary, driver) if binary and driver else None


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service as DriverService
    except ImportError:
        pytest.skip("selenium is not installed (the dev extra)")
    paths = _browser_paths()
    if paths is None:
        pytest.skip("no chromium and chromedriver on PATH (.ci/browser.sh installs them)")
    options = webdriver.ChromeOptions()
    options.binary_location = paths[0]
    for argument in (
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
        "--disable-dev-shm-usage", "--window-size=1400,1000",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):  # fmt: skip
        options.add_argument(argument)
    browser = webdriver.Chrome(service=DriverService(executable_path=paths[1]), options=options)
    browser.set_page_load_timeout(30)
    browser.set_script_timeout(30)
    try:
        yield browser
    finally:
        browser.quit()


def _print_to_pdf(driver: Any, width: float, height: float) -> dict[str, Any]:
    """Chromium's Page.printToPDF, asked again once: on a loaded machine headless Chromium
    sometimes answers "Printing failed" for a page that prints on the next try."""
    from selenium.common.exceptions import WebDriverException

    settings = {"paperWidth": width, "paperHeight": height, "printBackground": True,
                "preferCSSPageSize": False}  # fmt: skip
    try:
        printed: dict[str, Any] = driver.execute_cdp_cmd("Page.printToPDF", settings)
    except WebDriverException as error:
        if "Printing failed" not in str(error):
            raise
        time.sleep(1.0)
        printed = driver.execute_cdp_cmd("Page.printToPDF", settings)
    return printed


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The service over the two-case test provider."""
    running = Server(tmp_path_factory.mktemp("page-server"))
    try:
        yield running
    finally:
        running.close()


@pytest.fixture(scope="module")
def corpus_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The service over the embedded corpus, as ``citeverify serve`` runs it."""
    running = Server(tmp_path_factory.mktemp("corpus-server"), provider=None)
    try:
        yield running
    finally:
        running.close()


def _wait(driver: Any, css: str, timeout: float = 20) -> Any:
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(
        ec.presence_of_element_located(("css selector", css))
    )


def _open(driver: Any, server: Server) -> None:
    driver.get(server.url)
    driver.execute_script("sessionStorage.clear()")
    driver.get(server.url)
    key = driver.find_element("css selector", '[data-role="key"]')
    key.send_keys(server.key)


def _check(driver: Any, server: Server, brief: str) -> dict[str, Any]:
    """Paste ``brief``, press Check, wait for the summary; return the marks by id."""
    _open(driver, server)
    area = driver.find_element("css selector", '[data-role="brief"]')
    # set the value as a paste would (send_keys cannot type astral characters in chromedriver)
    driver.execute_script(
        "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))",
        area, brief,
    )  # fmt: skip
    driver.find_element("css selector", '[data-role="check"]').click()
    _wait(driver, '[data-role="summary"][data-total]')
    return {m.get_attribute("data-result-id"): m for m in _marks(driver)}


def _marks(driver: Any) -> list[Any]:
    return driver.find_elements("css selector", ".cv-text mark[data-result-id]")


def _mark_text(driver: Any, mark: Any) -> str:
    return str(driver.execute_script("return arguments[0].textContent", mark))


BRIEF = (
    "Plaintiff relies on \u201c" + MISQUOTE + "\u201d " + ROE_CITE + ". Id. at 154. "
    "See also " + MIRANDA_WRONG + "; " + FABRICATED + ".\n"
)  # fmt: skip


def _statuses_and_texts(driver: Any) -> list[tuple[str | None, str | None, str]]:
    """(result id, data-status, text) of every mark, in document order."""
    return [
        (m.get_attribute("data-result-id"), m.get_attribute("data-status"), _mark_text(driver, m))
        for m in _marks(driver)
    ]


def _wanted(results: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """(id, status, position.text) of each result, in document order."""
    ordered = sorted(results, key=lambda r: (r["position"]["start"], -r["position"]["end"]))
    return [(r["id"], r["verdict"]["status"], r["position"]["text"]) for r in ordered]


class TestPage:
    def test_marks_statuses_and_text(self, driver: Any, server: Server) -> None:
        """A pasted brief comes back with each citation and quotation marked by status, as
        the library answers for the same text."""
        marks = _check(driver, server, BRIEF)
        expected = _expected(BRIEF)
        assert _statuses_and_texts(driver) == _wanted(expected)
        by_text = {_mark_text(driver, m): m.get_attribute("data-status") for m in marks.values()}
        # what the provider knows, independently of the library's answer
        assert by_text[ROE_CITE] == "verified"
        assert by_text[MIRANDA_WRONG] == "warning"
        assert by_text[FABRICATED] == "critical"
        assert by_text["Id. at 154"] == "verified"
        assert by_text["\u201c" + MISQUOTE + "\u201d"] == "warning"
        summary = driver.find_element("css selector", '[data-role="summary"]')
        assert summary.get_attribute("data-total") == str(len(expected))
        verdict = summary.find_element("css selector", ".cv-verdict")
        assert verdict.get_attribute("data-fully-verified") == "false"
        # every mark also carries its status in words for assistive technology
        for mark in marks.values():
            assert mark.get_attribute("data-status") in mark.get_attribute("aria-label")
        # the problems panel lists critical before warning and omits the verified
        problems = driver.find_elements("css selector", '[data-role="problems"] .cv-problem')
        statuses = [p.get_attribute("data-status") for p in problems]
        rank = {"critical": 0, "warning": 1}
        want = sorted(
            (r["verdict"]["status"] for r in expected if r["verdict"]["status"] != "verified"),
            key=rank.__getitem__,
        )
        assert statuses == want
        assert statuses[0] == "critical"
        assert "Not fully verified" in verdict.text

    def test_sample_brief_pasted(self, driver: Any, corpus_server: Server) -> None:
        """The sample brief pasted: every mark's status and text are the library's result's
        ``verdict.status`` and ``position.text``, and the page's text is the brief."""
        _check(driver, corpus_server, SAMPLE_TEXT)
        expected = _expected(SAMPLE_TEXT, provider=None)
        assert _statuses_and_texts(driver) == _wanted(expected)
        statuses = {r["verdict"]["status"] for r in expected}
        assert statuses == {"verified", "warning", "critical"}
        whole = driver.find_element("css selector", '[data-role="text"]')
        assert driver.execute_script("return arguments[0].textContent", whole) == SAMPLE_TEXT
        summary = driver.find_element("css selector", '[data-role="summary"]')
        assert summary.get_attribute("data-total") == str(len(expected))

    def test_short_forms_and_quotations_show_their_citation(
        self, driver: Any, corpus_server: Server
    ) -> None:
        """Each short form and quotation names the full citation it was resolved or
        attributed to; choosing that name moves to the citation's mark."""
        marks = _check(driver, corpus_server, SAMPLE_TEXT)
        expected = {r["id"]: r for r in _expected(SAMPLE_TEXT, provider=None)}
        linked = [r for r in expected.values() if r.get("citationId")]
        kinds = {r["type"] for r in linked}
        assert "quote" in kinds
        assert kinds - {"quote"}, "the sample brief has short forms"
        for result in linked:
            marks[result["id"]].click()
            detail = driver.find_element("css selector", '[data-role="detail-body"]')
            assert detail.get_attribute("data-result-id") == result["id"]
            attributed = detail.find_element("css selector", "[data-citation-id]")
            target = result["citationId"]
            assert attributed.get_attribute("data-citation-id") == target
            assert _mark_text(driver, attributed) == expected[target]["position"]["text"]
        attributed.click()
        active = driver.switch_to.active_element
        assert active.get_attribute("data-result-id") == linked[-1]["citationId"]

    @pytest.mark.parametrize("suffix", [".pdf", ".docx"])
    def test_sample_file_through_the_file_input(
        self, driver: Any, corpus_server: Server, suffix: str
    ) -> None:
        """The sample brief's PDF or Word file chosen with the file picker is sent as bytes;
        the page shows the extracted text with the library's marks and statuses."""
        path = SAMPLE.with_suffix(suffix)
        typed = citeverify.verify_document(path)
        assert typed.document is not None
        _open(driver, corpus_server)
        driver.find_element("css selector", '[data-role="file"]').send_keys(str(path))
        _wait(driver, '[data-role="summary"][data-total]')
        want = []
        for r in typed.results:
            assert r.position is not None
            text = typed.document.text[r.position.start : r.position.end]
            want.append((r.position.start, -r.position.end, r.id, r.verdict.status.value, text))
        assert _statuses_and_texts(driver) == [w[2:] for w in sorted(want)]
        assert {w[3] for w in want} == {"verified", "warning", "critical"}
        whole = driver.find_element("css selector", '[data-role="text"]')
        shown = driver.execute_script("return arguments[0].textContent", whole)
        assert shown == typed.document.text
        assert path.name in driver.find_element("css selector", '[data-role="file-name"]').text

    def test_problem_jumps_to_its_mark(self, driver: Any, server: Server) -> None:
        """Choosing a problem focuses its mark and shows its details."""
        _check(driver, server, BRIEF)
        first = driver.find_element("css selector", '[data-role="problems"] .cv-problem')
        rid = first.get_attribute("data-result-id")
        first.click()
        active = driver.switch_to.active_element
        assert active.get_attribute("data-result-id") == rid
        detail = driver.find_element("css selector", '[data-role="detail-body"]')
        assert detail.get_attribute("data-result-id") == rid
        assert FABRICATED in detail.text

    def test_keyboard_opens_the_comparison_table(self, driver: Any, server: Server) -> None:
        """Tab to a mark and press Enter: its comparison table and authority link appear."""
        from selenium.webdriver.common.keys import Keys

        _check(driver, server, BRIEF)
        driver.execute_script("document.activeElement && document.activeElement.blur()")
        body = driver.find_element("css selector", "body")
        body.send_keys(Keys.TAB)
        for _ in range(40):
            active = driver.switch_to.active_element
            is_mark = active.tag_name == "mark" and active.get_attribute("data-result-id")
            if is_mark and _mark_text(driver, active) == MIRANDA_WRONG:
                break
            active.send_keys(Keys.TAB)
        else:
            pytest.fail("Tab never reached the Miranda mark")
        active.send_keys(Keys.ENTER)
        table = _wait(driver, '[data-role="detail-body"] table.cv-comparisons')
        rows = {
            r.find_element("css selector", "th").text: r.get_attribute("data-match")
            for r in table.find_elements("css selector", "tbody tr")
        }
        assert rows["caseName"] == "false"
        assert "Miranda v. Ohio" in table.text
        assert "Miranda v. Arizona" in table.text

    def test_courtlistener_link_is_the_human_page(self, driver: Any, server: Server) -> None:
        """An API URL of CourtListener becomes its opinion page; the quote shows its citation."""
        marks = _check(driver, server, BRIEF)
        quoted = "\u201c" + MISQUOTE + "\u201d"
        quote = next(m for m in marks.values() if _mark_text(driver, m) == quoted)
        quote.click()
        detail = driver.find_element("css selector", '[data-role="detail-body"]')
        links = [a.get_attribute("href") for a in detail.find_elements("css selector", "a")]
        assert links == ["https://www.courtlistener.com/opinion/108713/"]
        attributed = detail.find_element("css selector", "[data-citation-id]")
        assert attributed.text == ROE_CITE
        target = attributed.get_attribute("data-citation-id")
        attributed.click()
        assert driver.switch_to.active_element.get_attribute("data-result-id") == target
        assert _mark_text(driver, driver.switch_to.active_element) == ROE_CITE

    def test_hostile_brief_is_text(self, driver: Any, server: Server) -> None:
        """Markup in a brief is shown as text: no alert, no img element, no script run."""
        from selenium.common.exceptions import NoAlertPresentException

        hostile = (
            "<script>alert(1)</script> <img src=x onerror=alert(1)> "
            + ROE_CITE + " <b>bold</b>\n"
        )  # fmt: skip
        marks = _check(driver, server, hostile)
        with pytest.raises(NoAlertPresentException):
            _ = driver.switch_to.alert.text
        text = driver.find_element("css selector", '[data-role="text"]')
        assert text.find_elements("css selector", "img, script, b") == []
        assert driver.find_elements("css selector", "img") == []
        assert "<script>alert(1)</script>" in text.text
        assert "<img src=x onerror=alert(1)>" in text.text
        assert [_mark_text(driver, m) for m in marks.values()] == [ROE_CITE]

    def test_astral_characters_keep_marks_aligned(self, driver: Any, server: Server) -> None:
        """Code-point offsets past astral characters (two UTF-16 units each) still mark the
        citation exactly."""
        brief = (
            "\U0001d516\U0001d516 \U0001f600 caf\u00e9 "
            + ROE_CITE
            + " and \U0001f600 "
            + FABRICATED
        )
        marks = _check(driver, server, brief)
        texts = [_mark_text(driver, m) for m in marks.values()]
        assert texts == [ROE_CITE, FABRICATED]
        assert _statuses_and_texts(driver) == _wanted(_expected(brief))
        whole = driver.find_element("css selector", '[data-role="text"]')
        assert driver.execute_script("return arguments[0].textContent", whole) == brief

    def test_dropped_text_file(self, driver: Any, server: Server) -> None:
        """A .txt dropped on the drop zone is read into the brief and checked."""
        _open(driver, server)
        driver.execute_script(
            """
            const data = new DataTransfer();
            data.items.add(new File([arguments[0]], "brief.txt", {type: "text/plain"}));
            const zone = document.querySelector('[data-role="drop"]');
            zone.dispatchEvent(
                new DragEvent("drop", {dataTransfer: data, bubbles: true, cancelable: true}));
            """,
            "As held in " + MIRANDA_WRONG + ".",
        )
        _wait(driver, '[data-role="summary"][data-total]')
        assert [_mark_text(driver, m) for m in _marks(driver)] == [MIRANDA_WRONG]
        area = driver.find_element("css selector", '[data-role="brief"]')
        assert area.get_attribute("value") == "As held in " + MIRANDA_WRONG + "."

    def test_misquotation_diff(self, driver: Any, corpus_server: Server) -> None:
        """For the sample brief's misquotation the authority's words are shown with the
        differing words marked: the brief's "any" against the opinion's "extended"."""
        marks = _check(driver, corpus_server, SAMPLE_TEXT)
        misquoted = [
            r
            for r in _expected(SAMPLE_TEXT, provider=None)
            if r["type"] == "quote" and r["quote"]["matched"] is False and r["quote"]["passage"]
        ]
        assert len(misquoted) == 1
        assert "Gerstein" in misquoted[0]["citation"]["raw"]
        marks[misquoted[0]["id"]].click()
        detail = driver.find_element("css selector", '[data-role="detail-body"]')
        deleted = [e.text for e in detail.find_elements("css selector", ".cv-diff del.cv-changed")]
        inserted = [e.text for e in detail.find_elements("css selector", ".cv-diff ins.cv-changed")]
        assert deleted == ["any"]
        assert inserted == ["extended"]

    def test_missing_key_and_bad_key(self, driver: Any, server: Server) -> None:
        """Without a key the page asks for one; a wrong key shows the service's message."""
        driver.get(server.url)
        driver.execute_script("sessionStorage.clear()")
        driver.get(server.url)
        driver.find_element("css selector", '[data-role="brief"]').send_keys(ROE_CITE)
        driver.find_element("css selector", '[data-role="check"]').click()
        error = driver.find_element("css selector", '[data-role="error"]')
        assert "API key" in error.text
        driver.find_element("css selector", '[data-role="key"]').send_keys("cv_live_wrong")
        driver.find_element("css selector", '[data-role="check"]').click()
        from selenium.webdriver.support.ui import WebDriverWait

        WebDriverWait(driver, 20).until(lambda d: "Not checked" in error.text)
        assert error.get_attribute("role") == "alert"

    def test_screenshot(self, driver: Any, corpus_server: Server) -> None:
        """The sample brief checked renders (a screenshot; CITEVERIFY_UPDATE_SCREENSHOT=1
        saves it to docs/images/page.png)."""
        marks = _check(driver, corpus_server, SAMPLE_TEXT)
        next(m for m in marks.values() if _mark_text(driver, m).startswith("Miranda")).click()
        driver.execute_script("document.getElementById('cv-results').scrollIntoView()")
        png = base64.b64decode(driver.get_screenshot_as_base64())
        assert png.startswith(b"\x89PNG")
        if os.environ.get("CITEVERIFY_UPDATE_SCREENSHOT") == "1":
            (ROOT / "docs" / "images").mkdir(exist_ok=True)
            (ROOT / "docs" / "images" / "page.png").write_bytes(png)


# --- the offline report in the browser -----------------------------------------------------

PAPER = {"A4": (8.27, 11.69), "Letter": (8.5, 11.0)}
LONG_CITE = (
    "Extraordinarily Long Party Name Incorporated Holdings International Limited v. "
    "Another Exceedingly Long Respondent Name Corporation of America, 410 U.S. 999 (1973)"
)


class Report(NamedTuple):
    path: Path
    response: dict[str, Any]
    text: str
    title: str


class TestReportInBrowser:
    @pytest.fixture(params=["render_html", "cli"])
    def report(self, request: pytest.FixtureRequest, tmp_path: Path) -> Report:
        """The report written by ``render_html`` for a hostile, long brief, or by
        ``citeverify check examples/sample_brief.pdf --format html -o report.html``."""
        path = tmp_path / "report.html"
        if request.param == "cli":
            pdf = SAMPLE.with_suffix(".pdf")
            done = subprocess.run(
                [sys.executable, "-m", "citeverify", "check", str(pdf), "--format", "html",
                 "-o", str(path)],
                capture_output=True, text=True, timeout=300, check=False,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr
            assert done.stdout == ""
            from citeverify._codec import response_to_dict

            typed = citeverify.verify_document(pdf)
            assert typed.document is not None
            return Report(path, response_to_dict(typed), typed.document.text, f"citeverify: {pdf}")
        brief = (
            "\U0001d516 <script>alert(1)</script> " + BRIEF
            + ("Filler sentence for length. " * 40) + "\nFinally, " + LONG_CITE + ".\n"
        )  # fmt: skip
        response = citeverify.verify_document_request({"text": brief}, provider=PROVIDER)
        path.write_text(render_html(response, brief, title="Brief <report>"), "utf-8")
        return Report(path, response, brief, "Brief <report>")

    def test_marks_and_summary(self, driver: Any, report: Report) -> None:
        """The report opened from file:// shows the same marks, statuses and total."""
        from selenium.common.exceptions import NoAlertPresentException

        path, response = report.path, report.response
        driver.get(path.as_uri())
        marks = _marks(driver)
        got = [
            (
                m.get_attribute("data-result-id"),
                m.get_attribute("data-status"),
                _mark_text(driver, m),
            )
            for m in marks
        ]
        want = [
            (r["id"], r["verdict"]["status"], r["position"]["text"]) for r in response["results"]
        ]
        assert sorted(got) == sorted(want)
        summary = driver.find_element("css selector", '[data-role="summary"]')
        assert summary.get_attribute("data-total") == str(len(response["results"]))
        assert driver.title == report.title
        assert {m[1] for m in got} == {"verified", "warning", "critical"}
        with pytest.raises(NoAlertPresentException):
            _ = driver.switch_to.alert.text
        assert driver.find_elements("css selector", "main script, img") == []

    def test_evidence_opens_by_keyboard(self, driver: Any, report: Report) -> None:
        """A verified result's <details> opens with the keyboard and shows its comparisons."""
        from selenium.webdriver.common.keys import Keys

        path, response = report.path, report.response
        driver.get(path.as_uri())
        verified = next(
            r
            for r in response["results"]
            if r["verdict"]["status"] == "verified" and r.get("evidence")
        )
        summary = driver.find_element(
            "css selector", f'li[data-result-id="{verified["id"]}"] summary'
        )
        table = summary.find_element("xpath", "..").find_element("css selector", "table")
        assert not table.is_displayed()
        summary.send_keys(Keys.ENTER)
        assert table.is_displayed()

    @pytest.mark.parametrize("paper", sorted(PAPER))
    def test_prints_without_cut_off_text(self, driver: Any, report: Report, paper: str) -> None:
        """Printed on A4 and on Letter, every mark's text is in the PDF's text."""
        from pypdf import PdfReader

        path, response, brief = report.path, report.response, report.text
        driver.get(path.as_uri())
        width, height = PAPER[paper]
        printed = _print_to_pdf(driver, width, height)
        reader = PdfReader(io.BytesIO(base64.b64decode(printed["data"])))
        box = reader.pages[0].mediabox
        assert abs(float(box.width) - width * 72) < 2
        assert abs(float(box.height) - height * 72) < 2
        squeeze = re.compile(r"\s+")
        pdf_text = squeeze.sub("", "".join(p.extract_text() or "" for p in reader.pages))
        for result in response["results"]:
            assert squeeze.sub("", result["position"]["text"]) in pdf_text, result["id"]
        if LONG_CITE in brief:
            assert squeeze.sub("", LONG_CITE) in pdf_text
