"""Write ``lookups.json.gz``: what ``LocalStore.lookup`` answers for every citation row.

Run from the repository root with the code as it stood before the lookup path was
optimised (issue 17): ``python tests/data/lookups/make_lookups.py``.  The answers
depend only on the embedded corpus, so a rebuilt corpus needs this file rewritten
(with code known to be right).  ``tests/test_lookup_golden.py`` holds the store
to it.

Each probe is a citation the corpus holds (every U.S. Reports citation, every 4th
citation in another reporter, every rule and constitutional provision, every 15th
U.S. Code section, with a subdivision or two) or a page just after every 3rd
U.S. Reports first page (``NotFound`` with ``within``, or a miss).
The answers are written as ``repr`` strings, hashed in blocks of 500 to keep the
file small; a failing block is named so it can be printed and compared.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
BLOCK = 500


def probes() -> list[Any]:
    """The citations to look up, in a fixed order, built from the corpus's own rows."""
    from citeverify.citations._types import (
        CaseCitation,
        ConstitutionCitation,
        RuleCitation,
        StatuteCitation,
    )
    from citeverify.providers.local import _embedded_path

    db = sqlite3.connect(f"file:{_embedded_path()}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT c.reporter, c.volume, c.page, a.kind, c.page_number FROM citations AS c "
        "JOIN authorities AS a ON a.id = c.authority_id "
        "ORDER BY c.reporter, c.volume, c.page, c.authority_id"
    ).fetchall()
    db.close()
    out: list[Any] = []
    counts: dict[str, int] = {}
    for reporter, volume, page, kind, number in rows:
        seen = counts[reporter] = counts.get(reporter, 0) + 1
        if kind == "case":
            if reporter != "U.S." and seen % 4:
                continue
            text = f"{volume} {reporter} {page}"
            out.append(CaseCitation(text, text, "us-reporter", volume, reporter, page))
            if number is not None and reporter == "U.S." and seen % 3 == 0:
                after = str(number + 1)
                text = f"{volume} {reporter} {after}"
                out.append(CaseCitation(text, text, "us-reporter", volume, reporter, after))
        elif kind == "statute":
            if seen % 15:
                continue
            for subdivisions in ((), ("a",), ("b", "1")):
                text = f"{volume} U.S.C. § {page}" + "".join(f"({s})" for s in subdivisions)
                out.append(
                    StatuteCitation(text, text, "usc", "U.S.C.", volume, page, None, subdivisions)
                )
        elif kind == "rule":
            for subdivisions in ((), ("a",), ("a", "1")):
                text = f"{reporter} {page}" + "".join(f"({s})" for s in subdivisions)
                out.append(RuleCitation(text, text, reporter, page, subdivisions))
        elif kind == "constitution" and page.isdigit():
            for section, clause in ((None, None), ("1", None), ("1", "1"), ("2", "3")):
                out.append(
                    ConstitutionCitation(
                        "U.S. Const.", "U.S. Const.", volume, int(page), section, clause
                    )
                )
    return out


def answer_text(answer: Any) -> str:
    """An answer as text: its ``repr`` (every field but ``load_text``) and whether it has text."""
    authorities = list(getattr(answer, "authorities", ()))
    within = getattr(answer, "within", None)
    if within is not None:
        authorities.append(within)
    texts = "".join("T" if a.has_text else "-" for a in authorities)
    return f"{answer!r} {texts}"


def blocks() -> list[str]:
    """The answers to every probe, hashed in blocks of ``BLOCK``."""
    from citeverify.providers._base import LookupRequest
    from citeverify.providers.local import LocalStore

    store = LocalStore()
    citations = probes()
    out: list[str] = []
    for start in range(0, len(citations), BLOCK):
        chunk = citations[start : start + BLOCK]
        answers = store.lookup([LookupRequest(c) for c in chunk])
        text = "\n".join(answer_text(a) for a in answers)
        out.append(hashlib.sha256(text.encode("utf-8")).hexdigest()[:20])
    return out


def main() -> None:
    sys.path.insert(0, str(ROOT))
    data = {"block": BLOCK, "blocks": blocks()}
    with gzip.open(HERE / "lookups.json.gz", "wt", encoding="utf-8") as handle:
        json.dump(data, handle, indent=0)


if __name__ == "__main__":
    main()
