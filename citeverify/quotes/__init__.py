"""Quotation location: Bluebook-tolerant, word-exact, page-aware, one scan for many quotes.

    >>> from citeverify.providers._base import AuthorityText
    >>> text = AuthorityText("The railroad is not “at home” in Mon-\\ntana.", pages=((0, 7),))
    >>> index = QuoteIndex(text)
    >>> index.locate("[t]he railroad is not at home in Montana").status
    'found'
    >>> index.locate("the railroad is at home in Montana").message
    "'not' omitted"
    >>> index.locate("the . . . the . . . in").status
    'fragmentary'

``normalize`` shows the matching form and its map back to the original;
``QuoteIndex`` normalises an authority once and locates any number of
quotations in it with one automaton scan; ``locate`` is the one-off form.
A quotation of only common words (``the . . . the``) is ``fragmentary`` and
one whose work budget runs out ``unchecked``: callers treat both as
warnings (``QuoteMatch.checked`` is false), never as verified or not found.
"""

from __future__ import annotations

from citeverify.quotes._locate import (
    FRAGMENTARY,
    MAX_ANCHORS,
    MAX_CALL_STEPS,
    MAX_NEAR_WORDS,
    MAX_QUOTE_STEPS,
    MAX_STATES,
    MIN_DISTINCTIVE,
    MIN_WORDS,
    UNCHECKED,
    QuoteIndex,
    QuoteMatch,
    fragmentary,
    locate,
    quote_steps,
)
from citeverify.quotes._normalize import normalize
from citeverify.quotes._parse import MAX_BRACKET_WORDS, MAX_ELLIPSIS_WORDS

__all__ = [
    "FRAGMENTARY",
    "MAX_ANCHORS",
    "MAX_BRACKET_WORDS",
    "MAX_CALL_STEPS",
    "MAX_ELLIPSIS_WORDS",
    "MAX_NEAR_WORDS",
    "MAX_QUOTE_STEPS",
    "MAX_STATES",
    "MIN_DISTINCTIVE",
    "MIN_WORDS",
    "UNCHECKED",
    "QuoteIndex",
    "QuoteMatch",
    "fragmentary",
    "locate",
    "normalize",
    "quote_steps",
]
