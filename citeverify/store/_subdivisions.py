"""Find the subdivision tree ``(a)(1)(A)(i)`` of a rule given as plain text.

The sources for the Federal Rules of Civil Procedure, of Evidence and of
Appellate Procedure are text, not XML, so the tree comes from the markers.
A marker is taken only where it can start a subdivision (at a line start,
after punctuation, or right after another marker) and only when it is the
next one in sequence: the first child of the open subdivision (``(a)``,
``(1)``, ``(A)``, ``(i)``) or the next sibling of an open one.  Cross
references such as "Rule 4(f)(2)" or "under (f)(2)(C)(i)" are therefore
never read as subdivisions.  Levels follow the federal rules' convention:
``(a)`` letters, ``(1)`` numbers, ``(A)`` capitals, ``(i)`` lower-case Roman
numerals, ``(I)`` capital Roman numerals; a rule whose first marker is
``(1)`` (Evidence Rules 803 and 902) starts at the numbered level.
"""

from __future__ import annotations

import re

from citeverify.store._rows import SubdivisionRow

__all__ = ["roman_value", "subdivisions"]

_MARKER = re.compile(r"\(([a-z]{1,4}|[0-9]{1,3}|[A-Z]{1,4})\)")
_AFTER_CONNECTIVE = re.compile(r"[;,:—–.]\s*(?:or|and)\s*$")
_HEADING = re.compile(r"\s*([A-Z][^.\n]{0,120}?)\.(?=\s|$)")
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
_LEVELS_LETTER = ("lower", "digit", "upper", "roman", "uproman")
_LEVELS_DIGIT = ("digit", "upper", "roman", "uproman")
_MINOR = {"a", "an", "and", "as", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with"}


def roman_value(text: str) -> int | None:
    """The value of a lower- or upper-case Roman numeral, or ``None`` when it is not one."""
    lowered = text.lower()
    if not lowered or any(ch not in _ROMAN for ch in lowered):
        return None
    total = 0
    for index, ch in enumerate(lowered):
        value = _ROMAN[ch]
        following = _ROMAN[lowered[index + 1]] if index + 1 < len(lowered) else 0
        total += -value if value < following else value
    return total if _to_roman(total) == lowered else None


def _to_roman(number: int) -> str:
    parts = ((100, "c"), (90, "xc"), (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"))
    out = ""
    for value, glyph in (*parts, (4, "iv"), (1, "i")):
        while number >= value:
            out += glyph
            number -= value
    return out


def _ordinal(label: str, level: str) -> int | None:
    if level == "digit":
        return int(label) if label.isdigit() else None
    if level == "lower":
        if label.islower() and label.isalpha() and len(set(label)) == 1:
            return (ord(label[0]) - 96) + 26 * (len(label) - 1)
        return None
    if level == "upper":
        if label.isupper() and label.isalpha() and len(set(label)) == 1:
            return (ord(label[0]) - 64) + 26 * (len(label) - 1)
        return None
    if level == "roman":
        return roman_value(label) if label.islower() else None
    if level == "uproman":
        return roman_value(label) if label.isupper() else None
    return None


def _can_start(text: str, position: int, previous_end: int) -> bool:
    """Whether a marker at ``position`` sits where a subdivision can begin."""
    if position == 0 or position == previous_end:
        return True
    j = position - 1
    while j >= 0 and text[j] == " ":
        j -= 1
    if j < 0:
        return True
    if j == position - 1:  # nothing between: part of a word or a cross reference
        return text[j] == "\n"
    if j + 1 == previous_end:  # "(B) (i)": right after another marker
        return True
    if text[j] in ".;:—–\n":
        return True
    return bool(_AFTER_CONNECTIVE.search(text[max(0, j - 12) : j + 1]))


def _heading(text: str, start: int) -> str | None:
    match = _HEADING.match(text, start)
    if match is None:
        return None
    words = match[1].split()
    if not words or len(words) > 14:
        return None
    capitalised = sum(1 for w in words if w[:1].isupper() or w.lower() in _MINOR)
    return match[1].strip() if capitalised == len(words) else None


def subdivisions(text: str) -> list[SubdivisionRow]:
    """The subdivisions of a rule's text, each with its path, heading and span."""
    found: list[tuple[int, tuple[str, ...], str | None]] = []  # (start, path, heading)
    stack: list[tuple[str, int, str]] = []  # (level, ordinal, label) per depth
    levels: tuple[str, ...] | None = None
    previous_end = -1
    for match in _MARKER.finditer(text):
        label = match[1]
        if not _can_start(text, match.start(), previous_end):
            continue
        if levels is None:
            if label == "a":
                levels = _LEVELS_LETTER
            elif label == "1":
                levels = _LEVELS_DIGIT
            else:
                continue
        heading = _heading(text, match.end())
        depth = _place(label, stack, levels, heading)
        if depth is None:
            continue
        level = levels[depth]
        ordinal = _ordinal(label, level)
        assert ordinal is not None
        del stack[depth:]
        stack.append((level, ordinal, label))
        found.append((match.start(), tuple(s[2] for s in stack), heading))
        previous_end = match.end()
    rows: list[SubdivisionRow] = []
    for index, (start, path, heading) in enumerate(found):
        end = len(text)
        for later_start, later_path, _ in found[index + 1 :]:
            if len(later_path) <= len(path):
                end = later_start
                break
        rows.append(SubdivisionRow("/".join(path), heading, start, len(text[:end].rstrip())))
    return rows


def _place(
    label: str, stack: list[tuple[str, int, str]], levels: tuple[str, ...], heading: str | None
) -> int | None:
    """The depth at which ``label`` continues the tree, or ``None`` when it does not."""
    candidates: list[int] = []
    depth = len(stack)
    if depth < len(levels) and _ordinal(label, levels[depth]) == 1:
        candidates.append(depth)
    for k in range(len(stack) - 1, -1, -1):
        level, ordinal, _ = stack[k]
        if _ordinal(label, level) == ordinal + 1:
            candidates.append(k)
    if not candidates:
        return None
    if len(candidates) > 1 and heading is not None and heading.isupper():
        return min(candidates)  # an all-capitals heading marks a top-level subdivision
    return candidates[0]
