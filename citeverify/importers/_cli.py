"""``citeverify download courtlistener`` and ``citeverify import courtlistener``.

``download`` fetches the newest complete quarterly set of CourtListener's bulk
data into a folder (resumable, verified, recorded in ``manifest.json``);
``import`` loads a folder's dump into a store file, and with ``--download``
does both in one command.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``import`` and ``download`` (each with a ``courtlistener`` source) to ``citeverify``."""
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
            "flat; an interrupted import resumes when run again with the same arguments, and a "
            "finished store is updated in place from a newer dump (lookups keep working). "
            "The files are those `citeverify download courtlistener` recorded in the folder's "
            "manifest.json, else the newest file of each table. With --download, the newest "
            "complete set is downloaded (or its download resumed) first."
        ),
    )
    cl.add_argument("--dir", required=True, type=Path, help="the folder holding the dump files")
    where = cl.add_mutually_exclusive_group(required=True)
    where.add_argument(
        "--out", metavar="FILE", help="the SQLite store file to write, resume or update"
    )
    where.add_argument(
        "--to",
        metavar="URL",
        help="a PostgreSQL store to write, resume or update (postgresql://user@host/db; "
        "needs pip install 'citeverify-legal[postgres]')",
    )
    cl.add_argument(
        "--opinions",
        action="store_true",
        help="also load opinion texts (the opinions file is hundreds of gigabytes)",
    )
    cl.add_argument(
        "--download",
        action="store_true",
        help="first download the bulk data into --dir (as `citeverify download courtlistener`)",
    )
    _download_options(cl)
    cl.add_argument("--quiet", action="store_true", help="no progress on stderr")
    cl.set_defaults(func=_run)

    download = subparsers.add_parser(
        "download",
        help="download another source's bulk data",
        description="Download another source's bulk data into a folder.",
    )
    dl_sources = download.add_subparsers(dest="source", metavar="SOURCE")
    download.set_defaults(func=lambda args: _no_source(download))
    dl = dl_sources.add_parser(
        "courtlistener",
        help="CourtListener's quarterly bulk-data files",
        description=(
            "Download the newest complete quarterly set of CourtListener's bulk data (courts, "
            "dockets, opinion-clusters, citations; opinions with --opinions) into a folder, "
            "checking free space first, resuming interrupted files and verifying each one; "
            "writes manifest.json for `citeverify import courtlistener --dir`. "
            "Needs pip install 'citeverify[courtlistener]'."
        ),
    )
    dl.add_argument("--dir", required=True, type=Path, help="the folder to download into")
    dl.add_argument(
        "--opinions",
        action="store_true",
        help="also download the opinions file (hundreds of gigabytes)",
    )
    _download_options(dl)
    dl.add_argument("--quiet", action="store_true", help="no progress or notes on stderr")
    dl.set_defaults(func=_run_download)


def _download_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--from",
        dest="source_url",
        metavar="URL",
        default=None,
        help="an S3-compatible address holding bulk-data/ (a mirror); "
        "default CourtListener's public bucket",
    )
    parser.add_argument(
        "--date",
        default=None,
        metavar="YYYY-MM-DD",
        help="download this quarter's set, not the newest complete one",
    )
    parser.add_argument(
        "--retries",
        type=int,
        default=5,
        help="failed attempts in a row allowed per file before giving up (default 5)",
    )


def _no_source(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _download(args: argparse.Namespace) -> int:
    """Run the download; 0 when the set is complete in ``--dir``, else the exit code."""
    from citeverify.importers._download import (
        DEFAULT_LISTING_URL,
        DownloadError,
        download_courtlistener,
    )

    def note(text: str) -> None:
        if not args.quiet:
            print(text, file=sys.stderr)

    try:
        report = download_courtlistener(
            args.dir,
            listing_url=args.source_url or DEFAULT_LISTING_URL,
            opinions=args.opinions,
            date=args.date,
            retries=max(0, args.retries),
            progress=not args.quiet,
            notify=note,
        )
    except DownloadError as exc:
        print(f"download courtlistener: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"download courtlistener: {exc}", file=sys.stderr)
        return 1
    if report.unchecked:
        note(
            "size checked, no MD5 to compare (multipart upload): " + ", ".join(report.unchecked)
        )
    fetched = f"{len(report.downloaded)} downloaded" + (
        f" ({len(report.resumed)} resumed)" if report.resumed else ""
    )
    note(
        f"the {report.dump.date} set is in {report.directory} ({fetched}, "
        f"{len(report.present)} already there; {report.bytes:,} bytes in {report.seconds:.1f} s)"
    )
    return 0


def _run_download(args: argparse.Namespace) -> int:
    return _download(args)


def _run(args: argparse.Namespace) -> int:
    if args.download:
        code = _download(args)
        if code:
            return code
    from citeverify.importers.courtlistener import (
        DumpError,
        _stderr_progress,
        import_courtlistener,
    )
    from citeverify.store._writer import StoreLocationError, check_location, is_postgres_url

    if args.to is not None and not is_postgres_url(args.to):
        print(
            f"import courtlistener: --to takes a postgresql:// URL, not {args.to!r}; "
            "use --out for a SQLite file",
            file=sys.stderr,
        )
        return 2
    store = args.to if args.to is not None else args.out
    try:
        check_location(store)  # a postgresql:// URL given to --out goes to PostgreSQL too
    except StoreLocationError as exc:
        print(f"import courtlistener: {exc}", file=sys.stderr)
        return 2
    try:
        report = import_courtlistener(
            args.dir,
            store,
            opinions=args.opinions,
            progress=None if args.quiet else _stderr_progress(),
        )
    except DumpError as exc:
        print(f"import courtlistener: {exc}", file=sys.stderr)
        return 2
    except (OSError, ValueError) as exc:
        print(f"import courtlistener: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a database error (psycopg's), reported without a traceback
        if type(exc).__module__.split(".")[0] not in ("psycopg", "psycopg_pool", "sqlite3"):
            raise
        print(f"import courtlistener: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    if not args.quiet:
        rows = ", ".join(f"{phase} {count:,}" for phase, count in report.rows.items())
        resumed = f" (resumed: {', '.join(report.resumed)})" if report.resumed else ""
        dated = f" (bulk data of {report.date})" if report.date else ""
        verb = "updated" if report.updated else "imported into"
        print(
            f"{verb} {report.store}{dated} in {report.seconds:.1f} s: "
            f"{rows or 'nothing new'}{resumed}",
            file=sys.stderr,
        )
    return 0
