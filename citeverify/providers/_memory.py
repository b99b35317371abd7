"""Providers that need no source of their own: ``Memory``, ``Chain`` and ``Nothing``."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence

from citeverify.citations._types import (
    CaseCitation,
    ConstitutionCitation,
    RuleCitation,
    StatuteCitation,
)
from citeverify.providers._base import (
    Authority,
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

__all__ = ["Chain", "Memory", "Nothing", "coverage_name", "safe_lookup"]


def coverage_name(citation: Lookupable) -> str:
    """The name a coverage list uses for a citation: its reporter, code, rule set or part."""
    if isinstance(citation, CaseCitation):
        return citation.reporter
    if isinstance(citation, StatuteCitation):
        return citation.code
    if isinstance(citation, RuleCitation):
        return citation.ruleset
    if isinstance(citation, ConstitutionCitation):
        return (
            "constitution"
            if citation.jurisdiction == "us"
            else f"constitution:{citation.jurisdiction}"
        )
    raise TypeError(f"not a lookupable citation: {type(citation).__name__}")


def _lookup_keys(citation: Lookupable) -> tuple[str, ...]:
    if isinstance(citation, StatuteCitation | RuleCitation | ConstitutionCitation):
        return (citation.normalized, citation.key)
    return (citation.normalized,)


_SPACE = re.compile(r"\s+")


def _squash(text: str) -> str:
    return _SPACE.sub(" ", text).strip().casefold()


class Memory:
    """A provider built from Python data, for tests, notebooks and small curated sets.

    Every citation string of every authority is an index key.  ``complete``
    names what this provider holds completely (reporters such as ``"U.S."``,
    codes such as ``"U.S.C."``, rule sets such as ``"frcp"``, or
    ``"constitution"``): a miss there is ``NotFound``; any other miss is
    ``OutsideCoverage``.  A cited page inside a complete volume's case (a pin
    passed off as a first page) is ``NotFound`` with ``within`` that case.
    """

    def __init__(
        self,
        authorities: Iterable[Authority] = (),
        *,
        complete: Collection[str] = (),
        as_of: str | None = None,
        name: str = "memory",
    ) -> None:
        self.name = name
        self.as_of = as_of
        self._complete = frozenset(complete)
        self._authorities = tuple(authorities)
        self._by_citation: dict[str, list[Authority]] = {}
        for authority in self._authorities:
            for citation in authority.citations:
                self._by_citation.setdefault(citation, []).append(authority)

    @property
    def authorities(self) -> tuple[Authority, ...]:
        return self._authorities

    def __repr__(self) -> str:
        return f"Memory({len(self._authorities)} authorities, complete={sorted(self._complete)})"

    def lookup(self, requests: Sequence[LookupRequest]) -> list[LookupAnswer]:
        return [self._answer(request.citation) for request in requests]

    def _answer(self, citation: Lookupable) -> LookupAnswer:
        for key in _lookup_keys(citation):
            hits = self._by_citation.get(key)
            if hits:
                return Found(tuple(hits), as_of=self.as_of)
        if coverage_name(citation) not in self._complete:
            return OutsideCoverage(f"{coverage_name(citation)} is not covered by {self.name}")
        within = self._within(citation) if isinstance(citation, CaseCitation) else None
        return NotFound(within=within, as_of=self.as_of)

    def _within(self, citation: CaseCitation) -> Authority | None:
        if citation.volume is None or citation.page is None or not citation.page.isdigit():
            return None
        page = int(citation.page)
        prefix = f"{citation.volume} {citation.reporter} "
        for authority in self._authorities:
            if authority.first_page is None or authority.last_page is None:
                continue
            if not any(c.startswith(prefix) for c in authority.citations[:1]):
                continue
            if authority.first_page < page <= authority.last_page:
                return authority
        return None

    def find_quote(self, quote: str, *, exclude: str | None = None) -> Authority | None:
        needle = _squash(quote)
        if not needle:
            return None
        for authority in self._authorities:
            if authority.reference == exclude or not authority.has_text:
                continue
            text = authority.text()
            if text is not None and needle in _squash(text.text):
                return authority
        return None


class Nothing:
    """A provider that covers nothing: every citation is outside its coverage."""

    name = "none"

    def __init__(self, message: str = "no authority source is configured") -> None:
        self.message = message

    def lookup(self, requests: Sequence[LookupRequest]) -> list[LookupAnswer]:
        return [OutsideCoverage(self.message) for _ in requests]


def safe_lookup(provider: Provider, requests: Sequence[LookupRequest]) -> list[LookupAnswer]:
    """Ask ``provider``; a provider that raises or answers the wrong number becomes ``Unavailable``.

    A provider that misbehaves must never crash a request nor produce a verdict
    it did not give, so every answer it gave is checked for its type.
    """
    if not requests:
        return []
    name = getattr(provider, "name", type(provider).__name__)
    try:
        answers = list(provider.lookup(requests))
    except Exception as exc:  # a broken provider is a source failure, not our crash
        reason = f"provider {name!r} failed: {type(exc).__name__}"
        return [Unavailable(reason) for _ in requests]
    if len(answers) != len(requests):
        reason = (
            f"provider {name!r} gave {len(answers)} answers for {len(requests)} lookups; "
            "its answers were discarded"
        )
        return [Unavailable(reason) for _ in requests]
    valid = (Found, NotFound, OutsideCoverage, Unavailable)
    checked: list[LookupAnswer] = []
    for answer in answers:
        if not isinstance(answer, valid) or (isinstance(answer, Found) and not answer.authorities):
            checked.append(Unavailable(f"provider {name!r} gave an invalid answer"))
        else:
            checked.append(answer)
    return checked


class Chain:
    """Ask providers in order; the first that covers a citation answers it.

    A citation one provider reports ``OutsideCoverage`` goes to the next.  When a
    provider is ``Unavailable`` the next ones are still asked; if none of them
    covers the citation, the failure is what the caller sees (it says more than
    "not covered").  Each provider gets one batched call with what is left.
    """

    def __init__(self, *providers: Provider, name: str | None = None) -> None:
        if not providers:
            raise ValueError("Chain needs at least one provider")
        self.providers = providers
        self.name = name or "+".join(getattr(p, "name", type(p).__name__) for p in providers)

    def __repr__(self) -> str:
        return f"Chain({', '.join(repr(p) for p in self.providers)})"

    def lookup(self, requests: Sequence[LookupRequest]) -> list[LookupAnswer]:
        answers: list[LookupAnswer | None] = [None] * len(requests)
        fallback: list[LookupAnswer | None] = [None] * len(requests)
        pending = list(range(len(requests)))
        for provider in self.providers:
            if not pending:
                break
            batch = [requests[i] for i in pending]
            still: list[int] = []
            for index, answer in zip(pending, safe_lookup(provider, batch), strict=True):
                if isinstance(answer, OutsideCoverage):
                    if fallback[index] is None:
                        fallback[index] = answer
                    still.append(index)
                elif isinstance(answer, Unavailable):
                    if not isinstance(fallback[index], Unavailable):
                        fallback[index] = answer
                    still.append(index)
                else:
                    answers[index] = answer
            pending = still
        out: list[LookupAnswer] = []
        for index, given in enumerate(answers):
            if given is None:
                given = fallback[index] or OutsideCoverage("no provider covers this citation")
            out.append(given)
        return out

    def find_quote(self, quote: str, *, exclude: str | None = None) -> Authority | None:
        for provider in self.providers:
            if isinstance(provider, QuoteSearcher):
                try:
                    hit = provider.find_quote(quote, exclude=exclude)
                except Exception:
                    continue
                if hit is not None:
                    return hit
        return None
