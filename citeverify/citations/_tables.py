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
    "named_courts",
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
    """Court key: lower case without whitespace, periods, commas; straight apostrophes."""
    return _COURT.sub("", text.replace("\u2019", "'")).lower()


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
    court_names: dict[str, tuple[str, ...]]  # id -> name and courts-db's short name
    entries: dict[str, CourtEntry]  # id -> the court
    states: dict[str, str]
    nominative: dict[str, tuple[int, int, int]]  # name -> (first vol, last vol, U.S. vol)
    prefixes: frozenset[str]  # every prefix of every reporter key, exact and loose


@cache
def named_courts() -> dict[str, CourtEntry]:
    """Courts by folded name or short name, where the name is one court's only.

    Built on the first parenthetical that no citation string resolves
    (``(District Court, W.D. Texas 2000)``), so the common case never pays for it;
    a name never displaces a citation string.
    """
    table = tables()
    owners: dict[str, set[str]] = {}
    for court_id, names in table.court_names.items():
        for name in names:
            owners.setdefault(fold_court(name), set()).add(court_id)
    return {
        key: table.entries[next(iter(ids))]
        for key, ids in owners.items()
        if key and len(ids) == 1 and key not in table.courts
    }


@cache
def tables() -> Tables:
    """The lookup tables, parsed once per process."""
    raw = json.loads(_PATH.read_text(encoding="utf-8"))
    reporters = {
        key: tuple(ReporterEntry(e[0], e[1], e[2], e[3]) for e in entries)
        for key, entries in raw["reporters"].items()
    }
    entries = {cid: CourtEntry(cid, e[0], e[1]) for cid, e in raw["court_names"].items()}
    courts = {key: entries[cid] for key, cid in raw["courts"].items()}
    names = {cid: tuple(e[0:1] + e[2:]) for cid, e in raw["court_names"].items()}
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
        court_names=names,
        entries=entries,
        states=dict(raw["states"]),
        nominative=nominative,
        prefixes=frozenset(prefixes),
    )
