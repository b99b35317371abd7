"""The v1.1 contract as typed, immutable values.

Attribute names are Pythonic; the exact JSON name of every field lives in its
metadata (``json``) and the codec reads it from there, so the model is the one
place the contract's spelling is written down.  Optional fields default to
``None`` and are omitted from JSON when absent; the reserved v1.1 fields
(``citationId``, ``position``, ``opinion.reference``, ``quote.passage``,
``quote.location``) exist here but the pipeline fills them only on opt-in.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

import attrs

__all__ = [
    "Citation",
    "CitationComponents",
    "Comparison",
    "Court",
    "Document",
    "DocumentPosition",
    "DocumentText",
    "Evidence",
    "Identifier",
    "ItemType",
    "Opinion",
    "Outcome",
    "Quote",
    "QuoteLocation",
    "Response",
    "Result",
    "Status",
    "Summary",
    "Usage",
    "Verdict",
    "VerifyItem",
]


def _json(name: str) -> dict[str, Any]:
    return {"json": name}


class ItemType(StrEnum):
    """The closed set of item kinds of contract v1."""

    CASE = "case"
    QUOTE = "quote"
    STATUTE = "statute"
    RULE = "rule"
    CONSTITUTION = "constitution"
    LINK = "link"


class Status(StrEnum):
    """The closed set of verdict statuses, ordered from best to worst."""

    VERIFIED = "verified"
    WARNING = "warning"
    CRITICAL = "critical"

    @property
    def severity(self) -> int:
        return _SEVERITY[self]


_SEVERITY = {Status.VERIFIED: 0, Status.WARNING: 1, Status.CRITICAL: 2}


class Outcome(StrEnum):
    """Review categories we emit (an open enumeration in the contract)."""

    VERIFIED = "verified"
    UNVERIFIED = "unverified"
    NOT_FOUND = "not_found"
    MISMATCH = "mismatch"
    UNSUPPORTED = "unsupported"
    SUPERSEDED = "superseded"


# --- request -----------------------------------------------------------------


@attrs.frozen(slots=True)
class VerifyItem:
    """One citation or quotation submitted for verification."""

    id: str
    type: ItemType
    raw_text: str | None = attrs.field(default=None, metadata=_json("rawText"))
    quote_text: str | None = attrs.field(default=None, metadata=_json("quoteText"))
    parent_case_id: str | None = attrs.field(default=None, metadata=_json("parentCaseId"))
    context: str | None = None
    url: str | None = None


# --- response parts ------------------------------------------------------------


@attrs.frozen(slots=True)
class CitationComponents:
    volume: str | None = None
    reporter: str | None = None
    page: str | None = None
    pinpoint: str | None = None
    year: int | None = None


@attrs.frozen(slots=True)
class Citation:
    raw: str
    normalized: str | None = None
    system: str | None = None
    components: CitationComponents | None = None


@attrs.frozen(slots=True)
class Verdict:
    status: Status
    outcome: str | None = None
    message: str | None = None
    method: str | None = None
    as_of: str | None = attrs.field(default=None, metadata=_json("asOf"))
    language: str | None = None


@attrs.frozen(slots=True)
class Comparison:
    """One attribute compared deterministically; ``cited``/``found`` may be null."""

    attribute: str
    cited: str | None
    found: str | None
    match: bool


@attrs.frozen(slots=True)
class Evidence:
    comparisons: tuple[Comparison, ...]


@attrs.frozen(slots=True)
class Court:
    name: str | None = None
    jurisdiction: str | None = None


@attrs.frozen(slots=True)
class Identifier:
    provider: str
    kind: str
    id: str


@attrs.frozen(slots=True)
class Document:
    provider: str
    url: str
    format: str | None = None
    official: bool | None = None
    language: str | None = None
    identifiers: tuple[Identifier, ...] | None = None


@attrs.frozen(slots=True)
class Opinion:
    court: Court
    case_name: str | None = attrs.field(default=None, metadata=_json("caseName"))
    year: int | None = None
    citations: tuple[str, ...] | None = None
    documents: tuple[Document, ...] | None = None
    reference: str | None = None  # reserved in v1.1


@attrs.frozen(slots=True)
class QuoteLocation:
    page: int | None = None
    paragraph: int | None = None


@attrs.frozen(slots=True)
class Quote:
    matched: bool
    snippet: str | None = None
    passage: str | None = None  # reserved (v1.2)
    location: QuoteLocation | None = None  # reserved (v1.2)


@attrs.frozen(slots=True)
class DocumentPosition:
    start: int
    end: int
    text: str | None = None


@attrs.frozen(slots=True)
class Result:
    id: str
    type: ItemType
    citation: Citation
    verdict: Verdict
    evidence: Evidence | None = None
    opinion: Opinion | None = None
    quote: Quote | None = None
    citation_id: str | None = attrs.field(default=None, metadata=_json("citationId"))
    position: DocumentPosition | None = None

    def _repr_html_(self) -> str:
        from citeverify._display import result_html

        return result_html(self)


@attrs.frozen(slots=True)
class Summary:
    verified: int
    warning: int
    critical: int
    total: int
    unique_citations: int
    billed_citations: int
    is_fully_verified: bool
    is_fully_accounted: bool
    overall_status: Status = attrs.field(metadata=_json("overallStatus"))


@attrs.frozen(slots=True)
class Usage:
    """Quota state of the caller's current window; ``used + remaining == limit``."""

    used: int
    remaining: int
    limit: int


@attrs.frozen(slots=True)
class DocumentText:
    """The text a document response's positions index (PDF and Word input).

    ``pages`` is the offset in ``text`` where each page begins, in order.
    """

    text: str
    pages: tuple[int, ...] = (0,)


@attrs.frozen(slots=True)
class Response:
    results: tuple[Result, ...]
    summary: Summary
    usage: Usage
    document: DocumentText | None = None  # whole-document mode, for extracted text

    def _repr_html_(self) -> str:
        from citeverify._display import response_html

        return response_html(self)
