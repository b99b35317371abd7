"""Notebook renderings: ``_repr_html_`` of Response, Result and parse results."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citeverify._display import parsed_html, response_html, result_html
from citeverify._model import (
    Citation,
    Comparison,
    Court,
    Document,
    Evidence,
    ItemType,
    Opinion,
    Quote,
    Response,
    Result,
    Status,
    Summary,
    Usage,
    Verdict,
)
from citeverify.citations._types import (
    CaseCitation,
    ConstitutionCitation,
    CourtRef,
    LinkCitation,
    NotACitation,
    Pinpoint,
    RuleCitation,
    StatuteCitation,
)

HOSTILE = '<script>alert("x")</script>'
ALLOWED_TAGS = {"p", "table", "thead", "tbody", "tr", "th", "td", "span", "small", "br", "b"} | {
    "em",
    "a",
    "code",
}
VOID = {"br"}


class _Structure(HTMLParser):
    """Collects tags, checks nesting, and gathers the text a reader would see."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.stack: list[str] = []
        self.text: list[str] = []
        self.hrefs: list[str] = []
        self.balanced = True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "a":
            self.hrefs.extend(v or "" for k, v in attrs if k == "href")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.balanced = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def structure(html: str) -> _Structure:
    parser = _Structure()
    parser.feed(html)
    parser.close()
    return parser


def make_result(
    *,
    status: Status = Status.VERIFIED,
    outcome: str | None = "verified",
    raw: str = "Roe v. Wade, 410 U.S. 113 (1973)",
    message: str | None = "the authority exists and agrees",
    comparisons: tuple[Comparison, ...] | None = None,
    opinion: Opinion | None = None,
    quote: Quote | None = None,
    id: str = "1",
) -> Result:
    return Result(
        id=id,
        type=ItemType.QUOTE if quote is not None else ItemType.CASE,
        citation=Citation(raw=raw, normalized="410 U.S. 113"),
        verdict=Verdict(status=status, outcome=outcome, message=message),
        evidence=Evidence(comparisons) if comparisons is not None else None,
        opinion=opinion,
        quote=quote,
    )


def make_opinion(
    name: str = "Roe v. Wade", url: str = "https://supreme.justia.com/cases/federal/us/410/113/"
) -> Opinion:
    return Opinion(
        court=Court(name="Supreme Court of the United States", jurisdiction="us"),
        case_name=name,
        year=1973,
        citations=("410 U.S. 113", "93 S. Ct. 705"),
        documents=(Document(provider="justia", url=url),),
    )


def make_response(results: tuple[Result, ...]) -> Response:
    counts = {s: sum(r.verdict.status is s for r in results) for s in Status}
    worst = max((r.verdict.status for r in results), key=lambda s: s.severity)
    return Response(
        results=results,
        summary=Summary(
            verified=counts[Status.VERIFIED],
            warning=counts[Status.WARNING],
            critical=counts[Status.CRITICAL],
            total=len(results),
            unique_citations=len(results),
            billed_citations=len(results),
            is_fully_verified=worst is Status.VERIFIED,
            is_fully_accounted=True,
            overall_status=worst,
        ),
        usage=Usage(used=7, remaining=93, limit=100),
    )


class TestResultHtml:
    """One result rendered as a one-row table."""

    @pytest.mark.parametrize(
        ("status", "colour"),
        [
            (Status.VERIFIED, "#1a7f37"),
            (Status.WARNING, "#9a6700"),
            (Status.CRITICAL, "#cf222e"),
        ],
    )
    def test_status_shown_in_words_and_colour(self, status: Status, colour: str) -> None:
        """The status is written out and drawn in its own colour, so it reads without colour."""
        html = make_result(status=status)._repr_html_()
        assert colour in html
        assert status.value in "".join(structure(html).text)

    def test_outcome_shown_when_it_adds_to_the_status(self) -> None:
        """A warning's outcome (e.g. mismatch) appears beside the status."""
        html = result_html(make_result(status=Status.WARNING, outcome="mismatch"))
        assert "mismatch" in "".join(structure(html).text)

    def test_failed_comparisons_listed_with_cited_and_found(self) -> None:
        """What differed shows each failed attribute with both values; matches are not listed."""
        comparisons = (
            Comparison("year", "1965", "1966", match=False),
            Comparison("caseName", "Miranda v. Arizona", "Miranda v. Arizona", match=True),
            Comparison("pinpoint", "999", None, match=False),
        )
        html = result_html(
            make_result(status=Status.WARNING, outcome="mismatch", comparisons=comparisons)
        )
        text = " ".join(structure(html).text)
        assert "year" in text
        assert "1965" in text
        assert "1966" in text
        assert "pinpoint" in text
        assert "none" in text  # a null found value is named, not printed as "None"
        assert "caseName" not in text

    def test_all_comparisons_matching_says_what_agreed(self) -> None:
        """When every compared attribute matched, the cell says which ones were compared."""
        comparisons = (Comparison("year", "1973", "1973", match=True),)
        html = result_html(make_result(comparisons=comparisons))
        assert "agrees on year" in " ".join(structure(html).text)

    def test_authority_and_link(self) -> None:
        """The authority found is named with year and court, with a link to read it."""
        html = result_html(make_result(opinion=make_opinion()))
        parsed = structure(html)
        text = " ".join(parsed.text)
        assert "Roe v. Wade (1973)" in text
        assert "Supreme Court of the United States" in text
        assert parsed.hrefs == ["https://supreme.justia.com/cases/federal/us/410/113/"]
        assert 'rel="noopener noreferrer"' in html

    def test_no_opinion_no_link(self) -> None:
        """A result without an opinion has no link."""
        html = result_html(make_result(status=Status.CRITICAL, outcome="not_found"))
        assert structure(html).hrefs == []

    @pytest.mark.parametrize(
        "url",
        [
            "javascript:alert(1)",
            " JavaScript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "//evil.example/x",
            "ftp://example.com/x",
            "http://[::1",
        ],
    )
    def test_only_http_urls_become_links(self, url: str) -> None:
        """A URL that is not absolute http(s) is shown as text, never as a clickable link."""
        html = result_html(make_result(opinion=make_opinion(url=url)))
        parsed = structure(html)
        assert parsed.hrefs == []
        assert "<script" not in html

    def test_long_quotation_is_cut(self) -> None:
        """A long quotation is cut with an ellipsis; the full text stays in the Result."""
        snippet = "word " * 200
        html = result_html(make_result(quote=Quote(matched=True, snippet=snippet)))
        assert "\u2026" in html
        assert len(html) < len(snippet) + 3000

    def test_quotation_shown_above_its_citation(self) -> None:
        """A quote result shows the quoted words and the parent's citation."""
        html = result_html(make_result(quote=Quote(matched=False, snippet="the right of privacy")))
        text = " ".join(structure(html).text)
        assert "the right of privacy" in text
        assert "Roe v. Wade, 410 U.S. 113 (1973)" in text

    def test_hostile_strings_everywhere_are_escaped(self) -> None:
        """Markup in any field (id, citation, message, names, values, URL) is shown as text."""
        result = make_result(
            id=HOSTILE,
            raw=HOSTILE,
            message=HOSTILE,
            outcome=HOSTILE,
            status=Status.WARNING,
            comparisons=(Comparison(HOSTILE, HOSTILE, HOSTILE, match=False),),
            opinion=Opinion(
                court=Court(name=HOSTILE),
                case_name=HOSTILE,
                citations=(HOSTILE,),
                documents=(Document(provider=HOSTILE, url='https://x.example/"><script>'),),
            ),
            quote=Quote(matched=True, snippet=HOSTILE),
        )
        html = result_html(result)
        parsed = structure(html)
        assert "<script" not in html.lower()
        assert set(parsed.tags) <= ALLOWED_TAGS
        assert parsed.balanced
        assert HOSTILE in "".join(parsed.text)
        assert parsed.hrefs == ['https://x.example/"><script>']  # the attribute stayed intact

    @given(
        raw=st.text(max_size=200),
        message=st.text(max_size=200),
        name=st.text(max_size=100),
    )
    def test_any_text_stays_text(self, raw: str, message: str, name: str) -> None:
        """Whatever the strings, the output holds only our own tags and shows the strings."""
        result = make_result(
            raw=raw, message=message, opinion=make_opinion(name=name), status=Status.WARNING
        )
        parsed = structure(result_html(result))
        assert set(parsed.tags) <= ALLOWED_TAGS
        assert parsed.balanced
        seen = "".join(parsed.text)
        # HTMLParser reports text with \r normalised away; compare what a reader sees.
        for value in (raw, message, name):
            assert value.replace("\r", "") in seen.replace("\r", "")


class TestResponseHtml:
    """A response: a summary line and one row per result."""

    def test_one_row_per_result_in_order(self) -> None:
        """Each result has its own row, in the response's order, under one header row."""
        results = (
            make_result(id="a"),
            make_result(id="b", status=Status.CRITICAL, outcome="not_found"),
            make_result(id="c", status=Status.WARNING, outcome="unverified"),
        )
        html = make_response(results)._repr_html_()
        assert html.count("<tr>") == len(results) + 1
        assert html.index(">a</td>") < html.index(">b</td>") < html.index(">c</td>")

    def test_summary_line(self) -> None:
        """The summary shows the overall status in colour and the counts, billing and usage."""
        results = (make_result(), make_result(id="2", status=Status.CRITICAL, outcome="not_found"))
        html = response_html(make_response(results))
        head = html.split("<table", 1)[0]
        text = " ".join(structure(head).text)
        assert "critical" in text
        assert "#cf222e" in head
        assert "1 verified, 0 warning, 1 critical of 2" in text
        assert "quota 7 of 100 used (93 left)" in text


def _case(raw: str = "Roe v. Wade, 410 U.S. 113, 153 (1973)") -> CaseCitation:
    return CaseCitation(
        raw=raw,
        normalized="410 U.S. 113",
        system="us-reporter",
        volume="410",
        reporter="U.S.",
        page="113",
        pin=Pinpoint("153", 153, 153),
        year=1973,
        case_name="Roe v. Wade",
        court=CourtRef("scotus", "Supreme Court of the United States", "us", ""),
        parallels=(
            CaseCitation(
                raw="93 S. Ct. 705",
                normalized="93 S. Ct. 705",
                system="us-reporter",
                volume="93",
                reporter="S. Ct.",
                page="705",
            ),
        ),
    )


class TestParsedHtml:
    """Parse results rendered as a table of the fields they carry."""

    def test_case_citation_fields(self) -> None:
        """A case citation shows its normalised form, parts, pin, court and parallels."""
        html = _case()._repr_html_()
        text = " ".join(structure(html).text)
        assert "case citation" in text
        for expected in ("410 U.S. 113", "U.S.", "153", "1973", "Roe v. Wade", "93 S. Ct. 705"):
            assert expected in text
        assert "Supreme Court of the United States (scotus)" in text

    def test_empty_fields_left_out(self) -> None:
        """Fields a parser left empty get no row."""
        html = _case()._repr_html_()
        assert "nominative" not in html

    @pytest.mark.parametrize(
        ("parsed", "expected"),
        [
            (
                StatuteCitation(
                    raw="15 U.S.C. § 78j(b)",
                    normalized="15 U.S.C. § 78j(b)",
                    system="usc",
                    code="U.S.C.",
                    title="15",
                    section="78j",
                    subdivisions=("b",),
                ),
                ("statute citation", "78j", "U.S.C."),
            ),
            (
                RuleCitation(
                    raw="FRCP 12(b)(6)",
                    normalized="Fed. R. Civ. P. 12(b)(6)",
                    ruleset="frcp",
                    rule="12",
                    subdivisions=("b", "6"),
                ),
                ("rule citation", "frcp", "b; 6"),
            ),
            (
                ConstitutionCitation(
                    raw="First Amendment",
                    normalized="U.S. Const. amend. I",
                    part="amendment",
                    number=1,
                ),
                ("constitution citation", "amendment", "U.S. Const. amend. I"),
            ),
            (
                LinkCitation(
                    raw="https://supreme.justia.com/cases/federal/us/410/113/",
                    normalized="https://supreme.justia.com/cases/federal/us/410/113/",
                    scheme="https",
                    host="supreme.justia.com",
                    source="justia",
                    target=_case("410 U.S. 113"),
                ),
                ("link", "justia", "410 U.S. 113"),
            ),
        ],
    )
    def test_each_kind(self, parsed: object, expected: tuple[str, ...]) -> None:
        """Every kind of parse result renders its label and its main fields."""
        html = parsed._repr_html_()  # type: ignore[attr-defined]
        text = " ".join(structure(html).text)
        for value in expected:
            assert value in text

    def test_not_a_citation_is_a_warning_with_its_message(self) -> None:
        """Text that did not parse shows a warning, the kind expected and the parser's message."""
        parsed = NotACitation("case", "hello", "expected a case citation such as '410 U.S. 113'")
        html = parsed._repr_html_()
        text = " ".join(structure(html).text)
        assert "#9a6700" in html
        assert "not a case citation" in text
        assert "expected a case citation" in text

    def test_hostile_parse_result_is_escaped(self) -> None:
        """Markup in the raw text or message of a parse result is shown as text."""
        html = parsed_html(NotACitation(HOSTILE, HOSTILE, HOSTILE))
        parsed = structure(html)
        assert "<script" not in html.lower()
        assert set(parsed.tags) <= ALLOWED_TAGS
        assert parsed.balanced
        assert _case(HOSTILE)._repr_html_().lower().count("<script") == 0


class TestFromThePipeline:
    """A response made by ``verify`` (not by hand) renders what the pipeline found."""

    def test_mismatch_row_shows_the_year_and_the_link(self) -> None:
        """A wrong year shows as cited/found in its row, with the authority and its link."""
        import datetime as dt

        import citeverify
        from citeverify.citations import CaseCitation, parse
        from citeverify.providers import Authority, Memory

        if not isinstance(parse("384 U.S. 436"), CaseCitation):
            pytest.skip("the case parser is a placeholder here")
        miranda = Authority(
            kind="case",
            reference="test:miranda",
            provider="test",
            citations=("384 U.S. 436",),
            name="Miranda v. Arizona",
            court=Court(name="Supreme Court of the United States", jurisdiction="us"),
            court_id="scotus",
            decided=dt.date(1966, 6, 13),
            documents=(Document(provider="justia", url="https://supreme.justia.com/us/384/436/"),),
        )
        response = citeverify.verify(
            [{"id": "m", "type": "case", "rawText": "Miranda v. Arizona, 384 U.S. 436 (1965)"}],
            provider=Memory([miranda], complete={"U.S."}),
        )
        html = response._repr_html_()
        parsed = structure(html)
        text = " ".join(parsed.text)
        assert "mismatch" in text
        assert "year : cited 1965, found 1966" in text  # <b>year</b>: cited ..., found ...
        assert "Miranda v. Arizona (1966)" in text
        assert parsed.hrefs == ["https://supreme.justia.com/us/384/436/"]


class TestQuoteMarksAndUsage:
    def test_quotation_marks_are_not_doubled(self) -> None:
        """A quotation that brings its own marks is not wrapped in a second pair."""
        own = make_result(quote=Quote(matched=True, snippet="\u201cTrue threats\u201d encompass"))
        assert "\u201c\u201c" not in result_html(own)
        bare = make_result(quote=Quote(matched=True, snippet="True threats encompass"))
        assert "\u201cTrue threats encompass\u201d" in result_html(bare)

    def test_unlimited_library_meter_shows_no_quota(self) -> None:
        """The library's unlimited default meter is not shown as a 2-billion quota."""
        from citeverify._meter import UNLIMITED

        response = make_response((make_result(),))
        unlimited = Response(
            results=response.results,
            summary=response.summary,
            usage=Usage(used=3, remaining=UNLIMITED - 3, limit=UNLIMITED),
        )
        assert "no quota" in response_html(unlimited)
        assert str(UNLIMITED) not in response_html(unlimited)
        assert "quota 7 of 100 used" in response_html(response)


SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "sample_request.json"
BLACK_CAPTION = "VIRGINIA v. BARRY ELTON BLACK, RICHARD J. ELLIOTT, AND JONATHAN O'MARA"


def _sample_response() -> Response:
    import citeverify
    from citeverify.providers import default_provider

    if getattr(default_provider(), "name", None) != "local":
        pytest.skip("the embedded corpus is not installed")
    items = json.loads(SAMPLE.read_text(encoding="utf-8"))["items"]
    return citeverify.verify(items)


class TestSampleTable:
    """The sample request's table, as a reader of the notebook sees it (no browser)."""

    def test_billed_count_shown_once(self) -> None:
        """The summary names the billed count once; the unlimited meter says only 'no quota'."""
        head = response_html(_sample_response()).split("<table", 1)[0]
        assert head.count("billed") == 1
        assert "no quota" in head

    def test_misquotation_says_what_differed(self) -> None:
        """A misquotation's "what differed" cell names the changed words."""
        response = _sample_response()
        misquote = next(r for r in response.results if r.id == "misquote")
        cells = _cells(result_html(misquote))
        assert "need not" in cells["what differed"]
        assert "must" in cells["what differed"]

    def test_long_caption_shown_once(self) -> None:
        """The Supreme Court Database's long caption appears in one cell, not two."""
        black = next(r for r in _sample_response().results if r.id == "black")
        cells = _cells(result_html(black))
        holding = [name for name, text in cells.items() if BLACK_CAPTION in text]
        assert holding == ["authority found"]
        assert "VIRGINIA v. BARRY ELTON BLACK et al." in cells["message"]

    def test_courtlistener_link_is_a_page_to_read(self) -> None:
        """No link points at CourtListener's REST API; its link is the case's web page."""
        hrefs = structure(response_html(_sample_response())).hrefs
        assert not [h for h in hrefs if "/api/" in h]
        assert "https://www.courtlistener.com/c/U.S./538/343/" in hrefs


def _cells(html: str) -> dict[str, str]:
    """The text of each cell of a one-row table, by its column heading."""
    heads = re.findall(r"<th [^>]*>(.*?)</th>", html)
    row = html.split("<tbody>", 1)[1]
    texts = [" ".join(structure(cell).text) for cell in re.findall(r"<td [^>]*>(.*?)</td>", row)]
    return dict(zip(heads, texts, strict=True))


# --- in a real browser ----------------------------------------------------------------------


def _browser_paths() -> tuple[str, str] | None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return (chromium, driver) if chromium and driver else None


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Headless Chromium through selenium, with a fresh profile; skipped when none is found."""
    paths = _browser_paths()
    if paths is None:
        pytest.skip("no chromium and chromedriver on PATH (.ci/browser.sh installs them)")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (it is in the dev extra)")
    options = webdriver.ChromeOptions()
    options.binary_location = paths[0]
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(paths[1]), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def page(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The sample response's notebook HTML, loaded in the browser from a file."""
    html = response_html(_sample_response())
    path = tmp_path_factory.mktemp("page") / "sample.html"
    path.write_text(f"<!doctype html><meta charset=utf-8><body>{html}</body>", "utf-8")
    browser.get(path.as_uri())
    return browser


class TestInABrowser:
    """The sample's table rendered by Chromium: what a person actually sees."""

    def _rows(self, page: Any) -> dict[str, dict[str, str]]:
        from selenium.webdriver.common.by import By

        heads = [th.text for th in page.find_elements(By.CSS_SELECTOR, "thead th")]
        rows = {}
        for tr in page.find_elements(By.CSS_SELECTOR, "tbody tr"):
            texts = [td.text for td in tr.find_elements(By.TAG_NAME, "td")]
            rows[texts[0]] = dict(zip(heads, texts, strict=True))
        return rows

    def test_summary_names_billed_once(self, page: Any) -> None:
        """The rendered summary line shows the billed count once and 'no quota'."""
        from selenium.webdriver.common.by import By

        summary = page.find_element(By.TAG_NAME, "p").text
        assert summary.count("billed") == 1, summary
        assert "10 billed" in summary
        assert "no quota" in summary

    def test_misquotation_row_shows_the_difference(self, page: Any) -> None:
        """The misquotation's 'what differed' cell is not empty: it shows the changed words."""
        cell = self._rows(page)["misquote"]["what differed"]
        assert "need not" in cell, cell

    def test_caption_in_one_column(self, page: Any) -> None:
        """The long caption is visible in the authority column only."""
        row = self._rows(page)["black"]
        assert [name for name, text in row.items() if BLACK_CAPTION in text] == ["authority found"]

    def test_courtlistener_link_leads_to_a_web_page(self, page: Any) -> None:
        """Every link is an http(s) page to read; CourtListener's is not its API."""
        from selenium.webdriver.common.by import By

        hrefs = [a.get_attribute("href") for a in page.find_elements(By.TAG_NAME, "a")]
        assert hrefs
        assert all(h.startswith("https://") for h in hrefs)
        assert not [h for h in hrefs if "/api/" in h]
        assert any(h.startswith("https://www.courtlistener.com/c/U.S./") for h in hrefs)


# --- a document response (whole-document mode) -------------------------------------------------

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


class _DocumentMarks(HTMLParser):
    """Every start tag's attributes, each <mark>'s text, and whether any <style> or
    <script> element appears, and which elements carry a status but no inline style."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.marks: list[dict[str, Any]] = []
        self.open: list[dict[str, Any]] = []
        self.tags: list[str] = []
        self.unstyled: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        found = dict(attrs)
        if "data-status" in found and not found.get("style"):
            self.unstyled.append(f"{tag}.{found['class']}")
        if tag == "mark":
            mark = {**found, "text": ""}
            self.marks.append(mark)
            self.open.append(mark)

    def handle_endtag(self, tag: str) -> None:
        if tag == "mark" and self.open:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        for mark in self.open:
            mark["text"] += data


def _document_html(html: str) -> _DocumentMarks:
    parser = _DocumentMarks()
    parser.feed(html)
    parser.close()
    return parser


def _sample_document(suffix: str) -> Response:
    import citeverify
    from citeverify.providers import default_provider

    if getattr(default_provider(), "name", None) != "local":
        pytest.skip("the embedded corpus is not installed")
    return citeverify.verify_document(EXAMPLES / f"sample_brief{suffix}")


class TestDocumentResponse:
    """A document response in a notebook is the offline report's body, styled inline."""

    def test_pdf_response_marks_the_extracted_text(self) -> None:
        """Each result of the sample PDF is a mark over exactly its text, with its status;
        the fragment has no <style> or <script> and every status is styled inline."""
        response = _sample_document(".pdf")
        assert response.document is not None
        html = response._repr_html_()
        parsed = _document_html(html)
        assert "style" not in parsed.tags
        assert "script" not in parsed.tags
        assert parsed.unstyled == []
        got = [(m["data-result-id"], m["data-status"], m["text"]) for m in parsed.marks]
        want = []
        for r in response.results:
            assert r.position is not None
            text = response.document.text[r.position.start : r.position.end]
            want.append((r.id, r.verdict.status.value, text))
        assert sorted(got) == sorted(want)
        assert {w[1] for w in want} == {"verified", "warning", "critical"}

    def test_text_response_lists_results_and_attributions(self) -> None:
        """For text input (no document text in the response) nothing is marked, but every
        result is listed with its text, and each short form or quotation names its
        citation."""
        import citeverify

        if getattr(citeverify.providers.default_provider(), "name", None) != "local":
            pytest.skip("the embedded corpus is not installed")
        text = (EXAMPLES / "sample_brief.txt").read_text("utf-8")
        response = citeverify.verify_document(text)
        html = response._repr_html_()
        parsed = _document_html(html)
        assert parsed.marks == []
        assert "text of the brief was not given" in html
        for result in response.results:
            assert result.position is not None
            assert (
                f'data-result-id="{result.id}" data-status="{result.verdict.status.value}"' in html
            )
            if result.citation_id:
                assert f'data-citation-id="{result.citation_id}"' in html
        assert any(r.citation_id for r in response.results)

    def test_hostile_text_makes_no_mark_or_style(self) -> None:
        """Markup in a brief, even the report's own, stays text: only real results are marks."""
        import citeverify
        from citeverify.providers import Memory

        hostile = (
            '<mark class="cv-mark" data-status="verified">x</mark> <style>*{}</style> '
            "<script>alert(1)</script> Smith v. Jones, 410 U.S. 999 (1973)."
        )
        response = citeverify.verify_document(
            hostile, provider=Memory([], complete=["U.S."], as_of="2024-01-01T00:00:00Z")
        )
        from citeverify import _codec
        from citeverify.report import render_fragment

        html = render_fragment(_codec.response_to_dict(response), hostile)
        parsed = _document_html(html)
        assert "style" not in parsed.tags
        assert "script" not in parsed.tags
        want = []
        for r in response.results:
            assert r.position is not None
            want.append((r.verdict.status.value, r.position.text))
        assert [(m["data-status"], m["text"]) for m in parsed.marks] == want
        assert ("critical", "Smith v. Jones, 410 U.S. 999 (1973)") in want
        assert "&lt;mark class=" in html
        assert "&lt;style&gt;" in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html

    def test_in_a_browser_status_is_colour_and_icon(self, browser: Any, tmp_path: Path) -> None:
        """Rendered without any style sheet, each status has its own background and an
        icon before the mark, as the report has."""
        from selenium.webdriver.common.by import By

        response = _sample_document(".docx")
        path = tmp_path / "doc.html"
        path.write_text(
            f"<!doctype html><meta charset=utf-8><body>{response._repr_html_()}</body>", "utf-8"
        )
        browser.get(path.as_uri())
        backgrounds: dict[str, set[str]] = {}
        for mark in browser.find_elements(By.CSS_SELECTOR, "mark[data-status]"):
            status = mark.get_attribute("data-status")
            backgrounds.setdefault(status, set()).add(
                mark.value_of_css_property("background-color")
            )
            icon = browser.execute_script(
                "return arguments[0].previousElementSibling.textContent", mark
            )
            assert icon == {"verified": "\u2714", "warning": "\u26a0", "critical": "\u2716"}[status]
        assert set(backgrounds) == {"verified", "warning", "critical"}
        assert all(len(colours) == 1 for colours in backgrounds.values())
        assert len(set().union(*backgrounds.values())) == 3
