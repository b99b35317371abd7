"""The CourtListener provider's on-disk cache: lookups, dockets and opinion texts (SQLite).

Every record keeps the time it was fetched (ISO 8601 UTC), which the provider
reports as ``Found.as_of``/``NotFound.as_of``: the same cached state gives the
same answer, and a repeated brief costs no API calls.  Only definitive answers
are stored (found, ambiguous, not found, unknown reporter); faults and
throttling never are.  The cache holds public data only: no token, no header.

One connection per cache, shared between threads under a lock (``sqlite3``
objects are not thread-safe by themselves); WAL mode lets another process read
while this one writes.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from citeverify._private import create_private_file

__all__ = ["Cache", "CachedLookup", "CachedText"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS lookups (
    citation TEXT PRIMARY KEY,      -- the normalised citation as sent
    status INTEGER NOT NULL,        -- CourtListener's per-citation status
    message TEXT,
    clusters TEXT NOT NULL,         -- JSON list of the cluster fields we use
    fetched_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS dockets (
    id INTEGER PRIMARY KEY,
    court_id TEXT,
    docket_number TEXT,
    fetched_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS texts (
    opinion_id INTEGER PRIMARY KEY,
    body TEXT NOT NULL,
    pages TEXT NOT NULL,            -- JSON [[offset, page], ...]
    fetched_at TEXT NOT NULL
);
"""

_FORMAT = "1"

CachedLookup = tuple[int, str | None, list[dict[str, Any]], str]
CachedText = tuple[str, tuple[tuple[int, int], ...], str]


class Cache:
    """Cached CourtListener records in one SQLite file (or in memory for ``":memory:"``)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            create_private_file(self.path)  # clients' lookups: owner-only (0600)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        with self._lock:
            if self.path != ":memory:":
                self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.executescript(_SCHEMA)
            self._db.execute(
                "INSERT OR IGNORE INTO meta (key, value) VALUES ('format', ?)", (_FORMAT,)
            )

    def __repr__(self) -> str:
        return f"Cache({self.path!r})"

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- lookups -------------------------------------------------------------

    def get_lookups(self, citations: list[str]) -> dict[str, CachedLookup]:
        """The cached answers among ``citations``: status, message, clusters, fetch time."""
        found: dict[str, CachedLookup] = {}
        with self._lock:
            for start in range(0, len(citations), 500):
                chunk = citations[start : start + 500]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    "SELECT citation, status, message, clusters, fetched_at FROM lookups "
                    f"WHERE citation IN ({marks})",
                    chunk,
                ).fetchall()
                for citation, status, message, clusters, fetched_at in rows:
                    found[citation] = (status, message, json.loads(clusters), fetched_at)
        return found

    def put_lookup(
        self,
        citation: str,
        status: int,
        message: str | None,
        clusters: list[dict[str, Any]],
        fetched_at: str,
    ) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO lookups (citation, status, message, clusters, fetched_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (citation, status, message, json.dumps(clusters, sort_keys=True), fetched_at),
            )

    # -- dockets -------------------------------------------------------------

    def get_dockets(self, ids: list[int]) -> dict[int, tuple[str | None, str | None]]:
        """``{docket id: (court_id, docket_number)}`` for the cached dockets among ``ids``."""
        found: dict[int, tuple[str | None, str | None]] = {}
        with self._lock:
            for start in range(0, len(ids), 500):
                chunk = ids[start : start + 500]
                marks = ",".join("?" * len(chunk))
                for docket_id, court_id, number in self._db.execute(
                    f"SELECT id, court_id, docket_number FROM dockets WHERE id IN ({marks})",
                    chunk,
                ):
                    found[docket_id] = (court_id, number)
        return found

    def put_docket(
        self, docket_id: int, court_id: str | None, number: str | None, fetched_at: str
    ) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO dockets (id, court_id, docket_number, fetched_at) "
                "VALUES (?, ?, ?, ?)",
                (docket_id, court_id, number, fetched_at),
            )

    # -- texts ---------------------------------------------------------------

    def get_text(self, opinion_id: int) -> CachedText | None:
        with self._lock:
            row = self._db.execute(
                "SELECT body, pages, fetched_at FROM texts WHERE opinion_id = ?", (opinion_id,)
            ).fetchone()
        if row is None:
            return None
        pages = tuple((int(offset), int(page)) for offset, page in json.loads(row[1]))
        return row[0], pages, row[2]

    def put_text(
        self, opinion_id: int, body: str, pages: tuple[tuple[int, int], ...], fetched_at: str
    ) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO texts (opinion_id, body, pages, fetched_at) "
                "VALUES (?, ?, ?, ?)",
                (opinion_id, body, json.dumps([list(p) for p in pages]), fetched_at),
            )

    def counts(self) -> dict[str, int]:
        """How many records of each kind the cache holds (for ``info`` and tests)."""
        with self._lock:
            return {
                table: int(self._db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
                for table in ("lookups", "dockets", "texts")
            }
