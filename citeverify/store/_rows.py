"""Rows the build step collects before writing them, in a fixed order, to a store file."""

from __future__ import annotations

import attrs

__all__ = [
    "AuthorityRow",
    "CitationRow",
    "CoverageRow",
    "DocumentRow",
    "LinkTemplateRow",
    "SubdivisionRow",
    "TextRow",
]


@attrs.define
class CitationRow:
    """One citation of an authority (see ``citations`` in ``schema``)."""

    reporter: str
    volume: str
    page: str
    cite: str
    page_number: int | None = None
    last_page: int | None = None


@attrs.define
class DocumentRow:
    provider: str
    url: str
    format: str | None = None
    official: bool | None = None


@attrs.define
class TextRow:
    """A text and the ascending ``(offset, page)`` pairs of its page starts."""

    body: str
    pages: tuple[tuple[int, int], ...] = ()


@attrs.define
class SubdivisionRow:
    path: str
    heading: str | None
    start: int
    end: int


@attrs.define
class AuthorityRow:
    """One authority with everything that hangs off it."""

    kind: str
    reference: str
    name: str | None
    court_id: str | None
    citations: list[CitationRow] = attrs.field(factory=list)
    decided: str | None = None
    docket: str | None = None
    status: str | None = None
    status_note: str | None = None
    text: TextRow | None = None
    subdivisions: list[SubdivisionRow] = attrs.field(factory=list)
    subdivisions_complete: bool = False
    documents: list[DocumentRow] = attrs.field(factory=list)
    identifiers: list[tuple[str, str, str]] = attrs.field(factory=list)


@attrs.define
class CoverageRow:
    reporter: str
    volume_first: int | None
    volume_last: int | None
    complete: bool
    note: str
    as_of: str | None = None
    number_limit: int | None = None


@attrs.define
class LinkTemplateRow:
    reporter: str
    provider: str
    url: str
    format: str | None = None
    official: bool | None = None
    volume_first: int | None = None
    volume_last: int | None = None
