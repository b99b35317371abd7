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
import re
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

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


# The et-al pattern as first written (two alternatives, each tried at every position).
_ET_AL_AS_WRITTEN = re.compile(
    r",?\s*\bet\.?\s+(?:al|ux|vir)\b\.?,?|,?\s*\betc\.,?", re.IGNORECASE
)
_ET_AL_TEXT = st.lists(
    st.sampled_from(
        ["et", "Et", "ET", "al", "AL.", "ux", "vir", "etc.", "c.", ".", ",", " ", "\t", "e", "t",
         "x", "Smith", "street", "\u00e9t", "\u0130"]
    ),
    max_size=12,
).map("".join)


@settings(max_examples=2000, deadline=None)
@given(_ET_AL_TEXT)
def test_et_al_pattern_substitutes_as_written(text: str) -> None:
    """``_drop_et_al`` removes exactly what the et-al pattern as written removed."""
    assert _compare._drop_et_al(text) == _ET_AL_AS_WRITTEN.sub(" ", text)


def test_et_al_pattern_on_every_pinned_name() -> None:
    names = {name for pair in PAIRS for name in pair}
    wrong = [n for n in names if _compare._drop_et_al(n) != _ET_AL_AS_WRITTEN.sub(" ", n)]
    assert not wrong


@given(st.text(alphabet="abcdeilnorstuyz'.", max_size=12))
def test_dropped_words_are_noise_or_stem_to_noise(word: str) -> None:
    """``_DROPPED`` lists exactly the words noise or stemming to noise."""
    expected = word in _compare._NOISE or _compare._stem(word) in _compare._NOISE
    assert (word in _compare._DROPPED) is expected


def test_dropped_words_on_every_noise_form() -> None:
    for noise in _compare._NOISE:
        for word in (noise, noise + "s", noise + "es", noise[:-1] + "ies", noise[:-1]):
            expected = word in _compare._NOISE or _compare._stem(word) in _compare._NOISE
            assert (word in _compare._DROPPED) is expected, word


def _plain(word: str) -> bool:
    """The words ``_words`` reads without ``_expand``: no table names them, no period, no
    final s."""
    return word not in _compare._known() and "." not in word and not word.endswith("s")


def test_plain_words_are_their_own_piece_on_every_pinned_word() -> None:
    """``_words``' fast path (a plain word is its own piece) is what ``_expand`` gives."""
    words = {
        w.replace("'", "")
        for pair in PAIRS
        for name in pair
        for w in _compare._WORD.findall(_compare._fold(name))
    }
    plain = [w for w in words if _plain(w)]
    assert len(plain) > 10_000
    assert [w for w in plain if _compare._expand(w) != (w,)] == []


@given(st.text(alphabet="abcdefilnorstuvy0'", min_size=1, max_size=10))
def test_plain_words_are_their_own_piece(word: str) -> None:
    if _plain(word):
        assert _compare._expand(word) == (word,)
