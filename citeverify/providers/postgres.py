"""``PostgresStore``: an authority store in PostgreSQL, shared by many servers.

The same schema as a ``LocalStore`` file (``citeverify.store.schema``; written
by ``citeverify import courtlistener --to postgresql://...``), read by the
same code: this class is a ``LocalStore`` whose connection is a pooled
PostgreSQL one.  Only the SQL plumbing differs: ``?`` placeholders become
``%s``, rows are fetched whole, and each batch of lookups runs in one
``REPEATABLE READ READ ONLY`` transaction on one pooled connection, so that an
update committed meanwhile is seen entirely or not at all.  The answers (and
the provider name, ``local``) are those the SQLite store gives for the same
rows.

Needs the ``postgres`` extra (psycopg 3 and psycopg-pool).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from citeverify.providers.local import LocalStore
from citeverify.store._writer import redact_url

__all__ = ["PostgresStore"]


class _Rows:
    """Rows fetched whole, with the little of a DB-API cursor the lookups use."""

    def __init__(self, rows: list[tuple[Any, ...]]) -> None:
        self._rows = rows

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self._rows)

    def fetchone(self) -> tuple[Any, ...] | None:
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self._rows


class _Connection:
    """``execute`` for the shared lookup code: the batch's connection inside a snapshot,
    otherwise a connection borrowed from the pool for the one statement."""

    def __init__(self, store: PostgresStore) -> None:
        self._store = store
        self._sql: dict[str, str] = {}

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> _Rows:
        params = list(parameters) or None
        converted = self._sql.get(sql) if params else sql
        if converted is None:
            converted = self._sql[sql] = sql.replace("%", "%%").replace("?", "%s")
        current = getattr(self._store._local, "pg", None)
        if current is not None:
            return _Rows(current.execute(converted, params).fetchall())
        with self._store._pool().connection() as connection:
            return _Rows(connection.execute(converted, params).fetchall())


class PostgresStore(LocalStore):
    """A read-only provider over a PostgreSQL database of the store schema.

    ``url`` is a libpq URL (``postgresql://user@host/db``).  Nothing is
    connected until the first lookup; the pool holds ``min_size`` to
    ``max_size`` connections; a lookup waits at most ``timeout`` seconds for
    one before answering ``Unavailable``.  Safe to share between threads.
    """

    _errors = (psycopg.Error, OSError, ValueError)
    #: Texts come over the network: fetched in threads, under the run's deadline.
    TEXTS_ARE_LOCAL = False

    def __init__(
        self, url: str, *, min_size: int = 1, max_size: int = 8, timeout: float = 10.0
    ) -> None:
        self._embedded = False
        self._url = url
        self._pool_options = {"min_size": min_size, "max_size": max_size, "timeout": timeout}
        self._pool_lock = threading.Lock()
        self._connection_pool: ConnectionPool | None = None
        self._adapter = _Connection(self)
        self._init_state()

    def __repr__(self) -> str:
        return f"PostgresStore({redact_url(self._url)!r})"

    @property
    def url(self) -> str:
        """The database URL, without its password."""
        return redact_url(self._url)

    def _title(self) -> str:
        return f"PostgresStore {self.url}"

    def _file_generation(self) -> tuple[int, ...]:
        """No file to watch: an import announces itself by the store's revision instead."""
        return ()

    def _where(self) -> str:
        name = self._url.rsplit("/", 1)[-1].split("?", 1)[0]
        return f"the store {name}" if name else "the PostgreSQL store"

    def _check_exists(self) -> None:
        return None  # a missing database fails on connect, with psycopg's reason

    def _pool(self) -> ConnectionPool:
        pool = self._connection_pool
        if pool is None:
            with self._pool_lock:
                pool = self._connection_pool
                if pool is None:
                    pool = ConnectionPool(
                        self._url,
                        min_size=int(self._pool_options["min_size"]),
                        max_size=int(self._pool_options["max_size"]),
                        timeout=self._pool_options["timeout"],
                        kwargs={"autocommit": True},
                        name="citeverify-store",
                        open=True,
                    )
                    self._connection_pool = pool
        return pool

    def _connection(self) -> _Connection:
        return self._adapter

    @contextlib.contextmanager
    def _snapshot(self) -> Iterator[None]:
        if getattr(self._local, "pg", None) is not None:
            yield
            return
        with self._pool().connection() as connection:
            connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            self._local.pg = connection
            try:
                yield
            finally:
                self._local.pg = None
                connection.execute("COMMIT")

    def check(self) -> None:
        """Connect now and read enough to know this is a store (for servers at start-up)."""
        # One direct connection first: a refused or failed connection is reported at once
        # with libpq's reason, where the pool would retry until its timeout.
        psycopg.connect(self._url, connect_timeout=10).close()
        self.describe()
        with self._snapshot():
            db = self._connection()
            for table in ("citations", "authorities"):
                db.execute(f"SELECT * FROM {table} LIMIT 1")

    def close(self) -> None:
        """Close the pool's connections (a later lookup opens a new pool)."""
        with self._pool_lock:
            pool, self._connection_pool = self._connection_pool, None
        if pool is not None:
            pool.close()
