"""How long ``import citeverify`` takes in a fresh interpreter (target: under 150 ms).

Baseline: a bare interpreter start (``python -c pass``), measured in the same run;
the figure is the median over several fresh processes, minus nothing (the raw
wall time of ``python -c "import citeverify"``), with the baseline shown beside it.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from typing import Any


def _time(code: str, runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def run(quick: bool = False) -> list[dict[str, Any]]:
    runs = 5 if quick else 15
    bare = _time("pass", runs)
    imported = _time("import citeverify", runs)
    first_verify = _time(
        "import citeverify; citeverify.verify([{'id': '1', 'type': 'case', "
        "'rawText': 'Roe v. Wade, 410 U.S. 113, 153 (1973)'}])",
        max(3, runs // 3),
    )
    return [
        {
            "benchmark": "import",
            "figure": "python -c 'import citeverify' (median)",
            "value": imported,
            "unit": "ms",
            "baseline": f"python -c pass: {bare:.0f} ms",
            "ratio": imported / bare,
            "target": "< 150 ms",
            "ok": imported < 150,
        },
        {
            "benchmark": "import",
            "figure": "import + first verify of one citation (median)",
            "value": first_verify,
            "unit": "ms",
            "baseline": f"python -c pass: {bare:.0f} ms",
            "ratio": first_verify / bare,
            "target": "(first parse < 300 ms after import)",
            "ok": None,
        },
    ]


if __name__ == "__main__":
    from bench.__main__ import print_table

    print_table(run(quick="--quick" in sys.argv))
