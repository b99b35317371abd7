"""The verdict policy: what a lookup answer or a located quotation means.

Pure functions, no I/O: each takes what the driver (``_verify.py``) fetched
and returns a ``Judgment``.  One function per row group of the verdict table
in DESIGN.md, so the item mode and the whole-document mode judge the same
citation the same way by construction.

| situation                                             | function              |
|-------------------------------------------------------|-----------------------|
| text that is not a citation of the item's type        | ``unsupported``       |
| provider failed / outside coverage / not found        | ``unresolved``        |
| case resolved: name, year, court, pin, parallels      | ``judge_case``        |
| no source decides, but it cannot exist as cited       | ``judge_implausible`` |
| cited first page inside another case                  | ``judge_within``      |
| statute, rule, provision: exists, current or dead     | ``judge_enacted``     |
| link: the URL's target against its rawText            | ``judge_link``        |
| several citations in one item: the worst one wins     | ``combine``           |
| quotation: parent unresolved, no text, located, near  | ``quote_*``           |
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from citeverify._compare import (
    compare_case_name,
    compare_court,
    compare_pinpoint,
    compare_year,
    name_matches,
)
from citeverify._model import Comparison, Outcome, QuoteLocation, Status, Verdict
from citeverify.citations import parse
from citeverify.citations._types import (
    CaseCitation,
    LinkCitation,
    NotACitation,
    ParsedCitation,
    Pinpoint,
)
from citeverify.providers._base import (
    Authority,
    Found,
    Lookupable,
    LookupAnswer,
    NotFound,
    OutsideCoverage,
    Unavailable,
)

__all__ = [
    "METHOD_LINK",
    "METHOD_QUOTE",
    "Judgment",
    "QuoteJudgment",
    "combine",
    "judge",
    "lookup_key",
    "lookupables",
    "quote_fragmentary",
    "quote_judgment",
    "quote_no_citation",
    "quote_not_checked",
    "quote_precheck",
    "short",
    "unsupported",
]

METHOD_QUOTE: Final = "text-match"
METHOD_LINK: Final = "url-match"
DEAD_STATUSES: Final = frozenset(
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

Answers = Mapping[tuple[str, str], LookupAnswer]
#: Citation systems whose numbers only a subscription database can resolve.
_PRIVATE_DATABASES: Final = {"westlaw": "Westlaw", "lexis": "Lexis"}
# Outcomes as the plain strings verdicts hold, read once (an enum's ``.value`` is a
# descriptor call, on the path of every citation).
_VERIFIED: Final = Outcome.VERIFIED.value
_MISMATCH: Final = Outcome.MISMATCH.value


@attrs.frozen(slots=True)
class Judgment:
    """A citation's verdict, what it was compared on, and the authority it resolved to."""

    verdict: Verdict
    comparisons: tuple[Comparison, ...] = ()
    authority: Authority | None = None


@attrs.frozen(slots=True)
class QuoteJudgment:
    """A quotation's verdict, with the matched passage and where it is."""

    verdict: Verdict
    comparisons: tuple[Comparison, ...] = ()
    passage: str | None = None
    location: QuoteLocation | None = None

    @property
    def matched(self) -> bool:
        return self.verdict.status is Status.VERIFIED


def lookup_key(citation: Lookupable) -> tuple[str, str]:
    """The key a lookup answer is filed under: one lookup per distinct citation."""
    return (citation.kind, citation.normalized)


def lookupables(parsed: ParsedCitation) -> tuple[Lookupable, ...]:
    """What a parsed citation asks the provider about (a case's parallels too)."""
    if isinstance(parsed, NotACitation):
        return ()
    if isinstance(parsed, LinkCitation):
        return (parsed.target,) if parsed.target is not None else ()
    if isinstance(parsed, CaseCitation):
        return (parsed, *parsed.parallels)
    return (parsed,)


# --- messages ----------------------------------------------------------------------


def _year(authority: Authority) -> int | None:
    return authority.decided.year if authority.decided else None


def short(authority: Authority) -> str:
    """A one-line name for an authority, for messages: ``Roe v. Wade, 410 U.S. 113 (1973)``."""
    if authority.kind != "case":  # enacted text: its heading already leads with the citation
        return authority.name or (authority.citations[0] if authority.citations else "")
    name = authority.name or f"a {authority.kind} with no name on record"
    cite = authority.citations[0] if authority.citations else authority.reference
    year = _year(authority)
    return f"{name}, {cite}" + (f" ({year})" if year else "")


_LABELS: Final = {
    "caseName": "the name",
    "year": "the year",
    "court": "the court",
    "pinpoint": "the pin cite",
    "page": "the page",
    "reporter": "the reporter",
    "citation": "the citation",
    "parallelCitation": "the parallel citation",
}


def describe(c: Comparison) -> str:
    """One clause for a comparison that did not match."""
    label = _LABELS.get(c.attribute, c.attribute)
    if c.attribute == "pinpoint":
        return f"{label} {c.cited} is outside the pages {c.found}"
    return f"{label} cited is {c.cited!r}, the authority's is {c.found!r}"


def _retry_text(answer: Unavailable) -> str:
    if answer.retry_at is None:
        return ""
    return f"; retry after {answer.retry_at.isoformat()}"


# --- citations ---------------------------------------------------------------------


def unsupported(parsed: NotACitation) -> Judgment:
    """Text that is not a citation of the item's type."""
    return Judgment(Verdict(Status.WARNING, Outcome.UNSUPPORTED.value, parsed.message))


def unresolved(parsed: Lookupable, answer: LookupAnswer) -> Judgment | None:
    """The judgment for an answer that resolved nothing, or ``None`` when it resolved."""
    if isinstance(answer, Unavailable):
        message = f"could not check {parsed.normalized}: {answer.reason}{_retry_text(answer)}"
        return Judgment(Verdict(Status.WARNING, Outcome.UNVERIFIED.value, message))
    if isinstance(answer, OutsideCoverage):
        message = answer.message or "no configured source covers this citation"
        system = getattr(parsed, "system", None)
        if system == "slip-opinion":
            message = (
                f"{parsed.normalized}: a slip opinion cited by docket number cannot be "
                "looked up; cite the reporter (volume and page) to have it verified"
            )
        elif system in _PRIVATE_DATABASES:
            message = (
                f"{_PRIVATE_DATABASES[system]} numbers cannot be checked: that database is "
                "not public; cite the reporter or a public source to have it verified"
            )
        if not message.startswith(parsed.normalized):
            message = f"{parsed.normalized}: {message}"
        return Judgment(Verdict(Status.WARNING, Outcome.UNVERIFIED.value, message))
    if isinstance(answer, NotFound) and answer.within is None:
        message = answer.message or f"no authority at {parsed.normalized}"
        verdict = Verdict(
            Status.CRITICAL, Outcome.NOT_FOUND.value, message, answer.method, answer.as_of
        )
        return Judgment(verdict)
    return None


def judge(parsed: ParsedCitation, answers: Answers, raw_text: str | None = None) -> Judgment:
    """The judgment of one parsed citation, given every lookup answer of the run.

    ``raw_text`` is a link item's ``rawText`` (what the URL must agree with).
    """
    if isinstance(parsed, NotACitation):
        return unsupported(parsed)
    if isinstance(parsed, LinkCitation):
        return judge_link(parsed, raw_text, answers)
    answer = answers[lookup_key(parsed)]
    if isinstance(parsed, CaseCitation):
        return judge_case(parsed, answer, answers)
    return judge_enacted(parsed, answer)


def best(parsed: CaseCitation, authorities: Sequence[Authority]) -> Authority:
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


def judge_implausible(parsed: CaseCitation, answer: LookupAnswer) -> Judgment | None:
    """A citation no source could decide, that cannot exist as cited (a warning mismatch).

    ``755 F. Supp. 927 (E.D. Ky. 2010)`` is outside every source we have, yet
    F. Supp. ended in 1998: saying so beats a plain ``unverified``.  Only for
    answers that decided nothing (outside coverage, source down).
    """
    if not isinstance(answer, OutsideCoverage | Unavailable):
        return None
    from citeverify._plausible import explain, implausible

    reasons = implausible(parsed)
    if not reasons:
        return None
    message = f"{parsed.normalized} cannot exist as cited: {explain(reasons, parsed.reporter)}"
    return Judgment(Verdict(Status.WARNING, Outcome.MISMATCH.value, message), reasons)


def judge_case(parsed: CaseCitation, answer: LookupAnswer, answers: Answers) -> Judgment:
    """A case citation: resolved, then each cited attribute against the authority's."""
    if not isinstance(answer, Found):  # a found citation is neither implausible nor unresolved
        early = judge_implausible(parsed, answer) or unresolved(parsed, answer)
        if early is not None:
            return early
        assert isinstance(answer, NotFound)
        return judge_within(parsed, answer)
    authority = best(parsed, answer.authorities)
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
    problems = _parallels(parsed, authority, answers, comparisons) if parsed.parallels else []
    mismatched = [c for c in comparisons if not c.match]
    if mismatched or problems:
        parts = [describe(c) for c in mismatched if c.attribute != "parallelCitation"] + problems
        message = f"{parsed.normalized} is {short(authority)}, but " + "; ".join(parts)
        verdict = Verdict(Status.WARNING, _MISMATCH, message, answer.method, answer.as_of)
    else:
        message = f"{parsed.normalized} is {short(authority)}"
        if notes:
            message += f" ({'; '.join(notes)})"
        verdict = Verdict(Status.VERIFIED, _VERIFIED, message, answer.method, answer.as_of)
    return Judgment(verdict, tuple(comparisons), authority)


def _same_reporter(a: str, b: str) -> bool:
    """Whether two normalised citations are in the same reporter (``93 S. Ct. 705``)."""
    return a.split(" ", 1)[-1].rsplit(" ", 1)[0] == b.split(" ", 1)[-1].rsplit(" ", 1)[0]


def _parallels(
    parsed: CaseCitation, authority: Authority, answers: Answers, comparisons: list[Comparison]
) -> list[str]:
    """Check each parallel citation names the same authority; return the problems found.

    A parallel that resolves to another case, or to no case where coverage is
    complete, is a problem.  Where the lookup could not decide (outside
    coverage, source down) but the authority records its own citation in that
    reporter, the two are compared directly, so a wrong ``S. Ct.`` page never
    passes silently.
    """
    problems: list[str] = []
    for parallel in parsed.parallels:
        answer = answers.get(lookup_key(parallel))
        if isinstance(answer, Found):
            same = any(a.reference == authority.reference for a in answer.authorities) or any(
                c in authority.citations for a in answer.authorities for c in a.citations[:1]
            )
            other = answer.authorities[0]
            found = parallel.normalized if same else short(other)
            comparisons.append(Comparison("parallelCitation", parallel.normalized, found, same))
            if not same:
                problems.append(f"parallel citation {parallel.normalized} is {short(other)}")
            continue
        own = [c for c in authority.citations if _same_reporter(c, parallel.normalized)]
        if own:
            same = parallel.normalized in own
            comparisons.append(
                Comparison(
                    "parallelCitation",
                    parallel.normalized,
                    own[0] if not same else parallel.normalized,
                    same,
                )
            )
            if not same:
                problems.append(f"parallel citation {parallel.normalized} should be {own[0]}")
        elif isinstance(answer, NotFound):
            comparisons.append(Comparison("parallelCitation", parallel.normalized, None, False))
            problems.append(f"parallel citation {parallel.normalized} does not exist")
    return problems


def judge_within(parsed: CaseCitation, answer: NotFound) -> Judgment:
    """A cited first page that falls inside another case's pages."""
    within = answer.within
    assert within is not None
    where = (
        f"page {parsed.page} of volume {parsed.volume} {parsed.reporter} "
        f"falls inside {short(within)}"
    )
    if parsed.case_name and within.name and name_matches(parsed.case_name, within.name):
        comparisons = (
            Comparison("caseName", parsed.case_name, within.name, True),
            Comparison("page", parsed.page, str(within.first_page), False),
        )
        message = (
            f"{where}, which begins at page {within.first_page}: "
            "a pin cite given as the first page?"
        )
        verdict = Verdict(
            Status.WARNING, Outcome.MISMATCH.value, message, answer.method, answer.as_of
        )
        return Judgment(verdict, comparisons, within)
    message = f"no case begins at {parsed.normalized}; {where}"
    verdict = Verdict(
        Status.CRITICAL, Outcome.NOT_FOUND.value, message, answer.method, answer.as_of
    )
    return Judgment(verdict)


def judge_enacted(parsed: Lookupable, answer: LookupAnswer) -> Judgment:
    """Statutes, rules and constitutional provisions: existence and status."""
    early = unresolved(parsed, answer)
    if early is not None:
        return early
    if isinstance(answer, NotFound):  # NotFound with `within`: not meaningful here
        message = answer.message or f"no {parsed.kind} {parsed.normalized}"
        verdict = Verdict(
            Status.CRITICAL, Outcome.NOT_FOUND.value, message, answer.method, answer.as_of
        )
        return Judgment(verdict)
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
    return Judgment(verdict, (), authority)


def judge_link(link: LinkCitation, raw_text: str | None, answers: Answers) -> Judgment:
    """A link: what the URL points to, against what its rawText cites."""

    def unverified(message: str) -> Judgment:
        return Judgment(Verdict(Status.WARNING, Outcome.UNVERIFIED.value, message, METHOD_LINK))

    if link.source is None:
        return unverified(f"cannot interpret URLs of {link.host}")
    if not raw_text or not raw_text.strip():
        return unverified("no rawText to compare the link with")
    comparisons = _compare_link(link, raw_text)
    if not comparisons:
        return unverified(f"could not compare this {link.source} URL with rawText")
    authority = None
    if link.target is not None:
        answer = answers.get(lookup_key(link.target))
        if isinstance(answer, Found):
            authority = answer.authorities[0]
    mismatched = [c for c in comparisons if not c.match]
    if mismatched:
        message = "the link points elsewhere: " + "; ".join(describe(c) for c in mismatched)
        verdict = Verdict(Status.WARNING, Outcome.MISMATCH.value, message, METHOD_LINK)
    else:
        verdict = Verdict(
            Status.VERIFIED,
            Outcome.VERIFIED.value,
            "the link points to the cited authority",
            METHOD_LINK,
        )
    return Judgment(verdict, tuple(comparisons), authority)


def combine(judged: Sequence[tuple[ParsedCitation, Judgment]]) -> Judgment:
    """Several citations in one item (a string cite): the worst verdict wins.

    Its message names the citation at fault; each citation's comparisons are
    kept, in order, and the authority is the first citation's.  One citation
    is its own judgment.
    """
    if len(judged) == 1:
        return judged[0][1]
    worst_index = 0
    for index, (_, judgment) in enumerate(judged):
        if judgment.verdict.status.severity > judged[worst_index][1].verdict.status.severity:
            worst_index = index
    parsed, worst = judged[worst_index]
    comparisons = tuple(c for _, j in judged for c in j.comparisons)
    verdict = worst.verdict
    if worst.verdict.status is not Status.VERIFIED:
        name = parsed.normalized or parsed.raw
        message = f"{name} (citation {worst_index + 1} of {len(judged)}): {verdict.message}"
        verdict = attrs.evolve(verdict, message=message)
    else:
        message = "; ".join(j.verdict.message or "" for _, j in judged)
        verdict = attrs.evolve(verdict, message=message)
    return Judgment(verdict, comparisons, judged[0][1].authority)


# --- quotations --------------------------------------------------------------------


def quote_precheck(parent: Judgment) -> QuoteJudgment | None:
    """A quotation whose parent resolved no authority, or one with no text: not checked."""
    if parent.authority is None:
        if parent.verdict.outcome == Outcome.NOT_FOUND.value:
            verdict = Verdict(
                Status.CRITICAL,
                Outcome.NOT_FOUND.value,
                "the quoted authority was not found",
                METHOD_QUOTE,
            )
            return QuoteJudgment(verdict)
        return _quote_unverified(
            "the quoted authority could not be resolved, so the quotation was not checked"
        )
    if not parent.authority.has_text:
        return _quote_unverified(
            f"no text of {short(parent.authority)} is available to check the quotation"
        )
    return None


def _quote_unverified(message: str) -> QuoteJudgment:
    """A quotation that was not checked, and why: a warning, never verified."""
    return QuoteJudgment(Verdict(Status.WARNING, Outcome.UNVERIFIED.value, message, METHOD_QUOTE))


def quote_not_checked(authority: Authority, reason: str) -> QuoteJudgment:
    """The text could not be had (fetch failed, the deadline passed): not checked."""
    return _quote_unverified(f"{reason} for {short(authority)}; the quotation was not checked")


def quote_fragmentary(message: str | None = None) -> QuoteJudgment:
    """Too little distinctive text (common words and ellipses) to prove anything."""
    text = message or "the quotation is too fragmentary to check"
    return _quote_unverified(text)


def quote_no_citation() -> QuoteJudgment:
    """A quotation in a document with no citation that supports it."""
    return _quote_unverified("no citation supports this quotation, so it was not checked")


def _pages_text(pages: Sequence[int]) -> str:
    if not pages:
        return ""
    return str(pages[0]) if len(pages) == 1 else f"{pages[0]}-{pages[-1]}"


def quote_pin(pin: Pinpoint | None, pages: Sequence[int]) -> Comparison | None:
    """Whether the located quotation is on (or spans) the cited pin page."""
    if pin is None or pin.first is None or not pages:
        return None
    last = pin.last if pin.last is not None else pin.first
    match = any(pin.first <= page <= last for page in pages)
    return Comparison("pinpoint", pin.text, _pages_text(pages), match)


def quote_judgment(
    match: Any,
    pin: Pinpoint | None,
    authority: Authority,
    elsewhere: Authority | None = None,
) -> QuoteJudgment:
    """A located (or not) quotation: found at the pin, found elsewhere, near, or absent.

    ``match`` is the locator's ``QuoteMatch``; ``elsewhere`` another authority
    whose text holds the quotation, when the driver searched for one.
    """
    where = short(authority)
    status = match.status
    if status == "found":
        location = None
        if match.pages or match.paragraph is not None:
            location = QuoteLocation(
                page=match.pages[0] if match.pages else None, paragraph=match.paragraph
            )
        comparison = quote_pin(pin, tuple(match.pages))
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
        evidence = (comparison,) if comparison is not None else ()
        return QuoteJudgment(verdict, evidence, match.passage, location)
    if status == "near":
        message = f"the quotation differs from {where}"
        if match.message:
            message += f": {match.message}"
        verdict = Verdict(Status.WARNING, Outcome.MISMATCH.value, message, METHOD_QUOTE)
        return QuoteJudgment(verdict, (), match.passage)
    if status != "absent":  # fragmentary, over budget, or a status added later
        return quote_fragmentary(match.message)
    if elsewhere is not None:
        verdict = Verdict(
            Status.WARNING,
            Outcome.MISMATCH.value,
            f"the quotation is not in {where}; it is in {short(elsewhere)}",
            METHOD_QUOTE,
        )
        return QuoteJudgment(verdict)
    verdict = Verdict(
        Status.CRITICAL,
        Outcome.NOT_FOUND.value,
        f"the quotation was not found in {where}",
        METHOD_QUOTE,
    )
    return QuoteJudgment(verdict)


# --- links -------------------------------------------------------------------------

_SLUG_SPLIT: Final = re.compile(r"-v(?:s)?-")


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
