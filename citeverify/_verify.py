"""The verification driver: every I/O of a run, in planned, batched steps under one deadline.

    tasks -> charge the meter -> provider.lookup(every distinct citation, one batch)
          -> judge citations (``_policy``, pure)
          -> fetch the texts quotations need (in parallel, one deadline for all)
          -> locate every quotation of a text in one pass -> judge quotations
          -> search other texts for quotations found nowhere (same deadline)
          -> results, summary, usage

A *task* is what gets one result: an item of a request, or a citation or
quotation found in a document (``citeverify.document``).  Both modes build
tasks and hand them to ``run``, so a citation is judged the same way whichever
way it came in.  Everything is deterministic: the same tasks and provider state
give the same ``Response``, byte for byte once encoded.
"""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

import attrs

from citeverify import _codec, _policy
from citeverify._kinds import KINDS
from citeverify._lru import SizedLRU
from citeverify._meter import InMemoryMeter, Meter
from citeverify._model import (
    Citation,
    CitationComponents,
    Comparison,
    Court,
    Document,
    DocumentPosition,
    Evidence,
    ItemType,
    Opinion,
    Quote,
    Response,
    Result,
    Status,
    Summary,
    Usage,
    Verdict,
    VerifyItem,
)
from citeverify._policy import Judgment, QuoteJudgment, lookup_key, lookupables
from citeverify.citations import parse
from citeverify.citations._types import CaseCitation, NotACitation, ParsedCitation
from citeverify.providers._base import (
    Authority,
    AuthorityText,
    Lookupable,
    LookupAnswer,
    LookupRequest,
    Provider,
    QuoteSearcher,
)
from citeverify.providers._memory import safe_lookup

__all__ = [
    "DEFAULT_DEADLINE",
    "Task",
    "run",
    "run_to_dict",
    "tasks_from_items",
    "tasks_from_request",
    "verify",
    "verify_request",
]

Progress = Callable[[int, int], None]

#: Seconds a run may spend fetching texts and searching for misattributed
#: quotations, all together; what is not done by then is reported unchecked.
DEFAULT_DEADLINE: Final = 60.0
#: Locator steps one run may spend on all its quotations together (each text's
#: search also has its own cap): a request's cost stays a small multiple of its size.
MAX_RUN_STEPS: Final = 20_000_000
_TEXT_WORKERS: Final = 8


@attrs.frozen(slots=True)
class Task:
    """What gets one result.

    ``citations`` are the parsed citations of a citation task (several for a
    string cite; a ``NotACitation`` when the text is none).  A quotation task
    names ``parent``, the task whose authority and pin it is checked against.
    ``citation_id`` and ``position`` are emitted as the v1.2 fields when the
    run emits reserved fields.  ``billed`` is false for short forms, which
    ride on their full citation.  ``preset`` is a judgment decided before any
    lookup (a short form with no antecedent, a quotation with no citation).
    ``link_text`` is a link item's ``rawText``.
    """

    id: str
    type: ItemType
    raw: str
    citations: tuple[ParsedCitation, ...] = ()
    quote_text: str | None = None
    parent: str | None = None
    citation_id: str | None = None
    position: DocumentPosition | None = None
    billed: bool = True
    preset: Judgment | QuoteJudgment | None = None
    link_text: str | None = None


def verify(
    items: Iterable[VerifyItem | Mapping[str, Any]],
    *,
    provider: Provider | None = None,
    meter: Meter | None = None,
    limits: _codec.Limits | None = None,
    emit_reserved: bool = False,
    progress: Progress | None = None,
    deadline: float = DEFAULT_DEADLINE,
) -> Response:
    """Verify citation and quotation items; return the contract ``Response``.

    ``items`` are ``VerifyItem`` values or dicts in the contract's JSON shape;
    either way they are validated as a request would be (``ValidationError``
    lists every problem).  ``provider`` defaults to the embedded corpus.
    ``meter`` is charged once with the billed citations before any lookup (an
    ``InMemoryMeter`` with an effectively unlimited window by default) and may
    raise ``RateLimited``.  ``emit_reserved`` fills the fields the contract
    reserves for later versions (``citationId``, ``opinion.reference``,
    ``quote.passage``, ``quote.location``).  ``deadline`` bounds, in seconds,
    the fetching of texts for quotations (what is not fetched in time is
    reported unchecked, never as an error).
    """
    limits = limits or _codec.DEFAULT_LIMITS
    listed = list(items)
    dicts = [_codec.to_dict(item) if isinstance(item, VerifyItem) else item for item in listed]
    checked = _codec.structure_request({"items": dicts}, limits)
    return run(
        tasks_from_items(checked),
        provider=provider,
        meter=meter,
        emit_reserved=emit_reserved,
        progress=progress,
        deadline=deadline,
    )


def verify_request(
    body: Mapping[str, Any] | str | bytes | bytearray,
    *,
    provider: Provider | None = None,
    meter: Meter | None = None,
    limits: _codec.Limits | None = None,
    emit_reserved: bool = False,
    deadline: float = DEFAULT_DEADLINE,
) -> dict[str, Any]:
    """Verify a request body (a dict, or JSON text or bytes); return the JSON-ready Response.

    Raises ``ValidationError`` for a body that is not a valid VerifyRequest and
    ``RateLimited`` when the meter refuses the charge; nothing else.
    """
    limits = limits or _codec.DEFAULT_LIMITS
    if isinstance(body, str | bytes | bytearray):
        body = _codec.decode_body(body, limits)
    # What ``structure_request`` checks, without the ``VerifyItem`` values it would build.
    clean = _codec.validate_request(body, limits)
    return run_to_dict(
        tasks_from_request(clean),
        provider=provider,
        meter=meter,
        emit_reserved=emit_reserved,
        deadline=deadline,
    )


# --- items to tasks ----------------------------------------------------------------


def _item_citations(text: str, kind: str) -> tuple[ParsedCitation, ...]:
    """Every citation of ``kind`` in an item's text: a string cite is several.

    ``find`` reads them all when the finder knows the kind; the first is always
    what ``parse`` gives, so a one-citation item is judged as before.
    """
    first = parse(text, kind)
    if kind != "case" or isinstance(first, NotACitation) or ";" not in text:
        return (first,)
    try:
        from citeverify.citations import find  # type: ignore[attr-defined,unused-ignore]
    except ImportError:  # pragma: no cover - before the finder lands
        return (first,)
    more: list[ParsedCitation] = [first]
    seen = {first.normalized}
    for found in find(text, kinds=("case",)):
        citation = found.citation
        if isinstance(citation, CaseCitation) and citation.normalized not in seen:
            seen.add(citation.normalized)
            more.append(citation)
    return tuple(more)


def tasks_from_items(items: Sequence[VerifyItem]) -> list[Task]:
    """One task per validated request item, in order."""
    return [
        _task(item.id, item.type, item.raw_text, item.quote_text, item.parent_case_id, item.url)
        for item in items
    ]


def tasks_from_request(clean: Sequence[Mapping[str, str]]) -> list[Task]:
    """``tasks_from_items(structure_request(...))`` from the validated item dicts directly.

    Why: ``verify_request`` would build a ``VerifyItem`` per item only to read it
    back here; both entry points make their tasks through ``_task``.
    """
    return [
        _task(
            item["id"],
            KINDS[item["type"]].type,
            item.get("rawText"),
            item.get("quoteText"),
            item.get("parentCaseId"),
            item.get("url"),
        )
        for item in clean
    ]


def _task(
    ident: str,
    kind: ItemType,
    raw_text: str | None,
    quote_text: str | None,
    parent_case_id: str | None,
    url: str | None,
) -> Task:
    """The task of one validated request item."""
    if kind is ItemType.QUOTE:
        return Task(
            id=ident,
            type=kind,
            raw="",
            quote_text=quote_text or "",
            parent=parent_case_id,
            citation_id=parent_case_id,
            billed=False,
        )
    if kind is ItemType.LINK:
        text = url or ""
        raw = raw_text if raw_text is not None else text
        citations: tuple[ParsedCitation, ...] = (parse(text, "link"),)
    else:
        raw = raw_text or ""
        citations = _item_citations(raw, kind._value_)
    return Task(id=ident, type=kind, raw=raw, citations=citations, link_text=raw_text)


# --- the run -----------------------------------------------------------------------


def _default_provider() -> Provider:
    """The default provider, its module imported on first use (not at import time:
    opening the corpus is deferred), then called directly: a ``from package import``
    in the body of a function runs importlib's Python-level fromlist handling on
    every call, a fixed cost of every request."""
    global _default_provider_fn
    if _default_provider_fn is None:
        from citeverify.providers import default_provider

        _default_provider_fn = default_provider
    return _default_provider_fn()


_default_provider_fn: Callable[[], Provider] | None = None


def run(
    tasks: Sequence[Task],
    *,
    provider: Provider | None = None,
    meter: Meter | None = None,
    emit_reserved: bool = False,
    progress: Progress | None = None,
    deadline: float = DEFAULT_DEADLINE,
) -> Response:
    """Run tasks through lookup, judgment and quotation checks; one result per task."""
    response = _drive(tasks, provider, meter, emit_reserved, progress, deadline, as_dict=False)
    assert isinstance(response, Response)
    return response


def run_to_dict(
    tasks: Sequence[Task],
    *,
    provider: Provider | None = None,
    meter: Meter | None = None,
    emit_reserved: bool = False,
    progress: Progress | None = None,
    deadline: float = DEFAULT_DEADLINE,
) -> dict[str, Any]:
    """``response_to_dict(run(...))``, with each citation's result built as JSON directly.

    Why: a citation's ``Result`` is half a dozen model objects (citation, its
    components, evidence, opinion, the result itself), built only to be
    unstructured into dicts at once; for a 10-item HTTP request that was a
    third of the time not spent looking up or comparing.  Here the judgment
    (the policy's ``Judgment``, still the one source of every verdict) is
    written straight into the contract's shape with the codec's own per-class
    unstructure functions, in the same key order.  Quotation results keep the
    object path.  ``tests/test_verify_dict.py`` compares the two on broad input.
    """
    response = _drive(tasks, provider, meter, emit_reserved, progress, deadline, as_dict=True)
    assert isinstance(response, dict)
    return response


def _drive(
    tasks: Sequence[Task],
    provider: Provider | None,
    meter: Meter | None,
    emit_reserved: bool,
    progress: Progress | None,
    deadline: float,
    *,
    as_dict: bool,
) -> Response | dict[str, Any]:
    """One run of the driver, with the defaults filled in: the ``Response``, or its JSON."""
    return _Driver(
        tasks,
        provider if provider is not None else _default_provider(),
        meter if meter is not None else InMemoryMeter(),
        emit_reserved,
        progress,
        deadline,
        as_dict=as_dict,
    ).run()


class _Judged:
    """A citation task's outcome, for the results and quotations that hang from it.

    ``citation`` (the result's ``Citation``) is built on first use: the JSON
    path (``run_to_dict``) writes citations without it.
    """

    __slots__ = ("_citation", "judgment", "pin_of", "raw")

    def __init__(self, judgment: Judgment, raw: str, pin_of: ParsedCitation | None) -> None:
        self.judgment = judgment
        self.raw = raw
        self.pin_of = pin_of
        self._citation: Citation | None = None

    @property
    def citation(self) -> Citation:
        if self._citation is None:
            self._citation = _citation(self.raw, self.pin_of)
        return self._citation


def _citation(raw: str, first: ParsedCitation | None) -> Citation:
    """A result's ``Citation``: the item's text and, when it parsed, its first citation."""
    if first is None or isinstance(first, NotACitation):
        return Citation(raw=raw)
    return Citation(
        raw=raw,
        normalized=first.normalized,
        system=first.system,
        components=_nonempty(first.components()),
    )


_u_citation_components: Final = _codec.UNSTRUCTURE[CitationComponents]
_u_verdict: Final = _codec.UNSTRUCTURE[Verdict]
_u_comparison: Final = _codec.UNSTRUCTURE[Comparison]
_u_court: Final = _codec.UNSTRUCTURE[Court]
_u_document: Final = _codec.UNSTRUCTURE[Document]
_u_position: Final = _codec.UNSTRUCTURE[DocumentPosition]
_u_result: Final = _codec.UNSTRUCTURE[Result]
_u_summary: Final = _codec.UNSTRUCTURE[Summary]
_u_usage: Final = _codec.UNSTRUCTURE[Usage]


def _citation_dict(raw: str, first: ParsedCitation | None) -> dict[str, Any]:
    """``to_dict(_citation(raw, first))``, without the two objects."""
    d: dict[str, Any] = {"raw": raw}
    if first is None or isinstance(first, NotACitation):
        return d
    if first.normalized is not None:
        d["normalized"] = first.normalized
    if first.system is not None:
        d["system"] = first.system
    components = _nonempty(first.components())
    if components is not None:
        d["components"] = _u_citation_components(components)
    return d


class _Driver:
    def __init__(
        self,
        tasks: Sequence[Task],
        provider: Provider,
        meter: Meter,
        emit_reserved: bool,
        progress: Progress | None,
        deadline: float,
        as_dict: bool = False,
    ) -> None:
        self.as_dict = as_dict
        self.tasks = tasks
        self.provider = provider
        self.meter = meter
        self.emit_reserved = emit_reserved
        self.progress = progress
        self.deadline = deadline
        self.done = 0
        self.steps_left = MAX_RUN_STEPS
        # One ``Opinion`` per authority, by identity: a brief cites a case dozens of
        # times (short forms, quotations), and each result shares the same frozen value.
        self._opinions: dict[int, tuple[Authority, Opinion]] = {}

    def run(self) -> Response | dict[str, Any]:
        # 1. plan: every distinct citation once; bill the full citations only
        wanted: dict[tuple[str, str], Lookupable] = {}
        billed: set[tuple[str, str]] = set()
        for task in self.tasks:
            if task.preset is not None:
                continue
            for parsed in task.citations:
                asked = lookupables(parsed)
                for citation in asked:
                    wanted.setdefault((citation.kind, citation.normalized), citation)
                if task.billed and asked:
                    billed.add((parsed.kind, parsed.normalized or ""))
        usage = self.meter.charge(len(billed))  # may raise RateLimited: nothing looked up
        started = time.monotonic()

        # 2. one batched lookup
        lookups = list(wanted.values())
        answers: dict[tuple[str, str], LookupAnswer] = {}
        requests = [LookupRequest(c) for c in lookups]
        for citation, answer in zip(lookups, safe_lookup(self.provider, requests), strict=True):
            answers[lookup_key(citation)] = answer

        # 3. judge citations (pure)
        judged: dict[str, _Judged] = {}
        results: dict[str, Result] = {}
        # The JSON path: each result's dict, and what the summary counts of it.
        dicts: dict[str, dict[str, Any]] = {}
        counted: dict[str, tuple[ItemType, Status, str]] = {}
        as_dict = self.as_dict
        for task in self.tasks:
            if task.type is ItemType.QUOTE:
                continue
            outcome = self._judge(task, answers)
            judged[task.id] = outcome
            if as_dict:
                dicts[task.id] = self._result_dict(task, outcome)
                counted[task.id] = _counted(task.type, outcome.judgment, task.raw, outcome.pin_of)
            else:
                results[task.id] = self._result(task, outcome.citation, outcome.judgment)
            self._tick()

        # 4. quotations: texts fetched in parallel, each text searched once
        quote_results = self._quotations(judged, started)
        if as_dict:
            for ident, result in quote_results.items():
                dicts[ident] = _u_result(result)
                counted[ident] = _counted_result(result)
            summary = _summary_of(
                [counted[t.id] for t in self.tasks], len(billed), len(self.tasks)
            )
            return {
                "results": [dicts[t.id] for t in self.tasks],
                "summary": _u_summary(summary),
                "usage": _u_usage(usage),
            }
        results.update(quote_results)
        final = tuple(results[t.id] for t in self.tasks)
        return Response(
            results=final, summary=_summary(final, len(billed), len(self.tasks)), usage=usage
        )

    def _tick(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.done, len(self.tasks))

    def _judge(self, task: Task, answers: Mapping[tuple[str, str], LookupAnswer]) -> _Judged:
        first = task.citations[0] if task.citations else None
        if isinstance(task.preset, Judgment):
            return _Judged(task.preset, task.raw, first)
        if first is None:
            judgment = _policy.unsupported(NotACitation(task.type.value, task.raw, "no citation"))
            return _Judged(judgment, task.raw, None)
        if len(task.citations) == 1:  # what ``combine`` gives for one citation
            return _Judged(_policy.judge(first, answers, task.link_text), task.raw, first)
        pairs = [(p, _policy.judge(p, answers, task.link_text)) for p in task.citations]
        return _Judged(_policy.combine(pairs), task.raw, first)

    def _result_dict(self, task: Task, judged: _Judged) -> dict[str, Any]:
        """``to_dict(self._result(task, judged.citation, judged.judgment))``, built directly.

        Same keys in the same order (``Result``'s fields), each omitted exactly
        when the object path leaves it ``None``.
        """
        judgment = judged.judgment
        d: dict[str, Any] = {
            "id": task.id,
            "type": task.type._value_,
            "citation": _citation_dict(task.raw, judged.pin_of),
            "verdict": _u_verdict(judgment.verdict),
        }
        comparisons = judgment.comparisons
        if comparisons:
            d["evidence"] = {"comparisons": [_u_comparison(c) for c in comparisons]}
        authority = judgment.authority
        if authority is not None:
            d["opinion"] = self._opinion_dict(authority)
        if self.emit_reserved:
            if task.citation_id is not None:
                d["citationId"] = task.citation_id
            if task.position is not None:
                d["position"] = _u_position(task.position)
        return d

    def _opinion_dict(self, authority: Authority) -> dict[str, Any]:
        """``to_dict(self._opinion(authority))``, built directly."""
        d: dict[str, Any] = {"court": _u_court(authority.court)}
        if authority.name is not None:
            d["caseName"] = authority.name
        if authority.decided:
            d["year"] = authority.decided.year
        if authority.citations:
            d["citations"] = list(authority.citations)
        if authority.documents:
            d["documents"] = [_u_document(x) for x in authority.documents]
        if self.emit_reserved and authority.reference is not None:
            d["reference"] = authority.reference
        return d

    def _result(
        self,
        task: Task,
        citation: Citation,
        judgment: Judgment | QuoteJudgment,
        authority: Authority | None = None,
        quote: Quote | None = None,
    ) -> Result:
        if isinstance(judgment, Judgment):
            authority = judgment.authority
        comparisons = judgment.comparisons
        return Result(
            id=task.id,
            type=task.type,
            citation=citation,
            verdict=judgment.verdict,
            evidence=Evidence(tuple(comparisons)) if comparisons else None,
            opinion=self._opinion(authority) if authority is not None else None,
            quote=quote,
            citation_id=task.citation_id if self.emit_reserved else None,
            position=task.position if self.emit_reserved else None,
        )

    def _opinion(self, authority: Authority) -> Opinion:
        """The result's ``Opinion`` for ``authority``, built once per authority of the run."""
        known = self._opinions.get(id(authority))
        if known is not None and known[0] is authority:
            return known[1]
        opinion = self._new_opinion(authority)
        self._opinions[id(authority)] = (authority, opinion)
        return opinion

    def _new_opinion(self, authority: Authority) -> Opinion:
        return Opinion(
            court=authority.court,
            case_name=authority.name,
            year=authority.decided.year if authority.decided else None,
            citations=authority.citations or None,
            documents=authority.documents or None,
            reference=authority.reference if self.emit_reserved else None,
        )

    # quotations ----------------------------------------------------------------------

    def _quote_result(self, task: Task, parent: _Judged | None, judgment: QuoteJudgment) -> Result:
        quote = Quote(
            matched=judgment.matched,
            snippet=task.quote_text,
            passage=judgment.passage if self.emit_reserved else None,
            location=judgment.location if self.emit_reserved else None,
        )
        citation = parent.citation if parent is not None else Citation(raw="")
        authority = parent.judgment.authority if parent is not None else None
        return self._result(task, citation, judgment, authority, quote)

    def _quotations(self, judged: Mapping[str, _Judged], started: float) -> dict[str, Result]:
        out: dict[str, Result] = {}
        waiting: dict[str, list[Task]] = {}
        authorities: dict[str, Authority] = {}
        for task in self.tasks:
            if task.type is not ItemType.QUOTE:
                continue
            parent = judged.get(task.parent or "")
            early: QuoteJudgment | None
            if isinstance(task.preset, QuoteJudgment):
                early = task.preset
            elif parent is None:
                early = _policy.quote_no_citation()
            else:
                early = _policy.quote_precheck(parent.judgment)
            if early is not None:
                out[task.id] = self._quote_result(task, parent, early)
                self._tick()
                continue
            assert parent is not None
            assert parent.judgment.authority is not None
            authority = parent.judgment.authority
            authorities[authority.reference] = authority
            waiting.setdefault(authority.reference, []).append(task)
        if not waiting:
            return out
        texts = self._fetch_texts([authorities[r] for r in waiting], started)
        absent: list[tuple[Task, _Judged, Authority, Any]] = []
        for reference, tasks in waiting.items():
            authority = authorities[reference]
            got = texts.get(reference)
            if not isinstance(got, AuthorityText):
                reason = got if isinstance(got, str) else "no text is available"
                for task in tasks:
                    parent = judged[task.parent or ""]
                    judgment = _policy.quote_not_checked(authority, reason)
                    out[task.id] = self._quote_result(task, parent, judgment)
                    self._tick()
                continue
            for task, match in zip(tasks, self._locate(got, tasks, judged), strict=True):
                parent = judged[task.parent or ""]
                if match.status == "absent" and isinstance(self.provider, QuoteSearcher):
                    absent.append((task, parent, authority, match))
                    continue
                judgment = _policy.quote_judgment(match, _pin(parent), authority)
                out[task.id] = self._quote_result(task, parent, judgment)
                self._tick()
        for task, parent, authority, match in absent:
            elsewhere = self._search_elsewhere(task, authority, started)
            judgment = _policy.quote_judgment(match, _pin(parent), authority, elsewhere)
            out[task.id] = self._quote_result(task, parent, judgment)
            self._tick()
        return out

    def _remaining(self, started: float) -> float:
        return max(0.0, self.deadline - (time.monotonic() - started))

    def _fetch_texts(
        self, authorities: Sequence[Authority], started: float
    ) -> dict[str, AuthorityText | str | None]:
        """Every text the quotations need, fetched in parallel under the run's deadline.

        A value is the text, ``None`` when the provider has none, or a string
        saying why it could not be had (the fetch failed, the deadline passed).
        """
        out: dict[str, AuthorityText | str | None] = {}
        remote = [a for a in authorities if not a.text_is_local]
        for authority in authorities:
            if authority.text_is_local:  # a bounded local read: no thread, no deadline
                try:
                    out[authority.reference] = authority.text()
                except Exception as exc:  # a corrupt store is a source failure too
                    out[authority.reference] = f"fetching the text failed ({type(exc).__name__})"
        if not remote:
            return out
        workers = min(_TEXT_WORKERS, len(remote))
        pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=workers, thread_name_prefix="citeverify-text"
        )
        try:
            futures = {pool.submit(a.text): a.reference for a in remote}
            done, _ = concurrent.futures.wait(futures, timeout=self._remaining(started))
            for future, reference in futures.items():
                if future not in done:
                    out[reference] = "the text could not be fetched in time"
                    continue
                try:
                    out[reference] = future.result()
                except Exception as exc:  # a provider's fetch failing is a source failure
                    out[reference] = f"fetching the text failed ({type(exc).__name__})"
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
        return out

    def _locate(
        self, text: AuthorityText, tasks: Sequence[Task], judged: Mapping[str, _Judged]
    ) -> list[Any]:
        index = _quote_index(text)
        # A passage can occur twice (syllabus and opinion); prefer the cited pin page.
        prefer: list[int | None] = []
        for task in tasks:
            pin = _pin(judged[task.parent or ""])
            prefer.append(pin.first if pin is not None else None)
        matches: list[Any] = index.locate_many(
            [t.quote_text or "" for t in tasks], prefer_pages=prefer, budget=self.steps_left
        )
        self.steps_left = max(0, self.steps_left - sum(m.steps for m in matches))
        return matches

    def _search_elsewhere(
        self, task: Task, authority: Authority, started: float
    ) -> Authority | None:
        """The authority that does hold a quotation its cited one lacks, if the provider says."""
        if self._remaining(started) <= 0 or not isinstance(self.provider, QuoteSearcher):
            return None
        try:
            return self.provider.find_quote(task.quote_text or "", exclude=authority.reference)
        except Exception:  # a failed search only means we cannot name the real source
            return None


#: Normalised authority texts, kept across runs: an opinion quoted in one brief is
#: quoted in the next, and normalising 200 KB costs more than the search itself.
#: Bounded by the characters of the texts held (an index costs about 5 bytes a
#: character beside the text itself, so 8M characters is some 40-60 MB), not by
#: their number: a brief's quotations easily reach more than a few dozen texts,
#: and a count says nothing of the memory a few very long texts take.
_INDEXES_MAX_CHARS: Final = 8_000_000
_INDEXES_MAX: Final = 1024


class _IndexCache:
    """A text's index by its text, bounded by characters held; a text larger than the
    whole budget is not kept (building its index again costs less than the memory)."""

    def __init__(self, max_chars: int, max_entries: int) -> None:
        self.entries: SizedLRU[str, _Indexed] = SizedLRU(
            max_entries, max_chars, lambda indexed: len(indexed.text_of.text)
        )

    @property
    def chars(self) -> int:
        return self.entries.held

    def get(self, text: AuthorityText) -> Any:
        found = self.entries.get(text.text)
        if found is None or found.text_of != text:
            return None
        return found.index

    def put(self, text: AuthorityText, index: Any) -> None:
        if len(text.text) <= self.entries.max_size:
            self.entries.put(text.text, _Indexed(text, index))

    def clear(self) -> None:
        self.entries.clear()


_INDEXES = _IndexCache(_INDEXES_MAX_CHARS, _INDEXES_MAX)


def _quote_index(text: AuthorityText) -> Any:
    """The locator's index of ``text``, built once per distinct text (bounded LRU)."""
    from citeverify import quotes as quote_locator

    index = _INDEXES.get(text)
    if index is None:
        index = quote_locator.QuoteIndex(text)
        _INDEXES.put(text, index)
    return index


@attrs.frozen(slots=True)
class _Indexed:
    text_of: AuthorityText
    index: Any


def _pin(parent: _Judged) -> Any:
    return parent.pin_of.pin if isinstance(parent.pin_of, CaseCitation) else None


def _nonempty(components: Any) -> Any:
    if components is None:
        return None
    if type(components) is CitationComponents:  # flat: its fields are plain values
        c = components
        return c if (c.volume or c.reporter or c.page or c.pinpoint or c.year) else None
    return components if any(attrs.astuple(components)) else None


_VERIFIED: Final = Status.VERIFIED
_WARNING: Final = Status.WARNING
_CRITICAL: Final = Status.CRITICAL
# ``_summary_of`` names the three statuses one by one, worst last.
assert sorted(Status, key=lambda s: s.severity) == [_VERIFIED, _WARNING, _CRITICAL]


def _counted(
    kind: ItemType, judgment: Judgment, raw: str, first: ParsedCitation | None
) -> tuple[ItemType, Status, str]:
    """What ``_summary_of`` counts of a citation result: its type, status and identity."""
    normalized = None if first is None or isinstance(first, NotACitation) else first.normalized
    return (kind, judgment.verdict.status, _identity(normalized, raw))


def _counted_result(r: Result) -> tuple[ItemType, Status, str]:
    """What ``_summary_of`` counts of a result."""
    return (r.type, r.verdict.status, _identity(r.citation.normalized, r.citation.raw))


def _identity(normalized: str | None, raw: str) -> str:
    """Which citation a result is of, for the summary's count of unique citations."""
    return normalized or f"raw:{raw.strip()}"


def _summary(results: Sequence[Result], billed: int, expected: int) -> Summary:
    return _summary_of([_counted_result(r) for r in results], billed, expected)


def _summary_of(
    results: Sequence[tuple[ItemType, Status, str]], billed: int, expected: int
) -> Summary:
    """The summary of results given as (type, status, citation identity).

    Counted by identity against the three statuses, not through a dict keyed by
    ``Status``: an enum member hashes in Python and iterating the enum builds a
    generator, a fixed cost of every request that a 10-item one notices.
    """
    verified = warning = critical = 0
    quote = ItemType.QUOTE
    unique: set[tuple[ItemType, str]] = set()
    for kind, status, ident in results:
        if status == _VERIFIED:
            verified += 1
        elif status == _WARNING:
            warning += 1
        elif status == _CRITICAL:
            critical += 1
        else:  # what the dict keyed by ``Status`` this replaces raised
            raise KeyError(status)
        if kind is not quote:
            unique.add((kind, ident))
    total = len(results)
    # Each status has its own severity: the worst present is the worst of any result.
    worst = _CRITICAL if critical else _WARNING if warning else _VERIFIED
    return Summary(
        verified=verified,
        warning=warning,
        critical=critical,
        total=total,
        unique_citations=len(unique),
        billed_citations=billed,
        is_fully_verified=verified == total,
        is_fully_accounted=total == expected and verified + warning + critical == total,
        overall_status=worst,
    )
