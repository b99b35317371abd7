"""Run every ``bench/bench_*.py`` and print one table of figures against their baselines.

    python -m bench            # full runs
    python -m bench --quick    # smaller inputs, for a smoke check
    python -m bench parse      # only bench_parse.py

Each module exposes ``run(quick: bool = False) -> list[dict]`` returning rows with
``benchmark``, ``figure``, ``value``, ``unit``, ``baseline``, ``ratio``, ``target``, ``ok``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import sys
import time
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def discover(only: list[str]) -> list[str]:
    names = sorted(p.stem for p in HERE.glob("bench_*.py"))
    if only:
        names = [n for n in names if any(n == f"bench_{o}" or n == o for o in only)]
    return names


def fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, float):
        return f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"
    return str(value)


def print_table(rows: list[dict[str, Any]]) -> None:
    columns = ("benchmark", "figure", "value", "unit", "baseline", "ratio", "target", "ok")
    cells = [[fmt(r.get(c)) for c in columns] for r in rows]
    widths = [
        max(len(c), *(len(row[i]) for row in cells)) if cells else len(c)
        for i, c in enumerate(columns)
    ]
    print("  ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)))
    print("  ".join("-" * w for w in widths))
    for row in cells:
        print("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("only", nargs="*", help="benchmark names (e.g. parse quotes)")
    parser.add_argument("--quick", action="store_true", help="smaller inputs")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(HERE.parent))
    print(
        f"# machine: {platform.machine()}, {platform.processor() or 'cpu'}, "
        f"python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M:%S')}"
    )
    rows: list[dict[str, Any]] = []
    failed = False
    for name in discover(args.only):
        module = importlib.import_module(f"bench.{name}")
        started = time.perf_counter()
        try:
            rows.extend(module.run(quick=args.quick))
        except Exception:
            failed = True
            traceback.print_exc()
            rows.append({"benchmark": name, "figure": "FAILED"})
        print(f"# {name}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    print_table(rows)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
