"""The ASGI app's messages, byte for byte, on a fixed and varied set of requests.

``tests/test_golden.py`` pins ``Service.handle`` on one body; this pins what the
ASGI adapter sends (status, header bytes in order, body bytes) and the access-log
line it writes, over every route and refusal: keys missing, malformed, unknown,
regenerated and disabled, quota refusals, content types, bodies over the limit
declared or streamed, chunked bodies, mounting, HEAD, the page, the document
endpoint.  The expected messages were written by the code before the speed work
of issue 17 (``tests/data/http_asgi/make_asgi_golden.py``), so that every change
to the per-request path is held to the same bytes.

Keys are random, so requests carry a placeholder that is replaced at run time and
no response holds a key.  The page's own files are not this adapter's to pin:
their bodies and lengths are replaced by a marker.
"""

from __future__ import annotations

import base64
import datetime as dt
import gzip
import json
import logging
import re
import tempfile
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

import pytest

from bench.bench_http import BODY, CITES
from tests.conftest_http import run_asgi

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GOLDEN = HERE / "data" / "http_asgi" / "asgi_golden.json.gz"

VERIFY = "/api/v1/verify"
# The benchmark's request: what the speed work measured is what this test pins.
TEN = BODY.encode()
ONE = json.dumps({"items": [{"id": "a", "type": "case", "rawText": CITES[0]}]}).encode()
JSON = (b"content-type", b"application/json")
#: Replaced by the key of the named account at run time.
KEY = "{key}"
PAGE_MARK = "<page asset>"


def _auth(account: str = "main", suffix: str = "") -> tuple[str, str]:
    return ("authorization", f"Bearer {KEY}{account}{KEY}{suffix}")


# Each step: a name, then the scope's fields (headers as text pairs) and the body chunks,
# or an action on the account store between requests.
Step = dict[str, Any]


def _post(name: str, body: bytes | list[bytes], *headers: tuple[str, str], **scope: Any) -> Step:
    chunks = body if isinstance(body, list) else [body]
    return {
        "name": name,
        "method": scope.pop("method", "POST"),
        "path": scope.pop("path", VERIFY),
        "headers": [list(h) for h in headers],
        "chunks": [base64.b64encode(c).decode() for c in chunks],
        **scope,
    }


def _get(name: str, path: str, *headers: tuple[str, str], **scope: Any) -> Step:
    return _post(name, b"", *headers, method=scope.pop("method", "GET"), path=path, **scope)


CT = ("content-type", "application/json")
STEPS: list[Step] = [
    _post("ten items", TEN, _auth(), CT),
    _post("ten items again (remembered key)", TEN, _auth(), CT),
    _post("sample request", (ROOT / "examples" / "sample_request.json").read_bytes(), _auth(), CT),
    _post("charset utf-8", ONE, _auth(), ("content-type", "application/json; charset=UTF-8")),
    _post("charset latin-1", ONE, _auth(), ("content-type", "application/json; charset=latin-1")),
    _post("text/plain", ONE, _auth(), ("content-type", "text/plain")),
    _post("no content type", ONE, _auth()),
    _post("no key", ONE, CT),
    _post("basic auth", ONE, ("authorization", "Basic abc"), CT),
    _post("malformed key", ONE, ("authorization", "Bearer cv_live_short"), CT),
    _post("unknown key", ONE, ("authorization", "Bearer cv_live_" + "A" * 43), CT),
    _post("two keys", ONE, _auth(), _auth(), CT),
    _post("no key, bad body", b"{", CT),
    _post("not json", b"{not json", _auth(), CT),
    _post("not an object", b"[1, 2]", _auth(), CT),
    _post("empty items", b'{"items": []}', _auth(), CT),
    _post("bad item", b'{"items": [{"id": 1}]}', _auth(), CT),
    _post("invalid utf-8", b'{"items": "\xff"}', _auth(), CT),
    _post("chunked", [TEN[:100], TEN[100:500], TEN[500:]], _auth(), CT),
    _post("declared over the limit", ONE, _auth(), CT, ("content-length", "999999999")),
    _post("streamed over the limit", [b"x" * 600_000] * 3, _auth(), CT),
    _post("streamed over the limit, no key", [b"x" * 600_000] * 3, CT),
    _post("lower-case method", ONE, _auth(), CT, method="post"),
    _post("mounted", ONE, _auth(), CT, path="/cv" + VERIFY, root_path="/cv"),
    _post("odd header bytes", ONE, _auth(), CT, ("x-note", "caf\u00e9")),
    _post("uppercase header names", ONE, ("Authorization", f"Bearer {KEY}main{KEY}"), CT),
    _post(
        "quotation (offloaded)",
        b'{"items": [{"id": "r", "type": "case", "rawText": '
        b'"Roe v. Wade, 410 U.S. 113 (1973)"}, {"id": "q", "type": "quote", '
        b'"parentCaseId": "r", "quoteText": "right of personal privacy"}]}',
        _auth(),
        CT,
    ),
    _post(
        "document json",
        b'{"text": "See Roe v. Wade, 410 U.S. 113, 153 (1973)."}',
        _auth(),
        CT,
        path="/api/v1/verify-document",
    ),
    _post(
        "document text",
        b"See Miranda v. Arizona, 384 U.S. 436 (1966).",
        _auth(),
        ("content-type", "text/plain"),
        path="/api/v1/verify-document",
    ),
    _post(
        "document odd type",
        b"x",
        _auth(),
        ("content-type", "image/png"),
        path="/api/v1/verify-document",
    ),
    _get("info", "/"),
    _get("info, JSON accepted", "/", ("accept", "application/json")),
    _get("info HEAD", "/", method="HEAD"),
    _get("page", "/", ("accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8")),
    _get("page css", "/static/page.css"),
    _get("openapi", "/openapi.json"),
    _get("not found", "/nope"),
    _get("not found, key-like path", "/cv_live_abcdef\r\nforged"),
    _get("verify by GET", VERIFY),
    _post("info by POST", ONE, CT, path="/"),
    _post("small quota: fits", ONE, _auth("small"), CT),
    _post("small quota: passes the limit", TEN, _auth("small"), CT),
    {"name": "disable small", "action": "disable", "account": "small"},
    _post("disabled account", ONE, _auth("small"), CT),
    _post("disabled account, bad body", b"{", _auth("small"), CT),
    {"name": "enable small", "action": "enable", "account": "small"},
    _post("enabled again", ONE, _auth("small"), CT),
    {"name": "regenerate main", "action": "regenerate", "account": "main"},
    _post("old key after regenerate", ONE, _auth("main", "old"), CT),
    _post(
        "old key after regenerate, bad type",
        ONE,
        _auth("main", "old"),
        ("content-type", "text/plain"),
    ),
    _post("new key after regenerate", ONE, _auth(), CT),
    {"name": "revoke main", "action": "revoke", "account": "main"},
    _post("revoked key", ONE, _auth(), CT),
    _post("zero quota", ONE, _auth("none"), CT),
]


class _Clock:
    def __call__(self) -> dt.datetime:
        return dt.datetime(2025, 1, 31, 23, 0, tzinfo=dt.UTC)


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        # The duration is the only part that varies from run to run.
        self.lines.append(re.sub(r" \d+\.\dms ", " <ms> ", record.getMessage()))


def _is_page(path: str) -> bool:
    return path.startswith("/static/")


def run_steps() -> Iterator[dict[str, Any]]:
    """Run ``STEPS`` through the ASGI app as ``citeverify serve`` builds it; yield what each
    request sent and logged."""
    from citeverify.http import Service, open_store
    from citeverify.http._asgi import AsgiApp

    access = logging.getLogger("citeverify.http.access")
    handler = _Lines()
    saved = (access.level, access.propagate)
    access.addHandler(handler)
    access.setLevel(logging.INFO)
    access.propagate = False
    counter = iter(range(10**6))
    try:
        with (
            tempfile.TemporaryDirectory() as tmp,
            open_store(str(Path(tmp) / "state.sqlite3"), clock=_Clock()) as store,
        ):
            keys = {
                "main": store.create("main", 10**9, "month"),
                "small": store.create("small", 5, "day"),
                "none": store.create("none", 0, "day"),
            }
            old: dict[str, str] = {}
            service = Service(store, request_id=lambda: f"req-{next(counter)}")
            app = AsgiApp(service, offload="auto", close_store=False)
            for step in STEPS:
                action = step.get("action")
                if action is not None:
                    account = step["account"]
                    if action == "regenerate":
                        old[account] = keys[account]
                        keys[account] = store.regenerate(account)
                    else:
                        getattr(store, action)(account)
                    continue
                handler.lines.clear()
                sent = _run(app, step, keys, old)
                yield {"name": step["name"], "sent": sent, "log": list(handler.lines)}
    finally:
        access.removeHandler(handler)
        access.setLevel(saved[0])
        access.propagate = saved[1]


def _key_text(text: str, keys: dict[str, str], old: dict[str, str]) -> str:
    def key(match: re.Match[str]) -> str:
        return keys[match.group(1)]

    text = re.sub(r"\{key\}(\w+)\{key\}old", lambda m: old[m.group(1)], text)
    return re.sub(r"\{key\}(\w+)\{key\}", key, text)


def _run(app: Any, step: Step, keys: dict[str, str], old: dict[str, str]) -> list[Any]:
    chunks = [base64.b64decode(c) for c in step["chunks"]]
    headers = [
        (name.encode("latin-1"), _key_text(value, keys, old).encode("latin-1"))
        for name, value in step["headers"]
    ]
    scope = {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.3"},
        "http_version": "1.1",
        "method": step["method"],
        "scheme": "http",
        "path": step["path"],
        "raw_path": step["path"].encode("latin-1", "replace"),
        "query_string": b"",
        "root_path": step.get("root_path", ""),
        "headers": headers,
        "client": ("127.0.0.1", 5555),
        "server": ("127.0.0.1", 8000),
    }
    sent, read = run_asgi(app, scope, chunks)
    return [*(_plain(message, step) for message in sent), {"read": read}]


def _plain(message: MutableMapping[str, Any], step: Step) -> dict[str, Any]:
    """A sent message as JSON: header and body bytes as latin-1 text, exactly."""
    out: dict[str, Any] = {}
    page = _is_page(step["path"]) or (
        step["path"] == "/" and any("text/html" in v for _, v in step["headers"])
    )
    for name, value in message.items():
        if name == "headers":
            out[name] = [
                [
                    k.decode("latin-1"),
                    PAGE_MARK if page and k == b"content-length" else v.decode("latin-1"),
                ]
                for k, v in value
            ]
            out["header_types"] = sorted(
                {f"{type(k).__name__}/{type(v).__name__}" for k, v in value}
            )
        elif name == "body":
            out[name] = PAGE_MARK if page and value else value.decode("latin-1")
            out["body_type"] = type(value).__name__
        else:
            out[name] = value
    return out


def test_asgi_messages_are_unchanged() -> None:
    """Every step sends exactly the stored messages and logs the stored line."""
    expected = {row["name"]: row for row in json.loads(gzip.decompress(GOLDEN.read_bytes()))}
    names = [step["name"] for step in STEPS if "action" not in step]
    assert sorted(expected) == sorted(names)
    for got in run_steps():
        want = expected[got["name"]]
        assert got["sent"] == want["sent"], got["name"]
        assert got["log"] == want["log"], got["name"]


@pytest.mark.parametrize("text", ["a", "{key}main{key}", "{key}main{key}old"])
def test_key_placeholders(text: str) -> None:
    """The placeholder stands for the account's current key, or the one before."""
    assert (
        _key_text(text, {"main": "NEW"}, {"main": "OLD"})
        == {
            "a": "a",
            "{key}main{key}": "NEW",
            "{key}main{key}old": "OLD",
        }[text]
    )
