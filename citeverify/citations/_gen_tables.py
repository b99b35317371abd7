"""Build ``_tables.json``: the reporter and court lookups the case parser reads.

Run ``python -m citeverify.citations._gen_tables`` after upgrading reporters-db
or courts-db.  This is a build step, never run at import: the parser loads the
small JSON file this writes, so ``import citeverify`` neither loads the 1.4 MB
reporters-db data nor compiles courts-db's thousands of regular expressions
(which is what makes eyecite's court lookup cost milliseconds a citation).

What it writes:

``reporters``
    reporter spelling with whitespace removed (``U.S.``, ``F.3d``, ``S.Ct.``)
    -> list of ``[canonical, cite_type, start_year, end_year]``, one per
    reporters-db reporter that uses that spelling.
``loose``
    the same spelling also without periods and apostrophes, lower case
    (``us``, ``fappx``) -> canonical, kept only when it names one edition.
``formats``
    canonical -> reporters-db ``cite_format`` (``{volume}-{reporter}-{page}``)
``courts``
    a court's Bluebook abbreviation folded (``11thcir``, ``sdny``) -> courts-db id.
``court_names``
    courts-db id -> ``[name, citation_string]``, then courts-db's short name
    for the court when it has one.
``states``
    state abbreviation as in Bluebook (``Cal.``, ``N.Y.``) or the state's name
    (``California``) -> courts-db id of
    the state's high court (``cal``, ``ny``), used for jurisdictions
    (``us-cal``) of state codes and constitutions.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

OUT = Path(__file__).with_name("_tables.json")

# Reporters that reporters-db files under another type but that the Bluebook
# and our contract treat as public-domain (neutral) citations.
NEUTRAL_OVERRIDES = {"NY Slip Op"}

# Bluebook spellings of public-domain citations that reporters-db lists under
# another reporter only: "2018 S.D. 45" (South Dakota's "SD") and "2015 N.D. 22"
# (North Dakota's "ND").  The parser reads them as neutral only when the volume
# is a year, so "90 S.D. 1" stays the South Dakota Reports.
NEUTRAL_VARIATIONS = {"S.D.": "SD", "N.D.": "ND"}

# Early Supreme Court reporters and the U.S. Reports volume where each begins
# (1 Cranch = 5 U.S.); the last nominative volume bounds the mapping.
NOMINATIVE = {
    "Dall.": (1, 4, 1),
    "Cranch": (1, 9, 5),
    "Wheat.": (1, 12, 14),
    "Pet.": (1, 16, 26),
    "How.": (1, 24, 42),
    "Black": (1, 2, 66),
    "Wall.": (1, 23, 68),
}

# Courts as New York's official style names them in its brackets
# ("[2d Dept 2005]", "[App Term, 1st Dept 2010]", "[Sup Ct, NY County 2012]"):
# the folded text, then the part before a comma, is looked up.
NEW_YORK_COURTS = {
    "1st Dept": "nyappdiv",
    "2d Dept": "nyappdiv",
    "3d Dept": "nyappdiv",
    "4th Dept": "nyappdiv",
    "App Div": "nyappdiv",
    "App Term": "nyappterm",
    "Sup Ct": "nysupct",
    "Ct App": "ny",
}

# courts-db ids of the fifty state high courts.
STATE_COURT_IDS = (
    "ala",
    "alaska",
    "ariz",
    "ark",
    "cal",
    "colo",
    "conn",
    "del",
    "fla",
    "ga",
    "haw",
    "idaho",
    "ill",
    "ind",
    "iowa",
    "kan",
    "ky",
    "la",
    "me",
    "md",
    "mass",
    "mich",
    "minn",
    "miss",
    "mo",
    "mont",
    "neb",
    "nev",
    "nh",
    "nj",
    "nm",
    "ny",
    "nc",
    "nd",
    "ohio",
    "okla",
    "or",
    "pa",
    "ri",
    "sc",
    "sd",
    "tenn",
    "tex",
    "utah",
    "vt",
    "va",
    "wash",
    "wva",
    "wis",
    "wyo",
)


def squeeze(text: str) -> str:
    """A spelling key: whitespace removed, curly apostrophes made straight."""
    return re.sub(r"\s+", "", text.replace("\u2019", "'"))


def loosen(text: str) -> str:
    """A looser key: also without periods and apostrophes, lower case."""
    return re.sub(r"[\s.'\u2019]", "", text).lower()


def fold_court(text: str) -> str:
    """A court key: lower case, no whitespace, periods or commas; straight apostrophes."""
    return re.sub(r"[\s.,]", "", text.replace("\u2019", "'")).lower()


def _year(value: Any) -> int | None:
    return value.year if value is not None else None


def build_reporters() -> dict[str, Any]:
    import reporters_db

    exact: dict[str, list[list[Any]]] = {}
    formats: dict[str, str] = {}
    for group in reporters_db.REPORTERS.values():
        for rep in group:
            cite_type = rep["cite_type"]
            spellings: dict[str, str] = {}
            for edition in rep["editions"]:
                spellings[edition] = edition
                if edition in NEUTRAL_OVERRIDES:
                    cite_type = "neutral"
                if rep.get("cite_format"):
                    formats[edition] = rep["cite_format"]
            spellings.update(rep["variations"])
            if cite_type == "neutral":
                for spelling, edition in NEUTRAL_VARIATIONS.items():
                    if edition in rep["editions"]:
                        spellings[spelling] = edition
            for spelling, edition in spellings.items():
                dates = rep["editions"].get(edition, {})
                entry = [
                    edition,
                    cite_type,
                    _year(dates.get("start")),
                    _year(dates.get("end")),
                ]
                bucket = exact.setdefault(squeeze(spelling), [])
                if entry not in bucket:
                    bucket.append(entry)
    loose_sets: dict[str, set[str]] = {}
    for key, entries in exact.items():
        loose_sets.setdefault(loosen(key), set()).update(e[0] for e in entries)
    loose = {k: next(iter(v)) for k, v in loose_sets.items() if len(v) == 1 and k}
    return {
        "reporters": dict(sorted(exact.items())),
        "loose": dict(sorted(loose.items())),
        "formats": dict(sorted(formats.items())),
    }


def build_courts() -> dict[str, Any]:
    import courts_db

    table: dict[str, list[str]] = {}
    by_id: dict[str, dict[str, Any]] = {}
    for court in courts_db.courts:
        by_id[court["id"]] = court
        cited = court.get("citation_string")
        if not cited:
            continue
        entry = [court["id"], court["name"], cited]
        keys = {fold_court(cited)}
        # Ordinals written both ways: "2d Cir." / "2nd Cir.", "3d" / "3rd".
        for short, long in (("2d", "2nd"), ("3d", "3rd")):
            for key in list(keys):
                keys.add(re.sub(rf"(?<![0-9]){short}", long, key))
                keys.add(re.sub(rf"(?<![0-9]){long}", short, key))
        for key in keys:
            table.setdefault(key, entry)
    scotus = by_id["scotus"]
    for alias in ("U.S.", "S. Ct.", "SCOTUS", "U.S. Sup. Ct."):
        table.setdefault(fold_court(alias), ["scotus", scotus["name"], "U.S."])
    for alias, court_id in NEW_YORK_COURTS.items():
        court = by_id[court_id]
        table.setdefault(fold_court(alias), [court_id, court["name"], court["citation_string"]])
    states: dict[str, str] = {}
    for court_id in STATE_COURT_IDS:
        cited = by_id[court_id]["citation_string"]
        states[cited] = court_id
        # The state's name too ("Texas Constitution", "California Penal Code").
        states[by_id[court_id]["location"]] = court_id
    states["N.Y."] = "ny"
    # Each court's name and citation string once, the keys naming only its id;
    # the parser folds names ("District Court, W.D. Texas") and courts-db's
    # short names ("Hualapai Ct. of App.") into keys itself, on the first
    # parenthetical no citation string resolves.
    names: dict[str, list[str]] = {}
    for court_id, name, cited_as in table.values():
        names.setdefault(court_id, [name, cited_as])
    for court in courts_db.courts:
        entry = names.setdefault(court["id"], [court["name"], court["citation_string"]])
        if court.get("name_abbreviation"):
            entry.append(court["name_abbreviation"])
    return {
        "courts": {key: entry[0] for key, entry in sorted(table.items())},
        "court_names": dict(sorted(names.items())),
        "states": states,
    }


def build() -> dict[str, Any]:
    """Every table, as one JSON-serialisable dict (deterministic order)."""
    import reporters_db

    for name in NOMINATIVE:
        assert any(r["cite_type"] == "scotus_early" for r in reporters_db.REPORTERS[name]), name
    tables: dict[str, Any] = {"version": 1}
    tables.update(build_reporters())
    tables.update(build_courts())
    tables["nominative"] = {k: list(v) for k, v in NOMINATIVE.items()}
    return tables


def main() -> None:
    OUT.write_text(
        json.dumps(build(), ensure_ascii=False, separators=(",", ":"), sort_keys=False) + "\n",
        encoding="utf-8",
    )
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
