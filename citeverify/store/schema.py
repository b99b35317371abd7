"""The LocalStore file format: one SQLite database, described here once.

Writers (``citeverify build-corpus``, the CourtListener bulk importer, a
user's own script) create a store with :func:`create` and fill these tables;
``citeverify.providers.local.LocalStore`` reads any file of this schema.
Nothing in it is specific to the Supreme Court: reporters, codes, rule sets
and courts are plain strings, and coverage is data.

Tables
------

``meta(key, value)``
    Free-form facts about the file.  ``schema_version`` (must equal
    :data:`SCHEMA_VERSION`), ``sqlite_version`` (of the library that wrote
    it), ``title``, ``built_from``.  Readers ignore keys they don't know.

``courts(id, name, jurisdiction)``
    Courts and other issuing bodies, keyed by courts-db id (``scotus``,
    ``ca9``, ``nysd``) or by a body id such as ``congress``.
    ``jurisdiction`` is the contract's value: ``us`` for the Supreme Court
    and federal enactments, otherwise ``us-`` + courts-db id.

``authorities(id, kind, reference, name, court_id, decided, date_is_filing,
docket, status, status_note, text_id, subdivisions_complete)``
    One row per authority: a case (``kind='case'``), a U.S. Code section or
    title (``statute``), a court rule (``rule``), an article, amendment or
    the preamble of a constitution (``constitution``).  ``reference`` is a
    stable opaque key, unique in the file.  ``decided`` is an ISO date;
    ``date_is_filing`` is 1 when it is only a filing date that may precede
    the decision (CourtListener's ``date_filed``).  ``status`` is for
    enacted text (``current``, ``repealed``, ``transferred``, ``renumbered``,
    ``omitted``, ``abrogated``, ``reserved``...), with ``status_note`` saying
    what became of it.  ``text_id`` points at ``texts`` when the text is
    shipped.  ``subdivisions_complete`` is 1 when ``subdivisions`` lists
    every subdivision of the authority, so that a cited subdivision that is
    not listed does not exist; 0 means subdivisions are not checked.

``citations(reporter, volume, page, authority_id, rank, cite, page_number,
last_page)``
    Every citation of every authority; the lookup index.  A case cites as
    (``U.S.``, ``410``, ``113``); a U.S. Code section as (``U.S.C.``, ``42``,
    ``1983``); a court rule as (rule set, ``''``, rule number), e.g.
    (``frcp``, ``''``, ``12``); a constitutional provision as
    (``constitution``, ``article`` | ``amendment`` | ``preamble``, number
    in Arabic digits or ``''``); a state constitution would use
    ``constitution:us-<state>``.  Reporter strings are canonical
    abbreviations (``U.S.``, ``S. Ct.``, ``L. Ed. 2d``, ``F.3d``, nominative
    ``Cranch``...).  ``rank`` 0 is the primary citation, then parallels in
    order.  ``cite`` is the display form (``410 U.S. 113``,
    ``42 U.S.C. § 1983``, ``Fed. R. Civ. P. 12``).  ``page_number`` is the
    page as an integer when numeric, and ``last_page`` the last page of the
    authority in that reporter when known: together they answer "which case
    contains page N of this volume".

``documents(authority_id, rank, provider, url, format, official)``
    Public copies of one authority (CourtListener, uscourts.gov, LII...).

``link_templates(reporter, rank, volume_first, volume_last, provider, url,
format, official)``
    Documents that follow from a citation alone: for every citation in
    ``reporter`` (within the inclusive volume range, when one is given) the
    reader adds a document whose ``url`` is the template with ``{volume}``
    and ``{page}`` filled in (Justia for ``U.S.``, the
    Office of the Law Revision Counsel and LII for ``U.S.C.``).  This keeps
    tens of thousands of predictable URLs out of the file.

``identifiers(authority_id, provider, kind, value)``
    Provider-scoped ids (``courtlistener``/``opinion``/``98509``,
    ``scdb``/``case``/``1946-001``).

``texts(id, body, pages, paragraphs)``
    Texts, ``body`` being UTF-8 compressed with zlib (level 9).  ``pages``
    is JSON ``[[offset, page], ...]``, ascending: the page of the
    authority's primary reporter that begins at each character offset;
    ``paragraphs`` JSON ``[offset, ...]``.  Either may be NULL.

``subdivisions(authority_id, path, heading, start, end)``
    The subdivision tree of an authority whose text is shipped.  ``path``
    joins the labels from the top with ``/``: ``b/6`` is (b)(6) of a rule or
    section; for a constitution ``s8/c3`` is section 8, clause 3 and ``c2``
    clause 2 of an article without sections.  ``start``/``end`` are
    character offsets of that subdivision in the authority's text.

``coverage(reporter, volume_first, volume_last, complete, number_limit,
as_of, note)``
    What the file holds, and how completely.  A citation whose reporter has
    no row is outside coverage.  Otherwise the row whose inclusive volume
    range contains the (integer) volume applies, else the reporter's row
    with NULL range.  ``complete`` 1 means a miss is a real miss
    (``not_found``); 0 that the volume is only partly covered (a miss is
    ``outside coverage``), except that numbers above ``number_limit`` are
    certainly absent.  ``as_of`` is the ISO date-time the data of that row
    was current; ``note`` says what the row covers, in display prose.
"""

from __future__ import annotations

import sqlite3

__all__ = ["DDL", "SCHEMA_VERSION", "TABLES", "create"]

SCHEMA_VERSION = 1

TABLES = (
    "meta",
    "courts",
    "texts",
    "authorities",
    "citations",
    "documents",
    "link_templates",
    "identifiers",
    "subdivisions",
    "coverage",
)

DDL = """
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE courts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    jurisdiction TEXT NOT NULL
) WITHOUT ROWID;

CREATE TABLE texts (
    id INTEGER PRIMARY KEY,
    body BLOB NOT NULL,
    pages TEXT,
    paragraphs TEXT
);

CREATE TABLE authorities (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    reference TEXT NOT NULL UNIQUE,
    name TEXT,
    court_id TEXT,
    decided TEXT,
    date_is_filing INTEGER NOT NULL DEFAULT 0,
    docket TEXT,
    status TEXT,
    status_note TEXT,
    text_id INTEGER,
    subdivisions_complete INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE citations (
    reporter TEXT NOT NULL,
    volume TEXT NOT NULL,
    page TEXT NOT NULL,
    authority_id INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    cite TEXT NOT NULL,
    page_number INTEGER,
    last_page INTEGER,
    PRIMARY KEY (reporter, volume, page, authority_id)
) WITHOUT ROWID;

CREATE INDEX citations_by_authority ON citations (authority_id, rank);
CREATE INDEX citations_by_page ON citations (reporter, volume, page_number)
    WHERE page_number IS NOT NULL;

CREATE TABLE documents (
    authority_id INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    provider TEXT NOT NULL,
    url TEXT NOT NULL,
    format TEXT,
    official INTEGER,
    PRIMARY KEY (authority_id, rank)
) WITHOUT ROWID;

CREATE TABLE link_templates (
    reporter TEXT NOT NULL,
    rank INTEGER NOT NULL,
    volume_first INTEGER,
    volume_last INTEGER,
    provider TEXT NOT NULL,
    url TEXT NOT NULL,
    format TEXT,
    official INTEGER,
    PRIMARY KEY (reporter, rank)
) WITHOUT ROWID;

CREATE TABLE identifiers (
    authority_id INTEGER NOT NULL,
    provider TEXT NOT NULL,
    kind TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (authority_id, provider, kind, value)
) WITHOUT ROWID;

CREATE TABLE subdivisions (
    authority_id INTEGER NOT NULL,
    path TEXT NOT NULL,
    heading TEXT,
    start INTEGER NOT NULL,
    "end" INTEGER NOT NULL,
    PRIMARY KEY (authority_id, path)
) WITHOUT ROWID;

CREATE TABLE coverage (
    reporter TEXT NOT NULL,
    volume_first INTEGER,
    volume_last INTEGER,
    complete INTEGER NOT NULL,
    number_limit INTEGER,
    as_of TEXT,
    note TEXT NOT NULL
);

CREATE INDEX coverage_by_reporter ON coverage (reporter);
"""


def create(connection: sqlite3.Connection) -> None:
    """Create every table of the schema in an empty database and record its version."""
    connection.executescript(DDL)
    connection.execute(
        "INSERT INTO meta (key, value) VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
    )
