"""Responses are byte-for-byte what they were before the speed work of issue 17.

The golden files in ``tests/data/golden/`` were written by ``make_golden.py``
from the code as it stood before any optimisation of the hot path (lookup,
response building, JSON encoding, request validation, the HTTP adapter).  Each
case runs a fixed request through the public entry points and the HTTP
service and compares the encoded bytes, so a faster path that changes one
field, one key order or one escape fails here.

The cases cover every kind of verdict (verified, warnings and criticals of each
outcome), quotations found, near and absent (and found elsewhere), statutes,
rules, the Constitution, links, string cites and parallels, the README's sample
request, 300 real Supreme Court citations, invalid requests, and whole documents.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

from citeverify.providers.local import embedded_corpus_exists

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GOLDEN = HERE / "data" / "golden"

pytestmark = pytest.mark.skipif(
    not embedded_corpus_exists(), reason="the golden responses come from the embedded corpus"
)


def _case(ident: str, raw: str) -> dict[str, str]:
    return {"id": ident, "type": "case", "rawText": raw}


def _typed(kind: str, ident: str, raw: str) -> dict[str, str]:
    return {"id": ident, "type": kind, "rawText": raw}


def _quote(ident: str, parent: str, text: str) -> dict[str, str]:
    return {"id": ident, "type": "quote", "parentCaseId": parent, "quoteText": text}


def _link(ident: str, url: str, raw: str | None = None) -> dict[str, str]:
    item = {"id": ident, "type": "link", "url": url}
    if raw is not None:
        item["rawText"] = raw
    return item


BLACK_QUOTE = (
    "“True threats” encompass those statements where the speaker means to communicate a "
    "serious expression of an intent to commit an act of unlawful violence to a particular "
    "individual or group of individuals."
)
GERSTEIN_QUOTE = (
    "claiming a constitutional right to a judicial hearing on the issue of probable cause and "
    "requesting declaratory and injunctive relief"
)
ROE_QUOTE = "is broad enough to encompass a woman's decision whether or not to terminate"

VARIED: dict[str, Any] = {
    "items": [
        # cases: verified, pins, parallels (right and wrong), string cites, fabrications
        _case("roe", "Roe v. Wade, 410 U.S. 113, 153 (1973)"),
        _case("roe-parallel", "Roe v. Wade, 410 U.S. 113, 93 S. Ct. 705 (1973)"),
        _case("roe-bad-parallel", "Roe v. Wade, 410 U.S. 113, 94 S. Ct. 705 (1973)"),
        _case("string", "Roe v. Wade, 410 U.S. 113 (1973); Doe v. Bolton, 410 U.S. 179 (1973)"),
        _case("string-bad", "Roe v. Wade, 410 U.S. 113 (1973); Smith v. Jones, 410 U.S. 999"),
        _case("pin-as-first", "Roe v. Wade, 410 U.S. 153 (1973)"),
        _case("wrong-name", "Brown v. Board of Education, 410 U.S. 113 (1973)"),
        _case("wrong-year", "Miranda v. Arizona, 384 U.S. 436 (1965)"),
        _case("bare", "347 U.S. 483"),
        _case("brown", "Brown v. Board of Education, 347 U.S. 483, 495 (1954)"),
        _case("pin-out", "Brown v. Board of Education, 347 U.S. 483, 900 (1954)"),
        _case("marbury", "Marbury v. Madison, 5 U.S. (1 Cranch) 137, 177 (1803)"),
        _case("fabricated", "Smith v. Jones, 410 U.S. 999 (1973)"),
        _case("volume-out", "Smith v. Jones, 999 U.S. 1 (2031)"),
        _case("lower", "Varghese v. China Southern Airlines Co., 925 F.3d 1339 (11th Cir. 2019)"),
        _case("not-a-cite", "the court said so"),
        _case("id-alone", "Id. at 5"),
        _case("black", "Virginia v. Black, 538 U.S. 343, 359 (2003)"),
        # quotations: found, near, absent, found elsewhere, unchecked parents
        _quote("q-found", "roe", ROE_QUOTE),
        _quote("q-dropped-not", "roe", ROE_QUOTE.replace(" not", "")),
        _quote("q-absent", "black", "The speaker must actually intend to carry out the threat."),
        _quote("q-elsewhere", "roe", BLACK_QUOTE),
        _quote("q-misattributed", "black", GERSTEIN_QUOTE),
        _quote("q-near", "black", BLACK_QUOTE.replace("serious expression", "grave expression")),
        _case("gerstein", "Gerstein v. Pugh, 420 U.S. 103, 107 (1975)"),
        _quote("q-gerstein", "gerstein", GERSTEIN_QUOTE),
        _quote("q-black", "black", BLACK_QUOTE),
        _quote("q-short", "black", "true threats"),
        _quote("q-fabricated-parent", "fabricated", "anything at all in this quotation here"),
        _quote("q-lower-parent", "lower", "the Warsaw Convention governs this claim entirely"),
        _quote(
            "q-ellipsis",
            "black",
            "“True threats” encompass those statements . . . to a "
            "particular individual or group of individuals.",
        ),
        # statutes
        _typed("statute", "s-1983", "42 U.S.C. § 1983"),
        _typed("statute", "s-superseded", "42 U.S.C. § 1973aa-3"),
        _typed("statute", "s-absent", "42 U.S.C. § 99999"),
        _typed("statute", "s-subdivision", "42 U.S.C. § 2000e-2(a)(1)"),
        _typed("statute", "s-bad-subdivision", "42 U.S.C. § 2000e-2(z)(9)"),
        _typed("statute", "s-1001", "18 U.S.C. § 1001(a)(2)"),
        _typed("statute", "s-title", "99 U.S.C. § 1"),
        _typed("statute", "s-state", "Cal. Civ. Code § 1714"),
        _quote(
            "q-statute",
            "s-1983",
            "Every person who, under color of any statute, ordinance, regulation, custom, or usage",
        ),
        # rules
        _typed("rule", "r-12b6", "Fed. R. Civ. P. 12(b)(6)"),
        _typed("rule", "r-12b8", "Fed. R. Civ. P. 12(b)(8)"),
        _typed("rule", "r-56", "Fed. R. Civ. P. 56(a)"),
        _typed("rule", "r-evid", "Fed. R. Evid. 401"),
        _typed("rule", "r-app", "Fed. R. App. P. 4(a)(1)(A)"),
        _typed("rule", "r-crim-absent", "Fed. R. Crim. P. 99"),
        # the Constitution
        _typed("constitution", "c-commerce", "U.S. Const. art. I, § 8, cl. 3"),
        _typed("constitution", "c-xiv", "U.S. Const. amend. XIV, § 1"),
        _typed("constitution", "c-first", "U.S. Const. amend. I"),
        _typed("constitution", "c-preamble", "U.S. Const. pmbl."),
        _typed("constitution", "c-no-amendment", "U.S. Const. amend. XXX"),
        _typed("constitution", "c-no-clause", "U.S. Const. art. I, § 8, cl. 99"),
        _typed("constitution", "c-state", "Cal. Const. art. I, § 1"),
        # links
        _link("l-justia", "https://supreme.justia.com/cases/federal/us/410/113/", "410 U.S. 113"),
        _link("l-mismatch", "https://supreme.justia.com/cases/federal/us/410/113/", "347 U.S. 483"),
        _link("l-cl", "https://www.courtlistener.com/api/rest/v4/opinions/108713/"),
        _link("l-other", "https://example.com/some/page", "y"),
        _link("l-bad", "not a url at all"),
    ]
}

BAD_REQUESTS: dict[str, Any] = {
    "invalid_items": {
        "items": [
            {"id": "a", "type": "case"},
            {"id": "", "type": "case", "rawText": "410 U.S. 113"},
            {"id": "b", "type": "novel", "rawText": "x"},
            {"id": "c", "type": "case", "rawText": 5, "extra": True},
            {"id": "d", "type": "quote", "quoteText": "x"},
            {"id": "e", "type": "link"},
            "not an object",
            {"id": "f", "type": "case", "rawText": "x" * 2001},
            {"type": "statute", "rawText": "42 U.S.C. § 1983"},
        ]
    },
    "invalid_refs": {
        "items": [
            _case("a", "410 U.S. 113"),
            _case("a", "410 U.S. 113"),
            _quote("q", "nowhere", "some words here"),
            _link("l", "https://example.com"),
            _quote("q2", "l", "some words here"),
        ]
    },
    "invalid_body": {"items": [], "other": 1},
}


@attrs.frozen
class Case:
    """One golden case: a name, the request bytes and how the response bytes are made."""

    name: str
    request: Callable[[], bytes]
    respond: Callable[[bytes], bytes]


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, indent=1).encode("utf-8")


def _file(path: Path) -> Callable[[], bytes]:
    return path.read_bytes


def _verify(reserved: bool) -> Callable[[bytes], bytes]:
    def respond(body: bytes) -> bytes:
        from citeverify import verify_request
        from citeverify.errors import ValidationError
        from citeverify.http._handler import _encode

        try:
            return _encode(verify_request(body, emit_reserved=reserved))
        except ValidationError as error:
            return _encode(error.to_envelope())

    return respond


def _document(body: bytes) -> bytes:
    from citeverify import verify_document_request
    from citeverify.http._handler import _encode

    return _encode(verify_document_request(body))


def _text_document(path: Path) -> Callable[[], bytes]:
    return lambda: _json({"text": path.read_text(encoding="utf-8")})


class _Clock:
    def __call__(self) -> dt.datetime:
        return dt.datetime(2025, 1, 31, 23, 0, tzinfo=dt.UTC)


def _http(body: bytes) -> bytes:
    """Through ``Service.handle`` with a real account store: status, headers and body."""
    import tempfile

    from citeverify.http import HttpRequest, Service, open_store

    with (
        tempfile.TemporaryDirectory() as tmp,
        open_store(str(Path(tmp) / "state.sqlite3"), clock=_Clock()) as store,
    ):
        key = store.create("golden", 1000, "day")
        service = Service(store, request_id=lambda: "golden-request")
        out = []
        for headers in (
            [("Authorization", f"Bearer {key}"), ("Content-Type", "application/json")],
            [("Authorization", f"Bearer {key}x"), ("Content-Type", "application/json")],
            [("Authorization", f"Bearer {key}"), ("Content-Type", "text/plain")],
        ):
            response = service.handle(
                HttpRequest(method="POST", path="/api/v1/verify", headers=headers, body=body)
            )
            out.append(f"{response.status}\n".encode())
            out += [f"{k}: {v}\n".encode() for k, v in response.headers]
            out.append(response.body + b"\n")
        return b"".join(out)


def _scotus() -> bytes:
    import sys

    sys.path.insert(0, str(ROOT))
    from bench.bench_verify import make_items

    return _json({"items": make_items(300, seed=17)})


SAMPLE = ROOT / "examples" / "sample_request.json"
CASES: tuple[Case, ...] = (
    Case("sample_request", _file(SAMPLE), _verify(False)),
    Case("sample_request_reserved", _file(SAMPLE), _verify(True)),
    Case("varied", lambda: _json(VARIED), _verify(False)),
    Case("varied_reserved", lambda: _json(VARIED), _verify(True)),
    Case("scotus_300", _scotus, _verify(False)),
    *(Case(name, lambda b=body: _json(b), _verify(False)) for name, body in BAD_REQUESTS.items()),
    Case("http_sample", _file(SAMPLE), _http),
    Case(
        "document_sample_brief", _text_document(ROOT / "examples" / "sample_brief.txt"), _document
    ),
    Case(
        "document_stand_in",
        _text_document(HERE / "data" / "documents" / "stand_in_brief.txt"),
        _document,
    ),
)


def produce(case: Case) -> tuple[bytes, bytes]:
    """The request bytes of a case and the response bytes the current code gives."""
    request = case.request()
    return request, case.respond(request)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_response_bytes_are_unchanged(case: Case) -> None:
    """The stored request gives exactly the stored response bytes."""
    request = (GOLDEN / f"{case.name}.request.json").read_bytes()
    expected = (GOLDEN / f"{case.name}.response.json").read_bytes()
    got = case.respond(request)
    if got != expected:
        at = next(
            (i for i, (a, b) in enumerate(zip(got, expected, strict=False)) if a != b),
            min(len(got), len(expected)),
        )
        pytest.fail(
            f"{case.name}: bytes differ from offset {at}: "
            f"got {got[max(0, at - 80) : at + 80]!r}, "
            f"expected {expected[max(0, at - 80) : at + 80]!r}"
        )


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_standard_library_encoder_gives_the_same_bytes(
    case: Case, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without orjson (the fallback), every golden response is the same bytes."""
    from citeverify.http import _handler

    monkeypatch.setattr(_handler, "_orjson", None)
    request = (GOLDEN / f"{case.name}.request.json").read_bytes()
    assert case.respond(request) == (GOLDEN / f"{case.name}.response.json").read_bytes()


def test_fast_encoder_equals_the_standard_library() -> None:
    """orjson and the standard-library path agree on any JSON tree of our kinds of value."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from citeverify.http._handler import _encode, _encode_stdlib

    leaves = (
        st.none()
        | st.booleans()
        | st.integers(-(2**70), 2**70)
        | st.text()
        | st.text(alphabet=st.characters(max_codepoint=0x2030))
    )
    trees = st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
        max_leaves=20,
    )

    @settings(max_examples=300, deadline=None)
    @given(trees)
    def check(tree: Any) -> None:
        assert _encode(tree) == _encode_stdlib(tree)

    check()


def test_golden_requests_are_what_the_cases_build() -> None:
    """The stored requests are still the cases' requests (the inputs did not drift)."""
    for case in CASES:
        assert (GOLDEN / f"{case.name}.request.json").read_bytes() == case.request(), case.name


# --- the fast response unstructuring equals cattrs' -------------------------------------


def _same(a: Any, b: Any, path: str = "") -> None:
    """Equal values of the same types, and dicts with keys in the same order."""
    assert type(a) is type(b), f"{path}: {type(a).__name__} != {type(b).__name__}"
    if isinstance(a, dict):
        assert list(a) == list(b), path
        for key in a:
            _same(a[key], b[key], f"{path}.{key}")
    elif isinstance(a, list):
        assert len(a) == len(b), path
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{path}[{index}]")
    else:
        assert a == b, path


def _strategy(tp: Any) -> Any:
    """Any value of a model type, every optional field sometimes set, sometimes not."""
    import types
    import typing
    from enum import Enum

    from hypothesis import strategies as st

    from citeverify import _model as m

    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        return st.one_of(*(_strategy(a) for a in typing.get_args(tp)))
    if origin is tuple:
        inner = typing.get_args(tp)[0]
        extra = st.just((0,)) if inner is int else st.nothing()  # DocumentText's default
        return st.lists(_strategy(inner), max_size=3).map(tuple) | extra
    if tp is type(None):
        return st.none()
    if isinstance(tp, type) and issubclass(tp, Enum):
        return st.sampled_from(list(tp))
    if tp is str:  # a str field may hold a StrEnum (Verdict.outcome holds an Outcome)
        return st.text(max_size=6) | st.sampled_from(list(m.Outcome))
    if tp is bool:
        return st.booleans()
    if tp is int:
        return st.integers(-5, 5)
    assert attrs.has(tp), tp
    hints = typing.get_type_hints(tp)
    fields = {f.name: st.deferred(lambda t=hints[f.name]: _strategy(t)) for f in attrs.fields(tp)}
    return st.builds(tp, **fields)


def test_fast_unstructure_equals_cattrs() -> None:
    """``response_to_dict`` gives what cattrs' generic unstructuring gives, on any Response."""
    from hypothesis import given, settings

    from citeverify import _codec, _model

    @settings(max_examples=150, deadline=None)
    @given(_strategy(_model.Response))
    def check(response: Any) -> None:
        _same(_codec.response_to_dict(response), _codec.CONVERTER.unstructure(response))

    check()


def test_one_pass_item_check_agrees_with_the_full_check() -> None:
    """The fast path accepts exactly the items the full check accepts, with the same result."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from citeverify import _codec

    keys = st.sampled_from([*_codec._ITEM_FIELDS, "extra", "Type"])
    values = (
        st.sampled_from(["case", "quote", "link", "statute", "rule", "constitution", "", "x"])
        | st.text(max_size=12)
        | st.text(min_size=2001, max_size=2001, alphabet="ab")
        | st.just("\ud800")
        | st.integers()
        | st.none()
    )
    items = st.dictionaries(keys, values, max_size=8) | st.integers() | st.lists(st.text())

    @settings(max_examples=400, deadline=None)
    @given(items)
    def check(item: Any) -> None:
        limits = _codec.DEFAULT_LIMITS
        fast, full = _codec._Problems(100), _codec._Problems(100)
        got = _codec._check_item(3, item, limits, _codec._string_limits(limits), fast)
        want = _codec._check_item_fully(3, item, limits, full)
        assert got == want
        assert fast.details == full.details

    check()


# --- the store's caches: bounded, and never stale ------------------------------------------


def test_cached_answers_follow_a_store_file_that_is_written(tmp_path: Path) -> None:
    """A store file written after a lookup answers from its new rows, not the cached ones."""
    import sqlite3

    from citeverify.providers._base import Found, NotFound
    from citeverify.providers.local import LocalStore
    from tests.test_local_store import TestUserStores, ask, case

    path = TestUserStores()._store(tmp_path / "mine.sqlite3")
    store = LocalStore(path)
    [first] = ask(store, case("925", "F.3d", "1339"))
    [missing] = ask(store, case("925", "F.3d", "1500"))
    assert isinstance(first, Found)
    assert first.authorities[0].name == "A v. B"
    assert isinstance(missing, NotFound)
    connection = sqlite3.connect(path)
    connection.execute("UPDATE authorities SET name = 'C v. D' WHERE id = 1")
    connection.execute(
        "INSERT INTO authorities (id, kind, reference, name) VALUES (2, 'case', 'cl:2', 'E v. F')"
    )
    connection.execute(
        "INSERT INTO citations VALUES ('F.3d', '925', '1500', 2, 0, '925 F.3d 1500', 1500, 1510)"
    )
    connection.commit()
    connection.close()
    [again] = ask(store, case("925", "F.3d", "1339"))
    [now] = ask(store, case("925", "F.3d", "1500"))
    assert isinstance(again, Found)
    assert again.authorities[0].name == "C v. D"
    assert isinstance(now, Found)
    assert now.authorities[0].name == "E v. F"


def test_store_caches_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many citations are looked up, each cache holds at most its bound."""
    from citeverify.providers import local
    from tests.test_local_store import ask, case

    monkeypatch.setattr(local, "_ROW_CACHE", 3)
    store = local.LocalStore()
    pages = ["113", "179", "153", "1", "959", "49", "15", "222"]
    first = ask(store, *(case("410", "U.S.", p) for p in pages))
    for _ in range(2):  # answered again, from the caches or not, the same
        assert ask(store, *(case("410", "U.S.", p) for p in pages)) == first
    assert 0 < len(store._answers) <= 3
    assert 0 < len(store._rows) <= 3
    assert 0 < len(store._built) <= 3
