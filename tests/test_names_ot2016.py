"""Case names as the Supreme Court itself cites them, compared with the corpus's names.

The 50 October Term 2016 opinions (``tests/data/quotes/scotus_ot2016.jsonl.gz``) cite
hundreds of earlier cases by the short names the U.S. Reports use ("Chevron U. S. A. Inc.
v. Echazabal", "Automobile Workers v. Hoosier Cardinal Corp.", "R. A. V. v. St. Paul").
Each ``Name v. Name, NNN U. S. NNN`` is extracted with a plain regular expression,
looked up in the embedded corpus, and compared with the names found there (the
Supreme Court Database's upper-case captions, the Lone Dissent list's names).
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from citeverify._compare import name_matches
from citeverify.citations._types import CaseCitation
from citeverify.providers import LocalStore
from citeverify.providers._base import Found, LookupRequest

OPINIONS = Path(__file__).resolve().parent / "data" / "quotes" / "scotus_ot2016.jsonl.gz"

_WORD = r"(?:[A-Z][\w'’.\-]*|of|the|and|&|for|ex|rel\.|de|la|du|von|van|re|parte|on|to|a)"
_CITED = re.compile(
    rf"((?:{_WORD},? ){{0,12}}?{_WORD},? v\. (?:{_WORD},? ){{0,14}}?{_WORD}), (\d+) U\. ?S\. (\d+)"
)
# What precedes a name in running text: signals, sentence openings, running heads.
_LEAD = re.compile(
    r"^.*(?:\b(?:See|see|Cf\.|E\.g\.,|Citing|Compare|Under|[Ii]n(?! re\b)|also"
    r"|Opinion of the Court|Syllabus)"
    r"|\b[A-Z]{3,}\.|\b(?:Congress|Judiciary|Amendment|Clause|Senate|Rule|Act|III)\.) "
)


def _extract() -> list[tuple[str, int, int]]:
    found: set[tuple[str, int, int]] = set()
    with gzip.open(OPINIONS, "rt", encoding="utf-8") as handle:
        for line in handle:
            text = " ".join(json.loads(line)["plain_text"].split())
            for match in _CITED.finditer(text):
                name = _LEAD.sub("", match[1]).strip(" ,")
                if " v. " in name and name[0].isupper():
                    found.add((name, int(match[2]), int(match[3])))
    return sorted(found)


CITED = _extract()

# Hand-picked names of other cases at real citations: they must stay mismatches.
MISMATCHES = [
    ("Smith v. Jones", "Marbury v. Madison"),
    ("Roe v. Bolton", "ROE et al. v. WADE, DISTRICT ATTORNEY OF DALLAS COUNTY"),
    ("Doe v. Bolton", "ROE et al. v. WADE, DISTRICT ATTORNEY OF DALLAS COUNTY"),
    ("Ex parte Gordon", "Canal Co. v. Gordon"),
    ("United States v. Morrison", "UNITED STATES v. LOPEZ"),
    ("NLRB v. Sears, Roebuck & Co.", "FEDERAL TRADE COMMISSION v. SEARS, ROEBUCK & CO."),
    ("EPA v. EME Homer City Generation", "FCC v. EME HOMER CITY GENERATION, L. P."),
    ("Chevron U.S.A. Inc. v. NRDC", "CHEVRON U.S.A. INC. v. SIERRA CLUB"),
    ("Ohio v. Smith", "TEXAS v. SMITH"),
    ("State v. Smith", "TEXAS v. JONES"),
    ("Brown v. Board of Education", "BROWN v. ALLEN"),
    ("Gonzalez v. Raich", "GONZALES v. CARHART"),
    ("Mine Workers v. Bagwell", "INTERNATIONAL UNION, UNITED AUTOMOBILE WORKERS v. BAGWELL"),
    ("Republic of Argentina v. NML Capital", "REPUBLIC OF AUSTRIA v. ALTMANN"),
    ("In re Winship", "IN RE GAULT et al."),
]


def test_extracts_hundreds_of_citations() -> None:
    """The opinions yield several hundred distinct cited names (the regular expression works)."""
    assert len(CITED) > 400


def test_names_the_court_cites_match_the_corpus() -> None:
    """At least 98% of the Court's own short names match the corpus's names for the case."""
    store = LocalStore()
    requests = [
        LookupRequest(CaseCitation("x", "x", "us-reporter", str(v), "U.S.", str(p)))
        for _, v, p in CITED
    ]
    compared = matched = 0
    misses = []
    for (name, volume, page), answer in zip(CITED, store.lookup(requests), strict=True):
        if not isinstance(answer, Found):
            continue
        names = [a.name for a in answer.authorities if a.name]
        if not names:
            continue
        compared += 1
        if any(name_matches(name, found) for found in names):
            matched += 1
        else:
            misses.append((name, volume, page, names))
    share = matched / compared
    print(f"\n{matched}/{compared} cited names match ({share:.1%}); misses: {misses}")
    assert compared > 400
    assert share >= 0.98, misses  # measured: 99.6% (2026-11)


@pytest.mark.parametrize(("cited", "found"), MISMATCHES)
def test_another_cases_name_stays_a_mismatch(cited: str, found: str) -> None:
    """The name of another case (another party on either side) is never a match."""
    assert not name_matches(cited, found)
