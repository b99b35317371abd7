"""``LocalStore``: the embedded corpus (or any store file of the same schema) as a provider.

The default provider.  It opens its SQLite file read-only on the first
lookup, one connection per thread, and answers a batch in a handful of
indexed queries whatever its size: one join of all the batch's citation
keys against the ``citations`` index, one for the pages that fall inside
another case, and one each for the authorities, citations, documents,
identifiers and subdivisions of what was found.  The schema, and what each
table means, is in ``citeverify.store.schema``.

Answers follow the coverage table of the file: a miss where coverage is
complete is ``NotFound`` (with ``within`` when the cited page lies inside a
case), a miss where it is partial, or in a reporter the file does not hold,
is ``OutsideCoverage``.
"""

from __future__ import annotations

import bisect
import contextlib
import datetime as dt
import itertools
import json
import re
import sqlite3
import threading
import zlib
from array import array
from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, Protocol

import attrs

from citeverify._facts import RULE_SETS
from citeverify._lru import SizedLRU
from citeverify._model import Court, Document, Identifier
from citeverify.citations._text import to_roman
from citeverify.citations._types import (
    CaseCitation,
    ConstitutionCitation,
    RuleCitation,
    StatuteCitation,
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
    Unavailable,
)
from citeverify.store.schema import SCHEMA_VERSION

__all__ = ["EMBEDDED_CORPUS", "LocalStore", "embedded_corpus_exists"]

EMBEDDED_CORPUS = "corpus.sqlite3"
_CHUNK = 300
# Texts kept decompressed between requests: bounded by the characters held (a text
# is some 10 KB to 1 MB), so a few dozen long opinions quoted in turn stay loaded.
_TEXT_CACHE = 256
_TEXT_CACHE_CHARS = 8_000_000
# Rows (and the authorities built from them) kept between lookups: a few MB at most,
# and a brief's citations repeat across requests, so most rows are built only once.
_ROW_CACHE = 8192
_RULESET_NAMES = {r.id: f"the {r.name}" for r in RULE_SETS.values() if r.uscourts}
_NO_COURT = Court()
_DASHES = str.maketrans({"–": "-", "—": "-", "‑": "-", "\u2010": "-"})


def _embedded_path() -> Path:
    return Path(str(resources.files("citeverify") / "data" / EMBEDDED_CORPUS))


def embedded_corpus_exists() -> bool:
    """Whether the corpus file ships with this installation."""
    try:
        return _embedded_path().is_file()
    except (OSError, TypeError):  # pragma: no cover - unusual packaging
        return False


class _Database(Protocol):
    """What the lookups need of a connection: ``execute`` returning iterable rows with
    ``fetchone``.  A ``sqlite3.Connection``; ``PostgresStore`` gives an adapter."""

    def execute(self, sql: str, parameters: Any = ..., /) -> Any: ...


class _Key(NamedTuple):
    """What one request asks the citations index for.

    A named tuple, not an attrs class: keys are hashed several times per citation
    (deduplication, hits, the answer cache), and a tuple hashes in C.
    """

    reporter: str
    volume: str
    page: str
    path: str = ""  # subdivision path, "" for none
    kind: str = "case"


@attrs.frozen
class _Coverage:
    reporter: str
    volume_first: int | None
    volume_last: int | None
    complete: bool
    number_limit: int | None
    as_of: str | None
    note: str


@attrs.frozen
class _Template:
    volume_first: int | None
    volume_last: int | None
    provider: str
    url: str
    format: str | None
    official: bool | None


class _Record:
    """An authority row with its citations, documents and identifiers.

    A plain slotted class built straight from the ``authorities`` row (the column
    order of ``_AUTHORITY_COLUMNS``): one is built per row read, a thousand per
    large request, and attrs' keyword ``__init__`` with list factories cost more
    than the row itself.
    """

    __slots__ = (
        "citations",
        "court_id",
        "date_is_filing",
        "decided",
        "docket",
        "documents",
        "id",
        "identifiers",
        "kind",
        "name",
        "reference",
        "status",
        "status_note",
        "subdivisions_complete",
        "text_id",
    )
    id: int
    kind: str
    reference: str
    name: str | None
    court_id: str | None
    decided: str | None
    docket: str | None
    status: str | None
    status_note: str | None
    text_id: int | None
    subdivisions_complete: bool
    date_is_filing: bool
    citations: list[tuple[str, str, str, str, int | None, int | None]]
    documents: list[tuple[str, str, str | None, bool | None]]
    identifiers: list[tuple[str, str, str]]

    def __init__(self, row: Sequence[Any]) -> None:
        (
            self.id,
            self.kind,
            self.reference,
            self.name,
            self.court_id,
            self.decided,
            self.docket,
            self.status,
            self.status_note,
            self.text_id,
            subdivisions_complete,
            date_is_filing,
        ) = row
        self.subdivisions_complete = bool(subdivisions_complete)
        self.date_is_filing = bool(date_is_filing)
        self.citations = []
        self.documents = []
        self.identifiers = []


_AUTHORITY_COLUMNS = (
    "id, kind, reference, name, court_id, decided, docket, status, status_note, text_id, "
    "subdivisions_complete, date_is_filing"
)


class LocalStore:
    """A read-only provider over a store file (default: the embedded corpus).

    ``path`` names a store file of the ``citeverify.store.schema`` schema
    (the corpus, or one written by the bulk importer).  Nothing is opened
    until the first lookup; the object is safe to share between threads.
    """

    name = "local"
    #: What a store that cannot be read raises (answered ``Unavailable``).
    _errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError, ValueError)
    #: Texts come from a file on this machine, in bounded time: the pipeline reads
    #: them inline (a subclass over a network database says otherwise).
    TEXTS_ARE_LOCAL: ClassVar[bool] = True

    def __init__(self, path: str | Path | None = None) -> None:
        self._embedded = path is None
        self._path = Path(path) if path is not None else _embedded_path()
        self._init_state()

    def _init_state(self) -> None:
        self._revision: str | None = None
        self._local = threading.local()
        self._lock = threading.Lock()
        self._loaded = False
        self._coverage: dict[str, list[_Coverage]] = {}
        self._templates: dict[str, list[_Template]] = {}
        # A court's value, built once per court row and shared (``Court`` is immutable).
        self._courts: dict[str, Court] = {}
        self._texts: SizedLRU[int, AuthorityText] = SizedLRU(
            _TEXT_CACHE, _TEXT_CACHE_CHARS, lambda text: len(text.text)
        )
        # Per row id: the record read from the file, and the authorities built from it
        # (by the pages they carry).  Both are immutable once built, so a hit is shared.
        self._rows: OrderedDict[int, _Record] = OrderedDict()
        self._built: OrderedDict[tuple[int, int | None, int | None], Authority] = OrderedDict()
        # Per index key (and the citation's text, which one message quotes): the answer.
        self._answers: OrderedDict[tuple[_Key, str], LookupAnswer] = OrderedDict()
        self._generation: tuple[int, ...] | None = None
        self._quote_index: _QuoteTexts | None = None

    def __repr__(self) -> str:
        return f"LocalStore({str(self._path)!r})"

    @property
    def path(self) -> Path:
        return self._path

    def cache_clear(self) -> None:
        """Forget the rows, authorities and answers kept from earlier lookups.

        For benchmarks that must measure the lookup itself, not a dict hit.
        """
        with self._lock:
            self._rows.clear()
            self._built.clear()
            self._answers.clear()

    def describe(self) -> str:
        """Which file this is and what it covers: a line per reporter, code or rule set.

        Rows that cover a range of volumes (or titles) completely are counted
        apart from those that cover them only partly, where a miss is not proof
        that an authority does not exist.
        """
        self._load()
        lines = [f"{self._title()} (schema {SCHEMA_VERSION})"]
        for reporter in sorted(self._coverage, key=str.casefold):
            rows = self._coverage[reporter]
            ranged = [r for r in rows if r.volume_first is not None]
            if len(ranged) > 3:  # per-title rows (the U.S. Code): count them
                full = sum(r.complete for r in ranged)
                lines.append(
                    f"  {reporter}: {len(ranged)} volumes or titles, {full} complete, "
                    f"{len(ranged) - full} partly covered (a miss there is 'unverified')"
                )
                continue
            for row in rows:
                span = (
                    f" {row.volume_first}-{row.volume_last}"
                    if row.volume_first is not None
                    else ""
                )
                kind = "complete" if row.complete else "partial"
                lines.append(f"  {reporter}{span} [{kind}]: {row.note}")
        return "\n".join(lines)

    def _title(self) -> str:
        return f"LocalStore {self._path}"

    # --- opening (the parts ``PostgresStore`` replaces) -----------------------------------

    def _connection(self) -> _Database:
        connection: sqlite3.Connection | None = getattr(self._local, "connection", None)
        if connection is None:
            uri = f"file:{self._path.as_posix()}?mode=ro"
            if self._embedded:
                uri += "&immutable=1"  # the shipped file never changes: skip locking
            connection = sqlite3.connect(uri, uri=True, check_same_thread=True)
            if not self._embedded:  # an import may be switching the file to WAL mode
                connection.execute("PRAGMA busy_timeout = 5000")
            # Lookups read scattered index pages: map the file and keep more of it
            # cached than SQLite's 2 MB default (matters for large imported stores).
            connection.execute("PRAGMA mmap_size = 268435456")
            connection.execute("PRAGMA cache_size = -65536")
            self._local.connection = connection
        return connection

    def _load(self) -> None:
        """Read the small tables (coverage, link templates, courts) once."""
        if self._loaded:
            return
        with self._lock:
            if self._loaded:
                return
            self._check_exists()
            db = self._connection()
            version = db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if version is None or int(version[0]) != SCHEMA_VERSION:
                found = version[0] if version else "none"
                raise ValueError(
                    f"{self._where()} has store schema {found}; this citeverify reads "
                    f"schema {SCHEMA_VERSION}"
                )
            self._read_small_tables(db)
            self._loaded = True

    def _check_exists(self) -> None:
        if not self._path.is_file():
            raise FileNotFoundError(f"no store file at {self._path}")

    def _where(self) -> str:
        """The store as named in answers (never a server's full path or a password)."""
        return "the embedded corpus" if self._embedded else f"the store {self._path.name}"

    @contextlib.contextmanager
    def _snapshot(self) -> Iterator[None]:
        """One read transaction for a whole batch, so that an update committed meanwhile
        is seen entirely or not at all (the embedded file never changes)."""
        if self._embedded:
            yield
            return
        db = self._connection()
        db.execute("BEGIN")
        try:
            yield
        finally:
            db.execute("COMMIT")

    def _refresh(self) -> None:
        """Reload the cached small tables when an import has changed the store since."""
        if self._embedded:
            return
        row = self._connection().execute("SELECT value FROM meta WHERE key = 'revision'").fetchone()
        revision = row[0] if row else None
        if revision != self._revision:
            with self._lock:
                self._read_small_tables(self._connection())
                self._texts.clear()
                self._quote_index = None
                self._rows.clear()
                self._built.clear()
                self._answers.clear()

    def _read_small_tables(self, db: _Database) -> None:
        """Coverage, link templates and courts, read whole (they are small)."""
        found = db.execute("SELECT value FROM meta WHERE key = 'revision'").fetchone()
        revision = found[0] if found else None
        coverage: dict[str, list[_Coverage]] = {}
        templates: dict[str, list[_Template]] = {}
        courts: dict[str, Court] = {}
        for row in db.execute(
            "SELECT reporter, volume_first, volume_last, complete, number_limit, as_of, note "
            "FROM coverage ORDER BY rowid"
        ):
            coverage.setdefault(row[0], []).append(
                _Coverage(row[0], row[1], row[2], bool(row[3]), row[4], row[5], row[6])
            )
        for row in db.execute(
            "SELECT reporter, volume_first, volume_last, provider, url, format, official "
            "FROM link_templates ORDER BY reporter, rank"
        ):
            official = None if row[6] is None else bool(row[6])
            templates.setdefault(row[0], []).append(
                _Template(row[1], row[2], row[3], row[4], row[5], official)
            )
        for court_id, name, jurisdiction in db.execute(
            "SELECT id, name, jurisdiction FROM courts"
        ):
            courts[court_id] = Court(name=name, jurisdiction=jurisdiction)
        self._coverage, self._templates, self._courts = coverage, templates, courts
        self._revision = revision

    # --- lookup --------------------------------------------------------------------------

    def lookup(self, requests: Sequence[LookupRequest]) -> list[LookupAnswer]:
        """One answer per request, in order; a store that cannot be read is ``Unavailable``."""
        if not requests:
            return []
        try:
            self._load()
            if self._embedded:
                # The shipped file never changes: no transaction to hold, no revision to
                # re-read (both no-ops here), and no generator-based context manager to
                # enter on the path of every request.
                return self._lookup(requests)
            with self._snapshot():
                self._refresh()
                return self._lookup(requests)
        except self._errors as exc:
            # The reason reaches clients: name the failure, never the server's file path.
            reason = f"the local store cannot be read ({type(exc).__name__})"
            return [Unavailable(reason)] * len(requests)

    def _file_generation(self) -> tuple[int, ...]:
        """What changes when the file (or its write-ahead log) is written."""
        out: list[int] = []
        for path in (self._path, self._path.with_name(self._path.name + "-wal")):
            try:
                st = path.stat()
            except OSError:
                out += [0, 0, 0]
            else:
                out += [st.st_ino, st.st_size, st.st_mtime_ns]
        return tuple(out)

    def _drop_stale_caches(self) -> None:
        """Forget built rows and answers if the store file changed since they were read.

        The embedded corpus never changes; a store file given by path might be
        written while we hold it open, and then what we built may be out of date.
        """
        if self._embedded:
            return
        generation = self._file_generation()
        if generation != self._generation:
            with self._lock:
                self._rows.clear()
                self._built.clear()
                self._answers.clear()
                self._generation = generation

    def _lookup(self, requests: Sequence[LookupRequest]) -> list[LookupAnswer]:
        self._drop_stale_caches()
        answers: list[LookupAnswer | None] = [None] * len(requests)
        keys: dict[int, _Key] = {}
        with self._lock:
            for index, request in enumerate(requests):
                planned = self._plan(request.citation)
                if isinstance(planned, _Key):
                    cache_key = (planned, request.citation.normalized)
                    known = self._answers.get(cache_key)
                    if known is None:
                        keys[index] = planned
                    else:
                        self._answers.move_to_end(cache_key)
                        answers[index] = known
                else:
                    answers[index] = planned
        if keys:
            self._lookup_keys(requests, keys, answers)
        return [a if a is not None else OutsideCoverage("not looked up") for a in answers]

    def _lookup_keys(
        self,
        requests: Sequence[LookupRequest],
        keys: dict[int, _Key],
        answers: list[LookupAnswer | None],
    ) -> None:
        """Answer the requests of ``keys`` from the file, and remember the answers."""
        unique = list(dict.fromkeys(keys.values()))
        hits = self._find(unique)

        misses = [key for key in unique if key not in hits]
        within_wanted: list[_Key] = []
        for key in misses:
            row = self._coverage_row(key.reporter, key.volume)
            if key.kind == "case" and row is not None and row.complete and key.page.isdigit():
                within_wanted.append(key)
        within = self._within(within_wanted)

        ids = {aid for found in hits.values() for aid, _, _ in found} | set(within.values())
        records = self._records(sorted(ids))
        trees = self._trees(
            sorted({aid for key, found in hits.items() if key.path for aid, _, _ in found})
        )
        learned: dict[tuple[_Key, str], LookupAnswer] = {}
        for index, key in keys.items():
            citation = requests[index].citation
            answer = self._answer(citation, key, hits, within, records, trees)
            answers[index] = answer
            learned[(key, citation.normalized)] = answer
        with self._lock:
            self._answers.update(learned)
            while len(self._answers) > _ROW_CACHE:
                self._answers.popitem(last=False)

    def _plan(self, citation: Lookupable) -> _Key | LookupAnswer:
        """The index key of a citation, or the answer when none is needed."""
        if isinstance(citation, CaseCitation):
            if citation.volume is None or citation.page is None:
                return OutsideCoverage(
                    f"{citation.reporter} citations without volume and page are not in the "
                    "embedded corpus"
                )
            return _Key(citation.reporter, citation.volume.strip(), citation.page.strip())
        if isinstance(citation, StatuteCitation):
            if citation.system != "usc":
                if citation.code not in self._coverage:
                    return OutsideCoverage(f"no {citation.code} in the embedded corpus")
                volume = citation.title or ""
            elif citation.title is None:
                return OutsideCoverage("a U.S. Code citation without a title cannot be looked up")
            else:
                volume = citation.title.strip()
            section = citation.section.strip().translate(_DASHES).replace(" ", "")
            code = "U.S.C." if citation.system == "usc" else citation.code
            path = "/".join(citation.subdivisions)
            return _Key(code, volume, section, path, "statute")
        if isinstance(citation, RuleCitation):
            path = "/".join(citation.subdivisions)
            return _Key(citation.ruleset, "", citation.rule.strip(), path, "rule")
        if isinstance(citation, ConstitutionCitation):
            reporter = (
                "constitution"
                if citation.jurisdiction == "us"
                else f"constitution:{citation.jurisdiction}"
            )
            if reporter not in self._coverage:
                return OutsideCoverage(f"no constitution of {citation.jurisdiction} in the corpus")
            if citation.part == "preamble":
                return _Key(reporter, "preamble", "", "", "constitution")
            parts = []
            if citation.section:
                parts.append(f"s{citation.section.strip()}")
            if citation.clause:
                parts.append(f"c{citation.clause.strip()}")
            number = "" if citation.number is None else str(citation.number)
            return _Key(reporter, citation.part, number, "/".join(parts), "constitution")
        return OutsideCoverage("not a kind of citation the local store holds")

    def _find(self, keys: list[_Key]) -> dict[_Key, list[tuple[int, int | None, int | None]]]:
        """Each key's authorities: ``(authority_id, page_number, last_page)``."""
        found: dict[_Key, list[tuple[int, int | None, int | None]]] = defaultdict(list)
        db = self._connection()
        for chunk in _chunks(keys):
            values = ", ".join("(?, ?, ?, ?)" for _ in chunk)
            params: list[Any] = []
            for index, key in enumerate(chunk):
                params += [index, key.reporter, key.volume, key.page]
            sql = (
                f"WITH q(i, reporter, volume, page) AS (VALUES {values}) "
                "SELECT q.i, c.authority_id, c.page_number, c.last_page FROM q "
                "JOIN citations AS c ON c.reporter = q.reporter AND c.volume = q.volume "
                "AND c.page = q.page ORDER BY q.i, c.authority_id"
            )
            for index, authority_id, page_number, last_page in db.execute(sql, params):
                found[chunk[index]].append((authority_id, page_number, last_page))
        return found

    def _within(self, keys: list[_Key]) -> dict[_Key, int]:
        """For pages that begin no case: the case whose page range contains them."""
        out: dict[_Key, int] = {}
        db = self._connection()
        for chunk in _chunks(keys):
            values = ", ".join("(?, ?, ?, ?)" for _ in chunk)
            params: list[Any] = []
            for index, key in enumerate(chunk):
                params += [index, key.reporter, key.volume, int(key.page)]
            sql = (
                f"WITH q(i, reporter, volume, page) AS (VALUES {values}) "
                "SELECT q.i, q.page, (SELECT c.authority_id || ' ' || c.last_page "
                "FROM citations AS c WHERE c.reporter = q.reporter AND c.volume = q.volume "
                "AND c.page_number IS NOT NULL AND c.page_number < q.page "
                "ORDER BY c.page_number DESC, c.authority_id LIMIT 1) FROM q"
            )
            for index, page, hit in db.execute(sql, params):
                if hit is None:
                    continue
                authority_id, _, last_page = str(hit).partition(" ")
                if last_page and page < int(last_page):
                    out[chunk[index]] = int(authority_id)
        return out

    def _records(self, ids: list[int]) -> dict[int, _Record]:
        """The records of ``ids`` (those in the store): from the row cache, else read."""
        records: dict[int, _Record] = {}
        missing: list[int] = []
        with self._lock:
            for authority_id in ids:
                record = self._rows.get(authority_id)
                if record is None:
                    missing.append(authority_id)
                else:
                    self._rows.move_to_end(authority_id)
                    records[authority_id] = record
        if missing:
            read = self._read_records(missing)
            records.update(read)
            with self._lock:
                self._rows.update(read)
                while len(self._rows) > _ROW_CACHE:
                    self._rows.popitem(last=False)
        return records

    def _read_records(self, ids: list[int]) -> dict[int, _Record]:
        records: dict[int, _Record] = {}
        db = self._connection()
        for chunk in _chunks(ids):
            marks = ", ".join("?" for _ in chunk)
            for row in db.execute(
                f"SELECT {_AUTHORITY_COLUMNS} FROM authorities WHERE id IN ({marks})", chunk
            ):
                records[row[0]] = _Record(row)
            for row in db.execute(
                "SELECT authority_id, reporter, volume, page, cite, page_number, last_page "
                f"FROM citations WHERE authority_id IN ({marks}) ORDER BY authority_id, rank",
                chunk,
            ):
                records[row[0]].citations.append(row[1:])
            for row in db.execute(
                "SELECT authority_id, provider, url, format, official FROM documents "
                f"WHERE authority_id IN ({marks}) ORDER BY authority_id, rank",
                chunk,
            ):
                official = None if row[4] is None else bool(row[4])
                records[row[0]].documents.append((row[1], row[2], row[3], official))
            for row in db.execute(
                "SELECT authority_id, provider, kind, value FROM identifiers "
                f"WHERE authority_id IN ({marks}) ORDER BY authority_id, provider, kind, value",
                chunk,
            ):
                records[row[0]].identifiers.append(row[1:])
        return records

    def _trees(self, ids: list[int]) -> dict[int, dict[str, tuple[str | None, int, int]]]:
        trees: dict[int, dict[str, tuple[str | None, int, int]]] = defaultdict(dict)
        db = self._connection()
        for chunk in _chunks(ids):
            marks = ", ".join("?" for _ in chunk)
            for authority_id, path, heading, start, end in db.execute(
                'SELECT authority_id, path, heading, start, "end" FROM subdivisions '
                f"WHERE authority_id IN ({marks})",
                chunk,
            ):
                trees[authority_id][path] = (heading, start, end)
        return trees

    # --- answers -------------------------------------------------------------------------

    def _coverage_row(self, reporter: str, volume: str) -> _Coverage | None:
        rows = self._coverage.get(reporter)
        if not rows:
            return None
        if volume.isdigit():
            number = int(volume)
            for row in rows:
                first, last = row.volume_first, row.volume_last
                if first is not None and last is not None and first <= number <= last:
                    return row
        for row in rows:
            if row.volume_first is None:
                return row
        return None

    def _answer(
        self,
        citation: Lookupable,
        key: _Key,
        hits: dict[_Key, list[tuple[int, int | None, int | None]]],
        within: dict[_Key, int],
        records: dict[int, _Record],
        trees: dict[int, dict[str, tuple[str | None, int, int]]],
    ) -> LookupAnswer:
        coverage = self._coverage_row(key.reporter, key.volume)
        as_of = coverage.as_of if coverage is not None else None
        method = "authority-lookup" if key.kind == "case" else "curated-registry"
        found = hits.get(key)
        if found:
            if key.path:
                return self._subdivision(key, records[found[0][0]], trees, as_of, method)
            authorities = tuple(
                self._authority(records[aid], key, first, last) for aid, first, last in found
            )
            return Found(authorities, as_of=as_of, method=method)
        if coverage is None:
            return OutsideCoverage(self._uncovered(citation, key))
        if not coverage.complete:
            lead = re.match(r"\d+", key.page)
            if coverage.number_limit is not None and lead and int(lead[0]) > coverage.number_limit:
                return NotFound(
                    f"{_cite(key)} does not exist: title {key.volume}'s sections never went "
                    f"beyond {coverage.number_limit // 2}",
                    as_of=as_of,
                    method=method,
                )
            return OutsideCoverage(f"{_cite(key)}: {coverage.note}")
        if key in within:
            record = records[within[key]]
            return NotFound(
                f"no decision begins at {_cite(key)}",
                within=self._authority(record, None, None, None),
                as_of=as_of,
                method=method,
            )
        return NotFound(self._missing(key, coverage), as_of=as_of, method=method)

    def _uncovered(self, citation: Lookupable, key: _Key) -> str:
        where = self._where()
        if key.kind == "case":
            rows = self._coverage.get(key.reporter, [])
            firsts = [r.volume_first for r in rows if r.volume_first is not None]
            lasts = [r.volume_last for r in rows if r.volume_last is not None]
            if firsts and lasts:
                return (
                    f"volume {key.volume} of {key.reporter} is not in {where} "
                    f"(it holds volumes {min(firsts)}-{max(lasts)})"
                )
            return f"no {key.reporter} volumes in {where}"
        if key.kind == "rule":
            return f"rule set {key.reporter!r} is not in {where}"
        return f"{citation.normalized} is not covered by {where}"

    def _missing(self, key: _Key, coverage: _Coverage) -> str:
        if key.kind == "case":
            return (
                f"no decision begins at {_cite(key)}; the corpus holds every decision in that "
                "volume"
            )
        if key.kind == "rule":
            name = _RULESET_NAMES.get(key.reporter, key.reporter)
            return f"{name} have no Rule {key.page}"
        if key.kind == "constitution":
            if key.volume in ("article", "amendment") and key.page.isdigit():
                return f"the Constitution has no {key.volume} {to_roman(int(key.page))}"
            return "no such provision in the Constitution"
        if coverage.volume_first is None:
            return f"there is no title {key.volume} of the United States Code"
        return (
            f"{_cite(key)} does not exist: title {key.volume} lists every section, current "
            "and former"
        )

    def _subdivision(
        self,
        key: _Key,
        record: _Record,
        trees: dict[int, dict[str, tuple[str | None, int, int]]],
        as_of: str | None,
        method: str,
    ) -> LookupAnswer:
        base = self._authority(record, key, None, None)
        if not record.subdivisions_complete:
            return Found((base,), as_of=as_of, method=method)  # subdivisions not checked
        tree = trees.get(record.id, {})
        path = key.path
        if path not in tree:
            parent, _, last = path.rpartition("/")
            clause_prefix = f"{parent}/c" if parent else "c"
            has_clauses = any(p.startswith(clause_prefix) for p in tree)
            parent_exists = not parent or parent in tree
            if key.kind == "constitution" and last == "c1" and parent_exists and not has_clauses:
                path = parent  # "cl. 1" of a provision that has no numbered clauses
            else:
                return NotFound(
                    f"{base.citations[0]} has no {_path_text(key.kind, key.path)}",
                    as_of=as_of,
                    method=method,
                )
        if not path:
            return Found((base,), as_of=as_of, method=method)
        _, start, end = tree[path]
        cite = base.citations[0] + _path_text(key.kind, path, joined=True)
        name = cite
        if base.name and base.name.startswith(base.citations[0]) and key.kind != "constitution":
            name = cite + base.name[len(base.citations[0]) :]
        text_id = record.text_id
        authority = attrs.evolve(
            base,
            reference=f"{base.reference}/{path}",
            citations=(cite, *base.citations),
            name=name,
            load_text=(lambda: self._text(text_id, start, end)) if text_id is not None else None,
            text_is_local=self.TEXTS_ARE_LOCAL,
        )
        return Found((authority,), as_of=as_of, method=method)

    def _authority(
        self,
        record: _Record,
        key: _Key | None,
        first_page: int | None,
        last_page: int | None,
    ) -> Authority:
        """An ``Authority``; pages are those of the citation looked up (primary when none).

        Built once per row and pages, then shared (``Authority`` is immutable).
        """
        if key is None or key.kind != "case":
            for _, _, _, _, number, last in record.citations[:1]:
                if number is not None:
                    first_page, last_page = number, last
        cache_key = (record.id, first_page, last_page)
        with self._lock:
            built = self._built.get(cache_key)
            if built is not None:
                self._built.move_to_end(cache_key)
                return built
        built = self._build_authority(record, first_page, last_page)
        with self._lock:
            self._built[cache_key] = built
            while len(self._built) > _ROW_CACHE:
                self._built.popitem(last=False)
        return built

    def _build_authority(
        self, record: _Record, first_page: int | None, last_page: int | None
    ) -> Authority:
        court_id = record.court_id
        court = _NO_COURT if court_id is None else self._courts.get(court_id, _NO_COURT)
        kind = record.kind
        if kind == "statute":
            citations = tuple(c[3] for c in record.citations if c[2])
        else:
            citations = tuple(c[3] for c in record.citations)
        if not citations:
            citations = (record.reference,)
        text_id = record.text_id
        return Authority(
            kind=kind,
            reference=record.reference,
            provider=self.name,
            citations=citations,
            name=record.name,
            court=court,
            court_id=record.court_id,
            decided=dt.date.fromisoformat(record.decided) if record.decided else None,
            date_is_filing=record.date_is_filing,
            first_page=first_page,
            last_page=last_page,
            documents=self._documents(record),
            status=record.status,
            status_note=record.status_note,
            docket=record.docket,
            load_text=(lambda: self._text(text_id)) if text_id is not None else None,
            text_is_local=self.TEXTS_ARE_LOCAL,
        )

    def _documents(self, record: _Record) -> tuple[Document, ...]:
        """The record's documents, then one per link template of each of its citations.

        Identifiers are attached to the documents of their provider (built only for
        providers that have a document); duplicates are dropped, first kept.
        """
        wanted: dict[str, tuple[Identifier, ...] | None] = {}
        if record.identifiers:
            grouped: dict[str, list[Identifier]] = {}
            for provider, kind, value in record.identifiers:
                grouped.setdefault(provider, []).append(
                    Identifier(provider=provider, kind=kind, id=value)
                )
            wanted = {provider: tuple(found) for provider, found in grouped.items()}
        documents: list[Document] = []
        for provider, url, format_, official in record.documents:
            documents.append(
                Document(
                    provider=provider,
                    url=url,
                    format=format_,
                    official=official,
                    identifiers=wanted.get(provider),
                )
            )
        templates = self._templates
        for reporter, volume, page, _, _, _ in record.citations:
            if not page:
                continue
            for template in templates.get(reporter, ()):
                if template.volume_first is not None and not (
                    volume.isdigit()
                    and template.volume_first <= int(volume) <= (template.volume_last or 10**9)
                ):
                    continue
                documents.append(
                    Document(
                        provider=template.provider,
                        url=template.url.format(volume=volume, page=page),
                        format=template.format,
                        official=template.official,
                        identifiers=wanted.get(template.provider),
                    )
                )
        if len(documents) < 2:  # nothing to drop: skip hashing every field
            return tuple(documents)
        return tuple(dict.fromkeys(documents))

    # --- texts ---------------------------------------------------------------------------

    def _text(
        self, text_id: int, start: int | None = None, end: int | None = None
    ) -> AuthorityText:
        cached = self._texts.get(text_id)
        if cached is None:
            body, pages = (
                self._connection()
                .execute("SELECT body, pages FROM texts WHERE id = ?", (text_id,))
                .fetchone()
            )
            text = zlib.decompress(body).decode("utf-8")
            marks = tuple((int(o), int(p)) for o, p in json.loads(pages)) if pages else ()
            cached = AuthorityText(text, marks)
            self._texts.put(text_id, cached)
        if start is None:
            return cached
        stop = len(cached.text) if end is None else end
        pages = tuple((o - start, p) for o, p in cached.pages if start <= o < stop)
        return AuthorityText(cached.text[start:stop], pages)

    # --- quotations ----------------------------------------------------------------------

    def find_quote(self, quote: str, *, exclude: str | None = None) -> Authority | None:
        """The first authority (by position in the store) whose shipped text holds ``quote``.

        A plain search on normalised words: case, punctuation, quotes, dashes
        and line breaks are ignored, bracketed alterations drop their word,
        and an ellipsis splits the quote into pieces that must appear in
        order.  A quote too fragmentary for the quotation locator to check
        (under four words, or only common words and ellipses) is not
        searched either: ``the . . . the`` is in every text.
        """
        from citeverify.quotes import fragmentary

        pieces = _quote_pieces(quote)
        if not pieces or sum(len(p.split()) for p in pieces) < 4 or fragmentary(quote):
            return None
        try:
            self._load()
            index = self._quotes()
        except self._errors:
            return None
        # Any text that holds the quote holds its longest piece: look for that in all
        # the texts at once (one C-level search), then check the pieces in order in
        # each text it is found in, first text first, as a search text by text would.
        encoded = [piece.encode("utf-8") for piece in pieces]
        rarest = max(encoded, key=len)
        joined, starts = index.joined, index.starts
        position = 0
        while (found := joined.find(rarest, position)) >= 0:
            number = bisect.bisect_right(starts, found) - 1
            start, end = starts[number], starts[number + 1] - 1
            position = end + 1
            at = start
            for piece in encoded:
                at = joined.find(piece, at, end)
                if at < 0:
                    break
                at += len(piece)
            else:
                authority_id = index.ids[number]
                record = self._records([authority_id]).get(authority_id)
                if record is None or record.reference == exclude:
                    continue
                return self._authority(record, None, None, None)
        return None

    def _quotes(self) -> _QuoteTexts:
        if self._quote_index is None:
            rows = self._connection().execute(
                "SELECT a.id, t.body FROM authorities AS a JOIN texts AS t ON t.id = a.text_id "
                "ORDER BY a.id"
            )
            ids: list[int] = []
            texts: list[str] = []
            for aid, body in rows:
                ids.append(aid)
                texts.append(_normalise(zlib.decompress(body).decode("utf-8")))
            index = _QuoteTexts.of(ids, texts)
            with self._lock:
                self._quote_index = index
        return self._quote_index


@attrs.frozen(slots=True)
class _QuoteTexts:
    """Every shipped text in ``find_quote``'s normalised form, one UTF-8 string for all.

    ``joined`` is the texts in authority order, each followed by a newline
    (which no normalised text or quote piece holds, so no match runs from one
    text into the next); text *i* is ``joined[starts[i]:starts[i + 1] - 1]``.
    Bytes, not ``str``: one character outside Latin-1 anywhere would make a
    joined ``str`` two bytes a character throughout; a UTF-8 needle matches
    only at character boundaries, so byte offsets find the same texts.
    """

    joined: bytes
    starts: array[int]
    ids: tuple[int, ...]

    @classmethod
    def of(cls, ids: Sequence[int], texts: Sequence[str]) -> _QuoteTexts:
        encoded = [t.encode("utf-8") + b"\n" for t in texts]
        starts = array("q", itertools.accumulate(map(len, encoded), initial=0))
        return cls(b"".join(encoded), starts, tuple(ids))


def _chunks(items: Sequence[Any]) -> Iterable[Sequence[Any]]:
    for start in range(0, len(items), _CHUNK):
        yield items[start : start + _CHUNK]


def _cite(key: _Key) -> str:
    if key.reporter == "U.S.C.":
        return f"{key.volume} U.S.C. § {key.page}"
    return f"{key.volume} {key.reporter} {key.page}".strip()


def _path_text(kind: str, path: str, *, joined: bool = False) -> str:
    """``b/6`` as ``(b)(6)``; ``s8/c3`` as ``, § 8, cl. 3`` (``§ 8, cl. 3`` unless ``joined``)."""
    if kind == "constitution":
        parts = []
        for part in path.split("/"):
            parts.append(f"§ {part[1:]}" if part.startswith("s") else f"cl. {part[1:]}")
        text = ", ".join(parts)
        return f", {text}" if joined else text
    rendered = "".join(f"({p})" for p in path.split("/"))
    return rendered if joined else f"subdivision {rendered}"


_WORDS = re.compile(r"\w+")
_ELLIPSIS = re.compile(r"(?:\.\s*){3,}|…")


def _normalise(text: str) -> str:
    text = re.sub(r"(\w)-\s*\n\s*(\w)", r"\1\2", text)
    return " ".join(_WORDS.findall(text.casefold()))


def _quote_pieces(quote: str) -> list[str]:
    """The runs of unaltered words of a quote, in order.

    An ellipsis or a bracketed alteration (``[t]he``, ``[the State]``) ends a run.
    One pass over the words with a bracket depth: linear on any input (a regular
    expression for "a word with brackets" backtracks cubically on ``[[[[...``).
    """
    pieces: list[str] = []
    for part in _ELLIPSIS.split(quote):
        run: list[str] = []
        depth = 0
        for word in part.split():
            if depth > 0 or "[" in word or "]" in word:
                depth = max(0, depth + word.count("[") - word.count("]"))
                if run:
                    pieces.append(" ".join(run))
                    run = []
                continue
            run.append(word)
        if run:
            pieces.append(" ".join(run))
    return [normal for piece in pieces if (normal := _normalise(piece))]
