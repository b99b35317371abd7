"""Quotation location: Bluebook-tolerant, word-exact, page-aware, one scan for many quotes.

    >>> from citeverify.providers._base import AuthorityText
    >>> index = QuoteIndex(AuthorityText("It is not “at home” in Mon-\\ntana.", pages=((0, 7),)))
    >>> index.locate("[i]t is not at home in Montana").status
    'found'
    >>> index.locate("it is at home in Montana").message
    "'not' omitted"

``normalize`` shows the matching form and its map back to the original;
``QuoteIndex`` normalises an authority once and locates any number of
quotations in it with one automaton scan; ``locate`` is the one-off form.
"""

from __future__ import annotations

from citeverify.quotes._locate import (
    MAX_ANCHORS,
    MAX_NEAR_WORDS,
    MAX_STATES,
    QuoteIndex,
    QuoteMatch,
    locate,
)
from citeverify.quotes._normalize import normalize
from citeverify.quotes._parse import MAX_BRACKET_WORDS, MAX_ELLIPSIS_WORDS

__all__ = [
    "MAX_ANCHORS",
    "MAX_BRACKET_WORDS",
    "MAX_ELLIPSIS_WORDS",
    "MAX_NEAR_WORDS",
    "MAX_STATES",
    "QuoteIndex",
    "QuoteMatch",
    "locate",
    "normalize",
]
