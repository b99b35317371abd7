"""``run_to_dict`` (results written as JSON directly) equals ``response_to_dict(run(...))``.

The object path is the reference: the JSON path is a fast path for
``verify_request`` and must give the same dicts, with keys in the same order and
values of the same types, on every kind of task: request items of every type and
verdict, with and without the reserved fields, and whole documents (positions,
short forms, quotations attributed to citations).
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from citeverify import _codec, _verify
from citeverify.providers.local import embedded_corpus_exists
from tests.test_golden import VARIED, _same

HERE = Path(__file__).resolve().parent

pytestmark = pytest.mark.skipif(
    not embedded_corpus_exists(), reason="the requests are answered from the embedded corpus"
)


def _both(tasks: list[_verify.Task], reserved: bool) -> tuple[Any, Any]:
    reference = _codec.response_to_dict(_verify.run(tasks, emit_reserved=reserved))
    fast = _verify.run_to_dict(tasks, emit_reserved=reserved)
    return fast, reference


def _corpus_requests() -> list[dict[str, Any]]:
    data = HERE / "data" / "verify_golden"
    sys.path.insert(0, str(data))
    try:
        import make_verify_golden
    finally:
        sys.path.remove(str(data))
    requests: list[dict[str, Any]] = make_verify_golden.requests()
    return requests


@pytest.mark.parametrize("reserved", [False, True])
def test_request_items_give_the_same_dicts(reserved: bool) -> None:
    bodies = [VARIED, *_corpus_requests()[:4]]
    sample = HERE.parent / "examples" / "sample_request.json"
    bodies.append(json.loads(sample.read_text(encoding="utf-8")))
    for body in bodies:
        tasks = _verify.tasks_from_items(_codec.structure_request(body))
        fast, reference = _both(tasks, reserved)
        _same(fast, reference)


def test_document_tasks_give_the_same_dicts() -> None:
    from citeverify.citations import find
    from citeverify.document._assemble import assemble
    from citeverify.document._quotes import find_quotations

    texts = [
        (HERE.parent / "examples" / "sample_brief.txt").read_text(encoding="utf-8"),
        (HERE / "data" / "documents" / "stand_in_brief.txt").read_text(encoding="utf-8"),
    ]
    with gzip.open(HERE / "data" / "quotes" / "scotus_ot2016.jsonl.gz", "rt") as handle:
        for line, _ in zip(handle, range(3), strict=False):
            record = json.loads(line)
            texts.append(next(v for v in record.values() if isinstance(v, str) and len(v) > 5000))
    for text in texts:
        tasks = assemble(text, list(find(text)), find_quotations(text))
        assert tasks
        fast, reference = _both(tasks, True)
        _same(fast, reference)


def test_generated_items_give_the_same_dicts() -> None:
    """Any mix of items, valid or not as citations, gives the same dicts both ways."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    texts = [
        "Roe v. Wade, 410 U.S. 113, 153 (1973)",
        "Roe v. Wade, 410 U.S. 113, 93 S. Ct. 705 (1973)",
        "Brown v. Board, 410 U.S. 113 (1954)",
        "Smith v. Jones, 410 U.S. 999",
        "410 U.S. 150",
        "Roe, 410 U.S. 113; Doe v. Bolton, 410 U.S. 179 (1973)",
        "42 U.S.C. § 1983",
        "42 U.S.C. § 99999",
        "Fed. R. Civ. P. 12(b)(6)",
        "U.S. Const. amend. XIV, § 1",
        "nothing at all",
        "",
        "  410 U.S. 113  ",
    ]
    kinds = ["case", "statute", "rule", "constitution"]
    item = st.tuples(st.sampled_from(kinds), st.sampled_from(texts) | st.text(max_size=30))

    @settings(max_examples=60, deadline=None)
    @given(st.lists(item, min_size=1, max_size=8), st.booleans(), st.booleans())
    def check(items: list[tuple[str, str]], quote: bool, reserved: bool) -> None:
        body: list[dict[str, str]] = [
            {"id": f"i{n}", "type": kind, "rawText": text} for n, (kind, text) in enumerate(items)
        ]
        if quote:
            quotation = {"parentCaseId": "i0", "quoteText": "a woman's decision"}
            body.append({"id": "q", "type": "quote", **quotation})
        tasks = _verify.tasks_from_items(_codec.structure_request({"items": body}))
        fast, reference = _both(tasks, reserved)
        _same(fast, reference)

    check()


def test_tasks_from_request_equal_tasks_from_items() -> None:
    """The request's item dicts give the tasks its ``VerifyItem`` values give."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    for body in [VARIED, *_corpus_requests()[:2]]:
        clean = _codec.validate_request(body)
        want = _verify.tasks_from_items(_codec.structure_request(body))
        assert _verify.tasks_from_request(clean) == want

    kinds = st.sampled_from(["case", "quote", "link", "statute", "rule", "constitution"])
    optional = st.none() | st.sampled_from(["", "410 U.S. 113", "https://example.com/x"])

    @settings(max_examples=150, deadline=None)
    @given(st.lists(st.tuples(kinds, optional, optional, optional), min_size=1, max_size=6))
    def check(rows: list[tuple[str, str | None, str | None, str | None]]) -> None:
        items: list[dict[str, str]] = []
        for n, (kind, raw, quote, url) in enumerate(rows):
            item = {"id": f"i{n}", "type": kind}
            for key, value in (("rawText", raw), ("quoteText", quote), ("url", url)):
                if value is not None:
                    item[key] = value
            if kind == "quote":
                item.setdefault("quoteText", "q")
                item["parentCaseId"] = "p"
            elif kind == "link":
                item.setdefault("url", "u")
            else:
                item.setdefault("rawText", "r")
            items.append(item)
        items.append({"id": "p", "type": "case", "rawText": "347 U.S. 483"})
        body = {"items": items}
        clean = _codec.validate_request(body)
        want = _verify.tasks_from_items(_codec.structure_request(body))
        assert _verify.tasks_from_request(clean) == want

    check()
