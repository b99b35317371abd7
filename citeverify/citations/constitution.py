"""Parser for constitutional provisions, federal and state.

Reads the Bluebook form (``U.S. Const. art. I, § 8, cl. 3``,
``U.S. Const. amend. XIV, § 1``, ``U.S. Const. pmbl.``), spelled-out and
inverted forms (``Art. I, Sec. 8, Cl. 3 of the U.S. Constitution``,
``Section 1 of the Fourteenth Amendment``), amendment names (``First
Amendment``, ``14th Amendment``) and well-known clause names (``the
Fourteenth Amendment's Equal Protection Clause``; ``the Commerce Clause`` is
art. I, § 8, cl. 3).  A named clause gives the section and clause where the
clause sits; an explicit section or clause in the text wins.

Numbers are read, not checked: ``amend. XXX`` parses as 30 (whether it
exists is the store's question).  A state constitution (``Cal. Const. art.
I, § 7``) gives ``jurisdiction`` ``us-`` plus the state's courts-db id.
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from citeverify._facts import jurisdiction_of
from citeverify.citations._tables import tables
from citeverify.citations._text import MAX_SCAN, clean, from_roman, to_roman
from citeverify.citations._types import ConstitutionCitation, NotACitation, ParsedCitation

__all__ = ["parse"]

EXPECTED: Final = (
    "expected a constitutional citation such as 'U.S. Const. art. I, § 8, cl. 3', "
    "'U.S. Const. amend. XIV, § 1' or 'First Amendment'"
)

_ORDINAL_WORDS: Final = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
)
_ORDINALS: Final = {word: index + 1 for index, word in enumerate(_ORDINAL_WORDS)}
for _unit, _value in list(_ORDINALS.items())[:9]:
    _ORDINALS[f"twenty-{_unit}"] = 20 + _value
    _ORDINALS[f"twenty {_unit}"] = 20 + _value

_NUM: Final = r"(?P<num>[IVXLCivxlc]{1,9}|\d{1,3})(?![\w])"
_ARTICLE: Final = re.compile(r"(?<![\w])art(?:icle)?\.?\s{0,2}" + _NUM, re.IGNORECASE)
_AMENDMENT: Final = re.compile(r"(?<![\w])amend(?:ment)?\.?\s{0,2}" + _NUM, re.IGNORECASE)
_PREAMBLE: Final = re.compile(r"(?<![\w])(?:pmbl\.?|preamble)(?![\w])", re.IGNORECASE)
_ORDINAL_AMENDMENT: Final = re.compile(
    r"(?<![\w])(?P<ord>(?:twenty[\s-])?[a-z]{4,12}|\d{1,2}(?:st|nd|rd|th|d))\s{1,2}amendment",
    re.IGNORECASE,
)
_SECTION: Final = re.compile(
    r"(?<![\w])(?:§|sec(?:tion)?\.?|s\.)\s{0,2}(?P<num>\d{1,3})(?![\d])", re.IGNORECASE
)
_CLAUSE: Final = re.compile(
    r"(?<![\w])cl(?:ause)?\.?\s{0,2}(?P<num>\d{1,2})(?![\d])", re.IGNORECASE
)
_CONSTITUTION: Final = re.compile(r"(?<![\w])const(?:\.|itution|(?![\w]))", re.IGNORECASE)
_STATE_CONST: Final = re.compile(
    r"(?<![\w.])(?P<state>(?:[A-Z][a-z]{0,10}\.?\s?){1,2}?)\s{0,2}Const(?:\.|itution|(?![\w]))"
)
_FEDERAL_CONST: Final = re.compile(
    r"(?:U\.?\s?S\.?|United\s{1,2}States)\s{0,2}Const(?:\.|itution|(?![\w]))|"
    r"Constitution\s{1,2}of\s{1,2}the\s{1,2}United\s{1,2}States",
    re.IGNORECASE,
)


class _Clause(NamedTuple):
    part: str
    number: int | None
    section: str | None
    clause: str | None


# Clause names that point to one place only.
_NAMED_CLAUSES: Final = {
    "equal protection clause": _Clause("amendment", 14, "1", None),
    "commerce clause": _Clause("article", 1, "8", "3"),
    "interstate commerce clause": _Clause("article", 1, "8", "3"),
    "necessary and proper clause": _Clause("article", 1, "8", "18"),
    "spending clause": _Clause("article", 1, "8", "1"),
    "taxing and spending clause": _Clause("article", 1, "8", "1"),
    "supremacy clause": _Clause("article", 6, None, "2"),
    "full faith and credit clause": _Clause("article", 4, "1", None),
    "contracts clause": _Clause("article", 1, "10", "1"),
    "contract clause": _Clause("article", 1, "10", "1"),
    "appointments clause": _Clause("article", 2, "2", "2"),
    "takings clause": _Clause("amendment", 5, None, None),
    "self-incrimination clause": _Clause("amendment", 5, None, None),
    "double jeopardy clause": _Clause("amendment", 5, None, None),
    "establishment clause": _Clause("amendment", 1, None, None),
    "free exercise clause": _Clause("amendment", 1, None, None),
    "free speech clause": _Clause("amendment", 1, None, None),
    "confrontation clause": _Clause("amendment", 6, None, None),
    "excessive fines clause": _Clause("amendment", 8, None, None),
    "cruel and unusual punishments clause": _Clause("amendment", 8, None, None),
    "citizenship clause": _Clause("amendment", 14, "1", None),
    "emoluments clause": _Clause("article", 1, "9", "8"),
    "speech or debate clause": _Clause("article", 1, "6", "1"),
    "presentment clause": _Clause("article", 1, "7", "2"),
    "guarantee clause": _Clause("article", 4, "4", None),
    "extradition clause": _Clause("article", 4, "2", "2"),
}
_NAMED: Final = re.compile(
    r"(?<![\w])("
    + "|".join(re.escape(k) for k in sorted(_NAMED_CLAUSES, key=len, reverse=True))
    + r")",
    re.IGNORECASE,
)


def _number(text: str) -> int | None:
    if text.isdigit():
        return int(text)
    return from_roman(text)


def _ordinal(text: str) -> int | None:
    folded = (
        " ".join(text.lower().split()).replace(" ", "-")
        if "twenty" in text.lower()
        else text.lower()
    )
    if folded in _ORDINALS:
        return _ORDINALS[folded]
    match = re.fullmatch(r"(\d{1,2})(?:st|nd|rd|th|d)", folded)
    return int(match.group(1)) if match else None


def _prefix(cleaned: str) -> tuple[str, str] | None:
    """``("U.S.", "us")`` or a state's ``("Cal.", "us-cal")``; ``None`` if none is named."""
    federal = _FEDERAL_CONST.search(cleaned)
    state_match = _STATE_CONST.search(cleaned)
    if state_match is not None and (federal is None or state_match.start() < federal.start()):
        state = " ".join(state_match.group("state").split())
        state_id = tables().states.get(state)
        if state_id is not None:
            return state, jurisdiction_of(state_id)
    if federal is not None:
        return "U.S.", "us"
    if _CONSTITUTION.search(cleaned):
        return "U.S.", "us"
    return None


def _after(pattern: re.Pattern[str], text: str, start: int, window: int = 60) -> str | None:
    match = pattern.search(text, start, min(len(text), start + window))
    return match.group("num") if match else None


def _normalized(
    prefix: str, part: str, number: int | None, section: str | None, clause: str | None
) -> str:
    if part == "preamble":
        return f"{prefix} Const. pmbl."
    label = "art." if part == "article" else "amend."
    text = f"{prefix} Const. {label} {to_roman(number) if number else ''}".rstrip()
    if section:
        text += f", § {section}"
    if clause:
        text += f", cl. {clause}"
    return text


def _parse(text: str) -> ParsedCitation:
    cleaned = clean(text[:MAX_SCAN])
    prefix = _prefix(cleaned)
    named_match = _NAMED.search(cleaned)
    named = _NAMED_CLAUSES[named_match.group(1).lower()] if named_match else None

    part: str | None = None
    number: int | None = None
    anchor = 0
    candidates: list[tuple[int, str, int | None, int]] = []
    for pattern, kind in ((_ARTICLE, "article"), (_AMENDMENT, "amendment")):
        match = pattern.search(cleaned)
        if match is not None:
            value = _number(match.group("num"))
            if value is not None:
                candidates.append((match.start(), kind, value, match.end()))
    ordinal = _ORDINAL_AMENDMENT.search(cleaned)
    if ordinal is not None:
        value = _ordinal(ordinal.group("ord"))
        if value is not None:
            candidates.append((ordinal.start(), "amendment", value, ordinal.end()))
    preamble = _PREAMBLE.search(cleaned)
    if preamble is not None:
        candidates.append((preamble.start(), "preamble", None, preamble.end()))
    if candidates:
        candidates.sort(key=lambda c: c[0])
        _, part, number, anchor = candidates[0]
    elif named is not None:
        part, number = named.part, named.number

    if part is None:
        return NotACitation(kind="constitution", raw=text, message=EXPECTED)
    explicit_prefix = prefix is not None
    if not explicit_prefix and part == "article" and named is None:
        # "art. I, § 8" alone names no constitution; an amendment is one.
        return NotACitation(kind="constitution", raw=text, message=EXPECTED)
    prefix_text, jurisdiction = prefix or ("U.S.", "us")

    section: str | None = None
    clause: str | None = None
    if part != "preamble":
        section = _after(_SECTION, cleaned, anchor)
        clause = _after(_CLAUSE, cleaned, anchor)
        if section is None and clause is None and candidates:
            # "Section 1 of the Fourteenth Amendment": the section comes first.
            first = candidates[0][0]
            section = _after(_SECTION, cleaned, max(0, first - 40), 40)
            clause = _after(_CLAUSE, cleaned, max(0, first - 40), 40)
        if named is not None and named.part == part and named.number == number:
            section = section or named.section
            clause = clause or named.clause
    return ConstitutionCitation(
        raw=text,
        normalized=_normalized(prefix_text, part, number, section, clause),
        part=part,
        number=number,
        section=section,
        clause=clause,
        jurisdiction=jurisdiction,
    )


def parse(text: str) -> ParsedCitation:
    """Parse ``text`` as a constitutional citation; never raises."""
    try:
        return _parse(text)
    except Exception as exc:  # a parser bug must not become a failed request
        return NotACitation(
            kind="constitution", raw=text, message=f"{EXPECTED} (parser error: {exc})"
        )


# The Bluebook form only: a prefix naming a constitution, then an article,
# an amendment or the preamble, with the section and clause that follow.
# Prose ("the First Amendment") is a mention, not a citation to find.
_FIND_NUM: Final = r"(?:[IVXLC]{1,9}|\d{1,3})(?![\w])"
_FIND_TAIL: Final = (
    r"(?:,?\s{0,2}(?:§|[Ss]ec(?:tion)?\.?)\s{0,2}\d{1,3}(?![\d]))?"
    r"(?:,?\s{0,2}[Cc]l(?:ause)?\.?\s{0,2}\d{1,2}(?![\d]))?"
)
_FIND: Final = re.compile(
    r"(?<![\w.])(?P<prefix>U\.\s?S\.|United\s{1,2}States|(?:[A-Z][A-Za-z]{0,10}\.?\s{0,2}){1,2}?)"
    r"\s{0,2}Const(?:\.|itution)?\s{0,2},?\s{0,2}"
    r"(?:(?:[Aa]rt(?:icle)?\.?|[Aa]mend(?:ment)?\.?)\s{0,2}" + _FIND_NUM + _FIND_TAIL
    + r"|(?:pmbl\.?|[Pp]reamble)(?![\w]))"
)


def patterns() -> tuple[re.Pattern[str], ...]:
    """The forms ``find`` looks for in a whole document."""
    return (_FIND,)


def known_prefix(prefix: str) -> bool:
    """Whether a constitution prefix names the United States or a state we know."""
    folded = " ".join(prefix.split())
    return folded in ("U.S.", "U. S.", "United States") or folded in tables().states
