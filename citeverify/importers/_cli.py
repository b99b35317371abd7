"""``citeverify import courtlistener``: load a CourtListener bulk-data dump into a store file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``import`` (with its ``courtlistener`` source) to the ``citeverify`` command."""
    parser = subparsers.add_parser(
        "import",
        help="build a store file from another source's bulk data",
        description="Build a LocalStore file from another source's bulk data.",
    )
    sources = parser.add_subparsers(dest="source", metavar="SOURCE")
    parser.set_defaults(func=lambda args: _no_source(parser))
    cl = sources.add_parser(
        "courtlistener",
        help="CourtListener's quarterly bulk-data CSV files",
        description=(
            "Load CourtListener bulk data (courts, dockets, opinion-clusters, citations and, "
            "with --opinions, opinions; .csv or .csv.bz2) into a LocalStore file. Memory stays "
            "flat; an interrupted import resumes when run again with the same arguments."
        ),
    )
    cl.add_argument("--dir", required=True, type=Path, help="the folder holding the dump files")
    cl.add_argument("--out", required=True, type=Path, help="the store file to write or resume")
    cl.add_argument(
        "--opinions",
        action="store_true",
        help="also load opinion texts (the opinions file is hundreds of gigabytes)",
    )
    cl.add_argument("--quiet", action="store_true", help="no progress on stderr")
    cl.set_defaults(func=_run)


def _no_source(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _run(args: argparse.Namespace) -> int:
    from citeverify.importers.courtlistener import (
        DumpError,
        _stderr_progress,
        import_courtlistener,
    )

    try:
        report = import_courtlistener(
            args.dir,
            args.out,
            opinions=args.opinions,
            progress=None if args.quiet else _stderr_progress(),
        )
    except DumpError as exc:
        print(f"import courtlistener: {exc}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as exc:
        print(f"import courtlistener: {exc}", file=sys.stderr)
        return 1
    if not args.quiet:
        rows = ", ".join(f"{phase} {count:,}" for phase, count in report.rows.items())
        resumed = f" (resumed: {', '.join(report.resumed)})" if report.resumed else ""
        print(
            f"imported into {report.store} in {report.seconds:.1f} s: {rows or 'nothing new'}"
            f"{resumed}",
            file=sys.stderr,
        )
    return 0
