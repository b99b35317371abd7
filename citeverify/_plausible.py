"""Offline plausibility: reasons a case citation no source covers cannot exist.

When no provider covers a citation (``925 F.3d 1339``, ``755 F. Supp. 927``), the
verdict can still say something certain without any lookup: a reporter cannot
hold a decision from a year in which it was not published, and it does not
print the decisions of courts it does not report.  ``implausible(citation)``
returns those certain contradictions as ``Comparison`` values (``match:
false``); an empty tuple means "nothing impossible", never "verified".

Only certain combinations are flagged, because a false alarm on a real
citation is worse than a silent miss:

* **Years.**  The decision years of the federal series and of the West
  regional series after their first (``_YEARS``; reporters-db's dates are not
  used for this: it ends F. Supp. in 1988 although F. Supp. 2d began in 1998,
  and a first series that reprints nominative reports, U.S. or Mass., holds
  decisions older than its first printing).  A year one off either end
  passes: a decision from late in one year is printed in the next year's
  volume, and a series' last volumes carry decisions of the year the next
  series began.
* **Courts.**  F.3d, F.4th and F. App'x print the courts of appeals, never a
  district court or a state court; F.2d printed district opinions until F.
  Supp. began in 1932, so a district court in F.2d is flagged only after
  1933; the first F. printed district and even state decisions and is never
  flagged.  F. Supp., F. Supp. 2d and F. Supp. 3d print district courts and
  specialised federal courts (Court of International Trade, Judicial Panel on
  Multidistrict Litigation), never a court of appeals, the Supreme Court or a
  state court.  A state's own reporter prints that state's courts, and a West
  regional reporter the courts of its states (the National Reporter System's
  fixed regions); another state's court is flagged.  Federal courts in state
  reporters are not flagged (early reports printed some).

The tables live in ``citeverify/data/plausibility.json``, written by
``python -m citeverify._plausible`` from reporters-db and courts-db (run it
after upgrading either); reading it costs a few milliseconds and no import of
either package.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any, Final

from citeverify._model import Comparison
from citeverify.citations._types import CaseCitation

__all__ = ["explain", "implausible"]

_PATH: Final = Path(__file__).parent / "data" / "plausibility.json"

# The decision years each series holds, checked edition by edition against the first and
# last volumes of West's National Reporter System (reporters-db's dates are publication
# dates and sometimes wrong: it ends F. Supp. in 1988, F. Supp. 2d began in 1998; and a
# first series that reprints nominative reports, U.S. or Mass., holds decisions older
# than its first printing).  Years are checked only for these editions.
_YEARS: Final = {
    "F.": (1880, 1924),
    "F.2d": (1924, 1993),
    "F.3d": (1993, 2021),
    "F.4th": (2021, None),
    "F. Supp.": (1932, 1998),
    "F. Supp. 2d": (1998, 2014),
    "F. Supp. 3d": (2014, None),
    "F. App'x": (2001, None),
    "B.R.": (1979, None),
    "A.2d": (1938, 2010),
    "A.3d": (2010, None),
    "N.E.2d": (1936, 2014),
    "N.E.3d": (2013, None),
    "N.W.2d": (1941, None),
    "P.2d": (1931, 2000),
    "P.3d": (2000, None),
    "S.E.2d": (1939, None),
    "S.W.2d": (1928, 1999),
    "S.W.3d": (1999, None),
    "So. 2d": (1941, 2008),
    "So. 3d": (2008, None),
    "Cal. Rptr. 2d": (1991, 2003),
    "Cal. Rptr. 3d": (2003, None),
    "N.Y.S.3d": (2013, None),
}
# Which courts each federal series prints: "circuit" (the courts of appeals) or
# "district" (district and specialised federal trial courts).
_FEDERAL_KIND: Final = {
    "F.2d": "circuit",
    "F.3d": "circuit",
    "F.4th": "circuit",
    "F. App'x": "circuit",
    "F. Supp.": "district",
    "F. Supp. 2d": "district",
    "F. Supp. 3d": "district",
}
F2D_DISTRICT_LAST_YEAR: Final = 1933  # F. Supp. began in 1932; allow its first year's slack
# The National Reporter System's regions (two-letter state codes).
_REGIONS: Final = {
    "A.": "ct de dc me md nh nj pa ri vt",
    "N.E.": "il in ma ny oh",
    "N.W.": "ia mi mn ne nd sd wi",
    "P.": "ak az ca co hi id ks mt nv nm ok or ut wa wy",
    "S.E.": "ga nc sc va wv",
    "S.W.": "ar ky mo tn tx",
    "So.": "al fl la ms",
}
_STATES: Final = {
    "Alabama": "al", "Alaska": "ak", "Arizona": "az", "Arkansas": "ar", "California": "ca",
    "Colorado": "co", "Connecticut": "ct", "Delaware": "de", "Florida": "fl", "Georgia": "ga",
    "Hawaii": "hi", "Idaho": "id", "Illinois": "il", "Indiana": "in", "Iowa": "ia",
    "Kansas": "ks", "Kentucky": "ky", "Louisiana": "la", "Maine": "me", "Maryland": "md",
    "Massachusetts": "ma", "Michigan": "mi", "Minnesota": "mn", "Mississippi": "ms",
    "Missouri": "mo", "Montana": "mt", "Nebraska": "ne", "Nevada": "nv",
    "New Hampshire": "nh", "New Jersey": "nj", "New Mexico": "nm", "New York": "ny",
    "North Carolina": "nc", "North Dakota": "nd", "Ohio": "oh", "Oklahoma": "ok",
    "Oregon": "or", "Pennsylvania": "pa", "Rhode Island": "ri", "South Carolina": "sc",
    "South Dakota": "sd", "Tennessee": "tn", "Texas": "tx", "Utah": "ut", "Vermont": "vt",
    "Virginia": "va", "Washington": "wa", "West Virginia": "wv", "Wisconsin": "wi",
    "Wyoming": "wy",
}  # fmt: skip
_NAMES: Final = {code: name for name, code in _STATES.items()} | {"dc": "District of Columbia"}
_CIRCUIT: Final = re.compile(r"^ca(?:\d+|dc|fc)$")
_MLZ_STATE: Final = re.compile(r"^us:([a-z]{2});")


# --- building the table ----------------------------------------------------------------------


def _package_json(package: str, name: str) -> Any:
    import importlib.util

    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:  # pragma: no cover
        raise ModuleNotFoundError(package)
    folder = Path(next(iter(spec.submodule_search_locations)))
    return json.loads((folder / "data" / name).read_text(encoding="utf-8"))


def _year(value: str | None) -> int | None:
    return int(value[:4]) if value else None


def build_table() -> dict[str, Any]:
    """The plausibility table from reporters-db and courts-db (deterministic order)."""
    states_of: dict[str, list[str | None]] = {}
    for entries in _package_json("reporters_db", "reporters.json").values():
        for reporter in entries:
            jurisdictions = reporter.get("mlz_jurisdiction") or ()
            states = {m[1] for j in jurisdictions if (m := _MLZ_STATE.match(j))}
            one_state = reporter["cite_type"] == "state" and len(states) == 1
            only = sorted(states)[0] if one_state else None
            for name in reporter["editions"]:
                states_of.setdefault(name, []).append(only)
    editions: dict[str, dict[str, Any]] = {}
    for name, found in states_of.items():
        # A spelling several reporters share gets no court rule.
        if len(found) == 1 and found[0] is not None:
            editions[name] = {"courts": "state", "states": [found[0]]}
    for name, (start, end) in _YEARS.items():
        editions.setdefault(name, {}).update(start=start, end=end)
    for name, kind in _FEDERAL_KIND.items():
        editions[name]["courts"] = kind
    for region, codes in _REGIONS.items():
        for name in list(states_of):
            if name == region or re.fullmatch(re.escape(region) + r"\s?[2-9](?:d|th|rd)", name):
                editions.setdefault(name, {}).update(courts="state", states=codes.split())
    courts: dict[str, str] = {}
    for court in _package_json("courts_db", "courts.json"):
        court_id, name = court["id"], (court.get("name") or "").strip()
        if court.get("system") == "federal":
            if _CIRCUIT.match(court_id):
                courts[court_id] = "circuit"
            elif court_id == "scotus":
                courts[court_id] = "supreme"
            elif name.startswith("District Court,"):
                courts[court_id] = "district"
        elif court.get("system") == "state" and court.get("location") in _STATES:
            courts[court_id] = "state:" + _STATES[court["location"]]
    return {
        "editions": dict(sorted(editions.items())),
        "courts": dict(sorted(courts.items())),
    }


def main() -> None:  # pragma: no cover - a build step
    text = json.dumps(build_table(), sort_keys=True, separators=(",", ":"))
    _PATH.write_text(text + "\n", encoding="utf-8")
    print(f"wrote {_PATH} ({_PATH.stat().st_size} bytes)")


# --- checking ---------------------------------------------------------------------------------


@cache
def _table() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(_PATH.read_text(encoding="utf-8"))
    return data


def _span(start: int | None, end: int | None) -> str:
    if start is None:
        return f"until {end}"
    return f"{start}-{end}" if end is not None else f"{start}-"


def _year_check(citation: CaseCitation, edition: dict[str, Any]) -> Comparison | None:
    year = citation.year
    start, end = edition.get("start"), edition.get("end")
    if year is None or (start is None and end is None):
        return None
    early = start is not None and year < start - 1
    late = end is not None and year > end + 1
    if not (early or late):
        return None
    return Comparison("year", str(year), _span(start, end), False)


def _court_check(citation: CaseCitation, edition: dict[str, Any]) -> Comparison | None:
    court, rule = citation.court, edition.get("courts")
    if court is None or rule is None:
        return None
    kind = _table()["courts"].get(court.id)
    if kind is None:
        return None
    wrong = False
    if rule == "circuit":
        district = kind == "district"
        if citation.reporter == "F.2d":
            late = citation.year is not None and citation.year > F2D_DISTRICT_LAST_YEAR
            district = district and late
        wrong = district or (kind.startswith("state:") and citation.reporter != "F.2d")
    elif rule == "district":
        wrong = kind in ("circuit", "supreme") or kind.startswith("state:")
    elif rule == "state":
        wrong = kind.startswith("state:") and kind[6:] not in edition["states"]
    if not wrong:
        return None
    return Comparison("court", court.cited or court.name, _reports(edition), False)


def _reports(edition: dict[str, Any]) -> str:
    """What courts a reporter prints, in a few words (the comparison's ``found``)."""
    rule = edition.get("courts")
    if rule == "circuit":
        return "federal courts of appeals"
    if rule == "district":
        return "federal district courts"
    states: list[str] = [_NAMES.get(s, s.upper()) for s in edition.get("states") or ()]
    listed = ", ".join(states[:-1]) + " and " + states[-1] if len(states) > 1 else states[0]
    return f"courts of {listed}"


def implausible(citation: CaseCitation) -> tuple[Comparison, ...]:
    """The certain reasons ``citation`` cannot exist, as ``match: false`` comparisons.

    ``year``: the cited year lies outside the reporter edition's publication
    years (``found`` is the span, ``1932-1998``).  ``court``: the reporter does
    not print the cited court's decisions (``found`` says which courts it
    prints).  Empty when nothing is certainly wrong, or the reporter is unknown.
    """
    edition = _table()["editions"].get(citation.reporter)
    if edition is None:
        return ()
    checks = (_year_check(citation, edition), _court_check(citation, edition))
    return tuple(c for c in checks if c is not None)


def explain(comparisons: Iterable[Comparison], reporter: str | None = None) -> str:
    """One short sentence per implausibility, for a verdict's message.

    ``"F. Supp. was published 1932-1998; a 2010 decision cannot be in it."``
    Pass ``reporter`` for the subject of the sentences (``"the reporter"`` otherwise).
    """
    subject = reporter or "the reporter"
    sentences = []
    for c in comparisons:
        if c.attribute == "year":
            sentences.append(
                f"{subject} was published {c.found}; a {c.cited} decision cannot be in it."
            )
        elif c.attribute == "court":
            sentences.append(
                f"{subject} prints only decisions of {c.found}; a decision of {c.cited} "
                "cannot be in it."
            )
    text = " ".join(sentences)
    return text[:1].upper() + text[1:]


if __name__ == "__main__":  # pragma: no cover
    main()
