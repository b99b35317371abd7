"""``name_matches`` and ``_party`` give exactly what they gave when pinned.

``tests/data/names_golden/names_golden.json.gz`` holds, for some 160,000 pairs of
case names built from the embedded corpus, the October Term 2016 opinions and
``tests/test_compare.py`` (see ``make_names_golden.pairs``), the answer of
``name_matches`` as generated before name comparison was made faster, and the
words ``_party`` gave for every party string those pairs hold.  A speed change
must leave every answer as it was.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

from citeverify import _compare

HERE = Path(__file__).resolve().parent / "data" / "names_golden"
sys.path.insert(0, str(HERE))

import make_names_golden  # noqa: E402

with gzip.open(make_names_golden.GOLDEN, "rt", encoding="utf-8") as _handle:
    GOLDEN = json.load(_handle)
PAIRS = make_names_golden.pairs()
PARTIES = make_names_golden.parties(PAIRS)


def test_inputs_are_the_pinned_ones() -> None:
    """The generator still builds the pinned inputs (else a failure below means nothing)."""
    assert make_names_golden.digest(PAIRS) == GOLDEN["pairs_sha256"]
    assert make_names_golden.digest(PARTIES) == GOLDEN["parties_sha256"]
    assert len(PAIRS) == len(GOLDEN["matches"]) > 150_000
    assert len(PARTIES) == len(GOLDEN["parties"]) > 50_000
    # Both answers are well represented: the set tests matches and mismatches alike.
    assert 0.2 < GOLDEN["matches"].count("1") / len(PAIRS) < 0.8


def test_name_matches_is_unchanged() -> None:
    _compare.cache_clear()
    got = "".join("1" if _compare.name_matches(c, f) else "0" for c, f in PAIRS)
    wrong = [
        (cited, found, want == "1")
        for (cited, found), have, want in zip(PAIRS, got, GOLDEN["matches"], strict=True)
        if have != want
    ]
    assert not wrong, f"{len(wrong)} answers changed, e.g. {wrong[:10]}"


def test_party_words_are_unchanged() -> None:
    _compare.cache_clear()
    wrong = [
        (party, make_names_golden.party_record(party), want)
        for party, want in zip(PARTIES, GOLDEN["parties"], strict=True)
        if make_names_golden.party_record(party) != want
    ]
    assert not wrong, f"{len(wrong)} parties changed, e.g. {wrong[:10]}"
