"""Typed access to ``_tables.json``, loaded once on first use.

The JSON is generated from reporters-db and courts-db by ``_gen_tables.py``
at build time; reading it costs a few milliseconds, against the ~0.5 s of
importing reporters-db and compiling courts-db's regular expressions.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Final, NamedTuple

__all__ = [
    "CourtEntry",
    "ReporterEntry",
    "Tables",
    "fold_court",
    "loosen",
    "squeeze",
    "tables",
]

_PATH: Final = Path(__file__).with_name("_tables.json")

_SPACE: Final = re.compile(r"\s+")
_LOOSE: Final = re.compile(r"[\s.']")
_COURT: Final = re.compile(r"[\s.,]")


def squeeze(text: str) -> str:
    """Reporter spelling key: whitespace removed (``F. 3d`` -> ``F.3d``)."""
    return _SPACE.sub("", text)


def loosen(text: str) -> str:
    """Looser reporter key: no whitespace, periods or apostrophes; lower case."""
    return _LOOSE.sub("", text).lower()


def fold_court(text: str) -> str:
    """Court abbreviation key: lower case without whitespace, periods, commas."""
    return _COURT.sub("", text).lower()


class ReporterEntry(NamedTuple):
    """One reporters-db reporter a spelling can name."""

    canonical: str
    cite_type: str  # federal, state, state_regional, neutral, scotus_early, specialty...
    start: int | None
    end: int | None


class CourtEntry(NamedTuple):
    """A court a folded abbreviation names."""

    id: str
    name: str
    cited: str  # the court's Bluebook abbreviation in courts-db


class Tables(NamedTuple):
    reporters: dict[str, tuple[ReporterEntry, ...]]
    loose: dict[str, str]
    formats: dict[str, str]
    courts: dict[str, CourtEntry]
    states: dict[str, str]
    nominative: dict[str, tuple[int, int, int]]  # name -> (first vol, last vol, U.S. vol)
    prefixes: frozenset[str]  # every prefix of every reporter key, exact and loose


@cache
def tables() -> Tables:
    """The lookup tables, parsed once per process."""
    raw = json.loads(_PATH.read_text(encoding="utf-8"))
    reporters = {
        key: tuple(ReporterEntry(e[0], e[1], e[2], e[3]) for e in entries)
        for key, entries in raw["reporters"].items()
    }
    courts = {key: CourtEntry(e[0], e[1], e[2]) for key, e in raw["courts"].items()}
    nominative = {k: (v[0], v[1], v[2]) for k, v in raw["nominative"].items()}
    # Prefixes let the scanner stop extending a reporter spelling as soon as
    # no reporter can begin that way, which keeps hostile input linear.
    prefixes = {key[:n] for key in reporters for n in range(1, len(key) + 1)}
    prefixes.update(key[:n] for key in raw["loose"] for n in range(1, len(key) + 1))
    return Tables(
        reporters=reporters,
        loose=dict(raw["loose"]),
        formats=dict(raw["formats"]),
        courts=courts,
        states=dict(raw["states"]),
        nominative=nominative,
        prefixes=frozenset(prefixes),
    )
