"""The citation corpus: over a thousand real and hand-written citations with expected parts.

The files under ``tests/data/citations/`` are generated from the shared source
data by ``tests/make_citation_corpus.py`` (expected parts from the source
columns) plus ``handwritten.jsonl``.  Each case names the item kind, the text,
and the components it must parse to; a key absent from ``expect`` is not
checked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from citeverify.citations import (
    CaseCitation,
    ConstitutionCitation,
    LinkCitation,
    NotACitation,
    ParsedCitation,
    RuleCitation,
    StatuteCitation,
    parse,
)

DATA = Path(__file__).parent / "data" / "citations"


def _load() -> list[dict[str, Any]]:
    cases = []
    for path in sorted(DATA.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            case = json.loads(line)
            case["id"] = f"{path.stem}:{number}"
            cases.append(case)
    return cases


CORPUS = _load()


def _actual(parsed: ParsedCitation, key: str) -> Any:
    """The value of an ``expect`` key read off a parse result."""
    if isinstance(parsed, CaseCitation):
        pin = parsed.pin
        court = parsed.court
        special: dict[str, Any] = {
            "pin": pin.text if pin else None,
            "pin_first": pin.first if pin else None,
            "pin_last": pin.last if pin else None,
            "footnote": pin.footnote if pin else None,
            "court": court.id if court else None,
            "jurisdiction": court.jurisdiction if court else None,
            "court_cited": court.cited if court else None,
            "parallels": [p.normalized for p in parsed.parallels],
            "parallel_pins": [p.pin.text for p in parsed.parallels if p.pin],
        }
        if key in special:
            return special[key]
    if isinstance(parsed, LinkCitation):
        target = parsed.target
        if key == "target":
            return target.normalized if target else None
        if key == "target_kind":
            return target.kind if target else None
        if key == "identifiers":
            return [list(i) for i in parsed.identifiers]
    if isinstance(parsed, (StatuteCitation, RuleCitation)) and key == "subdivisions":
        return list(parsed.subdivisions)
    return getattr(parsed, key)


def test_corpus_is_large_enough() -> None:
    """The corpus holds 400+ real citations from the shared data, plus hand-written forms."""
    generated = [c for c in CORPUS if not c["id"].startswith("handwritten")]
    assert len(generated) >= 400
    assert len(CORPUS) - len(generated) >= 150
    assert {c["kind"] for c in CORPUS} == {"case", "statute", "rule", "constitution", "link"}


@pytest.mark.parametrize("case", CORPUS, ids=[c["id"] for c in CORPUS])
def test_corpus_case(case: dict[str, Any]) -> None:
    """Each corpus citation parses to exactly the expected components."""
    parsed = parse(case["text"], case["kind"])
    expect = dict(case["expect"])
    if expect.pop("not_a_citation", False):
        assert isinstance(parsed, NotACitation), parsed
        contains = expect.pop("message_contains", None)
        if contains:
            assert contains in parsed.message
        return
    assert not isinstance(parsed, NotACitation), parsed
    assert parsed.kind == case["kind"]
    assert parsed.raw == case["text"]
    mismatches = {
        key: (value, _actual(parsed, key))
        for key, value in expect.items()
        if _actual(parsed, key) != value
    }
    assert not mismatches, f"{case['text']!r}: expected vs got {mismatches}"


def test_constitution_kinds_cover_every_part() -> None:
    """Constitution cases cover articles, amendments and the preamble."""
    parts = {c["expect"].get("part") for c in CORPUS if c["kind"] == "constitution"}
    assert {"article", "amendment", "preamble"} <= parts


def test_result_types_match_kinds() -> None:
    """Every kind's parser returns its own result type (or NotACitation)."""
    types = {
        "case": CaseCitation,
        "statute": StatuteCitation,
        "rule": RuleCitation,
        "constitution": ConstitutionCitation,
        "link": LinkCitation,
    }
    for case in CORPUS[::10]:
        parsed = parse(case["text"], case["kind"])
        assert isinstance(parsed, (types[case["kind"]], NotACitation))
