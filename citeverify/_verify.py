"""The verification pipeline, one way through:

    validate -> parse -> plan lookups -> charge the meter -> provider.lookup (the only I/O)
             -> compare attributes / locate quotes -> verdicts -> summary and usage

Everything here is deterministic: the same items and the same provider state
give the same ``Response``, byte for byte once encoded.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from citeverify import _codec
from citeverify._compare import (
    compare_case_name,
    compare_court,
    compare_pinpoint,
    compare_year,
    name_matches,
)
from citeverify._meter import InMemoryMeter, Meter
from citeverify._model import (
    Citation,
    Comparison,
    Evidence,
    ItemType,
    Opinion,
    Outcome,
    Quote,
    QuoteLocation,
    Response,
    Result,
    Status,
    Summary,
    Verdict,
    VerifyItem,
)
from citeverify.citations import parse
from citeverify.citations._types import (
    CaseCitation,
    LinkCitation,
    NotACitation,
    ParsedCitation,
)
from citeverify.providers._base import (
    Authority,
    AuthorityText,
    Found,
    Lookupable,
    LookupAnswer,
    LookupRequest,
    NotFound,
    OutsideCoverage,
    Provider,
    QuoteSearcher,
    Unavailable,
)
from citeverify.providers._memory import safe_lookup

__all__ = ["verify", "verify_request"]

Progress = Callable[[int, int], None]

METHOD_QUOTE = "text-match"
METHOD_LINK = "url-match"
DEAD_STATUSES = frozenset(
    {
        "repealed",
        "transferred",
        "renumbered",
        "omitted",
        "vacant",
        "reserved",
        "not-current",
        "abrogated",
        "superseded",
        "expired",
    }
)


def verify(
    items: Iterable[VerifyItem | Mapping[str, Any]],
    *,
    provider: Provider | None = None,
    meter: Meter | None = None,
    limits: _codec.Limits | None = None,
    emit_reserved: bool = False,
    progress: Progress | None = None,
) -> Response:
    """Verify citation and quotation items; return the contract ``Response``.

    ``items`` are ``VerifyItem`` values or dicts in the contract's JSON shape;
    either way they are validated as a request would be (``ValidationError``
    lists every problem).  ``provider`` defaults to the embedded corpus.
    ``meter`` is charged once with the billed citations before any lookup (an
    ``InMemoryMeter`` with an effectively unlimited window by default) and may
    raise ``RateLimited``.  ``emit_reserved`` fills the fields the contract
    reserves for later versions (``citationId``, ``opinion.reference``,
    ``quote.passage``, ``quote.location``).
    """
    limits = limits or _codec.DEFAULT_LIMITS
    listed = list(items)
    dicts = [_codec.to_dict(item) if isinstance(item, VerifyItem) else item for item in listed]
    checked = _codec.structure_request({"items": dicts}, limits)
    return _Run(checked, provider, meter, emit_reserved, progress).run()


def verify_request(
    body: Mapping[str, Any] | str | bytes | bytearray,
    *,
    provider: Provider | None = None,
    meter: Meter | None = None,
    limits: _codec.Limits | None = None,
    emit_reserved: bool = False,
) -> dict[str, Any]:
    """Verify a request body (a dict, or JSON text or bytes); return the JSON-ready Response.

    Raises ``ValidationError`` for a body that is not a valid VerifyRequest and
    ``RateLimited`` when the meter refuses the charge; nothing else.
    """
    limits = limits or _codec.DEFAULT_LIMITS
    items = _codec.structure_request(body, limits)
    response = _Run(items, provider, meter, emit_reserved, None).run()
    return _codec.response_to_dict(response)


# --- the run ------------------------------------------------------------------------


@attrs.define
class _Resolved:
    """What a citation item resolved to, for the quotes that hang from it."""

    result: Result
    authority: Authority | None
    citation: ParsedCitation


def _lookup_key(citation: Lookupable) -> tuple[str, str]:
    return (citation.kind, citation.normalized)


def _retry_text(answer: Unavailable) -> str:
    if answer.retry_at is None:
        return ""
    return f"; retry after {answer.retry_at.isoformat()}"


def _year(authority: Authority) -> int | None:
    return authority.decided.year if authority.decided else None


def _short(authority: Authority) -> str:
    if authority.kind != "case":  # enacted text: its heading already leads with the citation
        return authority.name or (authority.citations[0] if authority.citations else "")
    name = authority.name or f"a {authority.kind} with no name on record"
    cite = authority.citations[0] if authority.citations else authority.reference
    year = _year(authority)
    return f"{name}, {cite}" + (f" ({year})" if year and authority.kind == "case" else "")


class _Run:
    def __init__(
        self,
        items: Sequence[VerifyItem],
        provider: Provider | None,
        meter: Meter | None,
        emit_reserved: bool,
        progress: Progress | None,
    ) -> None:
        if provider is None:
            from citeverify.providers import default_provider

            provider = default_provider()
        self.items = items
        self.provider = provider
        self.meter: Meter = meter if meter is not None else InMemoryMeter()
        self.emit_reserved = emit_reserved
        self.progress = progress
        self.parsed: dict[str, ParsedCitation] = {}
        self.answers: dict[tuple[str, str], LookupAnswer] = {}
        self.resolved: dict[str, _Resolved] = {}

    # 1. parse and plan
    def _parse_all(self) -> list[Lookupable]:
        wanted: dict[tuple[str, str], Lookupable] = {}
        for item in self.items:
            if item.type is ItemType.QUOTE:
                continue
            text = item.url if item.type is ItemType.LINK else item.raw_text
            parsed = parse(text or "", item.type.value)
            self.parsed[item.id] = parsed
            for citation in _lookupables(parsed):
                wanted.setdefault(_lookup_key(citation), citation)
        return list(wanted.values())

    def _billed(self) -> int:
        keys = {
            (p.kind, p.normalized)
            for p in self.parsed.values()
            if not isinstance(p, NotACitation) and _lookupables(p)
        }
        return len(keys)

    def run(self) -> Response:
        lookups = self._parse_all()
        billed = self._billed()
        usage = self.meter.charge(billed)  # may raise RateLimited: nothing looked up
        requests = [LookupRequest(c) for c in lookups]
        for citation, answer in zip(lookups, safe_lookup(self.provider, requests), strict=True):
            self.answers[_lookup_key(citation)] = answer

        results: list[Result | None] = [None] * len(self.items)
        quote_slots: list[int] = []
        for index, item in enumerate(self.items):
            if item.type is ItemType.QUOTE:
                quote_slots.append(index)
                continue
            resolved = self._citation_result(item)
            self.resolved[item.id] = resolved
            results[index] = resolved.result
            self._tick(index)
        for index, result in zip(
            quote_slots, self._quote_results([self.items[i] for i in quote_slots]), strict=True
        ):
            results[index] = result
            self._tick(index)
        final = tuple(r for r in results if r is not None)
        if len(final) != len(self.items):  # pragma: no cover - a bug, never an answer
            raise AssertionError("every item must have exactly one result")
        return Response(results=final, summary=self._summary(final, billed), usage=usage)

    def _tick(self, index: int) -> None:
        if self.progress is not None:
            self.progress(index + 1, len(self.items))

    # 2. citation items
    def _citation_result(self, item: VerifyItem) -> _Resolved:
        parsed = self.parsed[item.id]
        raw = (item.url if item.type is ItemType.LINK else item.raw_text) or ""
        if isinstance(parsed, NotACitation):
            verdict = Verdict(Status.WARNING, Outcome.UNSUPPORTED.value, parsed.message)
            return _Resolved(
                self._result(item, Citation(raw=item.raw_text or raw), verdict), None, parsed
            )
        citation = Citation(
            raw=item.raw_text if item.raw_text is not None else raw,
            normalized=parsed.normalized,
            system=parsed.system,
            components=_nonempty(parsed.components()),
        )
        if isinstance(parsed, LinkCitation):
            return self._link_result(item, parsed, citation)
        answer = self.answers[_lookup_key(parsed)]
        if isinstance(parsed, CaseCitation):
            return self._case_result(item, parsed, citation, answer)
        return self._enacted_result(item, parsed, citation, answer)

    def _result(
        self,
        item: VerifyItem,
        citation: Citation,
        verdict: Verdict,
        *,
        evidence: Sequence[Comparison] = (),
        authority: Authority | None = None,
        quote: Quote | None = None,
        citation_id: str | None = None,
    ) -> Result:
        return Result(
            id=item.id,
            type=item.type,
            citation=citation,
            verdict=verdict,
            evidence=Evidence(tuple(evidence)) if evidence else None,
            opinion=self._opinion(authority) if authority is not None else None,
            quote=quote,
            citation_id=citation_id if self.emit_reserved else None,
        )

    def _opinion(self, authority: Authority) -> Opinion:
        return Opinion(
            court=authority.court,
            case_name=authority.name,
            year=_year(authority),
            citations=authority.citations or None,
            documents=authority.documents or None,
            reference=authority.reference if self.emit_reserved else None,
        )

    def _unresolved(
        self, item: VerifyItem, parsed: Lookupable, citation: Citation, answer: LookupAnswer
    ) -> _Resolved | None:
        """The result for an answer that resolved nothing, or ``None`` when it did resolve."""
        if isinstance(answer, Unavailable):
            message = f"could not check {parsed.normalized}: {answer.reason}{_retry_text(answer)}"
            verdict = Verdict(Status.WARNING, Outcome.UNVERIFIED.value, message)
        elif isinstance(answer, OutsideCoverage):
            message = answer.message or "no configured source covers this citation"
            if not message.startswith(parsed.normalized):
                message = f"{parsed.normalized}: {message}"
            verdict = Verdict(Status.WARNING, Outcome.UNVERIFIED.value, message)
        elif isinstance(answer, NotFound) and answer.within is None:
            message = answer.message or f"no authority at {parsed.normalized}"
            verdict = Verdict(
                Status.CRITICAL, Outcome.NOT_FOUND.value, message, answer.method, answer.as_of
            )
        else:
            return None
        return _Resolved(self._result(item, citation, verdict), None, parsed)

    def _case_result(
        self, item: VerifyItem, parsed: CaseCitation, citation: Citation, answer: LookupAnswer
    ) -> _Resolved:
        unresolved = self._unresolved(item, parsed, citation, answer)
        if unresolved is not None:
            return unresolved
        if isinstance(answer, NotFound):
            return self._within_result(item, parsed, citation, answer)
        assert isinstance(answer, Found)
        authority = _best(parsed, answer.authorities)
        comparisons: list[Comparison] = []
        notes: list[str] = []
        name = compare_case_name(parsed, authority)
        if name is not None:
            comparisons.append(name)
        elif parsed.case_name and not authority.name:
            notes.append("the case name was not compared: the source records no name for it")
        year, note = compare_year(parsed, authority)
        if year is not None:
            comparisons.append(year)
        if note:
            notes.append(note)
        court = compare_court(parsed, authority)
        if court is not None:
            comparisons.append(court)
        pin = compare_pinpoint(parsed.pin, authority)
        if pin is not None:
            comparisons.append(pin)
        parallel_notes = self._parallels(parsed, authority, comparisons)
        mismatched = [c for c in comparisons if not c.match]
        if mismatched or parallel_notes:
            parts = [_describe(c) for c in mismatched] + parallel_notes
            message = f"{parsed.normalized} is {_short(authority)}, but " + "; ".join(parts)
            verdict = Verdict(
                Status.WARNING, Outcome.MISMATCH.value, message, answer.method, answer.as_of
            )
        else:
            message = f"{parsed.normalized} is {_short(authority)}"
            if notes:
                message += f" ({'; '.join(notes)})"
            verdict = Verdict(
                Status.VERIFIED, Outcome.VERIFIED.value, message, answer.method, answer.as_of
            )
        result = self._result(item, citation, verdict, evidence=comparisons, authority=authority)
        return _Resolved(result, authority, parsed)

    def _parallels(
        self, parsed: CaseCitation, authority: Authority, comparisons: list[Comparison]
    ) -> list[str]:
        """Check each parallel citation names the same authority; return problems found."""
        problems: list[str] = []
        for parallel in parsed.parallels:
            answer = self.answers.get(_lookup_key(parallel))
            if isinstance(answer, Found):
                same = any(a.reference == authority.reference for a in answer.authorities) or any(
                    c in authority.citations for a in answer.authorities for c in a.citations[:1]
                )
                other = answer.authorities[0]
                comparisons.append(
                    Comparison(
                        "parallelCitation",
                        parallel.normalized,
                        parallel.normalized if same else _short(other),
                        same,
                    )
                )
                if not same:
                    problems.append(f"parallel citation {parallel.normalized} is {_short(other)}")
            elif isinstance(answer, NotFound):
                comparisons.append(Comparison("parallelCitation", parallel.normalized, None, False))
                problems.append(f"parallel citation {parallel.normalized} does not exist")
        return problems

    def _within_result(
        self, item: VerifyItem, parsed: CaseCitation, citation: Citation, answer: NotFound
    ) -> _Resolved:
        """A cited first page that falls inside another case's pages."""
        within = answer.within
        assert within is not None
        where = (
            f"page {parsed.page} of volume {parsed.volume} {parsed.reporter} "
            f"falls inside {_short(within)}"
        )
        if parsed.case_name and within.name and name_matches(parsed.case_name, within.name):
            comparisons = [
                Comparison("caseName", parsed.case_name, within.name, True),
                Comparison("page", parsed.page, str(within.first_page), False),
            ]
            message = (
                f"{where}, which begins at page {within.first_page}: "
                "a pin cite given as the first page?"
            )
            verdict = Verdict(
                Status.WARNING, Outcome.MISMATCH.value, message, answer.method, answer.as_of
            )
            result = self._result(item, citation, verdict, evidence=comparisons, authority=within)
            return _Resolved(result, within, parsed)
        message = f"no case begins at {parsed.normalized}; {where}"
        verdict = Verdict(
            Status.CRITICAL, Outcome.NOT_FOUND.value, message, answer.method, answer.as_of
        )
        return _Resolved(self._result(item, citation, verdict), None, parsed)

    def _enacted_result(
        self, item: VerifyItem, parsed: Lookupable, citation: Citation, answer: LookupAnswer
    ) -> _Resolved:
        """Statutes, rules and constitutional provisions: existence and status."""
        unresolved = self._unresolved(item, parsed, citation, answer)
        if unresolved is not None:
            return unresolved
        if isinstance(answer, NotFound):  # NotFound with `within`: not meaningful here
            verdict = Verdict(
                Status.CRITICAL,
                Outcome.NOT_FOUND.value,
                answer.message or f"no {parsed.kind} {parsed.normalized}",
                answer.method,
                answer.as_of,
            )
            return _Resolved(self._result(item, citation, verdict), None, parsed)
        assert isinstance(answer, Found)
        authority = answer.authorities[0]
        label = authority.name or parsed.normalized
        if authority.status and authority.status.lower() in DEAD_STATUSES:
            note = f": {authority.status_note}" if authority.status_note else ""
            verdict = Verdict(
                Status.WARNING,
                Outcome.SUPERSEDED.value,
                f"{label} is {authority.status.lower()}{note}",
                answer.method,
                answer.as_of,
            )
        else:
            verdict = Verdict(
                Status.VERIFIED, Outcome.VERIFIED.value, label, answer.method, answer.as_of
            )
        result = self._result(item, citation, verdict, authority=authority)
        return _Resolved(result, authority, parsed)

    def _link_result(self, item: VerifyItem, link: LinkCitation, citation: Citation) -> _Resolved:
        def unverified(message: str) -> _Resolved:
            verdict = Verdict(Status.WARNING, Outcome.UNVERIFIED.value, message, METHOD_LINK)
            return _Resolved(self._result(item, citation, verdict), None, link)

        if link.source is None:
            return unverified(f"cannot interpret URLs of {link.host}")
        if not item.raw_text or not item.raw_text.strip():
            return unverified("no rawText to compare the link with")
        comparisons = _compare_link(link, item.raw_text)
        if not comparisons:
            return unverified(f"could not compare this {link.source} URL with rawText")
        authority = None
        if link.target is not None:
            answer = self.answers.get(_lookup_key(link.target))
            if isinstance(answer, Found):
                authority = answer.authorities[0]
        mismatched = [c for c in comparisons if not c.match]
        if mismatched:
            message = "the link points elsewhere: " + "; ".join(_describe(c) for c in mismatched)
            verdict = Verdict(Status.WARNING, Outcome.MISMATCH.value, message, METHOD_LINK)
        else:
            verdict = Verdict(
                Status.VERIFIED,
                Outcome.VERIFIED.value,
                "the link points to the cited authority",
                METHOD_LINK,
            )
        result = self._result(item, citation, verdict, evidence=comparisons, authority=authority)
        return _Resolved(result, authority, link)

    # 3. quotations
    def _quote_results(self, quotes: Sequence[VerifyItem]) -> list[Result]:
        out: dict[str, Result] = {}
        by_authority: dict[str, list[VerifyItem]] = {}
        authorities: dict[str, Authority] = {}
        for item in quotes:
            parent = self.resolved[item.parent_case_id or ""]
            early = self._quote_precheck(item, parent)
            if early is not None:
                out[item.id] = early
                continue
            assert parent.authority is not None
            ref = parent.authority.reference
            authorities[ref] = parent.authority
            by_authority.setdefault(ref, []).append(item)
        for ref, items in by_authority.items():
            authority = authorities[ref]
            for item, result in zip(items, self._locate(authority, items), strict=True):
                out[item.id] = result
        return [out[item.id] for item in quotes]

    def _quote_result(
        self,
        item: VerifyItem,
        parent: _Resolved,
        verdict: Verdict,
        *,
        evidence: Sequence[Comparison] = (),
        passage: str | None = None,
        location: QuoteLocation | None = None,
    ) -> Result:
        matched = verdict.status is Status.VERIFIED
        quote = Quote(
            matched=matched,
            snippet=item.quote_text,
            passage=passage if self.emit_reserved else None,
            location=location if self.emit_reserved else None,
        )
        return self._result(
            item,
            parent.result.citation,  # a quote's citation is its parent's
            verdict,
            evidence=evidence,
            authority=parent.authority,
            quote=quote,
            citation_id=parent.result.id,
        )

    def _quote_precheck(self, item: VerifyItem, parent: _Resolved) -> Result | None:
        outcome = parent.result.verdict.outcome
        if parent.authority is None:
            if outcome == Outcome.NOT_FOUND.value:
                verdict = Verdict(
                    Status.CRITICAL,
                    Outcome.NOT_FOUND.value,
                    "the quoted authority was not found",
                    METHOD_QUOTE,
                )
            else:
                verdict = Verdict(
                    Status.WARNING,
                    Outcome.UNVERIFIED.value,
                    "the quoted authority could not be resolved, so the quotation was not checked",
                    METHOD_QUOTE,
                )
            return self._quote_result(item, parent, verdict)
        if not parent.authority.has_text:
            verdict = Verdict(
                Status.WARNING,
                Outcome.UNVERIFIED.value,
                f"no text of {_short(parent.authority)} is available to check the quotation",
                METHOD_QUOTE,
            )
            return self._quote_result(item, parent, verdict)
        return None

    def _locate(self, authority: Authority, items: Sequence[VerifyItem]) -> list[Result]:
        parents = [self.resolved[i.parent_case_id or ""] for i in items]
        try:
            text = authority.text()
        except Exception as exc:  # a provider's text fetch failing is a source failure
            text = None
            reason = f"fetching the text failed ({type(exc).__name__})"
        else:
            reason = "no text is available"
        if text is None:
            verdict = Verdict(
                Status.WARNING,
                Outcome.UNVERIFIED.value,
                f"{reason} for {_short(authority)}; the quotation was not checked",
                METHOD_QUOTE,
            )
            return [self._quote_result(i, p, verdict) for i, p in zip(items, parents, strict=True)]
        try:
            from citeverify import quotes as quote_locator
        except ImportError:  # pragma: no cover - only while the locator is absent
            verdict = Verdict(
                Status.WARNING,
                Outcome.UNVERIFIED.value,
                "quotation checking is unavailable",
                METHOD_QUOTE,
            )
            return [self._quote_result(i, p, verdict) for i, p in zip(items, parents, strict=True)]
        index = quote_locator.QuoteIndex(text)
        # A passage can occur twice (syllabus and opinion); prefer the cited pin page.
        prefer: list[int | None] = [
            p.citation.pin.first
            if isinstance(p.citation, CaseCitation) and p.citation.pin is not None
            else None
            for p in parents
        ]
        matches = index.locate_many([i.quote_text or "" for i in items], prefer_pages=prefer)
        return [
            self._quote_verdict(item, parent, authority, text, match)
            for item, parent, match in zip(items, parents, matches, strict=True)
        ]

    def _quote_verdict(
        self,
        item: VerifyItem,
        parent: _Resolved,
        authority: Authority,
        text: AuthorityText,
        match: Any,
    ) -> Result:
        where = _short(authority)
        if match.status == "found":
            location = None
            if match.pages or match.paragraph is not None:
                location = QuoteLocation(
                    page=match.pages[0] if match.pages else None, paragraph=match.paragraph
                )
            pin = parent.citation.pin if isinstance(parent.citation, CaseCitation) else None
            comparison = _quote_pin(pin, tuple(match.pages))
            if comparison is not None and not comparison.match:
                verdict = Verdict(
                    Status.WARNING,
                    Outcome.MISMATCH.value,
                    f"the quotation is in {where}, but at page {comparison.found}, "
                    f"not at the cited page {comparison.cited}",
                    METHOD_QUOTE,
                )
            else:
                pages = f" at page {_pages_text(match.pages)}" if match.pages else ""
                verdict = Verdict(
                    Status.VERIFIED,
                    Outcome.VERIFIED.value,
                    f"quoted from {where}{pages}",
                    METHOD_QUOTE,
                )
            evidence = [comparison] if comparison is not None else []
            return self._quote_result(
                item, parent, verdict, evidence=evidence, passage=match.passage, location=location
            )
        if match.status == "near":
            message = f"the quotation differs from {where}"
            if match.message:
                message += f": {match.message}"
            verdict = Verdict(Status.WARNING, Outcome.MISMATCH.value, message, METHOD_QUOTE)
            return self._quote_result(item, parent, verdict, passage=match.passage)
        elsewhere = None
        if isinstance(self.provider, QuoteSearcher):
            try:
                elsewhere = self.provider.find_quote(
                    item.quote_text or "", exclude=authority.reference
                )
            except Exception:
                elsewhere = None
        if elsewhere is not None:
            verdict = Verdict(
                Status.WARNING,
                Outcome.MISMATCH.value,
                f"the quotation is not in {where}; it is in {_short(elsewhere)}",
                METHOD_QUOTE,
            )
            return self._quote_result(item, parent, verdict)
        verdict = Verdict(
            Status.CRITICAL,
            Outcome.NOT_FOUND.value,
            f"the quotation was not found in {where}",
            METHOD_QUOTE,
        )
        return self._quote_result(item, parent, verdict)

    # 4. summary
    def _summary(self, results: Sequence[Result], billed: int) -> Summary:
        counts = dict.fromkeys(Status, 0)
        for result in results:
            counts[result.verdict.status] += 1
        unique = {
            (r.type.value, r.citation.normalized or f"raw:{r.citation.raw.strip()}")
            for r in results
            if r.type is not ItemType.QUOTE
        }
        worst = max((r.verdict.status for r in results), key=lambda s: s.severity)
        total = len(results)
        return Summary(
            verified=counts[Status.VERIFIED],
            warning=counts[Status.WARNING],
            critical=counts[Status.CRITICAL],
            total=total,
            unique_citations=len(unique),
            billed_citations=billed,
            is_fully_verified=counts[Status.VERIFIED] == total,
            is_fully_accounted=total == len(self.items) and sum(counts.values()) == total,
            overall_status=worst,
        )


# --- helpers ----------------------------------------------------------------------


def _lookupables(parsed: ParsedCitation) -> tuple[Lookupable, ...]:
    if isinstance(parsed, NotACitation):
        return ()
    if isinstance(parsed, LinkCitation):
        return (parsed.target,) if parsed.target is not None else ()
    if isinstance(parsed, CaseCitation):
        return (parsed, *parsed.parallels)
    return (parsed,)


def _nonempty(components: Any) -> Any:
    if components is None:
        return None
    return components if any(attrs.astuple(components)) else None


def _best(parsed: CaseCitation, authorities: Sequence[Authority]) -> Authority:
    """Among several authorities at one citation, the one the citation describes best.

    Several cases can share a first page (orders, companion cases); the one the
    cited name names wins, then the one decided in the cited year, then the
    provider's first.
    """
    if len(authorities) == 1:
        return authorities[0]
    if parsed.case_name:
        for authority in authorities:
            if authority.name and name_matches(parsed.case_name, authority.name):
                return authority
    if parsed.year is not None:
        for authority in authorities:
            if authority.decided is not None and authority.decided.year == parsed.year:
                return authority
    return authorities[0]


def _describe(c: Comparison) -> str:
    labels = {
        "caseName": "the name",
        "year": "the year",
        "court": "the court",
        "pinpoint": "the pin cite",
        "page": "the page",
        "reporter": "the reporter",
        "citation": "the citation",
        "parallelCitation": "the parallel citation",
    }
    label = labels.get(c.attribute, c.attribute)
    if c.attribute == "pinpoint":
        return f"{label} {c.cited} is outside the pages {c.found}"
    return f"{label} cited is {c.cited!r}, the authority's is {c.found!r}"


def _pages_text(pages: Sequence[int]) -> str:
    if not pages:
        return ""
    return str(pages[0]) if len(pages) == 1 else f"{pages[0]}-{pages[-1]}"


def _quote_pin(pin: Any, pages: tuple[int, ...]) -> Comparison | None:
    """Whether the located quotation is on (or spans) the cited pin page."""
    if pin is None or pin.first is None or not pages:
        return None
    last = pin.last if pin.last is not None else pin.first
    match = any(pin.first <= page <= last for page in pages)
    return Comparison("pinpoint", pin.text, _pages_text(pages), match)


_SLUG_SPLIT = re.compile(r"-v(?:s)?-")


def _slug_to_name(slug: str) -> str:
    parts = _SLUG_SPLIT.split(slug, maxsplit=1)
    return " v. ".join(p.replace("-", " ") for p in parts)


def _compare_link(link: LinkCitation, raw_text: str) -> list[Comparison]:
    """Compare what the URL points to with what the item's rawText cites."""
    comparisons: list[Comparison] = []
    target = link.target
    kind = target.kind if target is not None else "case"
    cited = parse(raw_text, kind)
    if target is not None and not isinstance(cited, NotACitation | LinkCitation):
        cited_key = getattr(cited, "key", cited.normalized)
        found_key = getattr(target, "key", target.normalized)
        if isinstance(cited, CaseCitation):
            cited_key, found_key = cited.normalized, target.normalized
        comparisons.append(Comparison("citation", cited_key, found_key, cited_key == found_key))
    if link.slug_name:
        cited_name = cited.case_name if isinstance(cited, CaseCitation) else None
        if cited_name is None and isinstance(cited, NotACitation) and "v." in raw_text:
            cited_name = raw_text.strip()
        if cited_name:
            found_name = _slug_to_name(link.slug_name)
            comparisons.append(
                Comparison("caseName", cited_name, found_name, name_matches(cited_name, found_name))
            )
    return comparisons
