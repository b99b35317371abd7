"""The authority store in SQLite and in PostgreSQL: import rate and batched lookups.

One synthetic CourtListener dump (``bench_cl_import.write_dump``: 1,000,000
citations over 600,000 clusters; ``quick``: 50,000) is imported into a
SQLite file and into a PostgreSQL database on this machine, then:

* import rate of each (citations per second over the whole import, every
  table included, in this process);
* update rate: the same dump again as a newer quarter, upserted in place in
  one transaction (what a quarterly refresh of a live store costs);
* batched lookups per second, warm, batches of 100 citations (half present,
  half pages between cases), one thread, on each store; and, for
  PostgreSQL, 4 threads sharing one ``PostgresStore`` (its pool).

PostgreSQL comes from ``CITEVERIFY_BENCH_POSTGRES`` or
``CITEVERIFY_TEST_POSTGRES`` (a server URL; a new database is made on it),
else a throwaway server is started as the tests do (``initdb``/``pg_ctl``,
``fsync=off``); when neither works the PostgreSQL rows say why and are
skipped.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a script from anywhere

from bench.bench_cl_import import _citation_key, write_dump  # noqa: E402


@contextmanager
def _postgres() -> Iterator[str | None]:
    """A URL of an empty database, or None (after printing why) when there is no server."""
    url = os.environ.get("CITEVERIFY_BENCH_POSTGRES") or os.environ.get("CITEVERIFY_TEST_POSTGRES")
    server = None
    database = None
    try:
        if not url:
            from tests.conftest_http import PostgresServer

            server = PostgresServer()
            url = server.start()
        import psycopg

        name = "bench_" + uuid.uuid4().hex[:10]
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        database = url.rsplit("/", 1)[0] + "/" + name
    except Exception as exc:  # any failure means "no server to measure"
        print(f"bench_pgstore: PostgreSQL skipped: no server ({exc})", file=sys.stderr)
    try:
        yield database
    finally:
        if server is not None:
            server.stop()


def _requests(keys: list[tuple[str, str, str]]) -> list[Any]:
    from citeverify.citations._types import CaseCitation
    from citeverify.providers._base import LookupRequest

    return [
        LookupRequest(CaseCitation(f"{v} {r} {p}", f"{v} {r} {p}", "us-reporter", v, r, p))
        for v, r, p in keys
    ]


def _lookup_rate(provider: Any, batches: list[list[Any]], rounds: int, threads: int = 1) -> float:
    """Citations looked up per second, warm, ``threads`` threads sharing the provider."""
    for batch in batches[:2]:
        provider.lookup(batch)  # warm: open, read coverage, fill caches

    def work() -> None:
        for _ in range(rounds):
            for batch in batches:
                answers = provider.lookup(batch)
                assert not any(type(a).__name__ == "Unavailable" for a in answers)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    started = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - started
    return threads * rounds * sum(len(b) for b in batches) / elapsed


def _newer(dump: Path, folder: Path) -> Path:
    """The same dump under a later date (hard links: no copy)."""
    folder.mkdir()
    for path in dump.iterdir():
        os.link(path, folder / path.name.replace("2024-12-31", "2025-03-31"))
    return folder


def run(quick: bool = False) -> list[dict[str, Any]]:
    from citeverify.importers.courtlistener import import_courtlistener
    from citeverify.providers.local import LocalStore

    citations = 50_000 if quick else 1_000_000
    rounds = 2 if quick else 5
    rng = random.Random(18)
    present = [_citation_key(i) for i in rng.sample(range(citations), 1000)]
    keys = present + [(v, r, str(int(p) + 1)) for v, r, p in present]
    rng.shuffle(keys)
    requests = _requests(keys)
    batches = [requests[i : i + 100] for i in range(0, len(requests), 100)]
    rows: list[dict[str, Any]] = []

    def row(figure: str, value: float | None, unit: str, baseline: str, ratio: Any = None) -> None:
        rows.append(
            {
                "benchmark": "pgstore",
                "figure": figure,
                "value": value,
                "unit": unit,
                "baseline": baseline,
                "ratio": ratio,
                "target": "(report)",
                "ok": None,
            }
        )

    with tempfile.TemporaryDirectory(prefix="cv-bench-pgstore-") as tmp:
        folder = Path(tmp)
        dump = folder / "dump"
        dump.mkdir()
        write_dump(dump, citations)
        newer = _newer(dump, folder / "newer")

        store = folder / "store.sqlite3"
        started = time.perf_counter()
        import_courtlistener(dump, store)
        sqlite_import = citations / (time.perf_counter() - started)
        started = time.perf_counter()
        import_courtlistener(newer, store)
        sqlite_update = citations / (time.perf_counter() - started)
        sqlite_rate = _lookup_rate(LocalStore(store), batches, rounds)
        size = f"{citations:,} citations"
        row(f"SQLite: import ({size})", sqlite_import, "citations/s", "-")
        row(f"SQLite: update in place ({size})", sqlite_update, "citations/s", "-")
        row("SQLite: batched lookups (100/batch)", sqlite_rate, "lookups/s", "-")

        with _postgres() as url:
            if url is None:
                row("PostgreSQL: skipped (no server reachable)", None, "-", "-")
                return rows
            from citeverify.providers.postgres import PostgresStore

            started = time.perf_counter()
            import_courtlistener(dump, url)
            pg_import = citations / (time.perf_counter() - started)
            started = time.perf_counter()
            import_courtlistener(newer, url)
            pg_update = citations / (time.perf_counter() - started)
            pg = PostgresStore(url)
            try:
                pg_rate = _lookup_rate(pg, batches, rounds)
                pg_threads = _lookup_rate(pg, batches, rounds, threads=4)
            finally:
                pg.close()
            base = f"SQLite {sqlite_import:,.0f}/s"
            row(f"PostgreSQL: import ({size})", pg_import, "citations/s", base,
                pg_import / sqlite_import)  # fmt: skip
            base = f"SQLite {sqlite_update:,.0f}/s"
            row(f"PostgreSQL: update in place ({size})", pg_update, "citations/s", base,
                pg_update / sqlite_update)  # fmt: skip
            base = f"SQLite {sqlite_rate:,.0f}/s"
            row("PostgreSQL: batched lookups (100/batch)", pg_rate, "lookups/s", base,
                pg_rate / sqlite_rate)  # fmt: skip
            row("PostgreSQL: batched lookups, 4 threads", pg_threads, "lookups/s", base,
                pg_threads / sqlite_rate)  # fmt: skip
    return rows


if __name__ == "__main__":
    from bench.__main__ import print_table

    print_table(run(quick="--quick" in sys.argv))
