"""Locating quotations in an authority's text: exact with tolerated alterations,
or a near miss that says what differs.

For one authority and many quotations:

1. the authority's text is normalised once (``QuoteIndex``);
2. every quotation is parsed (``_parse``) into segments, altered words and
   gaps, and each segment of three or more words is cut into chunks of three
   to five words;
3. one Aho-Corasick automaton over the chunks of *all* the quotations scans
   the normalised text once;
4. per quotation, a segment's occurrences are where all its chunks hit in
   line; the rarest segment anchors, and the other units are checked word by
   word to its left and right within their gaps' bounds (ordered-gap
   assembly), so every check is a bounded, local ``startswith``;
5. a quotation that does not assemble is aligned word by word
   (``rapidfuzz``) against a small window where most of its chunks hit; the
   differences either are tolerable (an omitted citation, ``subject matter``
   for ``subject-matter``) or are named in a near miss.

Nothing runs over the whole text per quotation, and every loop is bounded
(``MAX_ANCHORS``, ``MAX_STATES``, ``MAX_NEAR_WORDS``).  Bounded loops nest,
though, and their product is not small: so every piece of work is also
charged to a **work budget** (``quote_steps``: a few steps per character of
the quotation, at most ``MAX_QUOTE_STEPS``; and ``MAX_CALL_STEPS`` for all
the quotations of one ``locate_many``).  A step is one word of the text
examined, one placement tried or one cell of an alignment (per 64 words);
the count is on every ``QuoteMatch`` (``steps``).  A quotation that runs out
is ``unchecked``: a warning, never ``found``.

A quotation with too little of its own to check (``fragmentary``: fewer
than ``MIN_WORDS`` words, or fewer than ``MIN_DISTINCTIVE`` different words
outside ``STOPWORDS``, the commonest words of opinions) is not looked for:
``the . . . the . . . the`` occurs in every opinion and proves nothing.

A bracketed alteration never drops or adds a negation: ``[did]`` does not
stand for ``has not``, ``follo[w]`` does not match ``not`` (see ``_parse``).
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Sequence
from typing import Any, Literal

import ahocorasick
import attrs
from rapidfuzz.distance import Levenshtein

from citeverify.providers._base import AuthorityText
from citeverify.quotes._negation import NEGATIONS, is_negation
from citeverify.quotes._normalize import Normalized, normalize_text
from citeverify.quotes._parse import (
    Gap,
    ParsedQuote,
    Segment,
    Wild,
    parse_quote,
)
from citeverify.quotes._stopwords import STOPWORDS

__all__ = [
    "FRAGMENTARY",
    "MAX_ANCHORS",
    "MAX_CALL_STEPS",
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
    "quote_steps",
]

#: At most this many occurrences of a quotation's anchor segment are tried.
MAX_ANCHORS = 200
#: At most this many partial assemblies are carried from one unit to the next.
MAX_STATES = 64
#: Quotations longer than this (in words) are not aligned for a near miss.
MAX_NEAR_WORDS = 2000
#: A chunk with more hits than this is too common to place a near miss.
_MAX_VOTING_HITS = 5000
#: Chunk candidates examined per segment, at most.
_MAX_CANDIDATES = 2000
#: A near miss must share at least this share of the quotation's words.
_NEAR_SHARE = 0.6

#: The work budget of one quotation: ``STEP_BASE`` steps plus ``STEPS_PER_CHAR``
#: per character, at most ``MAX_QUOTE_STEPS``; of one ``locate_many`` call,
#: ``MAX_CALL_STEPS`` in all.  Ordinary quotations use a few hundred steps to a
#: few thousand (a long gap examines up to 300 words); see ``bench_quotes.py``
#: for the time a step costs.
#: Steps charged per word a bracket-altered word (``[t]he``) is tried against.
_WILD_STEPS = 8
STEP_BASE = 5_000
STEPS_PER_CHAR = 100
MAX_QUOTE_STEPS = 300_000
MAX_CALL_STEPS = 3_000_000

#: A quotation needs this many words, and this many different words outside
#: ``STOPWORDS``, to be checked at all.
MIN_WORDS = 4
MIN_DISTINCTIVE = 3

#: The messages of the two statuses that mean "not checked" (callers warn).
FRAGMENTARY = "the quotation is too fragmentary to check"
UNCHECKED = "the quotation needs too much work to check (its work budget ran out)"

Status = Literal["found", "near", "absent", "fragmentary", "unchecked"]


def quote_steps(quote: str) -> int:
    """The work budget, in steps, of locating ``quote`` (see ``MAX_QUOTE_STEPS``)."""
    return min(MAX_QUOTE_STEPS, STEP_BASE + STEPS_PER_CHAR * len(quote))


def fragmentary(quote: str) -> bool:
    """Whether ``quote`` has too little substance to check (see ``_fragmentary``):
    such a quotation is answered ``fragmentary``, and a quotation search over
    many texts (``LocalStore.find_quote``) should not claim it either."""
    return _surely_fragmentary(quote) or _fragmentary(parse_quote(quote))


# Words for a quick count: letters and digits split at every other character, and
# also joined across apostrophes, hyphens (a line-end or flattened one too) and brackets
# as the parser and normaliser may join them.  Counting both readings never counts
# fewer different words than the parsed quotation has.
_FINE_WORD = re.compile(r"[^\W_]+")
_JOINER = "['\u2019\u02bc\\[\\]\\-\u2010\u2011\u00ad\u2013]"
_ROUGH_WORD = re.compile(
    "[^\\W_]+(?:(?:" + _JOINER + "+[ \\t]*\\n?[ \\t]*)+[^\\W_]+)*"
)
_ROUGH_JOINERS = re.compile(_JOINER + "|\\s")


def _surely_fragmentary(quote: str) -> bool:
    """A quick test before parsing: fewer than ``MIN_DISTINCTIVE`` different rough
    words outside ``STOPWORDS`` anywhere in ``quote`` (brackets included).  The
    parsed count can only be smaller, so this never calls fragmentary a quotation
    that ``_fragmentary`` would check; it saves parsing ``the . . .`` a thousand times."""
    if not quote.isascii():
        # Fold as the normaliser folds: compatibility forms expand (``¾`` is ``3⁄4``)
        # and accents go without splitting their word (``Ù0`` is ``u0``).
        quote = "".join(
            c for c in unicodedata.normalize("NFKD", quote) if not unicodedata.combining(c)
        )
    folded = quote.casefold()
    distinctive: set[str] = set()
    for pattern in (_FINE_WORD, _ROUGH_WORD):
        for match in pattern.finditer(folded):
            word = _ROUGH_JOINERS.sub("", match[0])
            if word not in STOPWORDS:
                distinctive.add(word)
                if len(distinctive) >= MIN_DISTINCTIVE:
                    return False
    return True


def _fragmentary(parsed: ParsedQuote) -> bool:
    """Whether a parsed quotation has too little substance to check: fewer than
    ``MIN_WORDS`` words, or fewer than ``MIN_DISTINCTIVE`` different words of
    its own that are not ``STOPWORDS`` (a bracketed insertion is not its own; a
    word altered in brackets is when three of its letters are, ``follo[w]``)."""
    if parsed.word_count < MIN_WORDS:
        return True
    distinctive: set[str] = set()
    for unit in parsed.units:
        if isinstance(unit, Segment):
            distinctive.update(w for w in unit.words if w not in STOPWORDS)
        elif len(unit.prefix) + len(unit.suffix) >= 3 and unit.written not in STOPWORDS:
            distinctive.add(unit.written)
        if len(distinctive) >= MIN_DISTINCTIVE:
            return False
    return True


class _OutOfSteps(Exception):
    """The quotation's work budget ran out."""


class _Budget:
    """Steps a quotation may still take; ``spend`` is called *before* the work."""

    __slots__ = ("limit", "used")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0

    def spend(self, steps: int) -> None:
        if self.used + steps > self.limit:
            self.used = self.limit
            raise _OutOfSteps
        self.used += steps


@attrs.frozen(slots=True)
class QuoteMatch:
    """Where a quotation is in an authority's text, or how it differs.

    ``status`` is ``found`` (the quotation is there, alterations allowed),
    ``near`` (a passage is close but differs in words: ``message`` names
    the difference), ``absent``, or one of two that mean *not checked*, which
    a caller reports as a warning, never as verified nor as not found:
    ``fragmentary`` (too little substantive text to check: only common words
    and ellipses, or under ``MIN_WORDS`` words; ``message`` is ``FRAGMENTARY``)
    and ``unchecked`` (its work budget ran out; ``message`` is ``UNCHECKED``).
    ``start``/``end`` are offsets into the original text (end exclusive),
    ``passage`` the authority's text of that span, ``pages`` the pages it
    covers (empty when unknown, as for a footnote whose page the text does
    not say: then no pin check can be made), ``paragraph`` its paragraph when
    known; for a near miss they describe the closest passage.  ``steps`` is
    the work it took (see ``quote_steps``).
    """

    status: Status
    start: int | None = None
    end: int | None = None
    pages: tuple[int, ...] = ()
    paragraph: int | None = None
    passage: str | None = None
    message: str | None = None
    steps: int = attrs.field(default=0, eq=False)

    @property
    def found(self) -> bool:
        return self.status == "found"

    @property
    def checked(self) -> bool:
        """False for ``fragmentary`` and ``unchecked``: nothing can be said either way."""
        return self.status not in ("fragmentary", "unchecked")


@attrs.frozen(slots=True)
class _Chunk:
    pattern_id: int
    char_offset: int  # from the segment's leading space
    word_offset: int  # from the quotation's first word


@attrs.frozen(slots=True)
class _Plan:
    parsed: ParsedQuote
    # unit index -> the chunks of a registered segment
    chunks: dict[int, tuple[_Chunk, ...]]
    # the word offset of each unit from the quotation's first word
    word_offsets: tuple[int, ...]


def _chunk_bounds(n: int) -> list[tuple[int, int]]:
    """Cut ``n`` words into chunks of three to five (fewer only when ``n < 3``)."""
    count = max(1, (n + 2) // 4)
    base, extra = divmod(n, count)
    bounds: list[tuple[int, int]] = []
    start = 0
    for i in range(count):
        size = base + (1 if i < extra else 0)
        bounds.append((start, start + size))
        start += size
    return bounds


class _Patterns:
    """The automaton's patterns, shared by all quotations of one call."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.lengths: list[int] = []

    def add(self, pattern: str) -> int:
        found = self.ids.get(pattern)
        if found is None:
            found = self.ids[pattern] = len(self.lengths)
            self.lengths.append(len(pattern))
        return found

    def scan(self, text: str) -> list[list[int]]:
        """For each pattern, the ascending start offsets of its matches in ``text``."""
        hits: list[list[int]] = [[] for _ in self.lengths]
        if not self.ids:
            return hits
        automaton: Any = ahocorasick.Automaton()
        for pattern, pattern_id in self.ids.items():
            automaton.add_word(pattern, pattern_id)
        automaton.make_automaton()
        lengths = self.lengths
        for end, pattern_id in automaton.iter(text):
            hits[pattern_id].append(end - lengths[pattern_id] + 1)
        return hits


def _plan(parsed: ParsedQuote, patterns: _Patterns) -> _Plan:
    offsets: list[int] = []
    position = 0
    for unit in parsed.units:
        offsets.append(position)
        position += len(unit.words) if isinstance(unit, Segment) else 1
    segments = [(i, u) for i, u in enumerate(parsed.units) if isinstance(u, Segment)]
    registered = [(i, u) for i, u in segments if len(u.words) >= 3]
    if not registered and segments:
        registered = [max(segments, key=lambda iu: len(iu[1].words))]
    chunks: dict[int, tuple[_Chunk, ...]] = {}
    for index, segment in registered:
        made: list[_Chunk] = []
        char_offset = 0
        for start, stop in _chunk_bounds(len(segment.words)):
            pattern = " " + " ".join(segment.words[start:stop]) + " "
            made.append(_Chunk(patterns.add(pattern), char_offset, offsets[index] + start))
            char_offset += len(pattern) - 1
        chunks[index] = tuple(made)
    return _Plan(parsed, chunks, tuple(offsets))


def _occurrences(
    chunks: tuple[_Chunk, ...], hits: list[list[int]], budget: _Budget
) -> list[int]:
    """Where a segment occurs: the leading-space offsets at which all its chunks hit in line."""
    rarest = min(chunks, key=lambda c: len(hits[c.pattern_id]))
    candidates = [p - rarest.char_offset for p in hits[rarest.pattern_id][:_MAX_CANDIDATES]]
    budget.spend(len(candidates) + 1)
    for chunk in chunks:
        if chunk is rarest or not candidates:
            continue
        budget.spend(len(hits[chunk.pattern_id]) + len(candidates))
        there = set(hits[chunk.pattern_id])
        offset = chunk.char_offset
        candidates = [p for p in candidates if p + offset in there]
    return candidates[:MAX_ANCHORS]


# -- messages ---------------------------------------------------------------------------

_CITATION = re.compile(
    r"\b\d{1,4}\s+(?:[A-Z][A-Za-z.'\u2019]*\s*){1,6}(?:\d{1,5}|_{2,})"
    r"|\b(?:Id|Ibid|Supra|Infra)\b\.?|\bslip op\.|\bn\.\s*\d|\bat\s+\d|§",
)


def _looks_like_citation(text: str) -> bool:
    """Whether an omitted stretch of the authority reads as a citation (Bluebook
    lets a quotation drop citations without an ellipsis, ``(citations omitted)``)."""
    stripped = text.strip(" \t\n()[];,.")
    if not stripped or len(stripped) > 240 or _CITATION.search(stripped) is None:
        return False
    # A citation's words are short, capitalised or abbreviations; prose is not.
    prose = re.findall(r"\b[a-z]{4,}\b", stripped)
    allowed = {
        "quoting", "citing", "internal", "quotation", "marks", "omitted", "also", "slip",
        "opinion", "principal", "plurality", "concurring", "dissenting", "emphasis",
        "original", "added", "alteration", "alterations", "brackets", "supplied",
        "footnote", "citation", "citations", "majority", "judgment", "part",
    }  # fmt: skip
    return sum(1 for w in prose if w not in allowed) <= 2


def _shorten(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\u2026"


# -- the index --------------------------------------------------------------------------


class QuoteIndex:
    """One authority's text normalised once, with its offset map; reused for many quotes.

    ``locate_many`` finds every quotation of a request with one scan of the
    text; ``locate`` is the same for one.  Pages come from the
    ``AuthorityText``'s ``pages``, or, when it has none, from star-pagination
    markup in the text itself; paragraphs likewise.
    """

    def __init__(self, text: AuthorityText) -> None:
        self._source = text.text
        self._norm: Normalized = normalize_text(text.text)
        if text.pages:
            pages = list(text.pages)
            self._page_before_first = False
        else:
            pages = advancing_pages(self._norm.marks)
            self._page_before_first = bool(pages)
        self._page_offsets = [offset for offset, _ in pages]
        self._page_numbers = [page for _, page in pages]
        self._paragraphs = list(text.paragraphs or self._norm.paragraphs)
        self._notes = self._footnote_pages()
        self._note_starts = [start for start, _, _ in self._notes]
        self._negation_words: list[int] | None = None

    @property
    def pages(self) -> tuple[tuple[int, int], ...]:
        """``(offset, page)`` for each page start, as used for matches."""
        return tuple(zip(self._page_offsets, self._page_numbers, strict=True))

    # -- public --

    def locate(self, quote: str, *, prefer_page: int | None = None) -> QuoteMatch:
        """Where ``quote`` is in this text (see ``locate_many``)."""
        return self.locate_many([quote], prefer_pages=[prefer_page])[0]

    def locate_many(
        self,
        quotes: Sequence[str],
        *,
        prefer_pages: Sequence[int | None] | None = None,
        budget: int = MAX_CALL_STEPS,
    ) -> list[QuoteMatch]:
        """Locate every quotation, with one scan of the text for all of them.

        ``prefer_pages`` (one per quotation, or ``None``) picks, among several
        places a quotation occurs, one that covers that page (a pin cite).
        Never raises for any string.

        Every quotation gets at most ``quote_steps(quote)`` steps of work, and
        all of them together at most ``budget`` (``MAX_CALL_STEPS`` unless a
        caller's own budget is smaller): past that, the answer is
        ``unchecked``.  A fragmentary quotation costs no search.
        """
        patterns = _Patterns()
        plans: list[_Plan | None] = []
        first_of: dict[str, int] = {}  # a quotation asked twice is parsed and located once
        for i, quote in enumerate(quotes):
            if first_of.setdefault(quote, i) != i:
                plans.append(None)
                continue
            if _surely_fragmentary(quote):
                plans.append(None)
                continue
            parsed = parse_quote(quote)
            plans.append(None if _fragmentary(parsed) else _plan(parsed, patterns))
        hits = patterns.scan(self._norm.text)
        results: list[QuoteMatch] = []
        done: dict[tuple[str, int | None], QuoteMatch] = {}
        left = min(budget, MAX_CALL_STEPS)
        for i, plan in enumerate(plans):
            prefer = prefer_pages[i] if prefer_pages is not None and i < len(prefer_pages) else None
            again = done.get((quotes[i], prefer))
            if again is not None:
                results.append(again)
                continue
            if plan is None and first_of[quotes[i]] != i:
                plan = plans[first_of[quotes[i]]]  # asked before, with another pin page
            if plan is None:
                results.append(QuoteMatch("fragmentary", message=FRAGMENTARY))
                continue
            allowed = _Budget(min(quote_steps(quotes[i]), left))
            try:
                match = self._resolve(plan, hits, prefer, allowed)
            except _OutOfSteps:
                match = QuoteMatch("unchecked", message=UNCHECKED)
            left -= allowed.used
            match = done[quotes[i], prefer] = attrs.evolve(match, steps=allowed.used)
            results.append(match)
        return results

    # -- one quotation --

    def _resolve(
        self, plan: _Plan, hits: list[list[int]], prefer: int | None, budget: _Budget
    ) -> QuoteMatch:
        parsed = plan.parsed
        if parsed.is_empty or not plan.chunks:
            return QuoteMatch("absent", message="no words to look for")
        spans = self._exact(plan, hits, prefer, budget)
        if spans:
            chosen = spans[0]
            if prefer is not None:
                for span in spans:
                    if prefer in self._pages_of(*self._norm.original_span(*span)):
                        chosen = span
                        break
            return self._match("found", chosen[0], chosen[1])
        return self._near(plan, hits, budget)

    def _match(
        self, status: Status, first: int, last: int, message: str | None = None
    ) -> QuoteMatch:
        start, end = self._norm.original_span(first, last)
        return QuoteMatch(
            status,
            start,
            end,
            self._pages_of(start, end),
            self._paragraph_of(start),
            self._source[start:end],
            message,
        )

    # -- exact assembly --

    def _exact(
        self, plan: _Plan, hits: list[list[int]], prefer: int | None, budget: _Budget
    ) -> list[tuple[int, int]]:
        """Word spans ``(first, last)`` where the quotation assembles: at most one
        unless a preferred page asks for alternatives."""
        occurrences: dict[int, list[int]] = {}
        for index, chunks in plan.chunks.items():
            found = _occurrences(chunks, hits, budget)
            if not found:
                return []
            occurrences[index] = found
        anchor = min(occurrences, key=lambda i: len(occurrences[i]))
        units = plan.parsed.units
        anchor_unit = units[anchor]
        assert isinstance(anchor_unit, Segment)
        norm = self._norm
        wanted = 8 if prefer is not None else 1
        spans: list[tuple[int, int]] = []
        for leading_space in occurrences[anchor]:
            budget.spend(1)
            first_word = norm.word_at(leading_space)
            stop_word = first_word + len(anchor_unit.words)
            right = self._extend_right(plan, anchor, stop_word, budget)
            if right is None:
                continue
            left = self._extend_left(plan, anchor, first_word, budget)
            if left is None:
                continue
            spans.append((left, right - 1))
            if len(spans) >= wanted:
                break
        return spans

    def _starts(
        self, unit: Segment | Wild, first: int, last: int, budget: _Budget
    ) -> list[int]:
        """The words from ``first`` to ``last`` (inclusive) at which ``unit`` begins."""
        norm = self._norm
        size = len(unit.words) if isinstance(unit, Segment) else 1
        first = max(first, 0)
        last = min(last, norm.word_count - size)
        if last < first:
            return []
        if isinstance(unit, Wild):
            # A word at a time in Python: several times the cost of a segment's search.
            budget.spend(_WILD_STEPS * (last - first + 1) + 1)
            return [w for w in range(first, last + 1) if unit.accepts(norm.word(w))]
        # A segment: one C-level search over the window, not a check per word.
        budget.spend(last - first + 2)
        text, pattern, starts = norm.text, unit.pattern, norm.starts
        found: list[int] = []
        stop = starts[last] + len(pattern)
        position = text.find(pattern, starts[first], stop)
        while position >= 0:
            found.append(norm.word_at(position))
            position = text.find(pattern, position + 1, stop)
        return found

    def _negations(self, first: int, stop: int) -> int:
        """How many of words ``first`` to ``stop - 1`` are negations."""
        if self._negation_words is None:
            norm = self._norm
            pattern = re.compile(" (?:" + "|".join(sorted(NEGATIONS)) + ")(?= )")
            self._negation_words = [norm.word_at(m.start()) for m in pattern.finditer(norm.text)]
        words = self._negation_words
        return bisect.bisect_left(words, stop) - bisect.bisect_left(words, first)

    def _placements(
        self,
        unit: Segment | Wild,
        gap: Gap,
        states: list[int],
        budget: _Budget,
        *,
        rightwards: bool,
    ) -> set[int]:
        """For every partial assembly (``states``), where ``unit`` can go next across
        ``gap``: rightwards, states are the word after the assembly and the result
        the word after ``unit``; leftwards, the assembly's first word and ``unit``'s.

        Overlapping windows are searched once; a bracket gap's words must hold
        the bracket's own negations, no more and no fewer."""
        size = len(unit.words) if isinstance(unit, Segment) else 1
        if rightwards:
            windows = [(state + gap.low, state + gap.high, state) for state in states]
        else:
            windows = [
                (state - gap.high - size, state - gap.low - size, state) for state in states
            ]
        reached: set[int] = set()
        if gap.kind == "bracket":
            for first, last, state in windows:
                for w in self._starts(unit, first, last, budget):
                    between = (state, w) if rightwards else (w + size, state)
                    if self._negations(*between) == gap.negations:
                        reached.add(w + size if rightwards else w)
            return reached
        windows.sort()
        merged: list[list[int]] = []
        for first, last, _ in windows:
            if merged and first <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], last)
            else:
                merged.append([first, last])
        # Windows that overlap or touch merge, so a merged one is exactly their union.
        for first, last in merged:
            reached.update(
                w + size if rightwards else w for w in self._starts(unit, first, last, budget)
            )
        return reached

    def _extend_right(self, plan: _Plan, anchor: int, stop: int, budget: _Budget) -> int | None:
        """The word after the last unit, extending from the anchor rightwards."""
        units, gaps = plan.parsed.units, plan.parsed.gaps
        states = [stop]  # for each partial assembly, the word after its last unit
        for index in range(anchor + 1, len(units)):
            budget.spend(len(states))
            reached = self._placements(
                units[index], gaps[index - 1], states, budget, rightwards=True
            )
            if not reached:
                return None
            states = sorted(reached)[:MAX_STATES]
        return states[0]

    def _extend_left(self, plan: _Plan, anchor: int, first: int, budget: _Budget) -> int | None:
        """The first word of the first unit, extending from the anchor leftwards."""
        units, gaps = plan.parsed.units, plan.parsed.gaps
        states = [first]  # for each partial assembly, its first word
        for index in range(anchor - 1, -1, -1):
            budget.spend(len(states))
            reached = self._placements(units[index], gaps[index], states, budget, rightwards=False)
            if not reached:
                return None
            states = sorted(reached, reverse=True)[:MAX_STATES]
        return states[0]

    # -- near misses --

    def _near(self, plan: _Plan, hits: list[list[int]], budget: _Budget) -> QuoteMatch:
        parsed = plan.parsed
        if parsed.word_count > MAX_NEAR_WORDS:
            return QuoteMatch("absent", message="too long to compare word by word")
        window = self._window(plan, hits, budget)
        if window is None:
            return QuoteMatch("absent")
        return _Alignment(self, parsed, *window, budget).result()

    def _window(
        self, plan: _Plan, hits: list[list[int]], budget: _Budget
    ) -> tuple[int, int] | None:
        """The words of the text where most of the quotation's chunks hit together."""
        norm = self._norm
        votes: list[tuple[int, int]] = []  # (diagonal, chunk number)
        number = 0
        for chunks in plan.chunks.values():
            for chunk in chunks:
                number += 1
                found = hits[chunk.pattern_id]
                if len(found) > _MAX_VOTING_HITS:
                    continue
                budget.spend(2 * len(found) + 1)  # placed, then sorted and swept
                for position in found:
                    votes.append((norm.word_at(position) - chunk.word_offset, number))
        if not votes:
            return None
        votes.sort()
        parsed = plan.parsed
        # Hits of one passage drift apart by the words the quotation drops or adds:
        # an omitted citation (up to ~40 words) or what its gaps stand for.
        spread = 40 + sum(min(g.high, 60) if g.kind != "none" else 0 for g in parsed.gaps)
        best = (0, 0, 0)  # (distinct chunks, -first diagonal, last diagonal)
        lo = 0
        counts: dict[int, int] = {}
        for hi in range(len(votes)):
            counts[votes[hi][1]] = counts.get(votes[hi][1], 0) + 1
            while votes[hi][0] - votes[lo][0] > spread:
                chunk_number = votes[lo][1]
                counts[chunk_number] -= 1
                if not counts[chunk_number]:
                    del counts[chunk_number]
                lo += 1
            score = (len(counts), -votes[lo][0], votes[hi][0])
            if score[0] > best[0]:
                best = score
        first_diagonal, last_diagonal = -best[1], best[2]
        total = parsed.word_count + sum(g.high for g in parsed.gaps if g.kind != "none")
        start = max(0, first_diagonal - 4)
        stop = min(norm.word_count, last_diagonal + parsed.word_count + 4)
        stop = min(stop, start + total + 3 * spread + 8)
        return (start, stop) if stop > start else None

    # -- pages and paragraphs --

    def _page_at(self, offset: int) -> int | None:
        i = bisect.bisect_right(self._page_offsets, offset) - 1
        if i >= 0:
            return self._page_numbers[i]
        if self._page_before_first and self._page_numbers[0] > 1:
            return self._page_numbers[0] - 1
        return None

    def _pages_of(self, start: int, end: int) -> tuple[int, ...]:
        offsets, numbers = self._page_offsets, self._page_numbers
        if not offsets:
            return ()
        if self._notes:
            i = bisect.bisect_right(self._note_starts, start) - 1
            if i >= 0 and start < self._notes[i][1]:
                # A footnote printed at the end: on its call's page, or unknown.
                page = self._notes[i][2]
                return () if page is None else (page,)
        first = self._page_at(start)
        pages: list[int] = [] if first is None else [first]
        j = bisect.bisect_right(offsets, start)
        while j < len(offsets) and offsets[j] < end:
            pages.append(numbers[j])
            j += 1
        return tuple(pages)

    def _footnote_pages(self) -> list[tuple[int, int, int | None]]:
        """``(start, end, page)`` of footnotes gathered at the end of the text
        (``[12] text`` lines, CourtListener's layout), after the last page mark.

        Such a footnote is on the page of its call (``[12]`` or
        ``<sup>[12]</sup>`` in the body) when the text carries the call.
        Without one its page is unknown (``None``): the page marks say only
        where the last page *begins*, and a footnote printed after the opinion
        was really at the foot of some earlier page.  A footnote before the
        last page mark (printed where it falls) is on the page of its own
        marker, so it is not listed here."""
        text = self._source
        if not self._page_offsets or "[" not in text:
            return []
        last_mark = self._page_offsets[-1]
        starts = list(_NOTE_START.finditer(text, last_mark))
        if not starts or starts[0][1] != "1":
            return []
        body_end = starts[0].start()
        calls: dict[str, int] = {}
        for call in _NOTE_CALL.finditer(text, 0, body_end):
            calls.setdefault(call[1] or call[2], call.start())
        notes: list[tuple[int, int, int | None]] = []
        for i, note in enumerate(starts):
            end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
            called = calls.get(note[1])
            notes.append((note.start(), end, None if called is None else self._page_at(called)))
        return notes

    def _paragraph_of(self, start: int) -> int | None:
        number = bisect.bisect_right(self._paragraphs, start)
        return number or None


def advancing_pages(marks: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Page marks whose page numbers go up, the later of two at one offset.

    Star-page markers repeat a page or put two at one offset (a page with no
    text of its own); the corpus build cleans its page lists the same way.
    """
    out: list[tuple[int, int]] = []
    for offset, page in sorted(marks):
        if out and offset == out[-1][0]:
            if page > out[-1][1]:
                out[-1] = (offset, page)
            continue
        if out and page <= out[-1][1]:
            continue
        out.append((offset, page))
    return out


_GAP_TOKEN = "\x00gap"
# Footnotes at the end of a text, and their calls in the body.
_NOTE_START = re.compile(r"(?:^|\n|<p>)[ \t]*\[(\d{1,3})\][ \t]")
# (The look-behind follows the ``[``, so the search skips to brackets instead of
# trying the look-behind at every character.)
_NOTE_CALL = re.compile(r"<sup>\s*\[(\d{1,3})\]\s*</sup>|\[(?<=[^\s>]\[)(\d{1,3})\]")


class _Alignment:
    """A word-by-word alignment of a quotation against a window of the text,
    read as tolerated alterations and named differences."""

    def __init__(
        self, index: QuoteIndex, parsed: ParsedQuote, start: int, stop: int, budget: _Budget
    ) -> None:
        self.budget = budget
        self.index = index
        self.parsed = parsed
        self.start = start
        self.window = index._norm.words(start, stop)
        # The quotation as tokens: its words, a token per altered word, a token per gap.
        self.tokens: list[str] = []
        self.spans: list[tuple[int, int] | None] = []
        self.wilds: dict[int, Wild] = {}
        self.gaps: dict[int, Gap] = {}
        for i, unit in enumerate(parsed.units):
            if i:
                gap = parsed.gaps[i - 1]
                if gap.kind != "none":
                    self.gaps[len(self.tokens)] = gap
                    self.tokens.append(_GAP_TOKEN)
                    self.spans.append(gap.span)
            if isinstance(unit, Segment):
                self.tokens.extend(unit.words)
                self.spans.extend(unit.spans)
            else:
                self.wilds[len(self.tokens)] = unit
                self.tokens.append(f"\x01{unit.prefix}\x02{unit.suffix}")
                self.spans.append(unit.span)

    def _quote_text(self, first: int, stop: int) -> str:
        spans = [s for s in self.spans[first:stop] if s is not None]
        if not spans:
            return ""
        return _shorten(self.parsed.text[spans[0][0] : spans[-1][1]])

    def _text(self, first: int, stop: int) -> str:
        if stop <= first:
            return ""
        start, end = self.index._norm.original_span(self.start + first, self.start + stop - 1)
        return _shorten(self.index._source[start:end])

    def result(self) -> QuoteMatch:
        # The alignment is bit-parallel: about one step per quoted word per 64 words
        # of the window; reading it back is linear, judging a stretch quadratic in it.
        size, room = len(self.tokens), len(self.window)
        self.budget.spend(size * (room // 64 + 1) + size + room)
        ops = Levenshtein.opcodes(self.tokens, self.window)
        blocks: list[tuple[int, int, int, int]] = []  # non-equal stretches
        equal_words = 0
        first_text = last_text = None
        for op in ops:
            if op.tag == "equal":
                equal_words += op.src_end - op.src_start
                if first_text is None:
                    first_text = op.dest_start
                last_text = op.dest_end
                continue
            if blocks and blocks[-1][1] == op.src_start and blocks[-1][3] == op.dest_start:
                previous = blocks[-1]
                blocks[-1] = (previous[0], op.src_end, previous[2], op.dest_end)
            else:
                blocks.append((op.src_start, op.src_end, op.dest_start, op.dest_end))
        if first_text is None or last_text is None:
            return QuoteMatch("absent")
        differences: list[tuple[str, int, int, int, int]] = []  # (kind, q1, q2, t1, t2)
        notes: list[str] = []
        tolerated_words = 0
        equal_first, equal_last = first_text, last_text
        for q1, q2, t1, t2 in blocks:
            if q1 == q2 and (t2 <= equal_first or t1 >= equal_last):
                continue  # the window's slack before the first or after the last word
            if q1 == 0 and t1 < equal_first:  # quoted words before the first match
                t1 = self._boundary(q1, q2, t1, t2, at_start=True)
            if q2 == len(self.tokens) and t2 > equal_last:  # and after the last
                t2 = self._boundary(q1, q2, t1, t2, at_start=False)
            kind, tolerated = self._judge(q1, q2, t1, t2)
            if q2 > q1:
                first_text = min(first_text, t1)
                last_text = max(last_text, t2)
            if kind == "ok":
                tolerated_words += tolerated
            elif kind.startswith("note:"):
                tolerated_words += tolerated
                notes.append(kind[5:])
            else:
                differences.append((kind, q1, q2, t1, t2))
        words = self.parsed.word_count
        first_word = self.start + first_text
        last_word = self.start + last_text - 1
        if not differences:
            return self.index._match(
                "found", first_word, last_word, "; ".join(dict.fromkeys(notes)) or None
            )
        shared = equal_words + tolerated_words
        if shared < 3 or shared < _NEAR_SHARE * words:
            return QuoteMatch("absent")
        return self.index._match("near", first_word, last_word, self._message(differences))

    def _boundary(self, q1: int, q2: int, t1: int, t2: int, *, at_start: bool) -> int:
        """Where a stretch at either end of the quotation begins (``at_start``) or
        ends in the window: the window holds slack there, so take as much of it
        as reads as a tolerated alteration, or else as many words as were quoted."""
        size = q2 - q1
        room = t2 - t1
        for extent in range(min(room, size + 3), -1, -1):
            edge = t2 - extent if at_start else t1 + extent
            first, stop = (edge, t2) if at_start else (t1, edge)
            if self._judge(q1, q2, first, stop)[0] == "ok" or self._judge(q1, q2, first, stop)[
                0
            ].startswith("note:spacing"):
                return edge
        extent = min(room, size)
        return t2 - extent if at_start else t1 + extent

    def _judge(self, q1: int, q2: int, t1: int, t2: int) -> tuple[str, int]:
        """How a differing stretch reads: ``ok`` (a tolerated alteration, with how
        many quoted words it accounts for), ``note:...`` (tolerated, worth saying)
        or the kind of difference."""
        quoted = self.tokens[q1:q2]
        text = self.window[t1:t2]
        self.budget.spend(len(quoted) + len(text) + 1)
        gap_positions = [i for i in range(q1, q2) if i in self.gaps]
        if gap_positions:
            allowance = sum(self.gaps[i].high for i in gap_positions)
            rest = [i for i in range(q1, q2) if i not in self.gaps]
            if len(text) - len(rest) > allowance:
                return "gap", 0
            if all(self.gaps[i].kind == "bracket" for i in gap_positions):
                # Brackets replace words, never a negation: the stretch must hold
                # as many as the quotation's words and brackets here do.
                claimed = sum(self.gaps[i].negations for i in gap_positions) + sum(
                    1
                    for i in rest
                    if (self.wilds[i].negates if i in self.wilds else is_negation(self.tokens[i]))
                )
                if sum(map(is_negation, text)) != claimed:
                    return "negation", 0
            # Every other quoted token must still appear, in order, among the text's.
            position = 0
            for i in rest:
                while position < len(text) and not self._same(i, text[position]):
                    position += 1
                if position == len(text):
                    return "changed", 0
                position += 1
            return "ok", len(rest)
        if not quoted:
            start, end = self.index._norm.original_span(self.start + t1, self.start + t2 - 1)
            if _looks_like_citation(self.index._source[start:end]):
                return "note:citation omitted", 0
            return "omitted", 0
        if not text:
            return "added", 0
        if len(quoted) == len(text) and all(
            self._same(q1 + k, word) for k, word in enumerate(text)
        ):
            return "ok", len(quoted)
        if not self.wilds.keys() & set(range(q1, q2)) and "".join(quoted) == "".join(text):
            return "note:spacing or hyphenation differs", len(quoted)
        if len(quoted) > 1 and sorted(quoted) == sorted(text):
            return "order", 0
        return "changed", 0

    def _same(self, token: int, word: str) -> bool:
        wild = self.wilds.get(token)
        if wild is not None:
            return wild.accepts(word)
        return self.tokens[token] == word

    def _message(self, differences: list[tuple[str, int, int, int, int]]) -> str:
        parts: list[str] = []
        # Two stretches, one dropped and one added with the same words, are a reordering.
        used: set[int] = set()
        for a, first in enumerate(differences):
            if a in used:
                continue
            kind, q1, q2, t1, t2 = first
            for b in range(a + 1, min(a + 3, len(differences))):
                other = differences[b]
                pair = {kind, other[0]}
                if pair == {"added", "omitted"}:
                    added = first if kind == "added" else other
                    omitted = other if kind == "added" else first
                    if sorted(self.tokens[added[1] : added[2]]) == sorted(
                        self.window[omitted[3] : omitted[4]]
                    ):
                        used.update((a, b))
                        parts.append("words in another order")
                        break
            if a in used:
                continue
            parts.append(self._describe(kind, q1, q2, t1, t2))
        parts = list(dict.fromkeys(parts))
        if len(parts) > 3:
            parts = [*parts[:3], f"and {len(parts) - 3} more differences"]
        return "; ".join(parts)

    def _describe(self, kind: str, q1: int, q2: int, t1: int, t2: int) -> str:
        quoted, text = self._quote_text(q1, q2), self._text(t1, t2)
        if kind == "omitted":
            if t2 - t1 > 3:
                return f"gap without an ellipsis: the authority has '{text}'"
            return f"'{text}' omitted"
        if kind == "added":
            return f"'{quoted}' is not in the authority"
        if kind == "order":
            return f"words in another order: '{quoted}' where the authority says '{text}'"
        if kind == "gap":
            return f"the text omitted at '{quoted}' is longer than an ellipsis allows"
        if kind == "negation":
            return f"the alteration '{quoted}' stands for '{text}': a negation dropped or added"
        return f"'{quoted}' where the authority says '{text}'"


def locate(quote: str, text: AuthorityText) -> QuoteMatch:
    """Where ``quote`` is in ``text`` (one quotation; use ``QuoteIndex`` for many)."""
    return QuoteIndex(text).locate(quote)
