"""``LocalStore.lookup`` answers what it answered before its lookup path was optimised.

``tests/data/lookups/lookups.json.gz`` holds hashes of the answers (every field of
every authority, document and identifier, and whether it has text) to about 68,000
probes built from the embedded corpus's own rows: found citations, pages inside
another case, misses, statutes, rules and provisions with subdivisions.  It was
written by ``make_lookups.py`` beside it from the pre-change code (issue 17).
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

from citeverify.providers.local import embedded_corpus_exists

DATA = Path(__file__).resolve().parent / "data" / "lookups"

pytestmark = pytest.mark.skipif(
    not embedded_corpus_exists(), reason="the probes and answers come from the embedded corpus"
)


def test_lookup_answers_are_unchanged() -> None:
    sys.path.insert(0, str(DATA))
    try:
        import make_lookups
    finally:
        sys.path.remove(str(DATA))
    with gzip.open(DATA / "lookups.json.gz", "rt", encoding="utf-8") as handle:
        expected = json.load(handle)
    assert expected["block"] == make_lookups.BLOCK
    got = make_lookups.blocks()
    assert len(got) == len(expected["blocks"])
    wrong = [i for i, (a, b) in enumerate(zip(got, expected["blocks"], strict=True)) if a != b]
    assert not wrong, f"answers differ in blocks {wrong[:10]} (of {make_lookups.BLOCK} probes)"
