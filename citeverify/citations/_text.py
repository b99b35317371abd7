"""Text helpers every citation parser shares: cleaning, signals, Roman numerals.

Cleaning maps typographic variants to ASCII one character for one character,
so offsets into the cleaned text are offsets into the submitted text.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = [
    "MAX_SCAN",
    "clean",
    "expand_range_end",
    "from_roman",
    "strip_signal",
    "to_roman",
]

# Citations are short; text beyond this many characters is not scanned, which
# bounds every parser's work on hostile input.
MAX_SCAN: Final = 4000

_TRANSLATE: Final = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u02bc": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2015": "-",
        "\u2212": "-",
        "\u00a0": " ",
        "\u2002": " ",
        "\u2003": " ",
        "\u2009": " ",
        "\u202f": " ",
        "\t": " ",
        "\n": " ",
        "\r": " ",
        "\f": " ",
        "\v": " ",
    }
)


_PAIRS: Final = tuple((chr(k), str(v)) for k, v in _TRANSLATE.items())
_ASCII_PAIRS: Final = tuple(pair for pair in _PAIRS if pair[0].isascii())


def clean(text: str) -> str:
    """Straight quotes, ASCII hyphens and plain spaces, same length as ``text``.

    One ``str.replace`` per variant (each a fast scan in C) rather than
    ``str.translate``, whose per-character lookup dominates on long documents.
    """
    if text.isascii():
        for old, new in _ASCII_PAIRS:
            if old in text:
                text = text.replace(old, new)
        return text
    for old, new in _PAIRS:
        if old in text:
            text = text.replace(old, new)
    return text


# Bluebook introductory signals, longest first so "See, e.g.," wins over "See".
_SIGNAL: Final = re.compile(
    r"^(?:see\s+also|see\s+generally|but\s+see|but\s+cf\.?|see|cf\.?|compare|"
    r"e\.g\.|but)(?:,?\s+e\.g\.)?(?:,?\s+|,?$)",
    re.IGNORECASE,
)


def strip_signal(text: str) -> str:
    """``text`` without a leading citation signal (``See``, ``See, e.g.,``, ``Cf.``)."""
    stripped = text.strip()
    match = _SIGNAL.match(stripped)
    if match and match.end() < len(stripped):
        return stripped[match.end() :].strip()
    if match:
        return ""
    return stripped


_ROMAN: Final = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_ROMAN_SHAPE: Final = re.compile(r"^(?:C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$")


def from_roman(text: str) -> int | None:
    """The value of a Roman numeral up to 399 (``XIV`` -> 14), else ``None``."""
    upper = text.upper()
    if not upper or not _ROMAN_SHAPE.match(upper):
        return None
    total = 0
    for index, char in enumerate(upper):
        value = _ROMAN[char]
        if index + 1 < len(upper) and _ROMAN[upper[index + 1]] > value:
            total -= value
        else:
            total += value
    return total or None


_TO_ROMAN: Final = (
    (1000, "M"),
    (900, "CM"),
    (500, "D"),
    (400, "CD"),
    (100, "C"),
    (90, "XC"),
    (50, "L"),
    (40, "XL"),
    (10, "X"),
    (9, "IX"),
    (5, "V"),
    (4, "IV"),
    (1, "I"),
)


def to_roman(number: int) -> str:
    """``14`` -> ``XIV``; the one conversion the parsers, the store and its build share."""
    parts = []
    for value, letters in _TO_ROMAN:
        while number >= value:
            parts.append(letters)
            number -= value
    return "".join(parts)


def expand_range_end(first: str, last: str) -> int | None:
    """The last page of an abbreviated range: (``153``, ``54``) -> 154, (``99``, ``101``) -> 101.

    Bluebook ranges drop repeated leading digits; the full number takes the
    missing digits from the first page.  ``None`` when the result would not
    follow the first page.
    """
    if not first.isdigit() or not last.isdigit():
        return None
    if len(last) < len(first):
        last = first[: len(first) - len(last)] + last
    end = int(last)
    return end if end >= int(first) else None
