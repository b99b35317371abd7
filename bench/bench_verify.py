"""Throughput of ``verify`` on 1,000 Supreme Court citation items, warm, on the embedded corpus.

Targets: at least 20,000 items/s on one core (issue 17; 10,000 before) and peak RSS
under 200 MB.  Each figure is the median of the runs (the machine may be shared).
Baseline, measured in the same run: the same items through ``parse`` alone (the
floor for any verifier that must first understand each citation).

The peak RSS is measured in a fresh subprocess that imports citeverify, warms up
and verifies the 1,000 items, so it is the whole process's high-water mark.
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import time
from typing import Any


def _title(name: str) -> str:
    """SCDB's upper-case names in the mixed case a brief would use, first parties only."""
    words = name.replace(" et al.", "").replace(" ET AL.", "").split(" v. ")
    return " v. ".join(part.split(",")[0].title() for part in words[:2])


def make_items(n: int, seed: int = 7) -> list[dict[str, str]]:
    """``n`` distinct case items drawn from the embedded corpus, as a brief would cite them.

    Real names (mixed case, first parties), first pages, a pin inside the case and
    the decision year; one in five gets a wrong first page (a fabrication, or a pin
    passed off as a first page).  Distinct citations, so no parse result is reused
    within a run.
    """
    import sqlite3

    from citeverify.providers.local import _embedded_path

    db = sqlite3.connect(f"file:{_embedded_path()}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT a.name, c.volume, c.page_number, c.last_page, substr(a.decided, 1, 4) "
        "FROM authorities a JOIN citations c ON c.authority_id = a.id "
        "WHERE c.reporter = 'U.S.' AND c.rank = 0 AND a.name IS NOT NULL "
        "AND c.page_number IS NOT NULL AND a.decided IS NOT NULL ORDER BY a.id"
    ).fetchall()
    db.close()
    rng = random.Random(seed)
    chosen = rng.sample(rows, min(n, len(rows)))
    items = []
    for i, (name, volume, page, last, year) in enumerate(chosen):
        pin = page + rng.randint(0, max(0, (last or page) - page))
        if rng.random() < 0.2:
            page += rng.randint(1, 400)
        raw = f"{_title(name)}, {volume} U.S. {page}, {max(pin, page)} ({year})"
        items.append({"id": str(i), "type": "case", "rawText": raw})
    return items


def _throughput(items: list[dict[str, str]], repeats: int) -> tuple[float, float, float]:
    """Items/s for verify with cold caches (parse and store), with warm ones, and for parse
    alone (cold)."""
    import citeverify
    from citeverify._compare import cache_clear as compare_cache_clear
    from citeverify.citations import cache_clear, parse

    citeverify.verify(items[:10])  # warm: corpus opened, tables loaded
    import statistics

    body = {"items": items}
    citeverify.verify_request(body)  # warm: the store's rows read once
    cold: list[float] = []
    warm: list[float] = []
    alone: list[float] = []
    from citeverify.providers import default_provider

    store = default_provider()
    for _ in range(repeats):
        cache_clear()
        compare_cache_clear()
        # Cold means cold: neither the parse cache, the name comparisons nor the
        # store's row and answer caches may answer for the work this figure measures.
        clear_store = getattr(store, "cache_clear", None)
        if callable(clear_store):
            clear_store()
        started = time.perf_counter()
        citeverify.verify_request(body)
        cold.append(time.perf_counter() - started)
        started = time.perf_counter()
        citeverify.verify_request(body)  # the same citations again: parse results cached
        warm.append(time.perf_counter() - started)
        cache_clear()
        started = time.perf_counter()
        for item in items:
            parse(item["rawText"], "case")
        alone.append(time.perf_counter() - started)
    n = len(items)
    median = statistics.median
    return n / median(cold), n / median(warm), n / median(alone)


_RSS_CHILD = """
import json, resource, sys
sys.path.insert(0, {root!r})
from bench.bench_verify import make_items
import citeverify
from bench._rss import peak_rss_kb as _peak_kb
items = make_items(1000)
citeverify.verify(items[:10])
for _ in range(3):
    citeverify.verify(items)
print(json.dumps(_peak_kb()))
"""


def _peak_rss_mb() -> float:
    from pathlib import Path

    root = str(Path(__file__).resolve().parent.parent)
    out = subprocess.run(
        [sys.executable, "-c", _RSS_CHILD.format(root=root)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    # VmHWM (KiB): the child's own peak; ru_maxrss would carry a forking parent's peak.
    return float(json.loads(out.strip().splitlines()[-1])) / 1024


def run(quick: bool = False) -> list[dict[str, Any]]:
    items = make_items(1000)
    verify_rate, warm_rate, parse_rate = _throughput(items, repeats=3 if quick else 7)
    rss = _peak_rss_mb()
    from citeverify.providers import default_provider

    provider = getattr(default_provider(), "name", "?")
    return [
        {
            "benchmark": "verify",
            "figure": f"verify_request, 1,000 distinct SCOTUS cases, cold caches ({provider})",
            "value": verify_rate,
            "unit": "items/s",
            "baseline": f"parse alone: {parse_rate:,.0f} items/s",
            "ratio": verify_rate / parse_rate,
            "target": ">= 20,000 items/s",
            "ok": verify_rate >= 20_000,
        },
        {
            "benchmark": "verify",
            "figure": "the same 1,000 items again (parse results cached)",
            "value": warm_rate,
            "unit": "items/s",
            "baseline": f"cold caches: {verify_rate:,.0f} items/s",
            "ratio": warm_rate / verify_rate,
            "target": "-",
            "ok": None,
        },
        {
            "benchmark": "verify",
            "figure": "peak RSS of a process verifying 1,000 items",
            "value": rss,
            "unit": "MB",
            "baseline": "-",
            "ratio": None,
            "target": "< 200 MB",
            "ok": rss < 200,
        },
    ]


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    from bench.__main__ import print_table

    print_table(run(quick="--quick" in sys.argv))
    _ = resource  # measured in the child
