"""The scanner's tokenizer (``case._words_and_starts``) against its definition, ``case._TOKEN``.

The tokenizer replaces every whitespace character but the space by a space and
splits at single spaces, so it relies on its table of whitespace being exactly
what ``\\s`` matches; both are checked here over all of Unicode, and the tokens
over hostile mixes of every whitespace character, openers and non-ASCII text,
and over the real opinions, raw and cleaned.
"""

from __future__ import annotations

import gzip
import json
import re
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from citeverify.citations import case
from citeverify.citations._text import clean

OPINIONS = Path(__file__).parent / "data" / "quotes" / "scotus_ot2016.jsonl.gz"
_SPACE = re.compile(r"\s")
_EVERY_WHITESPACE = [chr(c) for c in range(sys.maxunicode + 1) if _SPACE.match(chr(c))]


def _expected(text: str) -> tuple[list[str], list[int]]:
    matches = list(case._TOKEN.finditer(text))
    return [m.group() for m in matches], [m.start() for m in matches]


def test_whitespace_table_is_every_whitespace_but_the_space() -> None:
    assert len(_EVERY_WHITESPACE) > 20  # Unicode has many: the scan saw them
    assert [" ", *case._OTHER_WHITESPACE] == sorted(_EVERY_WHITESPACE, key=lambda c: c != " ")
    assert all(c.isspace() for c in _EVERY_WHITESPACE)
    assert [c for c in case._OTHER_WHITESPACE if c.isascii()] == list(
        case._ASCII_OTHER_WHITESPACE
    )


_PIECES = [*_EVERY_WHITESPACE, "(", "[", ")", "T.", "No.", "0", "12", "a", "\u00e9", "\u4e2d"]


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=60).map("".join))
def test_words_and_starts_are_the_token_regex_tokens(text: str) -> None:
    assert case._words_and_starts(text) == _expected(text)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_words_and_starts_on_any_text(text: str) -> None:
    assert case._words_and_starts(text) == _expected(text)


def test_words_and_starts_on_real_opinions() -> None:
    with gzip.open(OPINIONS, "rt", encoding="utf-8") as handle:
        texts = [json.loads(line)["plain_text"] for line in handle][:12]
    tokens = 0
    for text in texts:
        for version in (text, clean(text)):
            words, starts = case._words_and_starts(version)
            assert (words, starts) == _expected(version)
            tokens += len(words)
    assert tokens > 100_000  # real work: the opinions are long
