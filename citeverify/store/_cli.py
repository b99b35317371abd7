"""``citeverify build-corpus``: rebuild the embedded corpus from the public source data."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

__all__ = ["register"]


def register(subparsers: Any) -> None:
    """Add ``build-corpus`` to the ``citeverify`` command."""
    parser = subparsers.add_parser(
        "build-corpus",
        help="build the embedded corpus file from the public source data",
        description=(
            "Read the source data folder (Supreme Court dates and database, opinions, the "
            "Constitution, federal rules, U.S. Code) and write one deterministic SQLite store "
            "file. Needs the 'pypdf' package for the Civil Rules PDF."
        ),
    )
    parser.add_argument("--source", required=True, type=Path, help="the source data folder")
    parser.add_argument("--out", required=True, type=Path, help="the store file to write")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from citeverify.store.build import build_corpus

    source: Path = args.source
    if not source.is_dir():
        print(f"build-corpus: no source folder at {source}", file=sys.stderr)
        return 2
    try:
        build_corpus(source, args.out, progress=lambda m: print(m, file=sys.stderr))
    except ModuleNotFoundError as exc:
        print(
            f"build-corpus: {exc.name} is needed to build (pip install {exc.name})", file=sys.stderr
        )
        return 2
    except (OSError, ValueError, KeyError) as exc:
        print(f"build-corpus: {exc}", file=sys.stderr)
        return 1
    return 0
