"""The case scanner's fast paths against their plain definitions.

The tokenizer for long texts (a whitespace split, then a pass for the "(" and "["
that ``_TOKEN`` splits off) yields exactly ``_TOKEN``'s tokens.

``case._CANDIDATE`` is written to open with its first characters (so the regex
engine can skip to them) instead of with a lookbehind; the plain form below is
the definition it must keep: a token start (no non-space before it), an optional
"(" or "[", then a volume before a word, digits then a capital or hyphen, an
ECLI, "No." or "T.".
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from citeverify.citations import case, find

PLAIN = re.compile(
    r"(?<!\S)[(\[]?(?:\d{1,5}(?=\s+[^\s\d])|\d+[A-Z\-]|[Ee][Cc][Ll][Ii]:|[Nn]o\.|T\.)"
)
OPINIONS = Path(__file__).parent / "data" / "quotes" / "scotus_ot2016.jsonl.gz"


def _spans(pattern: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern.finditer(text)]


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="([ 0123456789EeCcLlIiNno.T-AZx:\n\t\u00a0\u2003\u0663", max_size=40))
def test_candidates_match_the_plain_form(text: str) -> None:
    assert _spans(case._CANDIDATE, text) == _spans(PLAIN, text)


def test_candidates_match_the_plain_form_on_real_opinions() -> None:
    with gzip.open(OPINIONS, "rt", encoding="utf-8") as handle:
        texts = [json.loads(line)["plain_text"] for line in handle][:10]
    found = 0
    for text in texts:
        spans = _spans(case._CANDIDATE, text)
        assert spans == _spans(PLAIN, text)
        found += len(spans)
    assert found > 1000  # the opinions are dense with citations: the test saw real matches


_PIECES = [
    " ", "\n", "\t", "\u00a0", "(", "[", ")", "((", "T.", "No.", "T.C.", "0", "12", "a", "v."
]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=80).map("".join), st.sampled_from(["x", " "]))
def test_long_text_tokens_are_the_token_regex_tokens(middle: str, pad: str) -> None:
    text = pad * 1030 + middle + pad * 3  # past the short-text path
    expected = [(m.start(), m.end(), m.group()) for m in case._TOKEN.finditer(text)]
    tokens, starts = case._tokens_and_starts(text)
    assert tokens == expected
    assert starts == [start for start, _end, _word in expected]


def test_opinion_tokens_are_the_token_regex_tokens() -> None:
    with gzip.open(OPINIONS, "rt", encoding="utf-8") as handle:
        texts = [json.loads(line)["plain_text"] for line in handle][:10]
    split = 0
    for text in texts:
        expected = [(m.start(), m.end(), m.group()) for m in case._TOKEN.finditer(text)]
        tokens, starts = case._tokens_and_starts(text)
        assert tokens == expected
        assert starts == [start for start, _end, _word in expected]
        split += sum(1 for _s, _e, word in tokens if word in "([")
    assert split > 100  # "(1973)": the opener pass did real work


_LEAD_CASE = "Roe v. Wade, 410 U.S. 113 (1973). "


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["(no.", "(No.", "(ECLI:", "No.", "T.C.", "12", " ", "\n", "a", "("]),
        max_size=12,
    ).map("".join)
)
def test_whatever_ends_the_text_keeps_the_citations_before_it(tail: str) -> None:
    """A text ending in a word the scanner keeps whole, such as "(no.", once made ``find``
    look past its last token and drop every citation of the text."""
    found = list(find(_LEAD_CASE + tail))
    assert found
    assert (found[0].start, found[0].end) == (0, len(_LEAD_CASE) - 2)
