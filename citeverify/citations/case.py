"""Parser for case citations: reporter, neutral, Westlaw/Lexis and ECLI forms.

How it works, and why it is fast: the text is split into whitespace tokens
once.  Every token made of digits is a possible volume; the tokens after it
(at most twelve, the longest reporter spelling) are joined without spaces and
looked up in a dict of every reporters-db spelling, longest first, wanting a
page number right after.  No regular expression over thousands of reporter
names is compiled or run.  Around the first match, a small local grammar reads
pins, parallel citations and the parenthetical; the court in the
parenthetical is one dict lookup in a table folded from courts-db's Bluebook
abbreviations (``11th Cir.`` -> ``11thcir`` -> ``ca11``).

Every loop is bounded by the number of tokens and every regular expression is
anchored with bounded repetition, so time grows linearly with the input.

Conventions (the rest of the system keys on them):

* ``reporter`` is reporters-db's canonical abbreviation; ``normalized`` is
  ``"{volume} {reporter} {page}"`` for every system, neutral ones included
  (``2020-Ohio-1234`` -> ``2020 Ohio 1234``).
* The early nominative reporters map to U.S. Reports (``1 Cranch 137`` ->
  ``5 U.S. 137``, nominative ``1 Cranch 137``).  A state report with its
  nominative volume in parentheses keeps the official volume
  (``83 Mass. (1 Allen) 456`` -> ``83 Mass. 456``, nominative ``1 Allen 456``).
* Neutral citations: ``volume`` is the year, ``reporter`` reporters-db's
  public-domain abbreviation, ``page`` the opinion number with any suffix.
  Illinois's appellate district is part of the reporter, as in reporters-db
  (``2013 IL App (1st) 111279-U`` -> ``2013``, ``IL App (1st)``,
  ``111279-U``; the ``-U`` of a Rule 23 order and ``-B`` stay on the page).
  A paragraph pin (``¶ 15``, ``¶¶ 12-14``) keeps its text with
  ``first``/``last`` ``None``: paragraphs are not pages.
* ``court`` is only the court *as cited* in the parenthetical; a U.S. Reports
  citation without one has ``court`` ``None`` (the Supreme Court is implied,
  and the comparison layer knows it).
* ``pin`` is the first pin cite of the primary citation (``113, 153, 155``
  gives 153).  A Westlaw or Lexis star page (``at *3``) keeps its text with
  ``first``/``last`` ``None``.
* ECLI identifiers give ``reporter`` ``ECLI``, no volume or page, ``year``
  from the identifier.
* ``year`` of a neutral, Westlaw, Lexis or Tax Court number is its volume
  (``2015 WL 13908106`` -> 2015) unless a dated parenthetical says otherwise.
* Tax Court memoranda and summary opinions (system ``tax-court``): volume the
  year, reporter reporters-db's ``T.C. Memo.`` or ``T.C. Summary Opinion``,
  page the number (``T.C. Memo. 2019-233`` -> ``2019 T.C. Memo. 233``).
* Slip opinions (system ``slip-opinion``): a docket number followed by
  ``slip op.``; ``volume`` and ``page`` ``None``, ``reporter`` ``slip op.``,
  the docket number in ``docket``, the slip page in ``pin``, and
  ``normalized`` ``No. 21-1234, slip op.`` (the one exception to the
  volume-reporter-page form).  A docket number alone is no citation.
* New York and California official styles: ``Rogers v Rogers (63 NY2d 582
  [1984])`` (a bracketed year and court are a parenthetical), ``People v.
  Anderson (1987) 43 Cal.3d 1104`` (the year before the citation), and
  ``Viking v. Moriana (2022) _ U.S. _ [213 L.Ed.2d 179]``: a blank official
  citation cannot be looked up, so the bracketed parallel is the citation
  and the blank stays in ``raw`` only.
* Looseleaf services' paragraph numbers are pages (``141 FERC ¶ 61,049`` ->
  page ``61,049``); front-matter pages are Roman numerals (``lxiv``).
"""

from __future__ import annotations

import bisect
import functools
import itertools
import operator
import re
from typing import Final, NamedTuple

from citeverify._facts import jurisdiction_of
from citeverify.citations._tables import (
    CourtEntry,
    ReporterEntry,
    fold_court,
    loosen,
    named_courts,
    tables,
)
from citeverify.citations._text import clean, expand_range_end, strip_signal
from citeverify.citations._types import (
    CaseCitation,
    CourtRef,
    NotACitation,
    ParsedCitation,
    Pinpoint,
)

__all__ = ["Extent", "extend", "parse", "resolve_court"]

EXPECTED: Final = (
    "expected a case citation such as '410 U.S. 113' or '925 F.3d 1339 (11th Cir. 2019)'"
)

_MAX_REPORTER_TOKENS: Final = 12
_MAX_NAME: Final = 400
# A "(" or "[" right before a digit is a token of its own, so the volume of
# New York's "(63 NY2d 582 [1984])" and of California's bracketed parallel
# "[213 L.Ed.2d 179]" is a token (and so is the "T.C." of "(T.C. Memo.
# 2019-233)", the "No." of "(No. 21-1234, slip op. at 5)"); reporter
# spellings are joined without spaces, so splitting "(1st)" off "IL App"
# changes no spelling.
_TOKEN: Final = re.compile(r"[(\[](?=\d|T\.|No\.)|\S+")
# Where ``_TOKEN`` splits a "(" or "[" that begins a word off what follows it
# (``_words_and_starts`` splits at whitespace first, then at these offsets).
_OPENER: Final = re.compile(r"[(\[](?<!\S[(\[])(?=\d|T\.|No\.)")
# A volume, with the letter of a split volume (``17A N.Y.2d 7``, ``402A Mich 117``),
# or a looseleaf service's year and half (``1986-1 Trade Cas. (CCH) ¶ 66,984``).
_VOLUME: Final = re.compile(r"\d{1,5}[A-Z]?|(?:19|20)?\d\d-[1-4]")
# Where a citation can begin (see ``_Scanner.candidates``), one regex pass over the text,
# mirroring ``_TOKEN``: a token (or the token after a "(" or "[" split off before it)
# that is a volume followed by a token that is not a number (no reporter spelling begins
# with a digit), a token of digits then a capital or a hyphen (``_VOLUME``'s split and
# looseleaf volumes, hyphenated and compact neutral citations), an ECLI, or the "No."
# and "T." that begin slip opinions and Tax Court memoranda.  Written as
#     (?<!\S)[(\[]?(?:\d{1,5}(?=\s+[^\s\d])|\d+[A-Z\-]|[Ee][Cc][Ll][Ii]:|[Nn]o\.|T\.)
# it opens with a lookbehind, which makes the engine try it at every character of a
# document; below it opens with the set of first characters instead (which the
# engine skips to in C) and checks "no non-space before it" and which branch applies
# by lookbehinds after that character: the same matches, in about half the time.
_CANDIDATE: Final = re.compile(
    r"[(\[\dEeNnT](?<!\S[(\[\dEeNnT])"
    r"(?:(?<=[(\[])(?:\d{1,5}(?=\s+[^\s\d])|\d+[A-Z\-]|[Ee][Cc][Ll][Ii]:|[Nn]o\.|T\.)"
    r"|(?<=\d)(?:\d{0,4}(?=\s+[^\s\d])|\d*[A-Z\-])"
    r"|(?<=[Ee])[Cc][Ll][Ii]:|(?<=[Nn])o\.|(?<=T)\.)"
)
# A page, with the suffixes courts add to it: a letter or two (``189A``,
# ``47M``, ``160407WC``, ``736a``), Illinois's ``-U``/``-B`` (``111279-U``),
# New York's unreported ``(A)``/``[U]``; a blank slip-opinion page (``___``);
# or a lower-case Roman numeral, as front-matter pages are numbered
# (``12 Neb. App. lxiv``), but never a lone ``v`` (``v.`` is "versus") or ``i.e.``.
_PAGE: Final = re.compile(
    # a series ("2d", "4th") is no page: "8 Am. Jur. 2d" names an encyclopedia's volume
    r"(?!\d{1,2}(?:st|nd|rd|th|d)(?:$|[,;:.)\]]))"
    r"(\d{1,8}(?:[A-Za-z]{1,2}|-[A-Z]{1,2}|\([A-Z]\)|\[[A-Z]\])?|_{1,12}"
    r"|(?!v(?:$|[,;:.)\]])|i\.e)(?=[clxvi])c{0,3}(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})"
    r"|(?=[CLXVI]{2})C{0,3}(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3}))"
    r"(?:$|(?=[,;:.)\]]))"
)
# A year set between reporter and page, as nineteenth-century reports were
# cited (``5 Am. Law Reg. (1857) 280``, ``126 S. Ct. (2006) 1910``).
_INTERPOSED_YEAR: Final = re.compile(r"\((1[6-9]\d\d|20\d\d),?\)\s{1,3}")
# A looseleaf service's paragraph number for a page (``141 FERC ¶ 61,049``,
# ``153 Lab. Cas. (CCH) P 60,267``, ``42 Empl. Prac. Dec. (CCH) par. 36,973``).
_PARAGRAPH_PAGE: Final = re.compile(
    r"(?:\u00b6{1,2}|P|par\.|para\.)\s{0,2}(\d{1,3}(?:,\d{3}){1,2}[A-Z]?|\d{1,7}[A-Z]?)"
    r"(?:$|(?=[\s,;:.)\]]))"
)
_HYPHEN_NEUTRAL: Final = re.compile(r"(\d{4})-([A-Za-z]{2,12})-(\d{1,7})(?:$|(?=[,;:.)\]]))")
# The same with the spaces reporters-db's examples show (``2017 -Ohio- 2951``).
_SPACED_HYPHEN_NEUTRAL: Final = re.compile(
    r"(\d{4}) {1,3}-([A-Za-z]{2,12})- {1,3}(\d{1,7})(?:$|(?=[\s,;:.)\]]))"
)
# A neutral citation written without spaces (``2021COA112``).
_COMPACT_NEUTRAL: Final = re.compile(
    r"((?:19|20)\d\d)([A-Z]{2,6})(\d{1,7}[A-Z]?)(?:$|(?=[,;:.)\]]))"
)
# Tax Court memorandum and summary opinions: ``T.C. Memo. 2019-233``,
# ``T.C. Summ. Op. 2010-12``; the year is the volume, the number the page.
_TAX_COURT: Final = re.compile(
    r"T\.\s?C\.\s{1,3}(?:(Memo)\.?|Summ(?:\.|ary)\s{1,3}Op(?:\.|inion))"
    r"\s{1,3}((?:19|20)\d\d)\s?-\s?(\d{1,5})(?:$|(?=[\s,;:.)\]]))"
)
_ECLI: Final = re.compile(
    r"ECLI:([A-Z]{2}):([A-Z0-9.]{1,7}):(\d{4}):([A-Z0-9.]{1,25}[A-Z0-9])", re.IGNORECASE
)
_NOMINATIVE: Final = re.compile(
    r"\(\s{0,3}(?:(\d{1,2})\s{1,3})?([A-Za-z][A-Za-z.&' ]{0,24}?)\s{0,3}\)"
)
_SEPARATOR: Final = re.compile(r"\s{0,5},?\s{0,5}")
# A pin, also a slip opinion's page after a blank (``597 U.S. ___, slip op. at 5``).
_PIN: Final = re.compile(
    r"\s{0,5}(?:,\s{0,5})?(?:slip\s{1,3}op\.,?\s{1,3})?(?:at\s{1,5})?"
    r"(\*{0,2}\d{1,7}|_{1,12})(?:\s{0,3}-\s{0,3}(\*{0,2}\d{1,7}))?"
    r"(?:\s{0,3}(?:&\s{0,3})?nn?\.\s{0,3}(\d{1,4}(?:\s{0,3}-\s{0,3}\d{1,4})?))?"
    r"(?=$|[\s,;.)(\]])"
)
_MORE_PINS: Final = re.compile(
    r"\s{0,5},\s{0,5}(?:\*{0,2}\d{1,7}(?:\s{0,3}-\s{0,3}\*{0,2}\d{1,7})?)(?=$|[\s,;.)(\]])(?!\s{1,5}[A-Za-z])"
)
# A paragraph pin, as public-domain citations are pinned (``2019 ME 1, ¶ 9``).
_PARAGRAPH_PIN: Final = re.compile(
    r"\s{0,5}(?:,\s{0,5})?(?:at\s{1,5})?(?:\u00b6{1,2}|[Pp]aras?\.)\s{0,3}"
    r"\d{1,5}(?:\s{0,3}-\s{0,3}\d{1,5})?(?=$|[\s,;.)(\]])"
)
# A parenthetical, or New York's bracketed one (``63 NY2d 582 [1984]``).
_PARENTHETICAL: Final = re.compile(r"\s{0,5}(?:\(([^()]{0,200})\)|\[([^\[\]]{0,200})\])")
# What may stand between a case name and the volume in the New York and
# California official styles: California's year before the citation
# ``(1987)``, a blank official citation ``_ U.S. _`` whose parallel follows in
# brackets, and the "(" or "[" opening the citation.  Searched for in the
# _LEAD_WINDOW characters before a volume only, so the work is bounded.
_LEAD: Final = re.compile(
    r"(?:\((?P<year>1[6-9]\d\d|20\d\d)\)\s{1,3})?"
    r"(?P<blank>_{1,12}\s{1,3}[A-Za-z0-9. ']{1,30}?\s{1,3}_{1,12}\s{0,3})?"
    r"(?P<opener>[(\[])?$"
)
_LEAD_WINDOW: Final = 64
# A slip opinion: docket number and "slip op." (``No. 21-1234, slip op. at 5``).
# A docket number alone is no citation.
_SLIP: Final = re.compile(
    r"[Nn]o\.\s{1,3}(?P<docket>[0-9A-Za-z](?:[0-9A-Za-z:\-]{0,30}[0-9A-Za-z])?),?\s{1,3}"
    r"slip\s{1,3}op\.?(?=$|[\s,;)\]])"
)
_YEAR: Final = re.compile(r"(?<!\d)(1[6-9]\d\d|20\d\d)(?!\d)")
_DATE_TAIL: Final = re.compile(
    r"(?:(?:Jan|Feb|Mar|Apr|May|June?|July?|Aug|Sept?|Oct|Nov|Dec)[a-z]{0,6}\.?"
    r"\s{1,3}(?:\d{1,2},?\s{0,3})?)$"
)
_COURT_CUT: Final = re.compile(r"\s*(?:-|\[|,|;)")
_TYPE_PRIORITY: Final = {
    "scotus_early": 0,  # "4 Wall. 2" is Wallace's Supreme Court reports, not the circuit ones
    "federal": 1,
    "state_regional": 2,
    "state": 3,
    "neutral": 4,
    "specialty_west": 5,
    "specialty_lexis": 6,
    "specialty": 7,
}
_SYSTEMS: Final = {"neutral": "neutral", "specialty_west": "westlaw", "specialty_lexis": "lexis"}
_YEAR_SYSTEMS: Final = frozenset({"neutral", "westlaw", "lexis", "tax-court"})
_SUPREME_REPORTERS: Final = frozenset({"U.S.", "S. Ct.", "L. Ed.", "L. Ed. 2d"})


class _Hit(NamedTuple):
    """One volume-reporter-page found in the text."""

    start: int  # offset of the volume
    end: int  # offset just past the page
    volume: str
    reporter: str
    page: str | None
    system: str
    nominative: str | None
    year: int | None = None
    docket: str | None = None


class Lead(NamedTuple):
    """What comes between a case name and the volume in the New York and California styles."""

    start: int  # where the name ends and the citation's own text begins
    opener: str | None  # "(" or "[" right before the volume, closed after the citation
    year: int | None  # California's year before the citation: "People v. Anderson (1987) 43 Cal.3d"


def lead(cleaned: str, volume_start: int, floor: int = 0) -> Lead:
    """The year, blank citation and opener before ``volume_start``, not reaching before ``floor``.

    ``Rogers v Rogers (63 NY2d 582 [1984])``: opener "(".
    ``Viking v. Moriana (2022) _ U.S. _ [213 L.Ed.2d 179]``: year 2022, opener "[".
    ``People v. Anderson (1987) 43 Cal.3d 1104``: year 1987.
    """
    low = max(floor, volume_start - _LEAD_WINDOW)
    # Each group of ``_LEAD`` ends the window: the year's ")" and spaces, the
    # blank's "_" and spaces, the opener.  Most citations follow ", " or a word,
    # so the window's last character other than a space settles it without a
    # search (``_lead_searched`` stays the definition; a test compares the two).
    if cleaned[low:volume_start].rstrip()[-1:] not in _LEAD_LAST:
        return Lead(volume_start, None, None)
    return _lead_searched(cleaned, volume_start, low)


#: The characters a window holding a group of ``_LEAD`` ends with, spaces aside.
_LEAD_LAST: Final = frozenset("([_)")


def _lead_searched(cleaned: str, volume_start: int, low: int) -> Lead:
    """``lead`` by the regex alone, over ``cleaned[low:volume_start]``."""
    match = _LEAD.search(cleaned, low, volume_start)
    if match is None or not any(match.group("year", "blank", "opener")):
        return Lead(volume_start, None, None)
    if match.group("blank") is not None and match.group("opener") != "[":
        # "_ U.S. _ 213 L.Ed.2d 179" is no California parallel
        return Lead(volume_start, None, None)
    year = int(match.group("year")) if match.group("year") else None
    return Lead(match.start(), match.group("opener"), year)


def _split_openers(
    words: list[str], starts: list[int], openers: list[int]
) -> tuple[list[str], list[int]]:
    """Split each word that begins at an offset of ``openers`` into its "(" or "[" and
    the rest, as ``_TOKEN`` does; the lists are rebuilt once, slice by slice."""
    out: list[str] = []
    out_starts: list[int] = []
    done = 0
    for offset in openers:
        index = bisect.bisect_left(starts, offset, done)
        out += words[done:index]
        out_starts += starts[done:index]
        word = words[index]
        out += (word[0], word[1:])
        out_starts += (offset, offset + 1)
        done = index + 1
    out += words[done:]
    out_starts += starts[done:]
    return out, out_starts


def tokenize(text: str) -> list[tuple[int, int, str]]:
    """``_TOKEN``'s tokens of ``text`` as ``(start, end, token)``, built without a Python loop."""
    return _tokens_and_starts(text)[0]


def _tokens_and_starts(text: str) -> tuple[list[tuple[int, int, str]], list[int]]:
    """``tokenize(text)`` and the tokens' starts: ``_words_and_starts`` as triples."""
    words, starts = _words_and_starts(text)
    ends = map(operator.add, starts, map(len, words))
    return list(zip(starts, ends, words, strict=True)), starts


#: Every character ``\s`` matches (and ``str.isspace`` accepts, and ``str.split``
#: splits at) but the space; ``tests/test_case_scanner.py`` checks the three agree.
_OTHER_WHITESPACE: Final = tuple(
    c for c in map(chr, range(0x3001)) if c.isspace() and c != " "
)
_ASCII_OTHER_WHITESPACE: Final = tuple(c for c in _OTHER_WHITESPACE if c.isascii())


def _words_and_starts(text: str) -> tuple[list[str], list[int]]:
    """``_TOKEN``'s tokens of ``text`` as two parallel lists: the words and their starts.

    The scanner indexes a token's word and start, and finds a token by bisecting
    the starts; a token's end is its start plus its word's length.  No
    ``(start, end, word)`` tuple is built: a brief has a token every six
    characters, and the tuples and a regex split at whitespace were most of
    the cost of reading a long document.

    Every whitespace character other than the space is replaced by a space
    (``str.replace``, one fast scan in C per character the text holds; cleaned
    text holds none), so the text splits at single spaces, one character for
    one character: part ``k`` begins after the ``k`` spaces and the parts
    before it, and the empty parts (between two spaces) are dropped with their
    starts.  The few words that begin with a "(" or "[" that ``_TOKEN`` splits
    off are split afterwards.
    """
    spaced = text
    for character in _ASCII_OTHER_WHITESPACE if text.isascii() else _OTHER_WHITESPACE:
        if character in spaced:
            spaced = spaced.replace(character, " ")
    parts = spaced.split(" ")
    words = list(filter(None, parts))
    part_starts = map(
        operator.add, itertools.accumulate(map(len, parts), initial=0), itertools.count()
    )
    starts = list(itertools.compress(part_starts, parts))
    if "(" in text or "[" in text:
        openers = [m.start() for m in _OPENER.finditer(text)]
        if openers:
            return _split_openers(words, starts, openers)
    return words, starts


class _Scanner:
    """Token index over the cleaned text, for citation lookups at any token."""

    def __init__(self, text: str) -> None:
        self.text = text
        # token ``i`` is ``words[i]``, beginning at ``starts[i]``
        self.words, self.starts = _words_and_starts(text)
        self._candidates: list[int] | None = None
        self._prefixes: dict[str, bool] = {}

    def begins_reporter(self, spelling: str) -> bool:
        """Whether some reporter spelling, exact or loose, begins with ``spelling``.

        Asked for the words after every possible volume; a document repeats them
        ("U.", "(", "and"), so each answer is kept for the scanner's text, which
        spares most of the ``loosen`` calls (a regex substitution each).
        """
        known = self._prefixes.get(spelling)
        if known is None:
            prefixes = tables().prefixes
            known = spelling in prefixes or loosen(spelling) in prefixes
            self._prefixes[spelling] = known
        return known

    def candidates(self) -> list[int]:
        """Indices of the tokens a citation can begin at, found by one regex pass.

        A brief is mostly words; only a volume followed by a word, a neutral
        citation token or an ECLI can begin a citation, so ``first`` looks at
        those alone instead of testing every token in Python.
        """
        if self._candidates is None:
            starts = self.starts
            found = [m.start() + (m.group()[0] in "([") for m in _CANDIDATE.finditer(self.text)]
            # A candidate is a token start (token starts strictly increase, so bisect
            # finds its index), except the rare "(no." that _TOKEN keeps whole, which
            # bisect maps to the token after it (or past the last token, when the
            # text ends in it: that one is dropped).  A brief has a token every six
            # characters and a candidate every few hundred: bisecting the few beats
            # indexing the many.
            indices = [bisect.bisect_left(starts, o) for o in found]
            if indices and indices[-1] == len(starts):
                indices = [i for i in indices if i < len(starts)]
            self._candidates = indices
        return self._candidates

    def token_at(self, offset: int) -> int:
        """Index of the first token starting at or after ``offset``."""
        return bisect.bisect_left(self.starts, offset)

    def first(self, from_token: int = 0) -> _Hit | None:
        """The first citation at or after token ``from_token``."""
        candidates = self.candidates()
        for position in range(bisect.bisect_left(candidates, from_token), len(candidates)):
            hit = self.at(candidates[position])
            if hit is not None:
                return hit
        return None

    def at(self, index: int) -> _Hit | None:
        """The citation whose first token is token ``index``, if any."""
        start = self.starts[index]
        token = self.words[index]
        if token[0].isdigit():
            if _VOLUME.fullmatch(token):
                hit = self._reporter_cite(index)
                if hit is None and len(token) == 4 and self._next_starts(index, "-"):
                    # a slice, so offsets are relative to the volume as for a token;
                    # 40 characters exceed the longest match
                    spaced = _SPACED_HYPHEN_NEUTRAL.match(self.text[start : start + 40])
                    if spaced:
                        return self._hyphen_neutral(start, spaced)
                return hit
            match = _HYPHEN_NEUTRAL.match(token) or _COMPACT_NEUTRAL.match(token)
            if match:
                return self._hyphen_neutral(start, match)
            return None
        if token == "No." or token == "no.":
            match = _SLIP.match(self.text, start)
            if match:
                return _slip_hit(match)
            return None
        if token[:2] == "T." and (token == "T.C." or token == "T."):
            match = _TAX_COURT.match(self.text, start)
            if match:
                return _tax_court_hit(match)
            return None
        if token[:5].upper() == "ECLI:":
            match = _ECLI.match(self.text, start)
            if match:
                return _ecli_hit(match)
        return None

    def _next_starts(self, index: int, prefix: str) -> bool:
        """Whether token ``index + 1`` exists and begins with ``prefix``."""
        return index + 1 < len(self.words) and self.words[index + 1].startswith(prefix)

    def _reporter_cite(self, index: int) -> _Hit | None:
        words = self.words
        volume = words[index]
        begins = self.begins_reporter
        last = min(len(words) - 1, index + _MAX_REPORTER_TOKENS + 1)
        # Grow the spelling a token at a time while some reporter could begin
        # that way; remember every length followed by a page (or by the
        # nominative parenthetical of "5 U.S. (1 Cranch) 137").
        candidates: list[tuple[int, str]] = []
        spelling = ""
        for after in range(index + 2, last + 1):
            spelling += words[after - 1]
            if not begins(spelling):
                break
            following = words[after]
            if (
                _PAGE.match(following)
                or following[0] in "(\u00b6P"
                or following.startswith(("par.", "para."))
            ):
                candidates.append((after, spelling))
        # Longest spelling first: "F. Supp. 2d" before "F. Supp.".
        for after, spelling in reversed(candidates):
            entry = _reporter(spelling, volume)
            if entry is None or ("-" in volume and not entry.cite_type.startswith("specialty")):
                continue  # "1986-1" is a looseleaf volume, "12-1 F.3d" no citation
            if spelling.endswith(")") and "(" not in entry.canonical:
                # reporters-db files "D.C. (Tuck. & Cl.)" under the nominative
                # reporter, but the volume written is the official one's.
                hit = self._official_volume(index, spelling, entry, candidates)
                if hit is not None:
                    return hit
            page_match = _PAGE.match(words[after])
            if page_match is None:
                hit = self._nominative_form(index, after, entry) or self._page_form(
                    index, after, entry
                )
                if hit is not None:
                    return hit
                continue
            page = page_match.group(1)
            page_end = self.starts[after] + page_match.end(1)
            return _make_hit(self.starts[index], page_end, volume, entry, page)
        return None

    def _page_form(self, index: int, after: int, entry: ReporterEntry) -> _Hit | None:
        """A page after an interposed year, or a looseleaf paragraph number for a page."""
        start = self.starts[after]
        year_match = _INTERPOSED_YEAR.match(self.text, start)
        if year_match is not None:
            page_index = self.token_at(year_match.end())
            if page_index >= len(self.words) or self.starts[page_index] != year_match.end():
                return None
            page_match = _PAGE.match(self.words[page_index])
            if page_match is None or page_match.group(1).startswith("_"):
                return None
            hit = _make_hit(
                self.starts[index],
                self.starts[page_index] + page_match.end(1),
                self.words[index],
                entry,
                page_match.group(1),
            )
            return hit._replace(year=int(year_match.group(1)))
        paragraph = _PARAGRAPH_PAGE.match(self.text, start)
        if paragraph is None:
            return None
        if not entry.cite_type.startswith("specialty") and not paragraph.group(0).startswith(
            "\u00b6"
        ):
            return None  # "P" and "par." only for the services that number paragraphs
        return _make_hit(
            self.starts[index],
            paragraph.end(1),
            self.words[index],
            entry,
            paragraph.group(1),
        )

    def _official_volume(
        self,
        index: int,
        spelling: str,
        variation: ReporterEntry,
        candidates: list[tuple[int, str]],
    ) -> _Hit | None:
        """``21 D.C. (Tuck. & Cl.) 456`` read as ``21 D.C. 456``, nominative ``Tuck. & Cl. 456``."""
        base = spelling[: spelling.index("(")]
        for after, candidate in candidates:
            if candidate != base:
                continue
            entry = _reporter(base, None)
            if (
                entry is None
                or entry.cite_type != "state"
                or entry.canonical.replace(" ", "") != base
                or entry.canonical == variation.canonical  # "Ala. (N.S.)" is Ala.
            ):
                return None
            hit = self._nominative_form(index, after, entry)
            # "Johns. (N.Y.)" names a state, no nominative: reporters-db's reading stands
            return hit if hit is not None and hit.nominative is not None else None
        return None

    def _nominative_form(self, index: int, after: int, entry: ReporterEntry) -> _Hit | None:
        """``5 U.S. (1 Cranch) 137`` or a state's ``83 Mass. (1 Allen) 456``.

        A state's name in the parentheses (``12 Johns. (N.Y.) 5``) says where
        the reporter is from, and is no nominative.
        """
        if entry.canonical != "U.S." and entry.cite_type != "state":
            return None
        match = _NOMINATIVE.match(self.text, self.starts[after])
        if match is None:
            return None
        page_index = self.token_at(match.end())
        if page_index >= len(self.words):
            return None
        page_match = _PAGE.match(self.words[page_index])
        if page_match is None:
            return None
        page = page_match.group(1)
        name_entry = _reporter(match.group(2).replace(" ", ""), None)
        name = match.group(2).strip()
        # Only the Supreme Court's nominative names are canonicalized; a
        # state's ("Phil.", "Rich.") can name several reporters, so stays as written.
        if name_entry is not None and name_entry.canonical in tables().nominative:
            name = name_entry.canonical
        nominative: str | None = (
            f"{match.group(1)} {name} {page}" if match.group(1) else f"{name} {page}"
        )
        if entry.canonical != "U.S." and not match.group(1) and name in tables().states:
            nominative = None
        volume = self.words[index]
        return _Hit(
            start=self.starts[index],
            end=self.starts[page_index] + page_match.end(1),
            volume=volume,
            reporter=entry.canonical,
            page=page,
            system="us-reporter",
            nominative=nominative,
        )

    def _hyphen_neutral(self, start: int, match: re.Match[str]) -> _Hit | None:
        """``2020-Ohio-1234``, ``2017 -Ohio- 2951`` or ``2021COA112``: year, name, number."""
        entry = _reporter(match.group(2), match.group(1))
        if entry is None or entry.cite_type != "neutral":
            return None
        return _Hit(
            start=start,
            end=start + match.end(3),
            volume=match.group(1),
            reporter=entry.canonical,
            page=match.group(3),
            system="neutral",
            nominative=None,
            year=_own_year("neutral", match.group(1)),
        )


def _slip_hit(match: re.Match[str]) -> _Hit:
    return _Hit(
        start=match.start(),
        end=match.end(),
        volume="",
        reporter="slip op.",
        page=None,
        system="slip-opinion",
        nominative=None,
        docket=match.group("docket"),
    )


def _tax_court_hit(match: re.Match[str]) -> _Hit:
    year = match.group(2)
    return _Hit(
        start=match.start(),
        end=match.end(),
        volume=year,
        reporter="T.C. Memo." if match.group(1) else "T.C. Summary Opinion",
        page=match.group(3),
        system="tax-court",
        nominative=None,
        year=int(year),
    )


def _ecli_hit(match: re.Match[str]) -> _Hit:
    return _Hit(
        start=match.start(),
        end=match.end(),
        volume="",
        reporter="ECLI",
        page=None,
        system="ecli",
        nominative=None,
        year=int(match.group(3)),
    )


def _reporter(spelling: str, volume: str | None) -> ReporterEntry | None:
    """The reporter a spelling names, choosing among reporters that share it."""
    table = tables()
    entries = table.reporters.get(spelling)
    if entries is None:
        # A looser spelling ("US", "Fed Appx") only when it has a capital or a
        # period: plain lower-case words ("at", "v") are not reporters.
        if spelling.islower() or not spelling:
            return None
        canonical = table.loose.get(loosen(spelling))
        if canonical is None:
            return None
        entries = table.reporters.get(canonical.replace(" ", ""))
        if entries is None:
            return None
    if len(entries) == 1:
        return entries[0]
    # A year for a volume picks the public-domain citation over a reporter
    # whose volumes never reached 1990 ("2012 Me. 123" is Maine's "ME", not
    # volume 2012 of the Maine Reports; "2018 S.D. 45" is South Dakota's "SD").
    year_volume = (
        volume is not None and len(volume) == 4 and volume.isdigit() and 1990 <= int(volume) <= 2100
    )
    if year_volume:
        for entry in entries:
            if entry.cite_type == "neutral":
                return entry
    # A spelling that is itself an edition's abbreviation names that edition
    # ("B.R." is Bankruptcy Reporter, not a variant of "Balt. C. Rep.").
    own = tuple(e for e in entries if e.canonical.replace(" ", "") == spelling)
    if own:
        entries = own
        if len(entries) == 1:
            return entries[0]
    ranked = sorted(
        (e for e in entries if not (e.cite_type == "neutral" and not year_volume)),
        key=lambda e: _TYPE_PRIORITY.get(e.cite_type, 9),
    )
    return ranked[0] if ranked else entries[0]


def _make_hit(start: int, end: int, volume: str, entry: ReporterEntry, page: str) -> _Hit:
    reporter = entry.canonical
    nominative = None
    if entry.cite_type == "scotus_early":
        span = tables().nominative.get(reporter)
        if span is not None and volume.isdigit() and span[0] <= int(volume) <= span[1]:
            nominative = f"{volume} {reporter} {page}"
            volume = str(span[2] + int(volume) - span[0])
            reporter = "U.S."
    system = _SYSTEMS.get(entry.cite_type, "us-reporter")
    if reporter == "U.S.":
        system = "us-reporter"
    page_value: str | None = None if page.startswith("_") else page
    return _Hit(
        start, end, volume, reporter, page_value, system, nominative, _own_year(system, volume)
    )


def _own_year(system: str, volume: str) -> int | None:
    """The year a citation carries itself: a neutral, Westlaw, Lexis or Tax Court number's volume.

    ``2015 WL 13908106`` was issued in 2015 and ``2025 ND 78`` decided in
    2025; a dated parenthetical after the citation still has the last word.
    A volume that is no year (``160 T.C. No. 5``) gives none.
    """
    if system not in _YEAR_SYSTEMS or len(volume) != 4 or not volume.isdigit():
        return None
    year = int(volume)
    return year if 1700 <= year <= 2100 else None


def _normalized(hit: _Hit) -> str:
    if hit.system == "ecli":
        return ""
    if hit.system == "slip-opinion":
        return f"No. {hit.docket}, slip op."
    return f"{hit.volume} {hit.reporter} {hit.page if hit.page is not None else '___'}"


def _pinpoint(match: re.Match[str]) -> Pinpoint:
    text = match.group(0).strip().lstrip(",").strip()
    if text.startswith("at "):
        text = text[3:].strip()
    if match.re is _PARAGRAPH_PIN or text.startswith("slip"):
        # Paragraphs and a slip opinion's pages are not the reporter's pages:
        # the text alone, like a star page.
        return Pinpoint(text=text)
    first_text, last_text, footnote = match.group(1), match.group(2), match.group(3)
    star = first_text.startswith(("*", "_"))  # a star page, or a blank one not yet printed
    first = None if star else int(first_text)
    last: int | None = first
    if last_text is not None:
        last = (
            None if star or last_text.startswith("*") else expand_range_end(first_text, last_text)
        )
    if footnote is not None:
        footnote = re.sub(r"\s+", "", footnote)
    return Pinpoint(text=text, first=first, last=last, footnote=footnote)


def resolve_court(cited: str, year: int | None = None) -> CourtRef | None:
    """The court a parenthetical's court part names (``11th Cir.`` -> ``ca11``), or ``None``.

    One dict lookup of the folded text; then the part before a dash, bracket
    or comma (``Tex. App.-Houston [14th Dist.]`` -> ``Tex. App.``); then the
    court's name or courts-db's short name, where it names one court only
    (``District Court, W.D. Texas``).  New York's bracketed forms (``2d Dept``,
    ``Sup Ct, NY County``) are aliases in the table.
    """
    del year  # courts-db's Bluebook abbreviations are unique; kept for callers
    text = cited.strip().strip(",").strip()
    if not text:
        return None
    courts = tables().courts
    folded = fold_court(text)
    entry: CourtEntry | None = courts.get(folded)
    if entry is None:
        cut = _COURT_CUT.search(text)
        if cut is not None and cut.start() > 0:
            entry = courts.get(fold_court(text[: cut.start()]))
    if entry is None and any(c.isalpha() for c in folded):
        # a court's name ("District Court, W.D. Texas"), commas and all
        entry = named_courts().get(folded)
    if entry is None:
        return None
    jurisdiction = jurisdiction_of(entry.id)
    return CourtRef(id=entry.id, name=entry.name, jurisdiction=jurisdiction, cited=text)


def _read_parenthetical(content: str) -> tuple[int | None, CourtRef | None, bool]:
    """Year and court from ``11th Cir. 2019``; whether it looked like a date parenthetical."""
    if _YEAR.fullmatch(content):  # a year alone, "(1973)": no court to look up
        return int(content), None, True
    years = list(_YEAR.finditer(content))
    if years:
        last = years[-1]
        year: int | None = int(last.group(1))
        court_text = content[: last.start()]
        court_text = _DATE_TAIL.sub("", court_text.rstrip()).rstrip(" ,")
        return year, resolve_court(court_text), True
    court = resolve_court(content)
    return None, court, court is not None


def _case_name(before: str) -> str | None:
    name = strip_signal(before[-_MAX_NAME:])
    name = name.strip().rstrip(",;:").strip().strip("*_\"'").strip().rstrip(",").strip()
    if not name or not any(c.isalpha() for c in name):
        return None
    return name


def _citation(hit: _Hit, raw: str, pin: Pinpoint | None) -> CaseCitation:
    return CaseCitation(
        raw=raw,
        normalized=_normalized(hit),
        system=hit.system,
        volume=hit.volume or None,
        reporter=hit.reporter,
        page=hit.page,
        pin=pin,
        year=hit.year,
        nominative=hit.nominative,
    )


class Extent(NamedTuple):
    """What follows a primary citation: pins, parallels, the dated parenthetical; where they end."""

    pins_end: int  # just past the last pin or parallel
    end: int  # just past the court/year parenthetical, or ``pins_end`` without one
    pin: Pinpoint | None
    parallels: tuple[CaseCitation, ...]
    year: int | None
    court: CourtRef | None


def extend(scanner: _Scanner, cleaned: str, primary: _Hit) -> Extent:
    """Read pins, parallels and the court/year parenthetical after ``primary``.

    Shared by ``parse`` and ``find`` so both read a citation the same way.
    Every loop is bounded and every step consumes text.
    """
    # Pins and parallels, in order, after the primary citation.
    position = primary.end
    pin: Pinpoint | None = None
    parallels: list[CaseCitation] = []
    current: _Hit = primary
    current_pin: Pinpoint | None = None
    for _ in range(64):  # bounded: a citation string has a few parallels at most
        separator = _SEPARATOR.match(cleaned, position)
        next_at = separator.end() if separator else position
        index = scanner.token_at(next_at)
        hit = None
        if index < len(scanner.words) and scanner.starts[index] == next_at:
            hit = scanner.at(index)
        if hit is not None:
            if current is primary:
                pin = current_pin
            else:
                parallels.append(
                    _citation(current, cleaned[current.start : current.end], current_pin)
                )
            current, current_pin = hit, None
            position = hit.end
            continue
        if current_pin is None:
            pin_match = _PIN.match(cleaned, position)
            if pin_match is None:
                pin_match = _PARAGRAPH_PIN.match(cleaned, position)
            if pin_match is not None:
                current_pin = _pinpoint(pin_match)
                position = pin_match.end()
                while True:
                    more = _MORE_PINS.match(cleaned, position)
                    if more is None:
                        break
                    # a further pin unless it begins a parallel citation
                    idx = scanner.token_at(more.end() - len(more.group(0).lstrip(" ,")))
                    if idx < len(scanner.words) and scanner.at(idx) is not None:
                        break
                    position = more.end()
                continue
        break
    if current is primary:
        pin = current_pin
    else:
        parallels.append(_citation(current, cleaned[current.start : current.end], current_pin))

    pins_end = position
    end = position
    # The first parenthetical with a date or a court gives year and court.
    year = primary.year
    court: CourtRef | None = None
    for _ in range(4):
        paren = _PARENTHETICAL.match(cleaned, position)
        if paren is None:
            break
        content = paren.group(1) if paren.group(1) is not None else paren.group(2)
        found_year, found_court, dated = _read_parenthetical(content)
        position = paren.end()
        if dated:
            year = found_year if found_year is not None else year
            court = found_court
            end = position
            break

    return Extent(pins_end, end, pin, tuple(parallels), year, court)


# The shape nearly every citation given alone has: ``Name, 410 U.S. 113, 153 (1973)``,
# ``925 F.3d 1339 (11th Cir. 2019)``: a volume, a reporter of words, a page of digits,
# an optional pin of digits and an optional parenthetical, and nothing after.
_COMMON: Final = re.compile(
    r"(\d{1,5}) ([A-Za-z][A-Za-z0-9.'&]*(?: [A-Za-z0-9.'&]+){0,5}?) (\d{1,8})"
    r"(?:, (\d{1,7}))?(?: \(([A-Za-z0-9.,'& ]{1,80})\))?$"
)


@functools.cache
def _digit_paren_names_nothing() -> bool:
    """Whether the "(" split off a parenthetical that begins with a digit begins no reporter.

    True for reporters-db as we build it (no spelling begins "(" and a digit, and "("
    alone names none), so a pin before ``(1973)`` or ``(11th Cir. 2019)`` cannot be a
    volume; checked once, so a table that changed this sends such text down the
    general path instead of relying on it.
    """
    prefixes = tables().prefixes
    return _reporter("(", None) is None and not any(
        p[:1] == "(" and p[1:2].isdigit() for p in prefixes
    )


@functools.cache
def _final_spellings() -> frozenset[str]:
    """Reporter spellings the growth in ``_reporter_cite`` reaches and never grows past a page.

    Every reporters-db spelling (whitespace removed) that no spelling, exact or loose,
    continues with a digit: followed by a page of digits, it is the longest candidate.
    Built from the tables once, so ``_common_shape`` checks a spelling with one lookup.
    """
    table = tables()
    # the prefixes are those of the exact and the loose keys, so these are all the
    # prefixes a digit continues
    digit_next = {
        key[:i]
        for key in itertools.chain(table.reporters, table.loose)
        for i in range(1, len(key))
        if key[i].isdigit()
    }
    return frozenset(
        key for key in table.reporters if key not in digit_next and loosen(key) not in digit_next
    )


def _common_shape(text: str, cleaned: str) -> CaseCitation | None:
    """``_parse`` for the common shape (``_COMMON``) without the general scanner, or ``None``.

    A single citation in a request is almost always ``Name, VOL REPORTER PAGE[, PIN]
    [(COURT YEAR)]``, and building a token index, candidate list and extent for it cost
    most of a cold ``parse``.  This reads that shape with one regular expression and
    returns what the general path would, calling the same helpers for every decision
    (``_reporter``, ``_make_hit``, ``_pinpoint``, ``_read_parenthetical``,
    ``_case_name``); it returns ``None``, for the general path to read, whenever the
    general path could decide otherwise:

    * the volume must be the text's first place a citation can begin (``_CANDIDATE``),
      so no earlier token is tried, with a plain space before it and no ")" or "_"
      before that, so ``lead`` finds no California year, blank citation or opener;
    * the reporter spelling must be one the token-by-token growth in
      ``_Scanner._reporter_cite`` reaches (a known prefix) and stops at (the spelling
      with the page token added is no prefix), so it is the longest candidate;
    * a pin must not begin a citation: the parenthetical's first token, the reporter
      spelling a pin-as-volume would try, must begin no reporter;
    * a parenthetical must be dated, so it is the one ``extend`` reads.

    ``tests/test_parse_golden.py`` compares the two paths on broad input.
    """
    first = _CANDIDATE.search(cleaned)
    if first is None:
        return None
    start = first.start()
    if start and (start < 2 or cleaned[start - 1] != " " or cleaned[start - 2] in " )_"):
        return None
    match = _COMMON.match(cleaned, start)
    if match is None:
        return None
    volume, written, page, pin_text, content = match.groups()
    spelling = written.replace(" ", "")
    prefixes = tables().prefixes
    if spelling not in _final_spellings():
        if spelling not in prefixes and loosen(spelling) not in prefixes:
            return None
        longer = spelling + page + ("," if pin_text is not None else "")
        if longer in prefixes or loosen(longer) in prefixes:
            return None
    entry = _reporter(spelling, volume)
    if entry is None:
        return None
    primary = _make_hit(start, match.end(3), volume, entry, page)
    pin: Pinpoint | None = None
    if pin_text is not None:
        if content is not None:
            if content[0].isdigit():
                if not _digit_paren_names_nothing():
                    return None
            else:
                opening = "(" + content.split(" ", 1)[0]
                if (
                    content.startswith(("T.", "No."))
                    or opening in prefixes
                    or loosen(opening) in prefixes
                ):
                    return None
        pin_match = _PIN.match(cleaned, primary.end)
        if pin_match is None or pin_match.end() != match.end(4):
            return None
        pin = _pinpoint(pin_match)
    year, court = primary.year, None
    if content is not None:
        found_year, court, dated = _read_parenthetical(content)
        if not dated:
            return None
        year = found_year if found_year is not None else year
    ext = Extent(match.end(), match.end(), pin, (), year, court)
    return _case_citation(text, cleaned, primary, ext, Lead(start, None, None))


def _parse(text: str) -> ParsedCitation:
    cleaned = clean(text)
    common = _common_shape(text, cleaned)
    if common is not None:
        return common
    return _parse_general(text, cleaned)


def _parse_general(text: str, cleaned: str) -> ParsedCitation:
    """The one reading of a case citation every shape gets; ``_common_shape`` must agree."""
    scanner = _Scanner(cleaned)
    primary = scanner.first()
    if primary is None:
        if re.search(r"\d{1,5}\s{1,3}[A-Z][A-Za-z. ]{0,30}\sat\s{1,3}\d", cleaned[:4000]):
            return NotACitation(
                kind="case",
                raw=text,
                message="a short-form citation ('410 U.S. at 153'); " + EXPECTED,
            )
        return NotACitation(kind="case", raw=text, message=EXPECTED)

    ext = extend(scanner, cleaned, primary)
    return _case_citation(text, cleaned, primary, ext, lead(cleaned, primary.start))


def _case_citation(
    text: str, cleaned: str, primary: _Hit, ext: Extent, before: Lead
) -> CaseCitation:
    """The result for ``primary``, what follows it (``ext``) and what precedes it (``before``)."""
    year = ext.year if ext.year is not None else before.year
    return CaseCitation(
        raw=text,
        normalized=_normalized(primary)
        if primary.system != "ecli"
        else _ecli_text(cleaned, primary),
        system=primary.system,
        volume=primary.volume or None,
        reporter=primary.reporter,
        page=primary.page,
        pin=ext.pin,
        year=year,
        case_name=_case_name(cleaned[: before.start]),
        court=ext.court,
        parallels=ext.parallels,
        nominative=primary.nominative,
        docket=primary.docket,
    )


def _ecli_text(cleaned: str, hit: _Hit) -> str:
    return cleaned[hit.start : hit.end].upper()


def parse(text: str) -> ParsedCitation:
    """Parse ``text`` as a case citation; never raises.

    Text with no volume-reporter-page, neutral, Westlaw/Lexis or ECLI
    citation gives ``NotACitation`` saying what was expected.
    """
    try:
        return _parse(text)
    except Exception as exc:  # a parser bug must not become a failed request
        return NotACitation(kind="case", raw=text, message=f"{EXPECTED} (parser error: {exc})")
