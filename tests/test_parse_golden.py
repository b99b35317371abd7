"""``parse`` gives, on twenty thousand real and realistic inputs, exactly what it gave before.

``tests/data/parse_golden/golden.jsonl.gz`` was written by
``tests/data/parse_golden/generate.py`` with the parser as it was before it was made
faster (issue 17): the benchmark's Supreme Court citation strings and variants of
them, court parentheticals, reporters-db's examples, the citation corpus and the
citation tests' own inputs as every kind, and running text from the OT2016
opinions.  Each result is compared by its ``repr``, which names every field of the
result and of its pins, court and parallels.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from citeverify.citations import _parse, cache_clear, parse

GOLDEN = Path(__file__).parent / "data" / "parse_golden" / "golden.jsonl.gz"


def _load() -> list[tuple[str, str, str]]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as handle:
        return [tuple(json.loads(line)) for line in handle]  # type: ignore[misc]


def test_golden_set_is_broad() -> None:
    """The set covers every kind and thousands of case citations, read and refused."""
    rows = _load()
    kinds = {kind for kind, _, _ in rows}
    assert kinds == {"case", "statute", "rule", "constitution", "link"}
    case_results = [expected for kind, _, expected in rows if kind == "case"]
    assert sum(r.startswith("CaseCitation(") for r in case_results) > 10_000
    assert sum(r.startswith("NotACitation(") for r in case_results) > 500
    assert sum("court=CourtRef(" in r for r in case_results) > 500
    assert sum("parallels=(CaseCitation(" in r for r in case_results) > 100


def test_parse_matches_golden() -> None:
    """Every input parses to the pinned result, through the cached and the uncached entry."""
    cache_clear()
    mismatches = []
    for kind, text, expected in _load():
        for got in (parse(text, kind), _parse(text, kind)):
            if repr(got) != expected:
                mismatches.append((kind, text, expected, repr(got)))
                break
    cache_clear()
    assert not mismatches, f"{len(mismatches)} differ; first: {mismatches[:3]}"
