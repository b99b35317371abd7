"""Write ``verify_golden.json.gz``: the bytes ``verify_request`` gives for varied requests.

Run from the repository root with the code as it stood before the verify hot path
was optimised (issue 17): ``python tests/data/verify_golden/make_verify_golden.py``.
The requests are built from the embedded corpus's own rows with a fixed seed, so a
rebuilt corpus needs this file rewritten (with code known to be right).
``tests/test_verify_golden.py`` holds ``verify_request`` to it.

Each request mixes what a brief cites: Supreme Court cases as cited (name, first
page, pin, year), with a parallel (right or wrong), with the wrong year, the wrong
name, a pin outside the case or before it, a pin given as the first page, bare,
in string cites, by their S. Ct. or L. Ed. citation alone, early reporters with
their nominative volume; U.S. Code sections (existing, with subdivisions, absent);
quotations (absent from the cited case, too short); links.  Every other request
asks for the reserved fields.  The encoded responses are hashed per request to
keep the file small; a failing request is named so it can be printed and compared.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import sqlite3
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
REQUESTS = 8
ITEMS = 500


def _title(name: str) -> str:
    words = name.replace(" et al.", "").replace(" ET AL.", "").split(" v. ")
    return " v. ".join(part.split(",")[0].title() for part in words[:2])


def _rows() -> tuple[list[Any], dict[int, list[tuple[str, str, str]]], list[Any]]:
    from citeverify.providers.local import _embedded_path

    db = sqlite3.connect(f"file:{_embedded_path()}?mode=ro", uri=True)
    cases = db.execute(
        "SELECT a.id, a.name, c.volume, c.page, c.page_number, c.last_page, "
        "substr(a.decided, 1, 4), c.cite FROM authorities a JOIN citations c "
        "ON c.authority_id = a.id WHERE c.reporter = 'U.S.' AND c.rank = 0 "
        "ORDER BY a.id"
    ).fetchall()
    others: dict[int, list[tuple[str, str, str]]] = {}
    for aid, reporter, volume, page in db.execute(
        "SELECT authority_id, reporter, volume, page FROM citations WHERE rank > 0 "
        "AND reporter IN ('S. Ct.', 'L. Ed.', 'L. Ed. 2d', 'Cranch', 'Wheat.', 'Pet.', "
        "'How.', 'Wall.', 'Black', 'Dall.') ORDER BY authority_id, rank"
    ):
        others.setdefault(aid, []).append((reporter, volume, page))
    sections = db.execute(
        "SELECT volume, page FROM citations WHERE reporter = 'U.S.C.' ORDER BY volume, page"
    ).fetchall()
    db.close()
    return cases, others, sections


def _case_text(rng: random.Random, row: Any, others: Any, cases: Any) -> str:
    aid, name, volume, page, number, last, year, cite = row
    name = _title(name) if name else ""
    lead = f"{name}, " if name else ""
    pin = ""
    if number is not None:
        pin = f", {number + rng.randint(0, max(0, (last or number) - number))}"
    when = f" ({year})" if year else ""
    parallels = others.get(aid, [])
    variant = rng.randrange(14)
    if variant == 1 and parallels:
        reporter, pvol, ppage = parallels[0]
        if reporter in ("S. Ct.", "L. Ed.", "L. Ed. 2d"):
            return f"{lead}{cite}, {pvol} {reporter} {ppage}{pin}{when}"
    if variant == 2 and parallels:
        reporter, pvol, ppage = parallels[0]
        if reporter in ("S. Ct.", "L. Ed.", "L. Ed. 2d") and ppage.isdigit():
            return f"{lead}{cite}, {pvol} {reporter} {int(ppage) + 2}{when}"
    if variant == 3 and year:
        return f"{lead}{cite}{pin} ({int(year) + 3})"
    if variant == 4:
        other = rng.choice(cases)[1]
        return f"{_title(other) if other else 'Smith v. Jones'}, {cite}{pin}{when}"
    if variant == 5 and last is not None:
        return f"{lead}{cite}, {last + 40}{when}"
    if variant == 6 and number is not None and number > 1:
        return f"{lead}{cite}, {number - 1}{when}"
    if variant == 7 and number is not None and last is not None and last > number:
        return f"{lead}{volume} U.S. {rng.randint(number + 1, last)}{when}"
    if variant == 8:
        return cite
    if variant == 9:
        other = rng.choice(cases)
        second = f"{_title(other[1]) if other[1] else 'Doe v. Roe'}, {other[7]}"
        return f"{lead}{cite}{when}; {second}"
    if variant == 10 and parallels:
        reporter, pvol, ppage = parallels[-1]
        return f"{lead}{pvol} {reporter} {ppage}{when}"
    if variant == 11 and parallels and parallels[0][0] in ("Cranch", "Wheat.", "Pet.", "How."):
        reporter, pvol, ppage = parallels[0]
        return f"{lead}{volume} U.S. ({pvol} {reporter}) {page}{pin}{when}"
    if variant == 12 and number is not None:
        return f"{lead}{volume} U.S. {number + rng.randint(1, 400)}{pin}{when}"
    return f"{lead}{cite}{pin}{when}"


def requests() -> list[dict[str, Any]]:
    """The requests, in a fixed order, built from the corpus's own rows."""
    cases, others, sections = _rows()
    rng = random.Random(2017)
    out: list[dict[str, Any]] = []
    for number in range(REQUESTS):
        items: list[dict[str, str]] = []
        case_ids: list[str] = []
        for index in range(ITEMS):
            ident = f"r{number}-{index}"
            roll = rng.random()
            if roll < 0.08:
                volume, section = rng.choice(sections)
                tail = rng.choice(["", "(a)", "(b)(1)", "(zz)"])
                if rng.random() < 0.1:
                    section = f"{section}99"
                text = f"{volume} U.S.C. § {section}{tail}"
                items.append({"id": ident, "type": "statute", "rawText": text})
            elif roll < 0.10 and case_ids:
                quote = rng.choice(
                    [
                        "the quick brown fox jumps over the lazy dog every single day",
                        "due process",
                    ]
                )
                parent = rng.choice(case_ids)
                items.append(
                    {"id": ident, "type": "quote", "parentCaseId": parent, "quoteText": quote}
                )
            elif roll < 0.11:
                row = rng.choice(cases)
                url = f"https://supreme.justia.com/cases/federal/us/{row[2]}/{row[3]}/"
                items.append({"id": ident, "type": "link", "url": url, "rawText": row[7]})
            else:
                row = rng.choice(cases)
                text = _case_text(rng, row, others, cases)
                items.append({"id": ident, "type": "case", "rawText": text})
                case_ids.append(ident)
        out.append({"items": items})
    return out


def respond(body: dict[str, Any], reserved: bool) -> bytes:
    from citeverify import verify_request
    from citeverify.http._handler import _encode

    return _encode(verify_request(body, emit_reserved=reserved))


def _hash(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:24]


def hashes() -> list[dict[str, str]]:
    """Per request: the hash of its JSON and of the encoded response."""
    out = []
    for index, body in enumerate(requests()):
        request = json.dumps(body, sort_keys=True).encode("utf-8")
        out.append({"request": _hash(request), "response": _hash(respond(body, index % 2 == 1))})
    return out


def main() -> None:
    sys.path.insert(0, str(ROOT))
    data = {"requests": REQUESTS, "items": ITEMS, "hashes": hashes()}
    with gzip.open(HERE / "verify_golden.json.gz", "wt", encoding="utf-8") as handle:
        json.dump(data, handle, indent=0)


if __name__ == "__main__":
    main()
