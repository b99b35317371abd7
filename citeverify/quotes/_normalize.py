"""Text normalisation for quotation matching, with a map back to the original text.

An authority's text and a quotation are both reduced to the same form: a
sequence of lower-case words separated by single spaces.  What is dropped or
rewritten on the way, and why:

* case (Unicode case folding) and compatibility forms (NFKD, accents dropped),
  so ``ﬁ``/``fi`` and ``é``/``e`` compare equal;
* punctuation of every kind, curly or straight quotation marks, dashes:
  a quotation that omits internal quotation marks or swaps ``"`` for ``“``
  still matches, and no word boundary depends on punctuation;
* hyphens, en dashes and apostrophes *inside* a word are removed
  (``on-the-job`` is ``onthejob``, ``doesn’t`` is ``doesnt``), and a hyphen
  at a line end joins the word across the break (``juris-\\ndiction``); both
  sides are treated the same, so ``subject-matter`` in a quote matches
  ``subject-\\nmatter`` in a slip opinion;
* footnote markers (``jurisdiction.1``, ``held.”2``, ``[3]``, ``<sup>``),
  star-page markers (``*153``, ``<span class="star-pagination">*153</span>``,
  even mid-word), paragraph numbers, HTML tags and entities;
* slip-opinion page headers and running heads (the form-feed line with the
  page number and case name or ``Cite as:``, the ``Opinion of the Court`` /
  ``GINSBURG, J., dissenting`` label under it) and bare page-number lines;
* slip-opinion footnote blocks (from the ``——————`` rule to the page end) are
  moved after the body text, so the body reads on across the page break and
  the footnotes stay searchable.

Markup goes first (tags out, entities decoded), then the plain-text rules run
on the result, so a hyphen or apostrophe next to a tag (``Post-<i>Chiarella``)
or written as an entity still joins its word.  Every word keeps the original
offsets it came from, so a match in the normalised text maps back to an exact
span of the original.
"""

from __future__ import annotations

import bisect
import html
import itertools
import re
import unicodedata
from array import array
from collections.abc import Iterator, Sequence
from typing import overload

import attrs

__all__ = ["Normalized", "OffsetMap", "normalize", "normalize_text"]

# -- markup -----------------------------------------------------------------------------

# CourtListener's page markers; the page number is group 1.
_STAR_SPAN = re.compile(
    r"<span\b[^<>]*\bstar-pagination\b[^<>]*>\s*\*?\s*(?:page\s*)?(\d{1,5})\s*</span>",
    re.IGNORECASE,
)
# CourtListener's numbered paragraphs.
_PARAGRAPH_SPAN = re.compile(r'<span class="num">\s*\d{1,4}\s*</span>')
# Footnote references in markup: ``<a class="footnote" ...>1</a>``, ``<sup>2</sup>``.
_NOTE_REF = re.compile(
    r"<a\b[^<>]*\bclass=\"footnote\"[^<>]*>[^<]{0,12}</a>"
    r"|<sup\b[^<>]*>\s*\[?(?:\d{1,3}|\*{1,3})\]?\s*</sup>",
    re.IGNORECASE,
)
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]{0,15})\b[^<>]{0,2000}>|<!--.{0,2000}?-->", re.DOTALL)
# Tags after which a reader sees a break; every other tag is dropped without a
# trace (a star-pagination span or an <i> may sit in the middle of a word).
_BLOCK_TAGS = frozenset(
    {
        "p", "div", "br", "li", "ul", "ol", "tr", "td", "th", "table", "blockquote",
        "center", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "section", "article",
        "footnote", "footnote_body", "opinion", "author",
    }
)  # fmt: skip
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,10});")
_LOOKS_LIKE_MARKUP = re.compile(r"<(?:/?[A-Za-z][A-Za-z0-9]{0,15}\b[^<>]{0,2000}>|!--)")

# -- plain-text noise -------------------------------------------------------------------

# A hyphen, dash, apostrophe or bracket between two word characters (``on-the-job``,
# ``doesn’t``, the authority's own ``[u]se``), optionally followed by
# a line break (hyphenation).  A break followed by a form feed or a footnote rule
# is a hyphenation across a slip-opinion page end; the header goes separately.
_JOINER = re.compile(
    "[\\-\u2010\u2011\u00ad\u2013](?<=[^\\W_].)(?:[ \\t]*\\n[ \\t]*)?"
    "(?=[^\\W_]|\\x0c|[ \\t]*\u2014{4})"
    "|['\u2019\u02bc\\[\\]](?<=[^\\W_].)(?=[^\\W_])"
    "|[ ]\\](?<=[^\\W_] \\])(?=[^\\W_])"  # the authority's own ``[f ]raming``
)
# In a quotation only: a hyphen and a space before a lower-case word is a line-end
# hyphenation flattened by copying (``con- cern``).
_QUOTE_JOINER = re.compile("[\\-\u00ad](?<=[^\\W_].)[ \\t]+(?=[a-z])")
# A soft hyphen marks where a word may break: it and the break after it go.
_SOFT_HYPHEN = re.compile("\u00ad[\\s\u00ad]*")
# Footnote markers: one or two digits glued after punctuation that follows a word
# (``held.1``, ``served,6``; not ``3.131``), after a word (``term12``), in brackets.
_NOTE_AFTER_PUNCT = re.compile("[.,;:!?\"'\u201d\u2019)\\]](?<=[^\\d\\s].)(\\d{1,2})(?=\\s|\\Z)")
_NOTE_AFTER_WORD = re.compile(r"\d(?<=[a-z]{3}\d)\d?(?=[\s.,;:])")
_NOTE_BRACKET = re.compile("\\[(?:\\d{1,3}|\\*{1,3}|\u2020|\u2021)\\]")
# Star-page markers in plain text (``*153``, ``*Page 153``, Westlaw's ``at *7``).
_STAR = re.compile(r"\*(?:[Pp]age\s*)?\d{1,5}(?!\d)")

# Slip-opinion page headers.  A header starts at a form feed, or at a ``(Slip
# Opinion)`` / ``Cite as:`` line, and takes the indented label lines under it
# (``Opinion of the Court``, ``THOMAS, J., dissenting``, a running head's second
# line) and the blank lines around them, up to the next line's first word.
_LABEL = (
    r"[ \t]{6,}(?:[^a-z\n]{1,70}|[^\n]{0,70}?"
    r"(?:Opinion|Syllabus|Curiam|Statement|APPENDIX|Appendix|J\.|dissent|concurr|judgment|part)"
    r"[^\n]{0,50}?)[ \t]*\n"
)
_HEADER_AT = re.compile(r"[^\n]*\n(?:[ \t]*\n|" + _LABEL + r"){0,8}[ \t]*")
_HEADER_START = re.compile(r"\x0c|\(Slip Opinion\)|Cite as: \d{1,3} U\. ?S\.")
_FOOTNOTE_RULE = re.compile("^[ \\t]*\u2014{4,}[ \\t]*$", re.MULTILINE)
_FOOTNOTE_NUMBER = re.compile(r"^[ \t]{1,6}\d{1,3}(?=[ \t]+\S)", re.MULTILINE)

_SPLIT = re.compile(r"([\W_]+)")


@attrs.frozen(slots=True)
class _Edit:
    """Replace ``text[start:end]`` by ``replacement``."""

    start: int
    end: int
    replacement: str = ""


def _fold_char(char: str) -> str:
    """One character in matching form: NFKD, accents dropped, case folded."""
    decomposed = unicodedata.normalize("NFKD", char)
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    return kept.casefold()


def _fold_tables(text: str) -> tuple[dict[int, str], frozenset[str]]:
    """A length-preserving translation for the text's non-ASCII characters, and
    the characters whose folded form is not exactly one character long."""
    table: dict[int, str] = {}
    uneven: set[str] = set()
    if text.isascii():
        return table, frozenset()
    for char in set(text):
        if char.isascii():
            continue
        folded = _fold_char(char)
        if len(folded) == 1:
            if folded != char:
                table[ord(char)] = folded
        else:
            uneven.add(char)
    return table, frozenset(uneven)


def _translate(text: str, table: dict[int, str]) -> str:
    """``str.translate`` is slow per character; a few ``replace`` calls are not."""
    if len(table) > 24:
        return text.translate(table)
    for code, replacement in table.items():
        text = text.replace(chr(code), replacement)
    return text


def _markup(text: str) -> tuple[list[_Edit], list[tuple[int, int]], list[int]]:
    """HTML edits (tags dropped, entities decoded), page marks and paragraph starts.

    Page marks are ``(offset, page)`` for each star-pagination span (the
    offset where the page's text begins); paragraph starts are the offsets
    after CourtListener's ``<span class="num">N</span>`` paragraph numbers.
    """
    edits: list[_Edit] = []
    marks: list[tuple[int, int]] = []
    paragraphs: list[int] = []
    for match in _STAR_SPAN.finditer(text):
        edits.append(_Edit(match.start(), match.end()))
        marks.append((match.end(), int(match[1])))
    for match in _PARAGRAPH_SPAN.finditer(text):
        edits.append(_Edit(match.start(), match.end(), " "))
        paragraphs.append(match.end())
    edits.extend(_Edit(m.start(), m.end()) for m in _NOTE_REF.finditer(text))
    for match in _TAG.finditer(text):
        name = (match[2] or "").lower()
        edits.append(_Edit(match.start(), match.end(), " " if name in _BLOCK_TAGS else ""))
    if "&" in text:
        for match in _ENTITY.finditer(text):
            decoded = html.unescape(match[0])
            if decoded != match[0]:
                edits.append(_Edit(match.start(), match.end(), decoded))
    return edits, marks, paragraphs


def _headers(text: str) -> Iterator[_Edit]:
    """Slip-opinion page headers, with the label lines and page numbers under them.

    A number alone on a line elsewhere is left alone: in a slip opinion it is a
    section heading (``1``, ``2``), and a quotation may run through it."""
    position = 0
    for match in _HEADER_START.finditer(text):
        start = match.start()
        if start < position:
            continue
        if match[0] != "\x0c":
            line_start = text.rfind("\n", 0, start) + 1
            if text[line_start:start].strip(" \t\x0c"):
                continue
            start = line_start
        header = _HEADER_AT.match(text, match.end())
        if header is None:  # pragma: no cover - the pattern matches any line
            continue
        position = header.end()
        yield _Edit(start, position)


def _noise(text: str, uneven: frozenset[str], quote: bool = False) -> list[_Edit]:
    """Every edit that cleaning makes to plain ``text`` (unsorted, possibly overlapping)."""
    edits: list[_Edit] = []
    if quote:
        edits.extend(_Edit(m.start(), m.end()) for m in _QUOTE_JOINER.finditer(text))
    if "\x0c" in text or "Cite as:" in text or "(Slip Opinion)" in text:
        edits.extend(_headers(text))
    edits.extend(_Edit(m.start(), m.end()) for m in _JOINER.finditer(text))
    if "\u00ad" in text:
        edits.extend(_Edit(m.start(), m.end()) for m in _SOFT_HYPHEN.finditer(text))
    edits.extend(_Edit(m.start(1), m.end(1)) for m in _NOTE_AFTER_PUNCT.finditer(text))
    edits.extend(_Edit(m.start(), m.end()) for m in _NOTE_AFTER_WORD.finditer(text))
    if "[" in text:
        edits.extend(_Edit(m.start(), m.end()) for m in _NOTE_BRACKET.finditer(text))
    if "*" in text:
        edits.extend(_Edit(m.start(), m.end()) for m in _STAR.finditer(text))
    if uneven:
        pattern = re.compile("[" + "".join(re.escape(c) for c in sorted(uneven)) + "]")
        edits.extend(
            _Edit(m.start(), m.end(), _fold_char(m[0]) or " ") for m in pattern.finditer(text)
        )
    return edits


def _merged(edits: list[_Edit]) -> list[_Edit]:
    """Edits sorted and made disjoint: an edit overlapping an earlier one extends it."""
    edits.sort(key=lambda e: (e.start, -e.end))
    out: list[_Edit] = []
    for edit in edits:
        if out and edit.start < out[-1].end:
            if edit.end > out[-1].end:
                last = out[-1]
                out[-1] = _Edit(last.start, edit.end, last.replacement)
            continue
        out.append(edit)
    return out


def _footnote_regions(text: str) -> list[tuple[int, int]]:
    """Slip-opinion footnote blocks: from a ``——————`` rule to the next form feed."""
    regions: list[tuple[int, int]] = []
    if "\u2014\u2014\u2014\u2014" not in text:
        return regions
    position = 0
    for match in _FOOTNOTE_RULE.finditer(text):
        if match.start() < position:
            continue
        end = text.find("\x0c", match.end())
        end = len(text) if end < 0 else end
        regions.append((match.start(), end))
        position = end
    return regions


@attrs.define(slots=True)
class _PieceMap:
    """Where each piece of a rewritten text came from in the text before it.

    A piece is either copied (its characters map one to one) or a
    replacement (all of it maps to the replaced span).
    """

    clean_starts: list[int] = attrs.field(factory=list)
    orig_starts: list[int] = attrs.field(factory=list)
    orig_ends: list[int] = attrs.field(factory=list)
    copies: list[bool] = attrs.field(factory=list)

    def position(self, clean: int, *, end: bool) -> int:
        """The earlier text's offset of character ``clean`` (its end when ``end``)."""
        piece = bisect.bisect_right(self.clean_starts, clean) - 1
        if piece < 0:
            return 0
        if self.copies[piece]:
            return self.orig_starts[piece] + (clean - self.clean_starts[piece]) + int(end)
        return self.orig_ends[piece] if end else self.orig_starts[piece]


class _Builder:
    """Builds a rewritten text from slices and replacements, with its piece map."""

    __slots__ = ("chunks", "length", "map")

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.map = _PieceMap()
        self.length = 0

    def add(self, chunk: str, orig_start: int, orig_end: int, copy: bool) -> None:
        if not chunk:
            return
        self.chunks.append(chunk)
        self.map.clean_starts.append(self.length)
        self.map.orig_starts.append(orig_start)
        self.map.orig_ends.append(orig_end)
        self.map.copies.append(copy)
        self.length += len(chunk)

    def add_region(self, text: str, start: int, end: int, edits: Sequence[_Edit]) -> None:
        """Copy ``text[start:end]`` with ``edits`` (sorted, disjoint, inside it) applied."""
        position = start
        for edit in edits:
            if edit.start > position:
                self.add(text[position : edit.start], position, edit.start, True)
            if edit.replacement:
                self.add(edit.replacement, edit.start, edit.end, False)
            position = edit.end
        if end > position:
            self.add(text[position:end], position, end, True)

    def text(self) -> str:
        return "".join(self.chunks)


def _strip_markup(text: str) -> tuple[str, _PieceMap | None, list[tuple[int, int]], list[int]]:
    """``text`` without tags and entities, its piece map, page marks and paragraph starts."""
    no_tags = "<" not in text or _LOOKS_LIKE_MARKUP.search(text) is None
    if no_tags and ("&" not in text or _ENTITY.search(text) is None):
        return text, None, [], []
    edits, marks, paragraphs = _markup(text)
    builder = _Builder()
    builder.add_region(text, 0, len(text), _merged(edits))
    return builder.text(), builder.map, marks, paragraphs


def _clean_plain(text: str, quote: bool = False) -> tuple[str, _PieceMap | None]:
    """Plain ``text`` with noise removed, footnote blocks moved to the end, and folded."""
    table, uneven = _fold_tables(text)
    merged = _merged(_noise(text, uneven, quote))
    regions = _footnote_regions(text)
    if not merged and not regions:
        return _translate(text, table).lower(), None
    builder = _Builder()
    edit_starts = [e.start for e in merged]
    position = 0
    # Body: everything outside the footnote regions, in order.
    for start, end in [*regions, (len(text), len(text))]:
        lo = bisect.bisect_left(edit_starts, position)
        hi = bisect.bisect_left(edit_starts, start)
        builder.add_region(text, position, start, [e for e in merged[lo:hi] if e.end <= start])
        position = end
    # Footnotes after the body, each region on its own line, footnote numbers dropped.
    for start, end in regions:
        rule_end = text.find("\n", start, end)
        rule_end = end if rule_end < 0 else rule_end
        lo = bisect.bisect_left(edit_starts, rule_end)
        hi = bisect.bisect_left(edit_starts, end)
        inside = [e for e in merged[lo:hi] if e.end <= end]
        inside.extend(
            _Edit(m.start(), m.end()) for m in _FOOTNOTE_NUMBER.finditer(text, rule_end, end)
        )
        builder.add("\n", start, start, False)
        builder.add_region(text, rule_end, end, _merged(inside))
    return _translate(builder.text(), table).lower(), builder.map


@attrs.frozen(slots=True, eq=False)
class Normalized:
    """A text in matching form, with the way back to the original offsets.

    ``text`` is ``" w1 w2 ... wn "``: words separated by single spaces, with a
    space at each end, so that a pattern ``" w1 w2 "`` matches whole words
    only.  ``starts[k]`` is the index in ``text`` of the space before word
    *k*; ``starts[n]`` is the final space.  ``span(k)`` is the original
    ``(start, end)`` of word *k*.  ``starts`` and ``bounds`` are machine-int
    arrays, not lists: an authority's index is kept across runs, and a list
    of Python ints costs about 36 bytes a word where an array costs 8.
    ``marks`` and ``paragraphs`` are the page marks and paragraph starts
    read from markup (original offsets), if any.
    """

    text: str
    starts: Sequence[int]
    bounds: Sequence[int]
    first_part: int
    maps: tuple[_PieceMap, ...]
    marks: tuple[tuple[int, int], ...] = ()
    paragraphs: tuple[int, ...] = ()

    @property
    def word_count(self) -> int:
        return len(self.starts) - 1

    def word(self, k: int) -> str:
        """Word ``k`` in matching form."""
        return self.text[self.starts[k] + 1 : self.starts[k + 1]]

    def words(self, first: int, stop: int) -> list[str]:
        """Words ``first`` to ``stop - 1`` in matching form."""
        if stop <= first:
            return []
        return self.text[self.starts[first] + 1 : self.starts[stop]].split(" ")

    def word_at(self, char: int) -> int:
        """The index of the word whose leading space is at or before ``char``."""
        return bisect.bisect_right(self.starts, char) - 1

    def _original(self, clean: int, *, end: bool) -> int:
        position = clean
        if end:
            # Map the last character, then step past it, so that an end never
            # lands inside a following replacement.
            for piece_map in self.maps:
                position = piece_map.position(position, end=True) - 1
            return position + 1
        for piece_map in self.maps:
            position = piece_map.position(position, end=False)
        return position

    def span(self, k: int) -> tuple[int, int]:
        """The original ``(start, end)`` of word ``k``."""
        part = self.first_part + 2 * k
        start = self._original(self.bounds[part], end=False)
        end = self._original(self.bounds[part + 1] - 1, end=True)
        return start, max(end, start + 1)

    def char_origin(self, k: int, offset: int) -> int:
        """The original offset of character ``offset`` of word ``k``."""
        return self._original(self.bounds[self.first_part + 2 * k] + offset, end=False)

    def original_span(self, first: int, last: int) -> tuple[int, int]:
        """The original span from the start of word ``first`` to the end of word ``last``."""
        return self.span(first)[0], self.span(last)[1]


def normalize_text(text: str, *, quote: bool = False) -> Normalized:
    """``text`` in matching form, with the original offsets of every word.

    ``quote`` is for quotations: a hyphen followed by a space and a lower-case
    word (``con- cern``, a hyphenation flattened by copying) joins the word.
    """
    plain, markup_map, marks, paragraphs = _strip_markup(text)
    clean, noise_map = _clean_plain(plain, quote)
    parts = _SPLIT.split(clean)
    bounds = array("q", itertools.accumulate(map(len, parts), initial=0))
    first_part = 0 if parts[0] else 2
    words = parts[first_part::2]
    if words and not words[-1]:
        words.pop()
    starts = array("q", itertools.accumulate(map((1).__add__, map(len, words)), initial=0))
    return Normalized(
        text=" " + " ".join(words) + " " if words else " ",
        starts=starts,
        bounds=bounds,
        first_part=first_part,
        maps=tuple(m for m in (noise_map, markup_map) if m is not None),
        marks=tuple(marks),
        paragraphs=tuple(paragraphs),
    )


class OffsetMap(Sequence[int]):
    """For each character of a normalised text, its offset in the original.

    A word's characters map to the characters they were read from (a
    rewritten character, such as a decoded entity, to the start of what it
    replaced); a space maps to the end of the word before it.  Computed on
    demand: nothing is stored per character.
    """

    __slots__ = ("_norm",)

    def __init__(self, norm: Normalized) -> None:
        self._norm = norm

    def __len__(self) -> int:
        return max(len(self._norm.text) - 2, 0)

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[int]: ...
    def __getitem__(self, index: int | slice) -> int | Sequence[int]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        size = len(self)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("normalised offset out of range")
        char = index + 1  # past the leading space
        norm = self._norm
        k = norm.word_at(char)
        if norm.text[char] == " ":  # the space before word k: the end of word k - 1
            return norm.span(k - 1)[1]
        return norm.char_origin(k, char - norm.starts[k] - 1)

    def __iter__(self) -> Iterator[int]:
        for i in range(len(self)):
            yield self[i]


def normalize(text: str) -> tuple[str, Sequence[int]]:
    """``text`` in matching form and, for each of its characters, the offset in ``text``.

    The matching form is lower-case words separated by single spaces (see the
    module's docstring for everything dropped on the way); the map is
    computed on demand, so normalising a long text costs little more than
    the string itself.

    >>> norm, where = normalize("Juris-\\ndiction  “at home”")
    >>> norm
    'jurisdiction at home'
    >>> where[5]
    7
    """
    norm = normalize_text(text)
    return norm.text[1:-1], OffsetMap(norm)
