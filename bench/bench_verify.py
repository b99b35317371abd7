"""Throughput of ``verify`` on 1,000 Supreme Court citation items, warm, on the embedded corpus.

Targets (issue 5): at least 10,000 items/s on one core and peak RSS under 200 MB.
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

CASES = [
    ("Roe v. Wade", 410, 113, 153, 1973),
    ("Miranda v. Arizona", 384, 436, 444, 1966),
    ("Brown v. Board of Education", 347, 483, 495, 1954),
    ("Marbury v. Madison", 5, 137, 177, 1803),
    ("Gideon v. Wainwright", 372, 335, 344, 1963),
    ("Mapp v. Ohio", 367, 643, 655, 1961),
    ("Terry v. Ohio", 392, 1, 21, 1968),
    ("New York Times Co. v. Sullivan", 376, 254, 279, 1964),
    ("Chevron U.S.A. Inc. v. Natural Resources Defense Council, Inc.", 467, 837, 842, 1984),
    ("Bell Atlantic Corp. v. Twombly", 550, 544, 570, 2007),
    ("Ashcroft v. Iqbal", 556, 662, 678, 2009),
    ("Celotex Corp. v. Catrett", 477, 317, 322, 1986),
    ("Anderson v. Liberty Lobby, Inc.", 477, 242, 248, 1986),
    ("Strickland v. Washington", 466, 668, 687, 1984),
    ("Lochner v. New York", 198, 45, 53, 1905),
]


def make_items(n: int, seed: int = 7) -> list[dict[str, str]]:
    rng = random.Random(seed)
    items = []
    for i in range(n):
        name, vol, page, pin, year = rng.choice(CASES)
        if rng.random() < 0.2:
            page += rng.randint(1, 400)  # some misses and pins passed off as first pages
        items.append(
            {"id": str(i), "type": "case", "rawText": f"{name}, {vol} U.S. {page}, {pin} ({year})"}
        )
    return items


def _throughput(items: list[dict[str, str]], repeats: int) -> tuple[float, float]:
    import citeverify
    from citeverify.citations import parse

    citeverify.verify(items[:10])  # warm: corpus opened, tables loaded
    best_verify = float("inf")
    best_parse = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        citeverify.verify(items)
        best_verify = min(best_verify, time.perf_counter() - started)
        started = time.perf_counter()
        for item in items:
            parse(item["rawText"], "case")
        best_parse = min(best_parse, time.perf_counter() - started)
    return len(items) / best_verify, len(items) / best_parse


_RSS_CHILD = """
import json, resource, sys
sys.path.insert(0, {root!r})
from bench.bench_verify import make_items
import citeverify
items = make_items(1000)
citeverify.verify(items[:10])
for _ in range(3):
    citeverify.verify(items)
print(json.dumps(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
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
    return float(json.loads(out.strip().splitlines()[-1])) / 1024  # ru_maxrss is KiB on Linux


def run(quick: bool = False) -> list[dict[str, Any]]:
    items = make_items(1000)
    verify_rate, parse_rate = _throughput(items, repeats=2 if quick else 5)
    rss = _peak_rss_mb()
    from citeverify.providers import default_provider

    provider = getattr(default_provider(), "name", "?")
    return [
        {
            "benchmark": "verify",
            "figure": f"verify 1,000 SCOTUS case items, warm ({provider})",
            "value": verify_rate,
            "unit": "items/s",
            "baseline": f"parse alone: {parse_rate:,.0f} items/s",
            "ratio": verify_rate / parse_rate,
            "target": ">= 10,000 items/s",
            "ok": verify_rate >= 10_000,
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
