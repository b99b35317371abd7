"""Import CourtListener's bulk data into a LocalStore file, streaming and resumable.

CourtListener publishes quarterly dumps, one file per table
(``<table>-<YYYY-MM-DD>.csv[.bz2]``), written by PostgreSQL ``COPY ... CSV``
with a **backtick** as quote character (doubled inside values), values that
span lines, and a header row; columns are read by name, so columns added in
later dumps are ignored.  The tables read, in this order:

1. ``courts``: court ids and names (optional: courts-db names fill gaps);
2. ``dockets``: only ``id``, ``court_id``, ``docket_number``, staged in a
   side table so clusters can find their court;
3. ``opinion-clusters``: one authority per cluster, keyed by the cluster id,
   reference ``courtlistener:cluster:<id>`` (the same as the online
   provider's, so the two agree), name, court, ``date_filed`` (a filing
   date: ``date_is_filing``), docket number, a public document and the
   cluster id;
4. ``citations``: every citation of every cluster (rows whose cluster is not
   in the store are skipped);
5. ``opinions`` (only with ``opinions=True``; the file is hundreds of
   gigabytes): each opinion's text, the lead opinion linked to its case.

Memory stays flat whatever the dump's size: rows go to SQLite in batches,
and nothing is kept per row in Python.  Every batch commits together with
the position reached in its file, so an interrupted import resumes where it
stopped (plain files seek back to that byte; ``.bz2`` files decompress up to
it without parsing); inserts are idempotent, so a batch replayed after a
crash changes nothing.  A last step builds the indexes, ranks each cluster's
citations (official reporters first), writes the coverage table and the
courts, and leaves a store :class:`~citeverify.providers.local.LocalStore`
reads.

Coverage: a reporter CourtListener holds citations for is marked complete
(a miss there is ``not_found``, as CourtListener's own citation lookup
answers 404 for reporters it knows), except Westlaw and Lexis numbers
(citation types 6 and 7), which CourtListener holds only sporadically.
"""

from __future__ import annotations

import bz2
import csv
import datetime as dt
import json
import re
import sys
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any

import attrs

from citeverify._facts import jurisdiction_of
from citeverify.providers._cl_text import TEXT_FIELDS, opinion_text
from citeverify.store import schema
from citeverify.store._writer import StoreWriter, is_postgres_url, open_writer, rows_by_id

__all__ = [
    "PHASES",
    "DumpError",
    "DumpFiles",
    "ImportReport",
    "Progress",
    "find_dump",
    "import_courtlistener",
    "read_rows",
]

PUBLIC_SITE = "https://www.courtlistener.com"
PHASES = ("courts", "dockets", "opinion-clusters", "citations", "opinions")
_FILE = re.compile(
    r"^(?P<table>courts|dockets|opinion-clusters|citations|opinions)"
    r"-(?P<date>\d{4}-\d{2}-\d{2})\.csv(?P<bz2>\.bz2)?$"
)
_SPORADIC_TYPES = frozenset({6, 7})  # LEXIS and WEST citation types
_LEAD_TYPES = ("010combined", "015unamimous", "015unanimous", "020lead", "025plurality")
_PROGRESS_TABLE = "_import_progress"

_STAGING = """
CREATE TABLE IF NOT EXISTS _import_progress (
    phase TEXT PRIMARY KEY,
    file TEXT NOT NULL,
    size INTEGER NOT NULL,
    rows INTEGER NOT NULL DEFAULT 0,
    position INTEGER NOT NULL DEFAULT 0,
    done INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS _import_dockets (
    id INTEGER PRIMARY KEY,
    court_id TEXT,
    docket_number TEXT
);
CREATE TABLE IF NOT EXISTS _import_reporters (
    reporter TEXT NOT NULL,
    type INTEGER NOT NULL,
    PRIMARY KEY (reporter, type)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS _import_opinions (
    id INTEGER PRIMARY KEY,
    cluster_id INTEGER NOT NULL,
    lead INTEGER NOT NULL
);
"""
# Dropped once the store is finished; ``_import_reporters`` (tiny) stays so coverage can be
# rebuilt when a later run adds opinions.
_STAGING_TABLES = ("_import_dockets", "_import_opinions")


class DumpError(Exception):
    """The dump or the store cannot be used (missing files, foreign store, changed dump)."""


@attrs.frozen
class DumpFiles:
    """The files of one dump found in a folder; ``date`` is the dump's date (from the names)."""

    files: dict[str, Path]
    date: str | None

    def get(self, phase: str) -> Path | None:
        return self.files.get(phase)


@attrs.frozen
class Progress:
    """Where an import is: the phase, rows read so far in it, and the fraction of its file."""

    phase: str
    rows: int
    fraction: float | None
    rate: float  # rows per second in this run
    done: bool = False


@attrs.define
class ImportReport:
    """What one run did: rows read per phase (this run only) and whether the store is complete."""

    store: Path | str  # a file, or a PostgreSQL URL without its password
    date: str | None
    rows: dict[str, int] = attrs.Factory(dict)
    resumed: list[str] = attrs.Factory(list)
    skipped: list[str] = attrs.Factory(list)
    complete: bool = False
    updated: bool = False  # a finished store brought up to a newer dump
    seconds: float = 0.0


def find_dump(directory: str | Path) -> DumpFiles:
    """The files of the dump in ``directory``.

    When ``citeverify download courtlistener`` wrote a ``manifest.json`` there,
    its set (one date, every file verified) is the dump; otherwise the newest
    file of each table (``.csv`` or ``.csv.bz2``), as when downloaded by hand.
    """
    folder = Path(directory)
    if not folder.is_dir():
        raise DumpError(f"no dump folder at {folder}")
    manifest = _manifest(folder)
    if manifest is not None:
        return manifest
    best: dict[str, tuple[str, Path]] = {}
    for path in folder.iterdir():
        match = _FILE.match(path.name)
        if not match or not path.is_file():
            continue
        table, date = match.group("table"), match.group("date")
        if table not in best or (date, path.name) > (best[table][0], best[table][1].name):
            best[table] = (date, path)
    files = {table: path for table, (_, path) in best.items()}
    dates = sorted({date for date, _ in best.values()})
    return DumpFiles(files=files, date=dates[-1] if dates else None)


def _manifest(folder: Path) -> DumpFiles | None:
    """The set a download recorded in ``folder/manifest.json``, or None when there is none."""
    path = folder / "manifest.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        date = data["date"]
        entries = data["files"]
        names = {str(table): str(entry["name"]) for table, entry in entries.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise DumpError(f"{path} is not a download manifest ({exc!r})") from None
    if not isinstance(date, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        raise DumpError(f"{path} gives no dump date (YYYY-MM-DD)")
    if data.get("complete") is not True:
        raise DumpError(
            f"the download into {folder} is not finished; run "
            f"`citeverify download courtlistener --dir {folder}` again to complete it"
        )
    files: dict[str, Path] = {}
    for table, name in names.items():
        match = _FILE.match(name)
        if not match or match.group("table") != table or Path(name).name != name:
            raise DumpError(f"{path} names {name!r} for {table}, not a dump file")
        if not (folder / name).is_file():
            raise DumpError(f"{path} lists {name}, which is not in {folder}")
        files[table] = folder / name
    return DumpFiles(files=files, date=date)


# -- reading ---------------------------------------------------------------------


class _Lines:
    """Decoded lines of a binary stream, counting the bytes consumed (for resuming)."""

    def __init__(self, raw: IO[bytes], position: int) -> None:
        self.raw = raw
        self.position = position

    def __iter__(self) -> Iterator[str]:
        for line in self.raw:
            self.position += len(line)
            yield line.decode("utf-8", "replace")


def _open(path: Path) -> IO[bytes]:
    if path.name.endswith(".bz2"):
        return bz2.open(path, "rb")
    return open(path, "rb")


def _compressed_position(stream: IO[bytes]) -> int | None:
    """How far into the file on disk a stream has read (for the progress fraction)."""
    inner = getattr(stream, "_fp", None)  # bz2.BZ2File keeps the raw file here
    try:
        return int((inner or stream).tell())
    except (OSError, ValueError, AttributeError):
        return None


def read_rows(
    path: str | Path, *, start: int = 0
) -> Iterator[tuple[list[str], list[str], int, IO[bytes]]]:
    """Rows of a bulk-data file: ``(header, row, position after the row, stream)``.

    ``start`` is a position a previous read reported (0: from the beginning).
    Quote character backtick, doubled inside values; values may span lines.
    """
    csv.field_size_limit(2**31 - 1)
    path = Path(path)
    with _open(path) as stream:
        lines = _Lines(stream, 0)
        reader = csv.reader(lines, quotechar="`", doublequote=True, strict=False)
        header = next(reader, None)
        if header is None:
            return
        header = [h.strip() for h in header]
        if start > lines.position:
            if path.name.endswith(".bz2"):
                remaining = start - lines.position
                while remaining > 0:
                    chunk = stream.read(min(remaining, 1 << 20))
                    if not chunk:
                        break
                    remaining -= len(chunk)
            else:
                stream.seek(start)
            lines = _Lines(stream, start)
            reader = csv.reader(lines, quotechar="`", doublequote=True, strict=False)
        for row in reader:
            yield header, row, lines.position, stream


# -- writing ---------------------------------------------------------------------


def _value(row: list[str], index: int | None) -> str | None:
    if index is None or index >= len(row):
        return None
    value = row[index]
    return value if value != "" else None


def _columns(
    header: Sequence[str], wanted: Sequence[str], required: Sequence[str]
) -> list[int | None]:
    positions = {name: i for i, name in enumerate(header)}
    missing = [name for name in required if name not in positions]
    if missing:
        raise DumpError(f"columns missing from the file: {', '.join(missing)}")
    return [positions.get(name) for name in wanted]


def _int(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return None


class _Phase:
    """One table's import: how to read a row and where to write it."""

    name: str
    columns: tuple[str, ...]
    required: tuple[str, ...]

    def __init__(self, db: StoreWriter, date: str | None) -> None:
        self.db = db
        self.date = date

    def rows(self, row: list[str], idx: list[int | None]) -> int:
        """Stage one row; return the bytes of text it holds (for batching)."""
        raise NotImplementedError

    def flush(self) -> None:
        raise NotImplementedError


class _Courts(_Phase):
    name = "courts"
    columns = ("id", "full_name", "short_name")
    required = ("id",)

    def __init__(self, db: StoreWriter, date: str | None) -> None:
        super().__init__(db, date)
        self.batch: list[tuple[str, str, str]] = []

    def rows(self, row: list[str], idx: list[int | None]) -> int:
        court_id, full, short = (_value(row, i) for i in idx)
        if court_id:
            self.batch.append((court_id, full or short or court_id, _jurisdiction(court_id)))
        return 0

    def flush(self) -> None:
        self.db.insert("courts", ("id", "name", "jurisdiction"), self.batch, key=("id",))
        self.batch.clear()


class _Dockets(_Phase):
    name = "dockets"
    columns = ("id", "court_id", "docket_number")
    required = ("id", "court_id")

    def __init__(self, db: StoreWriter, date: str | None) -> None:
        super().__init__(db, date)
        self.batch: list[tuple[int, str | None, str | None]] = []

    def rows(self, row: list[str], idx: list[int | None]) -> int:
        docket_id = _int(_value(row, idx[0]))
        if docket_id is not None:
            self.batch.append((docket_id, _value(row, idx[1]), _value(row, idx[2])))
        return 0

    def flush(self) -> None:
        self.db.insert(
            "_import_dockets", ("id", "court_id", "docket_number"), self.batch, key=("id",)
        )
        self.batch.clear()


class _Clusters(_Phase):
    name = "opinion-clusters"
    columns = ("id", "case_name", "case_name_full", "case_name_short", "date_filed", "slug",
               "docket_id")  # fmt: skip
    required = ("id", "docket_id")

    def __init__(self, db: StoreWriter, date: str | None) -> None:
        super().__init__(db, date)
        self.authorities: list[tuple[Any, ...]] = []
        self.documents: list[tuple[Any, ...]] = []
        self.identifiers: list[tuple[Any, ...]] = []

    def rows(self, row: list[str], idx: list[int | None]) -> int:
        cluster_id = _int(_value(row, idx[0]))
        if cluster_id is None:
            return 0
        name = _value(row, idx[1]) or _value(row, idx[2]) or _value(row, idx[3])
        decided = _value(row, idx[4])
        if decided is not None:
            decided = decided[:10]
            try:
                dt.date.fromisoformat(decided)
            except ValueError:
                decided = None
        docket_id = _int(_value(row, idx[6]))
        self.authorities.append(
            (cluster_id, f"courtlistener:cluster:{cluster_id}", name, docket_id, decided, docket_id)
        )
        slug = _value(row, idx[5]) or "opinion"
        self.documents.append((cluster_id, f"{PUBLIC_SITE}/opinion/{cluster_id}/{slug}/"))
        self.identifiers.append((cluster_id, str(cluster_id)))
        return 0

    def flush(self) -> None:
        # An upsert, not a replace: a case updated by a newer dump keeps its text.
        dockets = rows_by_id(
            self.db, "_import_dockets", ("court_id", "docket_number"),
            (a[3] for a in self.authorities if a[3] is not None),
        )  # fmt: skip
        rows = []
        for cluster_id, reference, name, docket_id, decided, _ in self.authorities:
            court_id, number = dockets.get(docket_id, (None, None)) if docket_id else (None, None)
            rows.append((cluster_id, "case", reference, name, court_id, decided, 1, number))
        self.db.insert(
            "authorities",
            ("id", "kind", "reference", "name", "court_id", "decided", "date_is_filing",
             "docket"),
            rows,
            key=("id",),
        )  # fmt: skip
        self.db.insert(
            "documents",
            ("authority_id", "rank", "provider", "url", "format", "official"),
            [(a, 0, "courtlistener", url, "html", None) for a, url in self.documents],
            key=("authority_id", "rank"),
        )
        self.db.insert(
            "identifiers",
            ("authority_id", "provider", "kind", "value"),
            [(a, "courtlistener", "cluster", v) for a, v in self.identifiers],
            key=("authority_id", "provider", "kind", "value"),
            update=False,
        )
        self.authorities.clear()
        self.documents.clear()
        self.identifiers.clear()


class _Citations(_Phase):
    name = "citations"
    columns = ("volume", "reporter", "page", "type", "cluster_id")
    required = ("volume", "reporter", "page", "cluster_id")

    def __init__(self, db: StoreWriter, date: str | None) -> None:
        super().__init__(db, date)
        self.batch: list[tuple[Any, ...]] = []
        self.reporters: set[tuple[str, int]] = set()

    def rows(self, row: list[str], idx: list[int | None]) -> int:
        volume, reporter, page, kind, cluster = (_value(row, i) for i in idx)
        cluster_id = _int(cluster)
        if not volume or not reporter or not page or cluster_id is None:
            return 0
        volume, reporter, page = volume.strip(), reporter.strip(), page.strip()
        type_ = _int(kind) or 99
        # Provisional: the type's order; ties and gaps are settled once at the end.
        rank = type_ - 1
        number = int(page) if page.isdigit() else None
        self.batch.append(
            (reporter, volume, page, cluster_id, rank, f"{volume} {reporter} {page}", number)
        )
        self.reporters.add((reporter, type_))
        return 0

    def flush(self) -> None:
        known = self.db.existing_ids("authorities", (row[3] for row in self.batch))
        self.db.insert(
            "citations",
            ("reporter", "volume", "page", "authority_id", "rank", "cite", "page_number",
             "last_page"),
            [(*row, None) for row in self.batch if row[3] in known],
            key=("reporter", "volume", "page", "authority_id"),
        )  # fmt: skip
        self.db.insert(
            "_import_reporters",
            ("reporter", "type"),
            sorted(self.reporters),
            key=("reporter", "type"),
            update=False,
        )
        self.batch.clear()
        self.reporters.clear()


class _Opinions(_Phase):
    name = "opinions"
    columns = ("id", "cluster_id", "type", *TEXT_FIELDS)
    required = ("id", "cluster_id")

    def __init__(self, db: StoreWriter, date: str | None) -> None:
        super().__init__(db, date)
        self.texts: list[tuple[int, bytes, str | None]] = []
        self.opinions: list[tuple[int, int, int]] = []

    def rows(self, row: list[str], idx: list[int | None]) -> int:
        opinion_id = _int(_value(row, idx[0]))
        cluster_id = _int(_value(row, idx[1]))
        if opinion_id is None or cluster_id is None:
            return 0
        kind = _value(row, idx[2]) or ""
        record = {field: _value(row, i) for field, i in zip(TEXT_FIELDS, idx[3:], strict=True)}
        size = sum(len(v) for v in record.values() if v)
        text, pages = opinion_text(record)
        lead = 1 if kind in _LEAD_TYPES else 0
        self.opinions.append((opinion_id, cluster_id, lead))
        if text:
            body = zlib.compress(text.encode("utf-8"), 9)
            self.texts.append(
                (opinion_id, body, json.dumps([list(p) for p in pages]) if pages else None)
            )
        return size

    def flush(self) -> None:
        self.db.insert(
            "texts",
            ("id", "body", "pages", "paragraphs"),
            [(*text, None) for text in self.texts],
            key=("id",),
        )
        known = self.db.existing_ids("authorities", (c for _, c, _ in self.opinions))
        opinions = [o for o in self.opinions if o[1] in known]
        self.db.insert("_import_opinions", ("id", "cluster_id", "lead"), opinions, key=("id",))
        self.db.insert(
            "identifiers",
            ("authority_id", "provider", "kind", "value"),
            [(c, "courtlistener", "opinion", str(o)) for o, c, _ in opinions],
            key=("authority_id", "provider", "kind", "value"),
            update=False,
        )
        self.texts.clear()
        self.opinions.clear()


_PHASE_TYPES: dict[str, type[_Phase]] = {
    p.name: p for p in (_Courts, _Dockets, _Clusters, _Citations, _Opinions)
}


def _jurisdiction(court_id: str) -> str:
    return jurisdiction_of(court_id)


def _open_store(out: str | Path) -> StoreWriter:
    """A new store, or one this importer wrote (to resume or update); others are refused."""
    fresh = (
        not Path(out).exists() or Path(out).stat().st_size == 0
        if not is_postgres_url(out)
        else None
    )
    db = open_writer(out, page_size=8192 if fresh else None)
    try:
        tables = db.tables()
        if fresh is None:
            fresh = "meta" not in tables and _PROGRESS_TABLE not in tables
        if fresh:
            db.create_schema()
        else:
            if _PROGRESS_TABLE not in tables:
                raise DumpError(
                    f"{db.location} exists and was not written by this importer; "
                    "choose a new store"
                )
            version = db.schema_version()
            if version != schema.SCHEMA_VERSION:
                raise DumpError(f"{db.location} has another store schema; choose a new store")
        db.create_tables(_STAGING)
        db.tune_for_import()
    except BaseException:
        db.close()
        raise
    return db


def _one(db: StoreWriter, sql: str, params: Sequence[Any] = ()) -> Any:
    rows = db.query(sql, params)
    return rows[0] if rows else None


def _citation_indexes() -> list[str]:
    """The schema's CREATE INDEX statements on ``citations`` (dropped while loading)."""
    return [
        statement.strip()
        for statement in schema.DDL.split(";")
        if statement.strip().startswith("CREATE INDEX") and " ON citations " in statement
    ]


def _index_name(statement: str) -> str:
    return statement.split()[2]


def import_courtlistener(
    dump_dir: str | Path,
    out: str | Path,
    *,
    opinions: bool = False,
    batch_rows: int = 20_000,
    batch_bytes: int = 32 * 1024 * 1024,
    progress: Callable[[Progress], None] | None = None,
) -> ImportReport:
    """Load a CourtListener bulk-data dump from ``dump_dir`` into the store ``out``.

    ``out`` is a SQLite file path or a ``postgresql://`` URL.  Resumes an
    interrupted import of the same dump into the same store.  A store this
    importer finished with an older dump is updated in place with a newer one:
    every row is upserted in one transaction, so lookups running meanwhile see
    the old store until the new one is complete (``ImportReport.updated``).
    ``opinions`` also loads opinion texts (when the dump has the file).
    ``progress`` is called about once a second and at the end of each phase.
    """
    started = time.monotonic()
    dump = find_dump(dump_dir)
    for needed in ("dockets", "opinion-clusters", "citations"):
        if dump.get(needed) is None:
            raise DumpError(f"no {needed}-<date>.csv[.bz2] file in {dump_dir}")
    db = _open_store(out)
    report = ImportReport(store=Path(out) if not is_postgres_url(out) else db.location,
                          date=dump.date)  # fmt: skip
    try:
        done = {
            phase: (file, size, position, is_done)
            for phase, file, size, position, is_done in db.query(
                f"SELECT phase, file, size, position, done FROM {_PROGRESS_TABLE}"
            )
        }
        wanted = {
            phase: path
            for phase in PHASES
            if (path := dump.get(phase)) is not None and (phase != "opinions" or opinions)
        }
        changed = [
            phase
            for phase, path in wanted.items()
            if phase in done and tuple(done[phase][:2]) != (path.name, path.stat().st_size)
        ]
        finished = bool(done.get("finish", (None, None, None, 0))[3])
        if changed and not finished:
            file = done[changed[0]][0]
            raise DumpError(
                f"{db.location} was started from {file}, not {wanted[changed[0]].name}; "
                "finish that import first, or choose a new store"
            )
        if changed:
            _check_newer(db, dump)
            report.updated = True
            with db.transaction():  # readers see the old store until this commits
                db.execute(f"DELETE FROM {_PROGRESS_TABLE}")
                _run_phases(db, dump, wanted, {}, report, batch_rows, batch_bytes, progress)
                _finish(db, dump)
        else:
            _run_phases(db, dump, wanted, done, report, batch_rows, batch_bytes, progress)
            _finish(db, dump)
        for table in _STAGING_TABLES:
            db.execute(f"DROP TABLE IF EXISTS {table}")
        db.after_import()
        report.skipped = [p for p in PHASES if p not in wanted]
        report.complete = True
    finally:
        db.close()
    report.seconds = time.monotonic() - started
    return report


def _check_newer(db: StoreWriter, dump: DumpFiles) -> None:
    """An update must come from a dump at least as new as the one the store holds."""
    row = _one(db, "SELECT value FROM meta WHERE key = 'dump_date'")
    if row and dump.date and dump.date < row[0]:
        raise DumpError(
            f"{db.location} holds the bulk data of {row[0]}; the dump in the folder is older "
            f"({dump.date})"
        )


def _run_phases(
    db: StoreWriter,
    dump: DumpFiles,
    wanted: dict[str, Path],
    done: dict[str, tuple[Any, ...]],
    report: ImportReport,
    batch_rows: int,
    batch_bytes: int,
    progress: Callable[[Progress], None] | None,
) -> None:
    for phase, path in wanted.items():
        size = path.stat().st_size
        position = 0
        if phase in done:
            _, _, position, is_done = done[phase]
            if is_done:
                continue
            if position:
                report.resumed.append(phase)
        else:
            db.execute(
                f"INSERT INTO {_PROGRESS_TABLE} (phase, file, size) VALUES (?, ?, ?)",
                (phase, path.name, size),
            )
        if phase == "citations" and not db.in_transaction:
            # A first import loads faster without them; an update keeps them for readers.
            for statement in _citation_indexes():
                db.execute(f"DROP INDEX IF EXISTS {_index_name(statement)}")
        db.execute(f"DELETE FROM {_PROGRESS_TABLE} WHERE phase = 'finish'")
        report.rows[phase] = _load(
            db, _PHASE_TYPES[phase](db, dump.date), path, position, size,
            batch_rows, batch_bytes, progress,
        )  # fmt: skip


def _load(
    db: StoreWriter,
    phase: _Phase,
    path: Path,
    position: int,
    size: int,
    batch_rows: int,
    batch_bytes: int,
    progress: Callable[[Progress], None] | None,
) -> int:
    """Stream one file into the store, committing each batch with the position reached."""
    rows = 0
    pending = 0
    pending_bytes = 0
    started = last_report = time.monotonic()
    idx: list[int | None] | None = None
    reached = position
    total_rows = _one(db, f"SELECT rows FROM {_PROGRESS_TABLE} WHERE phase = ?", (phase.name,))
    total_rows = int(total_rows[0]) if total_rows else 0

    def commit(reached: int) -> None:
        with db.transaction():
            phase.flush()
            db.execute(
                f"UPDATE {_PROGRESS_TABLE} SET rows = ?, position = ? WHERE phase = ?",
                (total_rows + rows, reached, phase.name),
            )

    def report(stream: IO[bytes] | None, done: bool = False) -> None:
        if progress is None:
            return
        fraction = None
        if done:
            fraction = 1.0
        elif stream is not None and size:
            at = _compressed_position(stream)
            fraction = None if at is None else min(1.0, at / size)
        elapsed = max(time.monotonic() - started, 1e-9)
        progress(Progress(phase.name, total_rows + rows, fraction, rows / elapsed, done))

    for header, row, at, stream in read_rows(path, start=position):
        if idx is None:
            idx = _columns(header, phase.columns, phase.required)
        pending_bytes += phase.rows(row, idx)
        pending += 1
        rows += 1
        reached = at
        if pending >= batch_rows or pending_bytes >= batch_bytes:
            commit(reached)
            pending = pending_bytes = 0
            now = time.monotonic()
            if now - last_report >= 1.0:
                report(stream)
                last_report = now
    commit(reached)
    db.execute(f"UPDATE {_PROGRESS_TABLE} SET done = 1 WHERE phase = ?", (phase.name,))
    report(None, done=True)
    return rows


def _finish(db: StoreWriter, dump: DumpFiles) -> None:
    """Indexes, citation ranks, lead texts, coverage, courts and meta."""
    finished = _one(db, f"SELECT done FROM {_PROGRESS_TABLE} WHERE phase = 'finish'")
    if finished and finished[0]:
        return
    as_of = f"{dump.date}T00:00:00Z" if dump.date else None
    with db.transaction():
        for statement in _citation_indexes():
            db.execute(statement.replace("CREATE INDEX", "CREATE INDEX IF NOT EXISTS", 1))
        # Ranks: 0 for the primary citation (lowest CourtListener type), then parallels;
        # only rows whose provisional rank (type - 1) is not already that are rewritten.
        db.execute(
            "WITH r AS (SELECT reporter, volume, page, authority_id, rank, "
            "ROW_NUMBER() OVER (PARTITION BY authority_id ORDER BY rank, reporter, volume, page)"
            " - 1 AS n FROM citations) "
            "UPDATE citations SET rank = r.n FROM r WHERE r.rank != r.n "
            "AND citations.reporter = r.reporter AND citations.volume = r.volume "
            "AND citations.page = r.page AND citations.authority_id = r.authority_id"
        )
        # The text of a case: its lead (or combined) opinion, else its first opinion.
        db.execute(
            "UPDATE authorities SET text_id = (SELECT o.id FROM _import_opinions AS o "
            "JOIN texts AS t ON t.id = o.id WHERE o.cluster_id = authorities.id "
            "ORDER BY o.lead DESC, o.id LIMIT 1) "
            "WHERE text_id IS NULL AND id IN (SELECT cluster_id FROM _import_opinions)"
        )
        db.execute("DELETE FROM coverage WHERE note LIKE 'CourtListener bulk data%'")
        reporters: dict[str, set[int]] = {}
        for reporter, type_ in db.query("SELECT reporter, type FROM _import_reporters"):
            reporters.setdefault(reporter, set()).add(type_)
        label = (
            f"CourtListener bulk data of {dump.date}" if dump.date else "CourtListener bulk data"
        )
        db.insert(
            "coverage",
            ("reporter", "volume_first", "volume_last", "complete", "number_limit", "as_of",
             "note"),
            [
                (
                    reporter,
                    None,
                    None,
                    0 if types & _SPORADIC_TYPES else 1,
                    None,
                    as_of,
                    f"{label}: only the {reporter} citations CourtListener happened to hold"
                    if types & _SPORADIC_TYPES
                    else f"{label}: every {reporter} citation CourtListener held",
                )
                for reporter, types in sorted(reporters.items())
            ],
        )  # fmt: skip
        missing = [
            row[0]
            for row in db.query(
                "SELECT DISTINCT court_id FROM authorities WHERE court_id IS NOT NULL "
                "AND court_id NOT IN (SELECT id FROM courts)"
            )
        ]
        if missing:
            names = _courts_db_names()
            db.insert(
                "courts",
                ("id", "name", "jurisdiction"),
                [(c, names.get(c, c), _jurisdiction(c)) for c in missing],
                key=("id",),
                update=False,
            )
        files = ", ".join(sorted(p.name for p in dump.files.values()))
        previous = _one(db, "SELECT value FROM meta WHERE key = 'revision'")
        meta = {
            "title": label,
            "built_from": f"CourtListener bulk data ({files})",
            "importer": "citeverify.importers.courtlistener",
            # Readers reload what they cache (coverage, courts) when this changes.
            "revision": str(int(previous[0]) + 1 if previous else 1),
        }
        if dump.date:
            meta["dump_date"] = dump.date
        if db.dialect == "sqlite":
            import sqlite3

            meta["sqlite_version"] = sqlite3.sqlite_version
        db.set_meta(meta.items())
        db.execute(
            f"INSERT INTO {_PROGRESS_TABLE} (phase, file, size, done) VALUES ('finish', '', 0, 1) "
            "ON CONFLICT (phase) DO UPDATE SET done = 1"
        )


def _courts_db_names() -> dict[str, str]:
    try:
        import courts_db
    except ImportError:  # pragma: no cover - courts-db is a core dependency
        return {}
    return {str(c["id"]): str(c["name"]) for c in courts_db.courts if c.get("id")}


def _stderr_progress(stream: IO[str] | None = None) -> Callable[[Progress], None]:
    """A progress printer: a bar on a terminal, a line every few seconds otherwise."""
    out = stream or sys.stderr
    tty = out.isatty()
    last = [0.0]

    def show(p: Progress) -> None:
        now = time.monotonic()
        if not tty and not p.done and now - last[0] < 5:
            return
        last[0] = now
        if p.fraction is not None:
            filled = int(p.fraction * 30)
            bar = f"[{'#' * filled}{'-' * (30 - filled)}] {p.fraction * 100:5.1f}% "
        else:
            bar = ""
        line = f"{bar}{p.phase}: {p.rows:,} rows, {p.rate:,.0f} rows/s"
        if tty:
            out.write("\r" + line.ljust(79) + ("\n" if p.done else ""))
        else:
            out.write(line + "\n")
        out.flush()

    return show
