"""A quotation read as the words it claims and the alterations it marks.

Bluebook alterations become structure rather than text:

* an ellipsis (``...``, ``. . .``, ``…``, ``* * *``, ``[...]``) is an ordered
  gap of up to ``MAX_ELLIPSIS_WORDS`` words of the authority;
* a bracketed insertion standing alone (``[the State]``) replaces up to
  ``MAX_BRACKET_WORDS`` unknown words (possibly none: a pure insertion), but
  never a negation it does not carry itself (``[did]`` cannot stand for
  ``has not``): the gap records how many negations its words hold;
* a bracket inside a word (``[t]he``, ``d[id]``, ``establish[ing]``) stands
  for one word of the authority that begins and ends with the unbracketed
  letters (so ``[T]he`` matches ``the``, ``d[id]`` matches ``do``), and is a
  negation exactly when the word as written is one (``[can]not``);
* editorial notes (``[sic]``, ``[emphasis added]``, ``[citation omitted]``,
  bracketed footnote numbers) and a trailing explanatory parenthetical
  (``(emphasis added)``, ``(internal quotation marks omitted)``,
  ``(quoting ...)``) are dropped: they are not the authority's words.

Everything else is words, which must match the authority exactly (in
matching form: see ``_normalize``).
"""

from __future__ import annotations

import re

import attrs

from citeverify.quotes._negation import is_negation
from citeverify.quotes._normalize import normalize_text

__all__ = [
    "MAX_BRACKET_WORDS",
    "MAX_ELLIPSIS_WORDS",
    "Gap",
    "ParsedQuote",
    "Segment",
    "Wild",
    "parse_quote",
]

#: The most words of the authority one ellipsis may stand for.  Bluebook
#: ellipses usually drop a clause or a sentence; 300 words is about a page of
#: a slip opinion, far enough for any real omission and short enough that two
#: unrelated passages far apart in an opinion are not stitched together.
MAX_ELLIPSIS_WORDS = 300
#: The most words of the authority a bracketed insertion may replace
#: (``[the State]`` for ``the State of Montana``, ``[§56]`` for a clause).
MAX_BRACKET_WORDS = 12

_ELLIPSIS = re.compile(
    "(?:\\.[\\s\u00a0]*){3,}|\u2026+[\\s\u00a0]*\\.?|(?:\\*[\\s\u00a0]*){3,}"
    "|\\[[\\s\u00a0]*(?:(?:\\.[\\s\u00a0]*){3,}|\u2026)[\\s\u00a0]*\\]"
)
_BRACKET = re.compile(r"\[([^\[\]]{0,300})\]")
_ELEMENT = re.compile(_ELLIPSIS.pattern + r"|" + _BRACKET.pattern)
# Bracketed notes that are not the authority's words at all.
_EDITORIAL = re.compile(
    r"\s*(?:sic|emphasis(?:\s+\w+){0,3}|italics(?:\s+\w+){0,3}|(?:(?:some|all)\s+)?"
    r"(?:internal\s+)?(?:quotation\s+marks?|citations?|footnotes?|alterations?|brackets?"
    r"|ellips[ie]s|punctuation|paragraph\s+breaks?)(?:\s+and\s+[^\]]{0,60})?\s+"
    r"(?:omitted|added|in\s+original|original|supplied)|\d{1,3}|\*{1,3})\s*[.!]?\s*",
    re.IGNORECASE,
)
# A trailing explanatory parenthetical: one level of nested parentheses allowed.
_TRAILING_NOTE = re.compile(
    r"\(\s*(?:emphasis|italics|internal|citations?|footnotes?|alterations?|brackets?|some|all"
    r"|quoting|citing|ellips[ie]s|punctuation|quotation|paragraph)\b"
    r"(?:[^()]|\([^()]{0,200}\)){0,400}\)[\s.,;:\"'\u201d\u2019]*\Z",
    re.IGNORECASE,
)
# Characters that continue a word next to a bracket (``[t]he``, ``[State]'s``).
_WORDISH = re.compile(r"[^\W_]|['\u2019\-]")


@attrs.frozen(slots=True)
class Segment:
    """Consecutive words the authority must contain, in matching form, with
    the span of each word in the quotation."""

    words: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    #: The words as a pattern of the normalised text: ``" w1 w2 "``.
    pattern: str = attrs.field(init=False, eq=False, repr=False)

    @pattern.default
    def _pattern(self) -> str:
        return " " + " ".join(self.words) + " "


@attrs.frozen(slots=True)
class Wild:
    """One word of the authority, altered in brackets: it must begin with
    ``prefix`` and end with ``suffix`` (both in matching form)."""

    prefix: str
    suffix: str
    span: tuple[int, int]
    #: Whether the word as written (brackets dropped) is a negation.
    negates: bool = False
    #: The word as written, brackets dropped, in matching form.
    written: str = ""

    def accepts(self, word: str) -> bool:
        return (
            word.startswith(self.prefix)
            and word.endswith(self.suffix)
            and len(word) >= max(len(self.prefix), len(self.suffix), 1)
            and is_negation(word) == self.negates
        )


@attrs.frozen(slots=True)
class Gap:
    """Between two units: from ``low`` to ``high`` words of the authority.

    A ``bracket`` gap's words must hold exactly ``negations`` negations (those
    of the bracketed words): an alteration never drops or adds a ``not``."""

    low: int
    high: int
    kind: str  # "none", "ellipsis" or "bracket"
    span: tuple[int, int] | None = None  # the marks in the quotation
    negations: int = 0


NO_GAP = Gap(0, 0, "none")

Unit = Segment | Wild


@attrs.frozen(slots=True)
class ParsedQuote:
    """A quotation as units (segments and altered words) with a gap between
    each two; ``text`` is the quotation as submitted."""

    text: str
    units: tuple[Unit, ...]
    gaps: tuple[Gap, ...]

    @property
    def word_count(self) -> int:
        return sum(len(u.words) if isinstance(u, Segment) else 1 for u in self.units)

    @property
    def is_empty(self) -> bool:
        return not self.units


def _strip_trailing_notes(quote: str) -> str:
    while True:
        match = _TRAILING_NOTE.search(quote)
        if match is None:
            return quote
        quote = quote[: match.start()]


_BREAK_BEFORE = re.compile(r"[^\W_]-[ \t]*\n[ \t]*\Z")
_BREAK_AFTER = re.compile(r"-[ \t]*\n[ \t]*(?=[^\W_])")


def _word_bounds(quote: str, start: int, end: int) -> tuple[int, int]:
    """Widen ``[start, end)`` (a bracket) to the whole word it sits in, across a
    line-end hyphenation (``de-\ncid[es]``)."""
    while start > 0:
        before = quote[start - 1]
        if before == "]":
            opening = quote.rfind("[", 0, start - 1)
            if opening < 0:
                break
            start = opening
        elif _WORDISH.match(before):
            start -= 1
        else:
            hyphenation = _BREAK_BEFORE.search(quote, max(0, start - 40), start)
            if hyphenation is None:
                break
            start = hyphenation.start() + 1
    while end < len(quote):
        after = quote[end]
        if after == "[":
            closing = quote.find("]", end)
            if closing < 0:
                break
            end = closing + 1
        elif after == "-" and (hyphenation := _BREAK_AFTER.match(quote, end)) is not None:
            end = hyphenation.end()
        elif _WORDISH.match(after):
            end += 1
        else:
            break
    return start, end


# Text that normalisation leaves as its ASCII words, lower-cased: letters, spacing,
# and punctuation that only separates words.  No digit (footnote markers are
# digits), no hyphen, apostrophe or bracket (joiners), no ``*``, ``<``, ``&``,
# ``\x0c``, soft hyphen or em dash (star pages, markup, headers, footnote rules).
_PLAIN = re.compile("[A-Za-z \t\n.,;:!?()\"_\u2018\u201c\u201d]*")
_PLAIN_WORD = re.compile(r"[A-Za-z]+")
# The one header that plain characters can spell.
_PLAIN_HEADER = "(Slip Opinion)"


def plain_words(text: str, start: int, end: int) -> list[re.Match[str]] | None:
    """The words of ``text[start:end]`` as normalisation reads them, when it is plain.

    A quotation is mostly letters, spaces, commas and full stops, and is cut
    into many short pieces (between ellipses and brackets): reading those with
    one regular expression, not a whole normalisation each, is most of the
    parser's time saved.  ``None`` when the piece needs ``normalize_text``;
    the two readings are compared on random and real input by the tests.
    """
    if _PLAIN.fullmatch(text, start, end) is None or text.find(_PLAIN_HEADER, start, end) >= 0:
        return None
    return list(_PLAIN_WORD.finditer(text, start, end))


def _fold(fragment: str) -> str:
    if _PLAIN_WORD.fullmatch(fragment) or not fragment:
        return fragment.lower()
    return "".join(normalize_text(fragment, quote=True).text.split())


class _Assembler:
    def __init__(self, quote: str) -> None:
        self.quote = quote
        self.units: list[Unit] = []
        self.gaps: list[Gap] = []
        self.words: list[str] = []
        self.spans: list[tuple[int, int]] = []
        self.pending: Gap | None = None

    def text(self, start: int, end: int) -> None:
        if start >= end:
            return
        plain = plain_words(self.quote, start, end)
        if plain is not None:
            # Plain words read as themselves, lower-cased: the common case, and many
            # short pieces between ellipses, without a normalisation each.
            for word in plain:
                self.words.append(word[0].lower())
                self.spans.append(word.span())
            return
        norm = normalize_text(self.quote[start:end], quote=True)
        self.words.extend(norm.text.split())
        if not norm.maps:  # nothing rewritten: the word bounds are the offsets
            bounds, first = norm.bounds, norm.first_part
            self.spans.extend(
                (start + bounds[first + 2 * k], start + bounds[first + 2 * k + 1])
                for k in range(norm.word_count)
            )
            return
        for k in range(norm.word_count):
            word_start, word_end = norm.span(k)
            self.spans.append((start + word_start, start + word_end))

    def gap(self, gap: Gap) -> None:
        self._flush()
        if self.pending is None:
            self.pending = gap
            return
        kind = "ellipsis" if "ellipsis" in (gap.kind, self.pending.kind) else "bracket"
        first = self.pending.span or gap.span
        last = gap.span or self.pending.span
        self.pending = Gap(
            self.pending.low + gap.low,
            min(self.pending.high + gap.high, MAX_ELLIPSIS_WORDS),
            kind,
            (first[0], last[1]) if first and last else None,
            self.pending.negations + gap.negations,
        )

    def wild(self, wild: Wild) -> None:
        self._flush()
        self._add(wild)

    def _flush(self) -> None:
        if self.words:
            segment = Segment(tuple(self.words), tuple(self.spans))
            self.words, self.spans = [], []
            self._add(segment)

    def _add(self, unit: Unit) -> None:
        if self.units:
            self.gaps.append(self.pending or NO_GAP)
        self.pending = None
        self.units.append(unit)

    def result(self) -> ParsedQuote:
        self._flush()
        return ParsedQuote(self.quote, tuple(self.units), tuple(self.gaps))


def parse_quote(quote: str) -> ParsedQuote:
    """Read ``quote`` into segments, altered words and gaps.  Never raises."""
    body = _strip_trailing_notes(quote)
    out = _Assembler(quote)
    position = 0
    for match in _ELEMENT.finditer(body):
        start, end = match.span()
        if start < position:
            continue  # inside a word already taken whole
        if not match[0].startswith("[") or _ELLIPSIS.fullmatch(match[0]):
            out.text(position, start)
            out.gap(Gap(0, MAX_ELLIPSIS_WORDS, "ellipsis", (start, end)))
            position = end
            continue
        content = match[0][1:-1]
        if _EDITORIAL.fullmatch(content):
            out.text(position, start)
            position = end
            continue
        before = body[start - 1] if start > 0 else " "
        after = body[end] if end < len(body) else " "
        if _WORDISH.match(before) or _WORDISH.match(after):
            word_start, word_end = _word_bounds(body, start, end)
            word_start = max(word_start, position)
            out.text(position, word_start)
            chunk = body[word_start:word_end]
            prefix = _fold(chunk[: chunk.find("[")])
            suffix = _fold(chunk[chunk.rfind("]") + 1 :])
            written = _fold(chunk.replace("[", "").replace("]", ""))
            out.wild(Wild(prefix, suffix, (word_start, word_end), is_negation(written), written))
            position = word_end
            continue
        out.text(position, start)
        negations = sum(map(is_negation, normalize_text(content, quote=True).text.split()))
        out.gap(Gap(0, MAX_BRACKET_WORDS, "bracket", (start, end), negations))
        position = end
    out.text(position, len(body))
    return out.result()
