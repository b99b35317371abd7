"""The pipeline over the embedded corpus, on real Supreme Court citations of every era.

Citations come from the public source data (``../shared/data/scotus``: the Library of
Congress date list and the Supreme Court Database), read here independently of the
corpus build.  The sample drawn from them is committed in ``tests/data/verify_corpus_sample.json``
so the suite runs without that folder; where it is present, a test checks that the
committed sample is still exactly what the source gives (regenerate it with
``python -m tests.test_verify_corpus``).  Each real citation must verify, and each
of four mutations of it must be flagged with the right comparison: a wrong year,
another case's name, a page that begins no case, and a pin beyond the case's pages.
"""

from __future__ import annotations

import csv
import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

import citeverify
import citeverify.providers
from citeverify.providers._base import LookupRequest

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "scotus"
SAMPLE_FILE = Path(__file__).resolve().parent / "data" / "verify_corpus_sample.json"
needs_source = pytest.mark.skipif(
    not SHARED.is_dir(), reason="the source data folder ../shared/data/scotus is not present"
)


def _title(name: str) -> str:
    """An upper-case SCDB name as a brief would write it: first parties, mixed case."""
    parties = name.replace(" et al.", "").replace(" ET AL.", "").split(" v. ")
    return " v. ".join(p.split(",")[0].title() for p in parties[:2])


def _load() -> list[dict[str, Any]]:
    """(volume, page, year, name or None, next page in the volume or None), across eras,
    from the source data in ``../shared/data/scotus``."""
    rows: list[tuple[int, int, int, str | None]] = []
    named: dict[tuple[int, int], tuple[int, str]] = {}
    with (SHARED / "scdb_2023_01_case_facts.csv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            vol, _, page = row["usCite"].partition(" U.S. ")
            if vol.isdigit() and page.isdigit():
                year = int(row["dateDecision"].rsplit("/", 1)[1])
                named[(int(vol), int(page))] = (year, row["caseName"])
    # Before the Database, names come from the Lone Dissent list (one per page here;
    # pages where several cases begin are tested in test_local_store).
    listed: dict[tuple[int, int], set[str]] = defaultdict(set)
    with (SHARED / "lonedissent_citations.csv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            if int(row["volume"]) and int(row["page"]):
                listed[(int(row["volume"]), int(row["page"]))].add(row["caseTitle"])
    seen: set[tuple[int, int]] = set()
    for line in (SHARED / "scotus_dates.csv").read_text(encoding="utf-8").splitlines():
        cite, _, date = line.partition("|")
        vol, _, page = cite.partition(" U.S. ")
        if vol.isdigit() and page.isdigit():
            key = (int(vol), int(page))
            seen.add(key)
            if key not in named and len(listed.get(key, ())) <= 1:
                name = next(iter(listed[key])) if listed.get(key) else None
                rows.append((key[0], key[1], int(date[:4]), name))
    rows += [(v, p, y, n) for (v, p), (y, n) in named.items()]
    # Pages only the name list has still begin a case: they bound the others' ranges.
    rows += [(v, p, 0, None) for (v, p) in listed if (v, p) not in seen and (v, p) not in named]
    pages: dict[int, list[int]] = defaultdict(list)
    for vol, page, _, _ in rows:
        pages[vol].append(page)
    out = []
    for vol, page, year, name in rows:
        later = sorted(p for p in set(pages[vol]) if p > page)
        out.append(
            {
                "volume": vol,
                "page": page,
                "year": year,
                "name": name,
                "next": later[0] if later else None,
            }
        )
    return out


def _sample(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = [r for r in rows if r["next"] is not None and r["next"] > r["page"] + 1 and r["year"]]
    rng = random.Random(2026)
    eras = defaultdict(list)
    for row in rows:
        eras[row["volume"] // 50].append(row)
    picked: list[dict[str, Any]] = []
    for era in sorted(eras):  # the same share of every era of the Reports
        picked += rng.sample(eras[era], min(len(eras[era]), 28))
    return picked


def _fabricated(rows: list[dict[str, Any]]) -> list[str]:
    """200 citations of random pages that begin no case, in complete volumes."""
    starts = {(c["volume"], c["page"]) for c in rows}
    rng = random.Random(7)
    raws: list[str] = []
    while len(raws) < 200:
        vol, page = rng.randint(1, 546), rng.randint(1, 1200)
        if (vol, page) not in starts:
            raws.append(f"Smith v. Jones, {vol} U.S. {page} (1900)")
    return raws


def _from_source() -> dict[str, Any]:
    rows = _load()
    return {"cases": _sample(rows), "fabricated": _fabricated(rows)}


_COMMITTED = json.loads(SAMPLE_FILE.read_text(encoding="utf-8"))
CASES: list[dict[str, Any]] = _COMMITTED["cases"]
FABRICATED: list[str] = _COMMITTED["fabricated"]


@needs_source
def test_committed_sample_is_what_the_source_gives() -> None:
    """The committed sample is exactly the one drawn from ``../shared/data`` today."""
    assert _from_source() == _COMMITTED


def _verify(raws: list[str]) -> list[dict[str, Any]]:
    items = [{"id": str(i), "type": "case", "rawText": r} for i, r in enumerate(raws)]
    out: list[dict[str, Any]] = citeverify.verify_request({"items": items})["results"]
    return out


def _comparison(result: dict[str, Any], attribute: str) -> dict[str, Any] | None:
    for c in result.get("evidence", {}).get("comparisons", []):
        if c["attribute"] == attribute:
            return dict(c)
    return None


def _cite(
    case: dict[str, Any],
    *,
    name: str | None = None,
    year: int | None = None,
    page: int | None = None,
    pin: int | None = None,
) -> str:
    name = name if name is not None else (_title(case["name"]) if case["name"] else "")
    page = page if page is not None else case["page"]
    pin_text = f", {pin}" if pin is not None else ""
    lead = f"{name}, " if name else ""
    return f"{lead}{case['volume']} U.S. {page}{pin_text} ({year or case['year']})"


def test_sample_spans_the_eras() -> None:
    """At least 300 citations, from the first volumes of the Reports to the last."""
    assert len(CASES) >= 300
    volumes = [c["volume"] for c in CASES]
    assert min(volumes) < 20
    assert max(volumes) > 550


class TestRealCitations:
    def test_real_citations_verify(self) -> None:
        """Every real citation, with its name where the source has one, is verified."""
        results = _verify([_cite(c, pin=c["page"]) for c in CASES])
        failures = [
            (c, r["verdict"])
            for c, r in zip(CASES, results, strict=True)
            if r["verdict"]["status"] != "verified"
        ]
        assert failures == []

    def test_wrong_year_is_flagged(self) -> None:
        """A year two off is a year mismatch."""
        results = _verify([_cite(c, year=c["year"] + 2) for c in CASES])
        for case, result in zip(CASES, results, strict=True):
            assert result["verdict"]["outcome"] == "mismatch", (case, result["verdict"])
            year = _comparison(result, "year")
            assert year is not None
            assert year["match"] is False

    def test_another_cases_name_is_flagged(self) -> None:
        """Another real case's name is a caseName mismatch wherever the source has names."""
        named = [c for c in CASES if c["name"]]
        others = named[1:] + named[:1]
        rows = [
            (c, o)
            for c, o in zip(named, others, strict=True)
            if _title(o["name"]).split(" v. ")[0] != _title(c["name"]).split(" v. ")[0]
        ]
        assert len(rows) > 100
        results = _verify([_cite(c, name=_title(o["name"])) for c, o in rows])
        for (case, _other), result in zip(rows, results, strict=True):
            name = _comparison(result, "caseName")
            assert name is not None, (case, result["verdict"])
            assert name["match"] is False, (case, name)
            assert result["verdict"]["status"] == "warning"

    def test_unnamed_cases_say_the_name_was_not_compared(self) -> None:
        """Where the source has no name, the verdict says the name was not compared."""
        unnamed = [c for c in CASES if not c["name"]]
        assert unnamed
        results = _verify([_cite(c, name="Smith v. Jones") for c in unnamed])
        for result in results:
            assert "name was not compared" in result["verdict"]["message"]
            assert _comparison(result, "caseName") is None

    def test_page_that_begins_no_case_is_never_verified(self) -> None:
        """A page between two cases' first pages is never verified; in 1-546 U.S. it is critical
        unless the cited name names the case whose pages contain it."""
        results = _verify([_cite(c, name="Smith v. Jones", page=c["page"] + 1) for c in CASES])
        for case, result in zip(CASES, results, strict=True):
            assert result["verdict"]["status"] != "verified", (case, result["verdict"])
            if case["volume"] <= 546:
                assert result["verdict"]["status"] == "critical", (case, result["verdict"])

    def test_pin_beyond_the_case_is_flagged(self) -> None:
        """A pin past the next case's first page is a pinpoint mismatch."""
        results = _verify([_cite(c, pin=c["next"] + 3) for c in CASES])
        for case, result in zip(CASES, results, strict=True):
            pin = _comparison(result, "pinpoint")
            assert pin is not None, (case, result["verdict"])
            assert pin["match"] is False
            assert result["verdict"]["outcome"] == "mismatch"


class TestFabrications:
    @pytest.mark.parametrize(
        "raw",
        [
            "Varghese v. China Southern Airlines Co., 925 F.3d 1339 (11th Cir. 2019)",
            "Petersen v. Iran Air, 905 F. Supp. 2d 121 (D.D.C. 2012)",
            "Martinez v. Delta Airlines, Inc., 2019 WL 4639462 (Tex. App. Sept. 25, 2019)",
            "Miller v. United Airlines, Inc., 174 F.3d 366 (4th Cir. 1999)",
            "People v. Smith, 123 Cal. App. 4th 456 (2004)",
        ],
    )
    def test_lower_court_citations_are_unverified_never_critical(self, raw: str) -> None:
        """Reporters the corpus does not hold are warnings, never critical, never verified."""
        [result] = _verify([raw])
        assert (result["verdict"]["status"], result["verdict"]["outcome"]) == (
            "warning",
            "unverified",
        )

    def test_fabricated_supreme_court_pages_are_never_verified(self) -> None:
        """Random pages that begin no case in complete volumes are all critical."""
        raws = FABRICATED
        assert len(raws) == 200
        for raw, result in zip(raws, _verify(raws), strict=True):
            assert result["verdict"]["status"] == "critical", (raw, result["verdict"])


@pytest.mark.parametrize(
    "quote",
    [
        "[" * 10_000,
        "the " * 2_500,
        ". . . " * 1_600,
        "threats " * 1_250,
        "[t]he " * 1_600,
        "“" * 10_000,
    ],
)
def test_hostile_quotations_are_answered_within_their_budget(quote: str) -> None:
    """A 10,000-character hostile quotation against a real opinion: never verified, and the
    locator's work stays within the quotation's step budget (a bound on work, not on time)."""
    from citeverify.quotes import QuoteIndex, quote_steps

    items = [
        {"id": "c", "type": "case", "rawText": "Virginia v. Black, 538 U.S. 343 (2003)"},
        {"id": "q", "type": "quote", "parentCaseId": "c", "quoteText": quote},
    ]
    out = citeverify.verify_request({"items": items})
    assert out["results"][1]["verdict"]["status"] != "verified"
    answer = citeverify.providers.default_provider().lookup(
        [LookupRequest(citeverify.parse("538 U.S. 343"))]  # type: ignore[arg-type]
    )[0]
    text = answer.authorities[0].text()  # type: ignore[union-attr]
    assert text is not None
    match = QuoteIndex(text).locate(quote)
    assert match.status != "found"
    assert match.steps <= quote_steps(quote)


if __name__ == "__main__":  # regenerate the committed sample from ../shared/data
    fresh = _from_source()
    lines = ",\n".join(json.dumps(case) for case in fresh["cases"])
    raws = ",\n".join(json.dumps(raw) for raw in fresh["fabricated"])
    text = f'{{"cases": [\n{lines}\n],\n"fabricated": [\n{raws}\n]}}\n'
    SAMPLE_FILE.write_text(text, encoding="utf-8")
