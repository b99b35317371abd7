"""Every citation in a document's text, with its span: ``find``.

``parse`` reads one citation from a short text; ``find`` walks a whole brief
(megabytes) and yields each citation it meets, in document order, with the
half-open span of the original text it occupies.

How the work stays linear:

* The text is read in overlapping chunks of about ``_CHUNK`` characters,
  each cleaned (one character for one character, so offsets survive) and
  tokenized once; a citation near a chunk's end is left to the next chunk,
  which starts before it.
* Full case citations come from the case parser's token scanner; each scan
  resumes after the last citation's end, and everything read around a hit (the
  case name before it, pins, parallels and the parenthetical after it) is
  bounded by a constant number of tokens or characters.
* Short forms, statutes, rules and constitutions are each one anchored regular
  expression with bounded repetition, run once over the chunk (``finditer``).
* Explanatory parentheticals are read from a table of matching parentheses
  built in one pass over the chunk, so no parenthesis is scanned twice.

Overlaps between kinds are resolved by keeping the earlier (then the longer)
span, so the spans ``find`` yields are ordered and disjoint.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from typing import Any, ClassVar, Final

import attrs

from citeverify import _kinds
from citeverify.citations import case as _case
from citeverify.citations._text import clean, expand_range_end
from citeverify.citations._types import (
    CaseCitation,
    ConstitutionCitation,
    ParsedCitation,
    Pinpoint,
    RuleCitation,
    StatuteCitation,
)

__all__ = ["DEFAULT_KINDS", "Found", "ShortCitation", "find"]

#: Every kind whole-document mode finds, and the short forms that refer back to them.
DEFAULT_KINDS: Final = (*_kinds.kind_names(in_documents=True), "short")


@attrs.frozen(slots=True)
class ShortCitation:
    """A short form: Id., Ibid., 410 U.S. at 153, Roe, 410 U.S. at 153, Roe, supra, at 160,
    supra note 4, Id. § 1983(b).

    Short forms point back at an earlier authority; which one is the
    caller's question (``find`` does not resolve antecedents).
    """

    kind: ClassVar[str] = "short"
    raw: str  # the text exactly as in the document span
    form: str  # "id" | "ibid" | "reporter" | "supra" | "supra-note"
    pin: Pinpoint | None = None
    volume: str | None = None
    reporter: str | None = None
    name: str | None = None
    section: str | None = None
    note: str | None = None


FoundCitation = CaseCitation | StatuteCitation | RuleCitation | ConstitutionCitation | ShortCitation


@attrs.frozen(slots=True)
class Found:
    """One citation in a document: its span, the citation, its signal and parentheticals."""

    start: int  # half-open code-point span into the exact text passed to find()
    end: int
    citation: FoundCitation
    signal: str | None = None
    parentheticals: tuple[tuple[int, int], ...] = ()


# Chunks bound the token index's memory; a blank line is where a citation
# practically never continues.
_CHUNK: Final = 200_000
_CHUNK_SLACK: Final = 1_000  # a chunk ends at whitespace within this much of _CHUNK
_OVERLAP: Final = 4_000  # citations starting this close to a chunk's end wait for the next

# -- case names --------------------------------------------------------------

_MAX_NAME_TOKENS: Final = 24
_MAX_SHORT_NAME_TOKENS: Final = 6
_CONNECTORS: Final = frozenset(
    {
        "of",
        "the",
        "and",
        "&",
        "for",
        "ex",
        "rel.",
        "de",
        "la",
        "del",
        "von",
        "van",
        "der",
        "in",
        "on",
        "to",
        "a",
        "an",
        "re",
        "parte",
        "by",
        "v.",
        "vs.",
        "v",
        "et",
        "al.",
        "d/b/a",
    }
)
_SIGNAL_WORDS: Final = frozenset(
    {
        "see",
        "see,",
        "cf.",
        "cf.,",
        "compare",
        "accord",
        "accord,",
        "contra",
        "but",
        "also",
        "generally",
        "e.g.,",
        "e.g.",
        "with",
        "and",
        "quoting",
        "citing",
        "in",
    }
)
# Abbreviations that end a case-name word with a period without ending a
# sentence; a longer capitalized word with a period ends a sentence.
_NAME_ABBREVIATIONS: Final = frozenset(
    {
        "Transp.",
        "Comm'n",
        "Ass'n",
        "Educ.",
        "Indus.",
        "Enters.",
        "Servs.",
        "Hosps.",
        "Sys.",
        "Commc'ns",
        "Gov't",
        "Dep't",
        "Int'l",
        "Nat'l",
        "Prods.",
        "Holdings.",
        "Partners.",
        "Ctr.",
        "Cnty.",
        "Univ.",
        "Pharms.",
        "Techs.",
        "Mgmt.",
        "Corp.",
        "Assocs.",
        "Found.",
        "Comm'rs",
        "Inv.",
        "Invs.",
        "Fin.",
        "Elec.",
        "Cal.",
        "Mass.",
        "Wash.",
        "Penn.",
        "Conn.",
        "Tenn.",
        "Mich.",
        "Minn.",
        "Wis.",
    }
)
_SIGNAL_BEFORE: Final = re.compile(
    r"(?:^|(?<=[\s(;.:\"]))"
    r"(?P<signal>(?:[Ss]ee\s{1,3}also|[Ss]ee\s{1,3}generally|[Bb]ut\s{1,3}see|[Bb]ut\s{1,3}cf\.|"
    r"[Ss]ee|[Cc]f\.|[Cc]ompare|[Aa]ccord|[Cc]ontra|[Ee]\.g\.)(?:,?\s{1,3}e\.g\.)?,?)\s{1,5}$"
)
_SIGNAL_WINDOW: Final = 40
#: The last character of every ``_SIGNAL_BEFORE`` signal ("see", "also", "generally",
#: "cf.", "e.g.", "accord", "contra", "compare", and any of them with a comma).
_SIGNAL_LAST: Final = frozenset("eoy.da,")


_BRACKETS: Final = frozenset(";()[]{}")
# A document repeats its words: the two word tests below are answered once per
# distinct word (a bounded cache, so a long document holds no more than this).
_WORD_CACHE: Final = 8192


@functools.lru_cache(maxsize=_WORD_CACHE)
def _name_word(word: str, short: bool) -> bool:
    """Whether a token can be part of a case name (read right to left)."""
    bare = word.strip("\"'*_,")
    if not bare:
        return False
    if not _BRACKETS.isdisjoint(bare):
        return False
    if short:
        return bare[0].isupper() or bare in ("v.", "&", "of", "ex", "rel.")
    if bare in _CONNECTORS:
        return True
    first = bare[0]
    return first.isupper() or first.isdigit()


def _abbreviation(bare: str) -> bool:
    """``Co.``, ``Bd.``, ``U.S.``, ``Transp.``: a period that ends no sentence."""
    body = bare[:-1]
    return len(bare) <= 5 or "." in body or "'" in body or bare in _NAME_ABBREVIATIONS


@functools.lru_cache(maxsize=_WORD_CACHE)
def _ends_sentence(word: str, short: bool) -> bool:
    """Whether a token read right to left ends the sentence before a name."""
    bare = word.strip("\"'*_")
    if bare.lower() in ("id.", "ibid.", "supra.", "id.,"):
        return True
    if not bare.endswith((".", "?", "!", ":")):
        return False
    if bare[0].isdigit() or bare.endswith((":", "?", "!")):
        return True
    if bare in ("v.", "vs."):
        return False
    if short:
        return not (len(bare) <= 4 or "." in bare[:-1] or bare in _NAME_ABBREVIATIONS)
    return not _abbreviation(bare)


def _after_break(words: list[str], low: int, high: int) -> int:
    """The first token of ``low..high`` that follows a period, else ``high + 1``."""
    for index in range(high, low - 1, -1):
        if index > low and words[index - 1].endswith("."):
            previous = words[index - 1].strip("\"'*_")
            if previous not in ("v.", "vs.") and words[index][:1].isupper():
                return index
    return high + 1


def _offsets(text: str, literals: tuple[str, ...]) -> list[int]:
    """Every offset where one of ``literals`` begins, in order (overlaps included).

    ``str.find`` jumps to a rare literal in C; a regex opening with a character
    set (``[()]``, ``[Ii]``) is tried at every offset instead, the bulk of its cost.
    """
    found: list[int] = []
    for literal in literals:
        at = text.find(literal)
        while at >= 0:
            found.append(at)
            at = text.find(literal, at + 1)
    if len(literals) > 1:
        found.sort()
    return found


#: What a citation's explanatory parenthetical can open with (spaces before it).
_PAREN_OR_SPACE: Final = frozenset("( ")


class _Chunk:
    """One chunk of cleaned text with its token scanner and parenthesis table."""

    def __init__(self, cleaned: str, offset: int) -> None:
        self.cleaned = cleaned
        self.offset = offset
        self._scanner: _case._Scanner | None = None
        self._closers: dict[int, int] | None = None

    @property
    def scanner(self) -> _case._Scanner:
        """The token index, built on first use (statutes and rules never need it)."""
        if self._scanner is None:
            self._scanner = _case._Scanner(self.cleaned)
        return self._scanner

    def closers(self) -> dict[int, int]:
        """Offset of each ``(`` -> offset just past its matching ``)``, built once."""
        if self._closers is None:
            table: dict[int, int] = {}
            stack: list[int] = []
            depth = 0
            text = self.cleaned
            # Parentheses are rare: ``str.find`` skips to each in C, where a
            # character-set regex steps through every character.
            for at in _offsets(text, ("(", ")")):
                if text[at] == "(":
                    depth += 1
                    if len(stack) < 64:  # deeper is not prose: left unmatched
                        stack.append(at)
                elif depth > len(stack):
                    depth -= 1
                elif stack:
                    depth -= 1
                    table[stack.pop()] = at + 1
            self._closers = table
        return self._closers

    def parentheticals(self, position: int) -> tuple[tuple[int, int], ...]:
        """Spans of the explanatory parentheticals starting at ``position`` (after spaces)."""
        text = self.cleaned
        if text[position : position + 1] not in _PAREN_OR_SPACE:
            return ()  # most citations end before a comma or period: nothing to read
        spans: list[tuple[int, int]] = []
        for _ in range(8):
            at = position
            limit = min(len(text), at + 5)
            while at < limit and text[at] == " ":
                at += 1
            if at >= len(text) or text[at] != "(":
                break
            close = self.closers().get(at)
            if close is None:
                break
            spans.append((at, close))
            position = close
        return tuple(spans)

    def signal_before(self, start: int) -> str | None:
        window = self.cleaned[max(0, start - _SIGNAL_WINDOW) : start]
        # Only spaces follow a signal, so the window's last other character ends
        # one; testing that first spares most citations the search.
        if window.rstrip()[-1:] not in _SIGNAL_LAST:
            return None
        match = _SIGNAL_BEFORE.search(window)
        if match is None:
            return None
        return " ".join(match.group("signal").split())


def _name_start(
    chunk: _Chunk, volume_token: int, floor: int, short: bool, comma: bool = True
) -> int | None:
    """Offset where the case name before the citation at ``volume_token`` begins, if any.

    A name ends with a comma right before the volume (``comma``); in the New
    York and California styles, before the parenthesis, bracket, year or
    blank citation that opens the citation, with or without one.  Reading right to left,
    a full name must contain ``v.`` (or open with ``In re``/``Ex parte``); a
    short form's name is a few capitalized words.  Bounded by a constant
    number of tokens.
    """
    words, starts = chunk.scanner.words, chunk.scanner.starts
    index = volume_token - 1
    if index < 0 or starts[index] < floor or (comma and not words[index].endswith(",")):
        return None
    limit = _MAX_SHORT_NAME_TOKENS if short else _MAX_NAME_TOKENS
    first = index
    seen_v = False
    lowest = max(-1, index - limit)
    cursor = index
    while cursor > lowest:
        word = words[cursor]
        if starts[cursor] < floor:
            break
        bare = word.strip("\"'*_,")
        if cursor != index and (_ends_sentence(word, short) or (short and word.endswith(","))):
            break
        if not _name_word(word, short):
            break
        is_v = bare in ("v.", "vs.", "v")
        if is_v and seen_v:
            # a second "v.": the first name ended a sentence somewhere to the right
            first = _after_break(words, cursor + 1, index)
            break
        seen_v = seen_v or is_v
        first = cursor
        cursor -= 1
    # Trim leading lower-case words ("in Smith v. Jones" -> "Smith v. Jones")
    # and signals ("See Smith" -> "Smith").
    while first <= index:
        word = words[first].strip("\"'*_")
        lowered = word.lower()
        opener = lowered in _SIGNAL_WORDS or lowered.rstrip(",") in _SENTENCE_OPENERS
        if word and word[0].isupper() and not opener:
            break
        if word and word[0].isdigit():
            break
        if lowered in ("in", "ex") and first + 1 <= index:
            follower = words[first + 1].lower()
            if (lowered, follower) in (("in", "re"), ("ex", "parte")):
                break
        first += 1
    if first > index:
        return None
    if not short:
        name = [words[i].strip("\"'*_,").lower() for i in range(first, index + 1)]
        has_v = seen_v and any(w in ("v.", "vs.", "v") for w in name)
        opener = len(name) >= 2 and (name[0], name[1]) in (("in", "re"), ("ex", "parte"))
        if not (has_v or opener):
            return None
        if name[0] in ("v.", "vs.", "v") or name[-1] in ("v.", "vs.", "v"):
            return None
    return starts[first]


#: Words that open a sentence before a case name ("As Roe v. Wade, 410 U.S. 113, held"),
#: never the first word of a party's name in a citation.
_SENTENCE_OPENERS: Final = frozenset(
    {
        "as",
        "thus",
        "under",
        "in",
        "but",
        "and",
        "because",
        "although",
        "when",
        "while",
        "since",
        "after",
        "before",
        "here",
        "there",
        "moreover",
        "indeed",
        "similarly",
        "likewise",
        "accordingly",
        "following",
        "like",
        "unlike",
        "applying",
        "by",
        "for",
        "from",
        "with",
        "then",
        "so",
        "yet",
        "also",
        "where",
        "whereas",
        "if",
        "unless",
        "though",
        "until",
        "upon",
        "finally",
        "further",
        "furthermore",
        "however",
        "nevertheless",
        "notably",
        "specifically",
        "recently",
        "consistent",
        "relying",
        "citing",
        "quoting",
        "discussing",
        "explaining",
        "holding",
        "this",
        "that",
        "these",
        "those",
        "today",
        "later",
        "earlier",
        "first",
        "second",
        "third",
        "per",
    }
)
_CLOSERS: Final = {"(": ")", "[": "]"}
_RECORD_SPELLINGS: Final = frozenset({"App.", "R.", "Rec.", "Tr.", "A.", "J.A.", "ER", "Pet.App."})


def _record_cite(scanner: _case._Scanner, volume_token: int, hit: _case._Hit) -> bool:
    """Whether the reporter as written is a record abbreviation (``2 App. 45``, ``3 R. 45``)."""
    page_token = scanner.token_at(hit.end) - 1
    spelled = "".join(scanner.words[volume_token + 1 : page_token])
    return spelled in _RECORD_SPELLINGS


def _series_as_page(scanner: _case._Scanner, volume_token: int, hit: _case._Hit) -> bool:
    """Whether the "page" is the reporter's series: ``373 P. 3d, at 9`` is no ``373 P. 3``."""
    if hit.page is None or hit.page.isdigit():
        return False
    page_token = scanner.token_at(hit.end) - 1
    spelled = "".join(scanner.words[volume_token + 1 : page_token])
    return _case._reporter(spelled + hit.page, hit.volume) is not None


def _running_head(cleaned: str, start: int) -> bool:
    """Whether ``start`` follows ``Cite as:`` on its line (a slip opinion's running head)."""
    window = cleaned[max(0, start - 40) : start].rstrip()
    return window.endswith(("Cite as:", "Cite as :", "cite as:"))


# -- case citations ----------------------------------------------------------


def _cases(chunk: _Chunk, original: str) -> Iterator[Found]:
    scanner = chunk.scanner
    cleaned = chunk.cleaned
    floor = 0  # names never reach back past the previous citation
    token = 0
    count = len(scanner.words)
    while token < count:
        primary = scanner.first(token)
        if primary is None:
            return
        volume_token = scanner.token_at(primary.start)
        token = volume_token + 1
        if _running_head(cleaned, primary.start) or _series_as_page(scanner, volume_token, primary):
            continue
        extent = _case.extend(scanner, cleaned, primary)
        start = primary.start
        name: str | None = None
        before = _case.lead(cleaned, primary.start, floor)
        name_start = _name_start(
            chunk,
            scanner.token_at(before.start),
            floor,
            short=False,
            comma=before.start == primary.start,
        )
        if name_start is not None:
            name = _case._case_name(cleaned[name_start : before.start])
            if name is not None:
                start = name_start
        if (
            name is None
            and primary.system != "slip-opinion"
            and (primary.page is None or _record_cite(scanner, volume_token, primary))
        ):
            # a blank page with no name is a running head or a page blank;
            # "2 App. 45" and "3 R. 45" are record cites ("Ohio App.", "Rawle" to reporters-db)
            continue
        end = extent.end
        year = extent.year if extent.year is not None else before.year
        if name is not None and before.opener is not None:
            # "Rogers v Rogers (63 NY2d 582 [1984])": the span closes what it opened
            closer = _CLOSERS[before.opener]
            at = end
            while at < len(cleaned) and at < end + 3 and cleaned[at] == " ":
                at += 1
            if at < len(cleaned) and cleaned[at] == closer:
                end = at + 1
        citation = CaseCitation(
            raw=original[start:end],
            normalized=_case._normalized(primary)
            if primary.system != "ecli"
            else _case._ecli_text(cleaned, primary),
            system=primary.system,
            volume=primary.volume or None,
            reporter=primary.reporter,
            page=primary.page,
            pin=extent.pin,
            year=year,
            case_name=name,
            court=extent.court,
            parallels=extent.parallels,
            nominative=primary.nominative,
            docket=primary.docket,
        )
        yield Found(
            start=start,
            end=end,
            citation=citation,
            signal=chunk.signal_before(start),
            parentheticals=chunk.parentheticals(end),
        )
        floor = end
        token = max(token, scanner.token_at(end))


# -- short forms -------------------------------------------------------------

_PIN_TEXT: Final = (
    r"(?P<pin>\*{1,2}\d{1,7}(?:\s{0,2}-\s{0,2}\*{0,2}\d{1,7})?"
    r"|\d{1,7}(?:\s{0,2}-\s{0,2}\d{1,7})?(?:\s{0,2}nn?\.\s{0,2}\d{1,4}(?:\s{0,2}-\s{0,2}\d{1,4})?)?"
    r"|_{1,12})"
)
_AT_PIN: Final = r",?\s{1,3}at\s{1,3}" + _PIN_TEXT + r"(?![\w])"
# Both open with a letter, not with their lookbehind: a pattern that opens with a
# lookbehind is tried at every offset of the text, one that opens with a literal or a
# character set is skipped ahead to it in C (the lookbehind, read after the first
# letter, asks the same of the character before the word).
_ID: Final = re.compile(
    r"(?P<word>[Ii](?<![\w.][Ii])(?:d\.|bid(?:\.|(?![\w]))))"
    r"(?:" + _AT_PIN + r"|\s{1,3}(?P<sign>§§?)\s{0,3}"
    r"(?P<section>\d{1,6}[A-Za-z]{0,4}(?:-\d{1,5}[A-Za-z]{0,4}){0,3}(?:\([A-Za-z0-9]{1,6}\)){0,8}))?"
)
_SUPRA: Final = re.compile(
    r"supra(?<![\w]supra)(?:,?\s{1,3}note\s{1,3}(?P<note>\d{1,4}))?(?:" + _AT_PIN + r")?"
)
_SHORT_REPORTER_AT: Final = re.compile(r"\s{0,3},?\s{1,3}at\s{1,3}" + _PIN_TEXT + r"(?![\w])")


_PIN_PARTS: Final = re.compile(
    r"(\*{0,2})(\d{1,7})(?:\s?-\s?\*{0,2}(\d{1,7}))?(?:\s?(nn?\.)\s?(\S+))?"
)


def _short_pin(text: str | None) -> Pinpoint | None:
    if not text:
        return None
    pin = " ".join(text.split())
    if pin.startswith("_"):
        return None
    match = _PIN_PARTS.match(pin)
    if match is None:
        return Pinpoint(text=pin)
    footnote = match.group(5)
    if match.group(1):
        return Pinpoint(text=pin)
    first = int(match.group(2))
    last = expand_range_end(match.group(2), match.group(3)) if match.group(3) else first
    return Pinpoint(text=pin, first=first, last=last, footnote=footnote)


def _short_name(chunk: _Chunk, start: int, floor: int) -> tuple[int, str] | None:
    index = chunk.scanner.token_at(start)
    name_start = _name_start(chunk, index, floor, short=True)
    if name_start is None:
        return None
    name = chunk.cleaned[name_start:start].strip().rstrip(",").strip().strip("\"'*_")
    if not name or not name[0].isupper():
        return None
    return name_start, name


#: What every ``_ID`` match begins with.
_ID_LITERALS: Final = ("Id.", "id.", "Ibid", "ibid")


def _id_matches(cleaned: str) -> Iterator[re.Match[str]]:
    """Exactly ``_ID.finditer(cleaned)``, tried only where a match can begin.

    Every match begins with one of ``_ID_LITERALS`` (the ``word`` group), which
    ``str.find`` finds in C; ``finditer`` would try the pattern at every ``i``.
    A match at an offset is the same whether searched or matched there, and
    like ``finditer`` the next match is sought past the last one's end.
    """
    position = 0
    for offset in _offsets(cleaned, _ID_LITERALS):
        if offset < position:
            continue
        match = _ID.match(cleaned, offset)
        if match is not None:
            yield match
            position = match.end()


def _shorts(chunk: _Chunk, original: str) -> Iterator[Found]:
    cleaned = chunk.cleaned
    found: list[Found] = []
    for match in _id_matches(cleaned):
        word = match.group("word")
        form = "ibid" if word.lower().startswith("ibid") else "id"
        section = match.group("section")
        start, end = match.start(), match.end()
        citation = ShortCitation(
            raw=original[start:end],
            form=form,
            pin=_short_pin(match.group("pin")),
            section=section,
        )
        found.append(_found(chunk, start, end, citation))
    for match in _SUPRA.finditer(cleaned):
        note, pin = match.group("note"), match.group("pin")
        named = _short_name(chunk, match.start(), 0)
        if named is None and note is None and pin is None:
            continue  # "supra Part II": the brief's own cross-reference
        start = named[0] if named else match.start()
        end = match.end()
        citation = ShortCitation(
            raw=original[start:end],
            form="supra-note" if note else "supra",
            pin=_short_pin(pin),
            name=named[1] if named else None,
            note=note,
        )
        found.append(_found(chunk, start, end, citation))
    found.extend(_short_reporters(chunk, original))
    found.sort(key=lambda f: f.start)
    yield from found


def _short_reporters(chunk: _Chunk, original: str) -> Iterator[Found]:
    """``410 U.S. at 153`` and ``539 U. S., at 343``, with a name before when there is one."""
    words, starts = chunk.scanner.words, chunk.scanner.starts
    begins = chunk.scanner.begins_reporter
    cleaned = chunk.cleaned
    count = len(words)
    floor = 0
    for index in _volumes_before_at(chunk):
        volume = words[index]
        spelling = ""
        hit: tuple[int, str, re.Match[str]] | None = None
        for after in range(index + 1, min(count, index + 1 + _case._MAX_REPORTER_TOKENS)):
            word = words[after]
            bare = word.rstrip(",")
            candidate = spelling + bare
            if not begins(candidate):
                break
            spelling = candidate
            at = _SHORT_REPORTER_AT.match(cleaned, starts[after] + len(bare))
            if at is not None:
                hit = (after, spelling, at)
            if bare != word:
                break
        if hit is None:
            continue
        _after, spelling, at = hit
        entry = _case._reporter(spelling, volume)
        if entry is None or ("-" in volume and not entry.cite_type.startswith("specialty")):
            continue
        start = starts[index]
        if start < floor or _running_head(cleaned, start):
            continue
        named = _short_name(chunk, start, floor)
        if named is not None:
            start = named[0]
        end = at.end()
        citation = ShortCitation(
            raw=original[start:end],
            form="reporter",
            pin=_short_pin(at.group("pin")),
            volume=volume,
            reporter=entry.canonical,
            name=named[1] if named else None,
        )
        floor = end
        yield _found(chunk, start, end, citation)


# Opens with its literal, the space before read by a lookbehind: the engine skips
# ahead to each "at" rather than trying the pattern at every space.
_AT: Final = re.compile(r"at(?<=\sat)\s{1,3}[\d*_]")


def _volumes_before_at(chunk: _Chunk) -> Iterator[int]:
    """Tokens that may be the volume of ``<volume> <reporter> at <pin>``, in order.

    For each ``at`` followed by a pin, the nearest volume-like token in the
    ``_MAX_REPORTER_TOKENS`` tokens before it: a constant amount of work per ``at``.
    """
    words = chunk.scanner.words
    last = -1
    for match in _AT.finditer(chunk.cleaned):
        at_token = chunk.scanner.token_at(match.start())
        low = max(last + 1, at_token - _case._MAX_REPORTER_TOKENS - 1)
        for index in range(at_token - 2, low - 1, -1):
            word = words[index]
            if word[0].isdigit() and _case._VOLUME.fullmatch(word):
                last = index
                yield index
                break


def _found(chunk: _Chunk, start: int, end: int, citation: FoundCitation) -> Found:
    return Found(
        start=start,
        end=end,
        citation=citation,
        signal=chunk.signal_before(start),
        parentheticals=chunk.parentheticals(end),
    )


# -- statutes, rules, constitutions -----------------------------------------


# Cheap anchors every form of a kind contains; the kind's full patterns run
# only in windows around them (windows merge, so no character is read twice).
# Triggers are necessary conditions (every pattern match holds one), kept tight so
# that prose ("State", "Supreme", "Federal") opens no window.
_STATUTE_TRIGGER: Final = re.compile(
    r"U\.?\s?S\.?\s?C|C\.?\s?F\.?\s?R|Pub|P\.\s?L\.|Stat(?![a-z])|Code|Laws|ILCS|RCW|MCL|"
    r"O\.C\.G|N\.J\.S|M\.\s?G\.\s?L|C\.\s?P\.\s?L"
)
_RULE_TRIGGER: Final = re.compile(
    r"Fed(?![a-z])|Federal\s{0,2}R|FED|fed\.|F\.\s?R\.|FR[A-Z]|Rule|RULE|rule\s|Bankruptcy|"
    r"Sup(?![a-z])|Supreme\s{1,2}Court\s{1,2}Rule|S\.\s?Ct\.\s?R"
)
_CONSTITUTION_TRIGGER: Final = re.compile(r"Const")
_BEFORE: Final = 120  # the longest stretch of a match before its anchor
_AFTER: Final = 160  # and after it


def _windows(trigger: re.Pattern[str], text: str) -> list[tuple[int, int]]:
    windows: list[tuple[int, int]] = []
    size = len(text)
    for match in trigger.finditer(text):
        low, high = max(0, match.start() - _BEFORE), min(size, match.end() + _AFTER)
        if windows and low <= windows[-1][1]:
            windows[-1] = (windows[-1][0], high)
        else:
            windows.append((low, high))
    return windows


def _statutes(chunk: _Chunk, original: str) -> Iterator[Found]:
    from citeverify.citations import statute

    yield from _by_pattern(
        chunk,
        original,
        _STATUTE_TRIGGER,
        statute.patterns(),
        statute.parse,
        suffix=statute.YEAR_SUFFIX,
    )


def _rules(chunk: _Chunk, original: str) -> Iterator[Found]:
    from citeverify.citations import rule

    yield from _by_pattern(chunk, original, _RULE_TRIGGER, rule.patterns(), rule.parse)


def _constitutions(chunk: _Chunk, original: str) -> Iterator[Found]:
    from citeverify.citations import constitution

    def known(match: re.Match[str]) -> bool:
        return constitution.known_prefix(match.group("prefix"))

    yield from _by_pattern(
        chunk,
        original,
        _CONSTITUTION_TRIGGER,
        constitution.patterns(),
        constitution.parse,
        accept=known,
    )


def _by_pattern(
    chunk: _Chunk,
    original: str,
    trigger: re.Pattern[str],
    patterns: tuple[re.Pattern[str], ...],
    parse: Callable[[str], ParsedCitation],
    suffix: re.Pattern[str] | None = None,
    accept: Callable[[re.Match[str]], bool] | None = None,
) -> Iterator[Found]:
    """Each match of each pattern, read by the kind's ``parse`` over exactly its span.

    Reading the span with ``parse`` makes the fields exactly what ``parse``
    gives for the citation's own text.
    """
    spans: list[tuple[int, int]] = []
    # Each pattern's prefilter looked up once, not per window: a compiled
    # pattern's hash reads its whole code, a few microseconds each time.
    prefiltered = [(pattern, _first_characters(pattern)) for pattern in patterns]
    for low, high in _windows(trigger, chunk.cleaned):
        spans.extend(_matches(chunk, low, high, prefiltered, suffix, accept))
    spans = sorted(set(spans), key=lambda s: (s[0], -s[1]))
    last_end = -1
    for start, end in spans:
        if start < last_end:
            continue
        citation = parse(original[start:end])
        if isinstance(citation, (StatuteCitation, RuleCitation, ConstitutionCitation)):
            last_end = end
            yield _found(chunk, start, end, citation)


def _matches(
    chunk: _Chunk,
    low: int,
    high: int,
    patterns: list[tuple[re.Pattern[str], re.Pattern[str] | None]],
    suffix: re.Pattern[str] | None,
    accept: Callable[[re.Match[str]], bool] | None,
) -> Iterator[tuple[int, int]]:
    text = chunk.cleaned
    # Patterns of a kind often open alike (six statute patterns at a digit): the
    # offsets where a prefilter matches in this window are found once for all.
    offsets: dict[re.Pattern[str], list[int]] = {}
    for pattern, first in patterns:
        if first is None:
            matches: Iterator[re.Match[str]] = pattern.finditer(text, low, high)
        else:
            candidates = offsets.get(first)
            if candidates is None:
                candidates = [m.start() for m in first.finditer(text, low, high)]
                offsets[first] = candidates
            matches = _at_offsets(pattern, candidates, text, low, high)
        for match in matches:
            if accept is not None and not accept(match):
                continue
            end = match.end()
            if suffix is not None:
                tail = suffix.match(chunk.cleaned, end)
                if tail is not None:
                    end = tail.end()
            yield match.start(), end


def _finditer(pattern: re.Pattern[str], text: str, low: int, high: int) -> Iterator[re.Match[str]]:
    """Exactly ``pattern.finditer(text, low, high)``, faster when the first character is known.

    The statute, rule and constitution patterns open with a lookbehind, so the
    regex engine tries each of them at every offset of a window, which is most
    of their cost.  When the characters a match can begin with are known
    (``_first_characters``), a one-class pattern finds those offsets in C and
    the pattern is tried there alone.  No match begins anywhere else, and a
    match at an offset is the same whether searched or matched there, so the
    matches are the same; ``finditer`` stays the path for any other pattern.
    """
    first = _first_characters(pattern)
    if first is None:
        return pattern.finditer(text, low, high)
    offsets = (m.start() for m in first.finditer(text, low, high))
    return _at_offsets(pattern, offsets, text, low, high)


def _at_offsets(
    pattern: re.Pattern[str], offsets: Iterable[int], text: str, low: int, high: int
) -> Iterator[re.Match[str]]:
    """``pattern.finditer(text, low, high)`` given, in order, every offset where it can match."""
    position = low
    for offset in offsets:
        if offset < position:
            continue
        match = pattern.match(text, offset, high)
        if match is not None:
            yield match
            position = match.end()  # never empty: the pattern reads a first character


_CATEGORIES: Final = {
    "CATEGORY_DIGIT": r"\d",
    "CATEGORY_NOT_DIGIT": r"\D",
    "CATEGORY_WORD": r"\w",
    "CATEGORY_NOT_WORD": r"\W",
    "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S",
}


def _class_text(items: list[tuple[Any, Any]]) -> str | None:
    """A parsed character set (``LITERAL``, ``RANGE``, ``CATEGORY`` items) as class text."""
    parts: list[str] = []
    for op, av in items:
        name = str(op)
        if name == "LITERAL":
            parts.append(re.escape(chr(av)))
        elif name == "RANGE":
            parts.append(f"{re.escape(chr(av[0]))}-{re.escape(chr(av[1]))}")
        elif name == "CATEGORY" and str(av) in _CATEGORIES:
            parts.append(_CATEGORIES[str(av)])
        else:  # NEGATE and anything rarer: no set worth a prefilter
            return None
    return "".join(parts) if parts else None


def _first_items(items: list[tuple[Any, Any]]) -> tuple[list[tuple[Any, Any]], bool] | None:
    """The set items a match of ``items`` can begin with, and whether it can be empty.

    ``None`` when the first character is not a plain set (``.``, a negated set,
    a backreference, an unknown node): the caller then falls back to ``finditer``.
    Zero-width assertions consume nothing, so they are stepped over.
    """
    found: list[tuple[Any, Any]] = []
    for op, av in items:
        name = str(op)
        if name in ("ASSERT", "ASSERT_NOT", "AT"):
            continue
        if name == "LITERAL":
            return [*found, (op, av)], False
        if name == "IN":
            return [*found, *av], False
        if name == "SUBPATTERN":
            inner = _first_items(list(av[3]))
        elif name == "BRANCH":
            inner = _first_branch(av[1])
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            inner = _first_items(list(av[2]))
            if inner is not None and av[0] == 0:
                inner = (inner[0], True)
        else:
            return None
        if inner is None:
            return None
        found.extend(inner[0])
        if not inner[1]:
            return found, False
    return found, True


def _first_branch(alternatives: list[Any]) -> tuple[list[tuple[Any, Any]], bool] | None:
    found: list[tuple[Any, Any]] = []
    empty = False
    for alternative in alternatives:
        inner = _first_items(list(alternative))
        if inner is None:
            return None
        found.extend(inner[0])
        empty = empty or inner[1]
    return found, empty


@functools.cache
def _first_characters(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """A pattern finding the offsets where ``pattern`` can match, or ``None`` when unknown.

    Read from the pattern's own parse (``re._parser``), so it cannot drift from
    the pattern; a pattern that opens with a one-character lookbehind has it
    checked by the prefilter too.  Anything unexpected gives ``None``.
    """
    try:
        parser = importlib.import_module("re._parser")
        parsed = list(parser.parse(pattern.pattern, pattern.flags))
        first = _first_items(parsed)
        if first is None or first[1]:
            return None  # unknown, or the pattern can match empty
        text = _class_text(first[0])
        if text is None:
            return None
        # A pattern opening with a word ("Federal", "Cal.") is found by that word
        # itself, which the engine looks for as a string.
        literal = ""
        for op, av in (item for item in parsed if str(item[0]) not in ("ASSERT", "ASSERT_NOT")):
            if str(op) != "LITERAL":
                break
            literal += chr(av)
        if len(literal) >= 2:
            text, width = re.escape(literal), len(literal)
        else:
            text, width = f"[{text}]", 1
        behind = ""
        if parsed and str(parsed[0][0]) == "ASSERT_NOT" and parsed[0][1][0] == -1:
            body = list(parsed[0][1][1])
            if len(body) == 1 and str(body[0][0]) in ("IN", "LITERAL"):
                items = body[0][1] if str(body[0][0]) == "IN" else [body[0]]
                refused = _class_text(list(items))
                if refused is not None:
                    # read after the first character: the one before it is not refused
                    behind = rf"(?<![{refused}][\s\S]{{{width}}})"
        return re.compile(f"{text}{behind}", pattern.flags)
    except Exception:  # a parser that changed shape: the plain path is always right
        return None


# -- the whole text ----------------------------------------------------------


def _whitespace_after(text: str, low: int, high: int) -> int:
    """The first offset in ``low..high`` just past whitespace, else ``high``."""
    match = _SPACE.search(text, low, high)
    return match.end() if match else high


_SPACE: Final = re.compile(r"\s")


_FINDERS: Final = (
    ("case", _cases),
    ("short", _shorts),
    ("statute", _statutes),
    ("rule", _rules),
    ("constitution", _constitutions),
)


def _find_chunk(text: str, kinds: Collection[str]) -> list[Found]:
    chunk = _Chunk(clean(text), 0)
    found: list[Found] = []
    for kind, finder in _FINDERS:
        if kind in kinds:
            found.extend(finder(chunk, text))
    found.sort(key=lambda f: (f.start, -(f.end - f.start)))
    kept: list[Found] = []
    last_end = 0
    for item in found:
        if item.start >= last_end and item.end > item.start:
            kept.append(item)
            last_end = item.end
    return kept


def _shift(found: Found, offset: int) -> Found:
    if offset == 0:
        return found
    return attrs.evolve(
        found,
        start=found.start + offset,
        end=found.end + offset,
        parentheticals=tuple((a + offset, b + offset) for a, b in found.parentheticals),
    )


def find(text: str, kinds: Collection[str] = DEFAULT_KINDS) -> Iterator[Found]:
    """Every citation in text, in document order, non-overlapping; never raises.

    ``kinds`` chooses among ``case``, ``statute``, ``rule``, ``constitution``
    and ``short``.  Spans are code-point offsets into ``text`` itself;
    ``found.citation.raw == text[found.start:found.end]``.
    """
    if not isinstance(text, str):
        return
    if isinstance(kinds, str):  # find(text, "case") means the one kind
        kinds = (kinds,)
    try:
        wanted = frozenset(k for k in kinds if isinstance(k, str))
    except TypeError:
        return
    # Chunks overlap: a chunk's citations that start in its last _OVERLAP
    # characters are dropped and found again, whole, by the next chunk.
    size = len(text)
    position = 0
    while position < size:
        end = min(size, position + _CHUNK)
        final = end == size
        if not final:
            end = _whitespace_after(text, end - _CHUNK_SLACK, end)
        try:
            items = _find_chunk(text[position:end], wanted)
        except Exception:  # a finder bug must not lose the rest of the document
            items = []
        if final:
            for item in items:
                yield _shift(item, position)
            return
        safe = _whitespace_after(text, end - _OVERLAP, end)
        following = safe
        for item in items:
            if position + item.start >= safe:
                break
            following = max(following, position + item.end)
            yield _shift(item, position)
        position = following
