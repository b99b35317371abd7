"""Run every ``bench/bench_*.py`` and print one table of figures against their baselines.

    python -m bench            # full runs
    python -m bench --quick    # smaller inputs, for a smoke check
    python -m bench parse      # only bench_parse.py

Each module exposes ``run(quick: bool = False) -> list[dict]`` returning rows with
``benchmark``, ``figure``, ``value``, ``unit``, ``baseline``, ``ratio``, ``target``, ``ok``.
When several run, each runs in a fresh interpreter: one benchmark's heap (a
million-row store, a parsed dump) must not slow the garbage collector, and so
the figures, of the next; one alone runs in this process.
"""

from __future__ import annotations

import argparse
import importlib
import json
import platform
import subprocess
import sys
import tempfile
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


def _run_here(name: str, quick: bool) -> list[dict[str, Any]]:
    module = importlib.import_module(f"bench.{name}")
    rows: list[dict[str, Any]] = module.run(quick=quick)
    return rows


def _run_apart(name: str, quick: bool) -> list[dict[str, Any]]:
    """``name``'s rows from a fresh interpreter running ``python -m bench NAME --json``."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "rows.json"
        command = [sys.executable, "-m", "bench", name, "--json", str(out)]
        if quick:
            command.append("--quick")
        # its table goes to /dev/null: the rows come back as JSON for the one table
        done = subprocess.run(command, cwd=HERE.parent, stdout=subprocess.DEVNULL, check=False)
        if not out.exists():
            raise RuntimeError(f"bench {name} exited {done.returncode} without rows")
        rows: list[dict[str, Any]] = json.loads(out.read_text())
        if done.returncode != 0:
            raise RuntimeError(f"bench {name} exited {done.returncode}")
        return rows


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
    names = discover(args.only)
    for name in names:
        started = time.perf_counter()
        try:
            run = _run_apart if len(names) > 1 else _run_here
            rows.extend(run(name, args.quick))
        except Exception:
            failed = True
            traceback.print_exc()
            rows.append({"benchmark": name, "figure": "FAILED"})
        if len(names) == 1:  # a run apart prints its own time
            print(f"# {name}: {time.perf_counter() - started:.1f} s", file=sys.stderr)
    print_table(rows)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
