"""The provider protocol: how the pipeline asks a source about authorities.

A provider answers a batch of lookups with one answer per request, in order.
Misses and failures are values, never exceptions:

* ``Found``: one or more authority records;
* ``NotFound``: the provider's coverage is complete for this citation and no
  authority is there (``within`` names the authority whose pages contain the
  cited page, when a pin cite was passed off as a first page);
* ``OutsideCoverage``: the provider holds nothing that could confirm or deny;
* ``Unavailable``: the source failed (timeout, 5xx, throttled), with a reason
  and, when known, when to retry.

Providers compose by wrapping (``Chain``, caches), not by subclassing.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import attrs

from citeverify._model import Court, Document
from citeverify.citations._types import (
    CaseCitation,
    ConstitutionCitation,
    RuleCitation,
    StatuteCitation,
)

__all__ = [
    "Authority",
    "AuthorityText",
    "Found",
    "LookupAnswer",
    "LookupRequest",
    "Lookupable",
    "NotFound",
    "OutsideCoverage",
    "Provider",
    "QuoteSearcher",
    "Unavailable",
]

Lookupable = CaseCitation | StatuteCitation | RuleCitation | ConstitutionCitation


@attrs.frozen(slots=True)
class AuthorityText:
    """The text of an authority, with page markers where the source has them.

    ``pages`` is ascending ``(offset, page)``: the page that begins at each
    offset into ``text``.  ``paragraphs`` is the ascending offsets at which
    numbered paragraphs begin (paragraph *n* starts at ``paragraphs[n - 1]``),
    empty when unknown.
    """

    text: str
    pages: tuple[tuple[int, int], ...] = ()
    paragraphs: tuple[int, ...] = ()


@attrs.frozen(slots=True)
class Authority:
    """One authority a provider knows: a case, a code section, a rule, a provision.

    ``citations`` are canonical citation strings, primary first.  ``decided``
    is the decision date; when the source gives only a filing date that can
    precede the decision (CourtListener's ``date_filed``), ``date_is_filing``
    is true and the year comparison allows one year with a note.  ``status``
    is for enacted text (``current``, ``repealed``, ``transferred``...).
    ``load_text`` fetches the text on demand, or is ``None`` when the provider
    has no text for it; ``text_is_local`` says it reads local storage in bounded
    time (no network), so the pipeline calls it inline instead of paying for a
    thread that only a fetch that can hang needs.
    """

    kind: str
    reference: str
    provider: str
    citations: tuple[str, ...]
    name: str | None = None
    court: Court = attrs.field(factory=Court)
    court_id: str | None = None
    decided: dt.date | None = None
    date_is_filing: bool = False
    first_page: int | None = None
    last_page: int | None = None
    documents: tuple[Document, ...] = ()
    status: str | None = None
    status_note: str | None = None
    docket: str | None = None
    load_text: Callable[[], AuthorityText | None] | None = attrs.field(
        default=None, eq=False, repr=False
    )
    text_is_local: bool = attrs.field(default=False, eq=False, repr=False)

    @property
    def has_text(self) -> bool:
        return self.load_text is not None

    def text(self) -> AuthorityText | None:
        """The authority's text, or ``None`` when the provider has none."""
        return self.load_text() if self.load_text is not None else None


@attrs.frozen(slots=True)
class LookupRequest:
    """One parsed citation to look up."""

    citation: Lookupable

    @property
    def key(self) -> str:
        return self.citation.normalized


@attrs.frozen(slots=True)
class Found:
    authorities: tuple[Authority, ...]
    as_of: str | None = None  # ISO date-time the record was current
    method: str = "authority-lookup"


@attrs.frozen(slots=True)
class NotFound:
    message: str | None = None
    within: Authority | None = None
    as_of: str | None = None
    method: str = "authority-lookup"


@attrs.frozen(slots=True)
class OutsideCoverage:
    message: str | None = None


@attrs.frozen(slots=True)
class Unavailable:
    reason: str
    retry_at: dt.datetime | None = None


LookupAnswer = Found | NotFound | OutsideCoverage | Unavailable


@runtime_checkable
class Provider(Protocol):
    """A source of authorities.  ``lookup`` returns one answer per request, in order."""

    name: str

    def lookup(self, requests: Sequence[LookupRequest]) -> Sequence[LookupAnswer]:
        """Answer every request; never raise for a miss or a source failure."""
        ...


@runtime_checkable
class QuoteSearcher(Protocol):
    """Optional: a provider that can search its texts for a quotation.

    Used to name the real source of a misattributed quote.
    """

    def find_quote(self, quote: str, *, exclude: str | None = None) -> Authority | None:
        """The first authority (other than ``exclude``, a reference) whose text holds ``quote``."""
        ...
