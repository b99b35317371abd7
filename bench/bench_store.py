"""LocalStore lookup speed: the embedded corpus, and synthetic stores of growing size.

1. ``LocalStore.lookup`` on 1,000 U.S. Reports citations of the embedded
   corpus in one batch, warm (store open, pages cached): microseconds per
   citation, median of several runs.  Baseline, measured in the same run: the
   same 1,000 citations asked one per ``lookup`` call.
2. Lookup of 1,000 citations (half first pages, a quarter pages inside a
   case, a quarter past the end of their volume) in synthetic stores of 10k,
   100k and 1M case authorities of the same schema, built by this script in a
   temporary folder.  Baseline: the 10k store.  Target: flat (the 1M store no
   more than twice as slow per citation as the 10k one).
"""

from __future__ import annotations

import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script from anywhere

from citeverify.citations._types import CaseCitation
from citeverify.providers._base import LookupRequest
from citeverify.providers.local import LocalStore
from citeverify.store import schema

CASES_PER_VOLUME = 50
PAGES_PER_CASE = 20


def _case(volume: str, reporter: str, page: str) -> LookupRequest:
    text = f"{volume} {reporter} {page}"
    return LookupRequest(CaseCitation(text, text, "us-reporter", volume, reporter, page))


def _corpus_requests(count: int) -> list[LookupRequest]:
    store = LocalStore()
    connection = sqlite3.connect(f"file:{store.path}?mode=ro", uri=True)
    rows = connection.execute(
        "SELECT volume, page FROM citations WHERE reporter = 'U.S.' ORDER BY volume, page"
    ).fetchall()
    connection.close()
    step = max(1, len(rows) // count)
    return [_case(v, "U.S.", p) for v, p in rows[::step][:count]]


def _timed(store: LocalStore, batches: list[list[LookupRequest]], repeats: int) -> float:
    """Median seconds to answer all ``batches``."""
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        for batch in batches:
            store.lookup(batch)
        samples.append(time.perf_counter() - started)
    return statistics.median(samples)


def _synthetic(path: Path, authorities: int) -> None:
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode = OFF")
    connection.execute("PRAGMA synchronous = OFF")
    schema.create(connection)
    connection.execute("INSERT INTO courts VALUES ('ca9', 'Ninth Circuit', 'us-ca9')")
    volumes = authorities // CASES_PER_VOLUME
    connection.execute(
        "INSERT INTO coverage VALUES ('F.3d', 1, ?, 1, NULL, '2024-12-31T00:00:00Z', 'all')",
        (volumes,),
    )

    def authority_rows() -> Any:
        for i in range(authorities):
            yield (i + 1, "case", f"syn:{i}", f"Party {i} v. Party {i + 1}", "ca9", "2001-01-01")

    def citation_rows() -> Any:
        for i in range(authorities):
            volume, index = divmod(i, CASES_PER_VOLUME)
            page = 1 + index * PAGES_PER_CASE
            last = page + PAGES_PER_CASE if index + 1 < CASES_PER_VOLUME else None
            yield (
                "F.3d",
                str(volume + 1),
                str(page),
                i + 1,
                0,
                f"{volume + 1} F.3d {page}",
                page,
                last,
            )

    connection.executemany(
        "INSERT INTO authorities (id, kind, reference, name, court_id, decided) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        authority_rows(),
    )
    connection.executemany(
        "INSERT INTO citations VALUES (?, ?, ?, ?, ?, ?, ?, ?)", sorted(citation_rows())
    )
    connection.commit()
    connection.close()


def _synthetic_requests(authorities: int, count: int, seed: int = 7) -> list[LookupRequest]:
    rng = random.Random(seed)
    volumes = authorities // CASES_PER_VOLUME
    requests = []
    for n in range(count):
        volume = str(rng.randint(1, volumes))
        index = rng.randrange(CASES_PER_VOLUME)
        first = 1 + index * PAGES_PER_CASE
        kind = n % 4
        page = first if kind < 2 else first + 3 if kind == 2 else 5000
        requests.append(_case(volume, "F.3d", str(page)))
    return requests


def run(quick: bool = False) -> list[dict[str, Any]]:
    repeats = 3 if quick else 7
    rows: list[dict[str, Any]] = []

    store = LocalStore()
    requests = _corpus_requests(1000)
    store.lookup(requests)  # warm: open, load coverage, fill the page cache
    batched = _timed(store, [requests], repeats)
    single = _timed(store, [[r] for r in requests], max(1, repeats // 2))
    per_item = batched / len(requests) * 1e6
    rows.append(
        {
            "benchmark": "store",
            "figure": f"LocalStore.lookup, {len(requests)} U.S. citations in one batch (warm)",
            "value": per_item,
            "unit": "µs/citation",
            "baseline": f"one lookup call per citation: {single / len(requests) * 1e6:.1f} µs",
            "ratio": single / batched,
            "target": "< 50 µs/citation (a small share of verify's 100 µs/item budget)",
            "ok": per_item < 50,
        }
    )

    sizes = (10_000, 100_000) if quick else (10_000, 100_000, 1_000_000)
    timings: dict[int, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            path = Path(folder) / f"synthetic-{size}.sqlite3"
            started = time.perf_counter()
            _synthetic(path, size)
            built = time.perf_counter() - started
            synthetic = LocalStore(path)
            batch = _synthetic_requests(size, 1000)
            synthetic.lookup(batch)
            timings[size] = _timed(synthetic, [batch], repeats) / len(batch) * 1e6
            base = timings[sizes[0]]
            rows.append(
                {
                    "benchmark": "store",
                    "figure": f"lookup in a synthetic store of {size:,} authorities "
                    f"(built in {built:.1f} s, {path.stat().st_size / 1e6:.0f} MB)",
                    "value": timings[size],
                    "unit": "µs/citation",
                    "baseline": f"10,000 authorities: {base:.1f} µs",
                    "ratio": timings[size] / base,
                    "target": "flat: <= 2x the 10k store",
                    "ok": timings[size] / base <= 2.0,
                }
            )
    return rows


if __name__ == "__main__":
    from bench.__main__ import print_table

    print_table(run(quick="--quick" in sys.argv))
