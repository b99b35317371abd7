"""From what a brief holds to the driver's tasks: short forms resolved, quotations attributed.

Citations come from ``citeverify.citations.find`` and quotations from
``_quotes.find_quotations``, both with spans.  This module decides, in one
walk in document order:

* what each short form refers to: ``Id.`` and ``Ibid.`` to the immediately
  preceding authority (a statute too), ``410 U.S. at 153`` to the most recent
  full citation in that volume and reporter, ``Roe, supra, at 160`` to the most
  recent full citation whose name holds ``Roe``.  A short form with nothing
  to refer to gets a warning that says so.
* which citation supports each quotation: the citation whose parenthetical
  holds it; else the first citation after it in the same sentence or in the
  next citation sentence (a block quotation: the citation right after the
  block); else a citation earlier in the same sentence.  Through ``Id.`` the
  quotation is checked at the short form's pin, and attributed to the full
  citation ``Id.`` resolves to.
* what is not a quotation: quoted words with no citation attached and fewer
  than a few words (defined terms, scare quotes).

Everything here is pure: text in, tasks out.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from typing import Any, Final, NamedTuple, TypeVar

import attrs

from citeverify._kinds import KINDS
from citeverify._model import DocumentPosition, ItemType, Outcome, Status, Verdict
from citeverify._policy import Judgment, quote_no_citation
from citeverify._verify import Task
from citeverify.citations import parse
from citeverify.citations._find import Found, ShortCitation
from citeverify.citations._types import (
    CaseCitation,
    ConstitutionCitation,
    NotACitation,
    ParsedCitation,
    Pinpoint,
    RuleCitation,
    StatuteCitation,
)
from citeverify.document._quotes import QuotationSpan

__all__ = ["MIN_QUOTE_WORDS", "assemble"]

#: Quoted words with no citation attached and fewer words than this are
#: defined terms or scare quotes, not quotations.
MIN_QUOTE_WORDS: Final = 5
#: With a citation attached, a quotation this short is still a quotation.
MIN_CITED_QUOTE_WORDS: Final = 2
#: A quotation and its citation are at most this far apart.
_MAX_GAP: Final = 400
_SENTENCE_END: Final = re.compile(r"[.!?][\"'\u201d\u2019)\]]*\s+(?=[\"'\u201c\u2018(\[]?[A-Z])")
_SHORT_SIGNAL: Final = re.compile(
    r"\s*(?:(?:see|see also|cf|compare|but see|but cf|see generally|accord|e\.g)\.?,?\s*){0,3}$",
    re.IGNORECASE,
)
_WORD: Final = re.compile(r"[A-Za-z]{2,}")

Full = CaseCitation | StatuteCitation | RuleCitation | ConstitutionCitation
# Looked up once: an enum member read through its class costs a lookup each time.
_CASE: Final = ItemType.CASE
_QUOTE: Final = ItemType.QUOTE
_KIND_TYPES: Final = {k.name: k.type for k in KINDS.values() if k.in_documents}


class _Cited(NamedTuple):
    """A citation result as the walk knows it: its task id and what it stands for.

    A named tuple, not an attrs class: one is made per citation of a brief,
    and a tuple is built in C.
    """

    task_id: str
    full_id: str  # the full citation it is or resolves to
    citation: ParsedCitation | None  # None: an unresolved short form


def _position(text: str, start: int, end: int) -> DocumentPosition:
    return DocumentPosition(start=start, end=end, text=text[start:end])


def _name_words(name: str | None) -> set[str]:
    return {w.lower() for w in _WORD.findall(name or "")} - {"v", "vs", "in", "re", "ex", "rel"}


def _no_antecedent(short: ShortCitation, why: str) -> Judgment:
    message = f"{short.raw.strip()!r} refers to no earlier citation in the document: {why}"
    return Judgment(Verdict(Status.WARNING, Outcome.UNVERIFIED.value, message))


class _Walk:
    def __init__(self, text: str) -> None:
        self.text = text
        self.last: _Cited | None = None  # for Id.
        self.by_reporter: dict[tuple[str, str], tuple[_Cited, CaseCitation]] = {}
        self.cases: list[tuple[set[str], _Cited, CaseCitation]] = []

    def full(self, task_id: str, citation: Full) -> None:
        cited = _Cited(task_id, task_id, citation)
        self.last = cited
        if isinstance(citation, CaseCitation):
            if citation.volume:
                self.by_reporter[(citation.volume, citation.reporter)] = (cited, citation)
            for parallel in citation.parallels:
                if parallel.volume:
                    self.by_reporter[(parallel.volume, parallel.reporter)] = (cited, parallel)
            self.cases.append((_name_words(citation.case_name), cited, citation))

    def short(self, short: ShortCitation) -> tuple[ParsedCitation, str] | Judgment:
        """What a short form stands for (a citation to judge, and its full citation's id)."""
        if short.form in ("id", "ibid"):
            if self.last is None or self.last.citation is None:
                return _no_antecedent(short, "nothing is cited before it")
            return self._id(short, self.last)
        if short.form == "reporter":
            key = (short.volume or "", short.reporter or "")
            found = self.by_reporter.get(key)
            if found is None:
                return _no_antecedent(
                    short, f"no full citation of {short.volume} {short.reporter} comes before it"
                )
            cited, citation = found
            primary = cited.citation
            # A pin in a parallel reporter's pages cannot be checked against U.S. pages.
            pin = (
                short.pin
                if primary is citation or citation.reporter == _reporter(primary)
                else None
            )
            return _as_short(citation, short, pin), cited.full_id
        if short.form == "supra":
            words = _name_words(short.name)
            for names, cited, citation in reversed(self.cases):
                if words and words <= names:
                    return _as_short(citation, short, short.pin), cited.full_id
            return _no_antecedent(
                short, f"no full citation of {short.name or 'that case'} before it"
            )
        return Judgment(
            Verdict(
                Status.WARNING,
                Outcome.UNVERIFIED.value,
                f"{short.raw.strip()!r} refers to a note of the brief; it was not checked",
            )
        )

    def _id(self, short: ShortCitation, last: _Cited) -> tuple[ParsedCitation, str] | Judgment:
        citation = last.citation
        if isinstance(citation, CaseCitation):
            # A bare Id. repeats the pin before it; Id. at 154 names its own.
            pin = short.pin if short.pin is not None else citation.pin
            return _as_short(citation, short, pin), last.full_id
        if isinstance(citation, StatuteCitation):
            if short.section:
                title = f"{citation.title} " if citation.title else ""
                reparsed = parse(f"{title}{citation.code} § {short.section}", "statute")
                if isinstance(reparsed, StatuteCitation):
                    return _evolve(reparsed, raw=short.raw), last.full_id
            return _evolve(citation, raw=short.raw), last.full_id
        if isinstance(citation, RuleCitation | ConstitutionCitation):
            return _evolve(citation, raw=short.raw), last.full_id
        return _no_antecedent(short, "what comes before it is not a citation")

    def resolved(self, task_id: str, full_id: str, citation: ParsedCitation) -> None:
        self.last = _Cited(task_id, full_id, citation)


def _as_short(citation: CaseCitation, short: ShortCitation, pin: Pinpoint | None) -> CaseCitation:
    """The full citation a short form stands for, as the short form cites it.

    Only the pin is the short form's own: the name, year and court were
    compared where the full citation stands, and are not repeated here.
    """
    return _evolve(
        citation, raw=short.raw, pin=pin, case_name=None, year=None, court=None, parallels=()
    )


_T = TypeVar("_T", bound=attrs.AttrsInstance)
#: Per attrs class, each field ``__init__`` takes: (attribute name, argument name).
_INIT_FIELDS: dict[type[Any], tuple[tuple[str, str], ...]] = {}


def _evolve(instance: _T, **changes: Any) -> _T:
    """``attrs.evolve``, with the class's fields read once rather than on every call.

    Short forms are resolved by the thousand in a long brief; ``attrs.evolve``
    looks the fields up (and resolves generic bases) each time.
    """
    cls = type(instance)
    fields = _INIT_FIELDS.get(cls)
    if fields is None:
        fields = tuple((a.name, a.alias) for a in attrs.fields(cls) if a.init)
        _INIT_FIELDS[cls] = fields
    for name, alias in fields:
        if alias not in changes:
            changes[alias] = getattr(instance, name)
    return cls(**changes)


def _reporter(citation: ParsedCitation | None) -> str | None:
    return citation.reporter if isinstance(citation, CaseCitation) else None


class _Placed(NamedTuple):
    """A citation task with its span, for attributing quotations (a tuple, as ``_Cited``)."""

    task: Task
    start: int
    end: int
    parentheticals: tuple[tuple[int, int], ...]


def _gap_ok(text: str, start: int, end: int, *, block: bool) -> bool:
    """Whether a citation at ``end`` can support a quotation ending at ``start``.

    The text between may finish the quotation's sentence and begin the next
    sentence with a signal, nothing more: a sentence of prose between them
    means the citation supports something else.
    """
    if end - start > _MAX_GAP:
        return False
    gap = text[start:end]
    if not block and "\n\n" in (gap.replace("\r", "") if "\r" in gap else gap):
        return False
    if block:
        gap = gap.strip()
        return bool(_SHORT_SIGNAL.fullmatch(gap)) or not gap
    ends = list(_SENTENCE_END.finditer(gap))
    # "... the threat." Id. at 360: the quotation's own period ends its sentence.
    closed = start >= 2 and text[start - 2] in ".!?"
    if not ends:
        return not closed or bool(_SHORT_SIGNAL.fullmatch(gap))
    if len(ends) > 1 or closed:
        return False
    return bool(_SHORT_SIGNAL.fullmatch(gap[ends[0].end() :]))


def _before_ok(text: str, end: int, start: int) -> bool:
    """Whether a citation ending at ``end`` is in the sentence of a quotation at ``start``."""
    if start - end > _MAX_GAP // 2:
        return False
    gap = text[end:start]
    return "\n\n" not in gap and not _SENTENCE_END.search(gap)


def _attribute(
    text: str, quote: QuotationSpan, placed: Sequence[_Placed], after: int
) -> _Placed | None:
    """The citation that supports ``quote``; ``after`` indexes the first citation past it."""
    for p in placed[max(0, after - 3) : after]:
        for start, end in p.parentheticals:
            if start <= quote.start and quote.end <= end:
                return p
    if after < len(placed) and _gap_ok(text, quote.end, placed[after].start, block=quote.block):
        return placed[after]
    if after > 0 and not quote.block:
        previous = placed[after - 1]
        if previous.end <= quote.start and _before_ok(text, previous.end, quote.start):
            return previous
    return None


def assemble(text: str, found: Sequence[Found], quotations: Sequence[QuotationSpan]) -> list[Task]:
    """Tasks for every citation and quotation of ``text``, in document order, with ids."""
    # Quotations do not overlap one another (blocks swallow the inline ones inside them),
    # so the only quotation that can hold a span is the last one starting before it.
    quote_starts = [q.start for q in quotations]

    def inside_quotation(start: int, end: int) -> bool:
        at = bisect.bisect_left(quote_starts, start) - 1
        return at >= 0 and end <= quotations[at].end

    walk = _Walk(text)
    placed: list[_Placed] = []
    number = 0
    for f in sorted(found, key=lambda f: f.start):
        citation = f.citation
        quoted = inside_quotation(f.start, f.end)
        if isinstance(citation, ShortCitation) and quoted:
            continue  # a short form inside quoted text refers to the quoted court's citations
        number += 1
        task_id = f"c{number}"
        position = _position(text, f.start, f.end)
        if isinstance(citation, ShortCitation):
            got = walk.short(citation)
            if isinstance(got, Judgment):
                kind = "case" if citation.section is None else "statute"
                task = Task(
                    id=task_id,
                    type=_KIND_TYPES[kind],
                    raw=position.text or "",
                    citations=(NotACitation(kind, citation.raw, "short form"),),
                    position=position,
                    billed=False,
                    preset=got,
                )
            else:
                resolved, full_id = got
                task = Task(
                    id=task_id,
                    type=_KIND_TYPES.get(resolved.kind, _CASE),
                    raw=position.text or "",
                    citations=(resolved,),
                    citation_id=full_id,
                    position=position,
                    billed=False,
                )
                if not quoted:
                    walk.resolved(task_id, full_id, resolved)
        else:
            task = Task(
                id=task_id,
                type=_KIND_TYPES.get(citation.kind, _CASE),
                raw=position.text or "",
                citations=(citation,),
                position=position,
            )
            if not quoted:
                walk.full(task_id, citation)
        placed.append(_Placed(task, f.start, f.end, f.parentheticals))

    tasks: list[tuple[int, Task]] = [(p.start, p.task) for p in placed]
    starts = [p.start for p in placed]

    qnumber = 0
    for quote in quotations:
        after = bisect.bisect_left(starts, quote.end)
        supporter = _attribute(text, quote, placed, after)
        # Counting stops at the threshold: a long quotation's words are not all read.
        least = max(MIN_QUOTE_WORDS, 12) if quote.block else MIN_QUOTE_WORDS
        if supporter is None and not quote.has_words(least):
            continue  # a defined term, a scare quote, an indented heading
        if supporter is not None and not quote.has_words(MIN_CITED_QUOTE_WORDS):
            continue
        qnumber += 1
        position = _position(text, quote.start, quote.end)
        if supporter is None:
            task = Task(
                id=f"q{qnumber}",
                type=_QUOTE,
                raw="",
                quote_text=quote.quote,
                position=position,
                billed=False,
                preset=quote_no_citation(),
            )
        else:
            full_id = supporter.task.citation_id or supporter.task.id
            task = Task(
                id=f"q{qnumber}",
                type=_QUOTE,
                raw="",
                quote_text=quote.quote,
                parent=supporter.task.id,
                citation_id=full_id,
                position=position,
                billed=False,
            )
        tasks.append((quote.start, task))
    tasks.sort(key=lambda pair: pair[0])
    return [task for _, task in tasks]
