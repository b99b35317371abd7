"""The one writer of the store schema, on SQLite (a file) or PostgreSQL (a shared server).

The corpus build and the CourtListener importer both write through a
:class:`StoreWriter`, so the schema's tables, its ``schema_version`` and the
SQL that fills it are written down once.  The two backends differ only where
the databases do: placeholders (``?`` against ``%s``), column types (the
PostgreSQL DDL is derived from ``schema.DDL``; text columns use the ``C``
collation so that ordering is byte order, as in SQLite), how a transaction is
opened, and tuning (SQLite pragmas).  Statements are written once, in the
SQL both accept, with ``?`` placeholders; upserts use ``ON CONFLICT``, which
both accept.

PostgreSQL's ``coverage`` table has one column more, ``rowid`` (a sequence),
so that readers can keep the insertion order SQLite's own rowid gives.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from citeverify.store import schema

__all__ = [
    "POSTGRES_SCHEMES",
    "StoreLocationError",
    "StoreWriter",
    "check_location",
    "copy_store",
    "is_postgres_url",
    "open_writer",
    "postgres_ddl",
    "redact_url",
    "rows_by_id",
    "write_rows",
]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_BATCH = 5000


class StoreLocationError(ValueError):
    """A store location that names no store this citeverify can write or read."""


def is_postgres_url(location: str | Path) -> bool:
    return isinstance(location, str) and location.lower().startswith(POSTGRES_SCHEMES)


def check_location(location: str | Path) -> None:
    """Refuse a URL that is not PostgreSQL's (it would otherwise become a odd file name)."""
    if isinstance(location, str) and _URL.match(location) and not is_postgres_url(location):
        scheme = location.split("://", 1)[0]
        raise StoreLocationError(
            f"{scheme}:// is not a store citeverify can use: give a SQLite file path or a "
            "postgresql:// URL"
        )


def redact_url(url: str) -> str:
    """The URL without its password, for messages and reports."""
    return re.sub(r"(://[^:/@]+):[^@/]*@", r"\1:***@", url)


def postgres_ddl(ddl: str) -> str:
    """SQLite DDL of the store (or the importer's staging tables) as PostgreSQL DDL."""
    out = ddl.replace(" WITHOUT ROWID", "")
    out = re.sub(r"\bBLOB\b", "BYTEA", out)
    out = re.sub(r"\bINTEGER\b", "BIGINT", out)
    out = re.sub(r"\bTEXT\b", 'TEXT COLLATE "C"', out)
    out = out.replace("CREATE TABLE coverage (", "CREATE TABLE coverage (\n    rowid BIGSERIAL,")
    return out


def _statements(ddl: str) -> list[str]:
    return [s.strip() for s in ddl.split(";") if s.strip()]


class StoreWriter:
    """A connection to a store being written; subclasses are the two backends."""

    dialect: str
    location: str

    def __init__(self) -> None:
        self._depth = 0

    # --- backend specifics -------------------------------------------------------------

    def _sql(self, sql: str) -> str:
        return sql

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        raise NotImplementedError

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise NotImplementedError

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    def tables(self) -> set[str]:
        raise NotImplementedError

    def _begin(self) -> None:
        raise NotImplementedError

    def _commit(self) -> None:
        raise NotImplementedError

    def _rollback(self) -> None:
        raise NotImplementedError

    def create_tables(self, ddl: str) -> None:
        """Run DDL written for SQLite (the schema's, or staging tables')."""
        raise NotImplementedError

    def tune_for_import(self) -> None:
        """Settings for a long streaming write that readers may share (SQLite: WAL)."""

    def after_import(self) -> None:
        """Statistics and tidying once an import is complete."""
        self.execute("ANALYZE")

    def close(self) -> None:
        raise NotImplementedError

    # --- shared -----------------------------------------------------------------------

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """One transaction; nested uses join the outer one (readers see all of it or none)."""
        if self._depth:
            self._depth += 1
            try:
                yield
            finally:
                self._depth -= 1
            return
        self._begin()
        self._depth = 1
        try:
            yield
        except BaseException:
            self._depth = 0
            self._rollback()
            raise
        self._depth = 0
        self._commit()

    @property
    def in_transaction(self) -> bool:
        return self._depth > 0

    def create_schema(self) -> None:
        """Every table of the schema, and its version in ``meta``."""
        self.create_tables(schema.DDL)
        with self.transaction():
            self.record_schema_version()

    def record_schema_version(self) -> None:
        self.execute(
            "INSERT INTO meta (key, value) VALUES ('schema_version', ?)",
            (str(schema.SCHEMA_VERSION),),
        )

    def schema_version(self) -> int | None:
        if "meta" not in self.tables():
            return None
        rows = self.query("SELECT value FROM meta WHERE key = 'schema_version'")
        return int(rows[0][0]) if rows else None

    def insert(
        self,
        table: str,
        columns: Sequence[str],
        rows: Sequence[Sequence[Any]],
        *,
        key: Sequence[str] = (),
        update: bool = True,
    ) -> None:
        """Insert ``rows``; with ``key``, an upsert on it (``update=False``: keep the old row)."""
        if not rows:
            return
        names = ", ".join(_quote(c) for c in columns)
        marks = ", ".join("?" for _ in columns)
        sql = f"INSERT INTO {table} ({names}) VALUES ({marks})"
        if key:
            sql += " " + _on_conflict(columns, key, update)
        for start in range(0, len(rows), _BATCH):
            self.executemany(sql, rows[start : start + _BATCH])

    def set_meta(self, items: Iterable[tuple[str, str]]) -> None:
        self.insert("meta", ("key", "value"), sorted(items), key=("key",))

    def existing_ids(self, table: str, ids: Iterable[int]) -> set[int]:
        """Which of ``ids`` are ``id`` values of ``table`` (to skip rows of unknown parents)."""
        wanted = sorted(set(ids))
        found: set[int] = set()
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ", ".join("?" for _ in chunk)
            found.update(
                r[0] for r in self.query(f"SELECT id FROM {table} WHERE id IN ({marks})", chunk)
            )
        return found


def rows_by_id(
    writer: StoreWriter, table: str, columns: Sequence[str], ids: Iterable[int]
) -> dict[int, tuple[Any, ...]]:
    """``columns`` of the rows of ``table`` whose ``id`` is in ``ids``, by id."""
    wanted = sorted(set(ids))
    out: dict[int, tuple[Any, ...]] = {}
    names = ", ".join(_quote(c) for c in columns)
    for start in range(0, len(wanted), 500):
        chunk = wanted[start : start + 500]
        marks = ", ".join("?" for _ in chunk)
        for row in writer.query(f"SELECT id, {names} FROM {table} WHERE id IN ({marks})", chunk):
            out[row[0]] = tuple(row[1:])
    return out



def _on_conflict(columns: Sequence[str], key: Sequence[str], update: bool) -> str:
    """The upsert clause both writers end an INSERT with: on a clash on ``key``, take the
    new row's other columns (``update``), or keep the old row."""
    changed = [c for c in columns if c not in key]
    clause = f"ON CONFLICT ({', '.join(_quote(c) for c in key)}) "
    if update and changed:
        return clause + "DO UPDATE SET " + ", ".join(
            f"{_quote(c)} = excluded.{_quote(c)}" for c in changed
        )
    return clause + "DO NOTHING"

def _quote(column: str) -> str:
    return f'"{column}"' if column == "end" else column


class SqliteWriter(StoreWriter):
    dialect = "sqlite"

    def __init__(self, path: Path, *, page_size: int | None = None) -> None:
        super().__init__()
        self.path = path
        self.location = str(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path, isolation_level=None)
        if page_size is not None:
            self.db.execute(f"PRAGMA page_size = {int(page_size)}")

    @property
    def connection(self) -> sqlite3.Connection:
        return self.db

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        self.db.execute(sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.db.executemany(sql, rows)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        # fetchall finishes the statement (an unfinished one keeps a read lock).
        return self.db.execute(sql, params).fetchall()

    def tables(self) -> set[str]:
        return {r[0] for r in self.query("SELECT name FROM sqlite_master WHERE type = 'table'")}

    def create_tables(self, ddl: str) -> None:
        for statement in _statements(ddl):
            self.db.execute(statement)

    def _begin(self) -> None:
        self.db.execute("BEGIN")

    def _commit(self) -> None:
        self.db.execute("COMMIT")

    def _rollback(self) -> None:
        self.db.execute("ROLLBACK")

    def tune_for_build(self) -> None:
        """A file written once and replaced whole: no journal, no syncs."""
        self.db.execute("PRAGMA journal_mode = OFF")
        self.db.execute("PRAGMA synchronous = OFF")

    def tune_for_import(self) -> None:
        # WAL: lookups keep reading the last committed state while an import or an
        # update writes; busy_timeout rides out the moment the journal mode changes.
        self.db.execute("PRAGMA busy_timeout = 10000")
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")
        self.db.execute("PRAGMA cache_size = -65536")  # 64 MiB, whatever the dump's size
        self.db.execute("PRAGMA temp_store = FILE")

    def after_import(self) -> None:
        self.db.execute("ANALYZE")
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        # One self-contained file for read-only use; while another connection has the file
        # open it stays in WAL mode, which readers handle.
        with contextlib.suppress(sqlite3.OperationalError):
            self.db.execute("PRAGMA journal_mode = DELETE")

    def vacuum(self) -> None:
        self.db.execute("VACUUM")

    def close(self) -> None:
        self.db.close()


class PostgresWriter(StoreWriter):
    dialect = "postgresql"

    def __init__(self, url: str) -> None:
        super().__init__()
        try:
            import psycopg
        except ImportError as exc:  # pragma: no cover - the extra is missing
            raise StoreLocationError(
                "a PostgreSQL store needs its extra: pip install 'citeverify-legal[postgres]'"
            ) from exc
        self.location = redact_url(url)
        self.db = psycopg.connect(url, autocommit=True)
        self._transaction: Any = None
        self._sql_cache: dict[str, str] = {}
        self._stages: set[str] = set()

    def _sql(self, sql: str) -> str:
        converted = self._sql_cache.get(sql)
        if converted is None:
            converted = self._sql_cache[sql] = sql.replace("%", "%%").replace("?", "%s")
        return converted

    def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        self.db.execute(self._sql(sql), params or None)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            with self.db.cursor() as cursor:
                cursor.executemany(self._sql(sql), rows)

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        return list(self.db.execute(self._sql(sql), params or None).fetchall())

    def tables(self) -> set[str]:
        return {
            r[0]
            for r in self.query(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
            )
        }

    def create_tables(self, ddl: str) -> None:
        with self.transaction():
            for statement in _statements(postgres_ddl(ddl)):
                self.db.execute(statement)

    def _begin(self) -> None:
        self._transaction = self.db.transaction()
        self._transaction.__enter__()

    def _commit(self) -> None:
        transaction, self._transaction = self._transaction, None
        transaction.__exit__(None, None, None)

    def _rollback(self) -> None:
        import psycopg

        transaction, self._transaction = self._transaction, None
        with contextlib.suppress(psycopg.Error):
            transaction.__exit__(RuntimeError, RuntimeError("rolled back"), None)

    def insert(
        self,
        table: str,
        columns: Sequence[str],
        rows: Sequence[Sequence[Any]],
        *,
        key: Sequence[str] = (),
        update: bool = True,
    ) -> None:
        if not rows:
            return
        names = ", ".join(_quote(c) for c in columns)
        if not key:
            # Plain inserts (a new store) go by COPY, many times faster than INSERTs.
            self._copy(table, names, rows)
            return
        # Upserts: COPY into a temporary twin of the table, then one INSERT ... SELECT.
        # DISTINCT ON keeps the last row given for a key, as row-by-row upserts would.
        stage = f"_stage_{table.lstrip('_')}"
        if stage not in self._stages:
            self.db.execute(
                f"CREATE TEMP TABLE IF NOT EXISTS {stage} AS SELECT {names} FROM {table} "
                "WITH NO DATA"
            )
            self.db.execute(f"ALTER TABLE {stage} ADD COLUMN _n BIGINT")
            self._stages.add(stage)
        keys = ", ".join(_quote(c) for c in key)
        with self.transaction():
            self.db.execute(f"TRUNCATE {stage}")
            self._copy(stage, f"{names}, _n", [(*row, n) for n, row in enumerate(rows)])
            self.db.execute(
                f"INSERT INTO {table} ({names}) SELECT DISTINCT ON ({keys}) {names} "
                f"FROM {stage} ORDER BY {keys}, _n DESC " + _on_conflict(columns, key, update)
            )

    def _copy(self, table: str, names: str, rows: Iterable[Sequence[Any]]) -> None:
        with self.db.cursor() as cursor, cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)

    def existing_ids(self, table: str, ids: Iterable[int]) -> set[int]:
        wanted = sorted(set(ids))
        if not wanted:
            return set()
        rows = self.db.execute(f"SELECT id FROM {table} WHERE id = ANY(%s)", (wanted,))
        return {r[0] for r in rows.fetchall()}

    def close(self) -> None:
        self.db.close()


def open_writer(location: str | Path, *, page_size: int | None = None) -> StoreWriter:
    """A writer for a SQLite file path or a ``postgresql://`` URL; other URLs are refused."""
    check_location(location)
    if is_postgres_url(location):
        return PostgresWriter(str(location))
    return SqliteWriter(Path(location), page_size=page_size)


# --- whole stores from rows -----------------------------------------------------------


def write_rows(
    writer: StoreWriter,
    authorities: Sequence[Any],
    coverage: Sequence[Any],
    templates: Sequence[Any],
    *,
    courts: Sequence[tuple[str, str, str]] = (),
    meta: dict[str, str] | None = None,
) -> None:
    """Write ``_rows`` objects (authorities with what hangs off them, coverage, link
    templates) into an empty store, ids numbered from 1 in the order given.

    Rows go in a fixed order (citations in primary-key order), so that the same rows
    give the same SQLite file byte for byte.
    """
    import json
    import zlib

    if meta:
        writer.insert("meta", ("key", "value"), sorted(meta.items()))
    writer.insert("courts", ("id", "name", "jurisdiction"), list(courts))
    texts: list[tuple[object, ...]] = []
    rows: list[tuple[object, ...]] = []
    citations: list[tuple[object, ...]] = []
    documents: list[tuple[object, ...]] = []
    identifiers: list[tuple[object, ...]] = []
    subdivisions: list[tuple[object, ...]] = []
    for authority_id, authority in enumerate(authorities, 1):
        text_id = None
        if authority.text is not None:
            text_id = len(texts) + 1
            body = zlib.compress(authority.text.body.encode("utf-8"), 9)
            pages = (
                json.dumps([list(p) for p in authority.text.pages])
                if authority.text.pages
                else None
            )
            texts.append((text_id, body, pages))
        rows.append(
            (
                authority_id,
                authority.kind,
                authority.reference,
                authority.name,
                authority.court_id,
                authority.decided,
                authority.docket,
                authority.status,
                authority.status_note,
                text_id,
                int(authority.subdivisions_complete),
            )
        )
        for rank, citation in enumerate(authority.citations):
            citations.append(
                (
                    citation.reporter,
                    citation.volume,
                    citation.page,
                    authority_id,
                    rank,
                    citation.cite,
                    citation.page_number,
                    citation.last_page,
                )
            )
        for rank, document in enumerate(authority.documents):
            official = None if document.official is None else int(document.official)
            documents.append(
                (authority_id, rank, document.provider, document.url, document.format, official)
            )
        identifiers.extend((authority_id, *ident) for ident in sorted(set(authority.identifiers)))
        subdivisions.extend(
            (authority_id, s.path, s.heading, s.start, s.end)
            for s in sorted(
                {s.path: s for s in authority.subdivisions}.values(), key=lambda s: s.path
            )
        )

    writer.insert("texts", ("id", "body", "pages"), texts)
    writer.insert(
        "authorities",
        ("id", "kind", "reference", "name", "court_id", "decided", "docket", "status",
         "status_note", "text_id", "subdivisions_complete"),
        rows,
    )  # fmt: skip
    citations.sort(key=lambda c: (c[0], c[1], c[2], c[3]))  # the primary key's order
    writer.insert(
        "citations",
        ("reporter", "volume", "page", "authority_id", "rank", "cite", "page_number",
         "last_page"),
        citations,
    )  # fmt: skip
    writer.insert(
        "documents", ("authority_id", "rank", "provider", "url", "format", "official"), documents
    )
    writer.insert("identifiers", ("authority_id", "provider", "kind", "value"), identifiers)
    writer.insert(
        "subdivisions", ("authority_id", "path", "heading", "start", "end"), subdivisions
    )
    ranks: dict[str, int] = {}
    template_rows = []
    for template in templates:
        rank = ranks.get(template.reporter, 0)
        ranks[template.reporter] = rank + 1
        official = None if template.official is None else int(template.official)
        template_rows.append(
            (
                template.reporter,
                rank,
                template.volume_first,
                template.volume_last,
                template.provider,
                template.url,
                template.format,
                official,
            )
        )
    writer.insert(
        "link_templates",
        ("reporter", "rank", "volume_first", "volume_last", "provider", "url", "format",
         "official"),
        template_rows,
    )  # fmt: skip
    writer.insert(
        "coverage",
        ("reporter", "volume_first", "volume_last", "complete", "number_limit", "as_of", "note"),
        [
            (c.reporter, c.volume_first, c.volume_last, int(c.complete), c.number_limit,
             c.as_of, c.note)
            for c in coverage
        ],
    )  # fmt: skip


def copy_store(source: str | Path, writer: StoreWriter) -> None:
    """Copy every table of a SQLite store file (the embedded corpus, say) into an empty
    store, so that a shared PostgreSQL store can hold what the corpus holds."""
    db = sqlite3.connect(f"file:{Path(source).as_posix()}?mode=ro", uri=True)
    try:
        with writer.transaction():
            for table in schema.TABLES:
                columns = [r[1] for r in db.execute(f"PRAGMA table_info({table})")]
                order = "rowid" if table == "coverage" else ", ".join(
                    str(i) for i in range(1, len(columns) + 1)
                )
                rows = db.execute(
                    f"SELECT {', '.join(_quote(c) for c in columns)} FROM {table} ORDER BY {order}"
                ).fetchall()
                if table == "meta":
                    rows = [r for r in rows if r[0] != "schema_version"]
                writer.insert(table, columns, rows)
    finally:
        db.close()
