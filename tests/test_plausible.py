"""Offline plausibility: certain reasons a citation no source covers cannot exist."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import citeverify
from citeverify._model import Comparison
from citeverify._plausible import _PATH, _YEARS, build_table, explain, implausible
from citeverify.citations._types import CaseCitation

CITATIONS = Path(__file__).resolve().parent / "data" / "citations"


def case(text: str) -> CaseCitation:
    parsed = citeverify.parse(text)
    assert isinstance(parsed, CaseCitation), text
    return parsed


def attributes(text: str) -> dict[str, Comparison]:
    return {c.attribute: c for c in implausible(case(text))}


class TestYears:
    def test_federal_supplement_after_its_last_volume(self) -> None:
        """755 F. Supp. 927 (E.D. Ky. 2010) cannot exist: F. Supp. held 1932-1998 decisions."""
        found = attributes("755 F. Supp. 927 (E.D. Ky. 2010)")
        assert found == {"year": Comparison("year", "2010", "1932-1998", False)}

    def test_before_the_series_began(self) -> None:
        """1 F.3d 1 (1980): F.3d began in 1993."""
        assert attributes("1 F.3d 1 (1980)")["year"].found == "1993-2021"

    @pytest.mark.parametrize(
        "text",
        [
            "1 F. Supp. 2d 1 (D. Mass. 1997)",  # a late-1997 decision in the first volume
            "999 F. Supp. 1 (S.D.N.Y. 1999)",  # the last volumes, a year on
            "1 F.4th 1 (9th Cir. 2021)",
            "500 F.3d 1 (2d Cir. 2007)",
            "100 So. 3d 1 (Fla. 2012)",
        ],
    )
    def test_years_inside_or_one_off_the_span_pass(self, text: str) -> None:
        """A year inside the span, or one year off either end, is no reason."""
        assert "year" not in attributes(text)

    @pytest.mark.parametrize(
        "text",
        [
            "Marbury v. Madison, 5 U.S. (1 Cranch) 137 (1803)",
            "1 U.S. 110 (1784)",
            "Commonwealth v. Hunt, 45 Mass. (4 Met.) 111 (1842)",
            "10 F. 100 (C.C.D. Mass. 1882)",
        ],
    )
    def test_reprint_series_are_not_dated(self, text: str) -> None:
        """U.S. and state reports that reprint nominative volumes hold older decisions."""
        assert implausible(case(text)) == ()

    @given(st.sampled_from(sorted(_YEARS)), st.integers(1700, 2100))
    def test_flagged_exactly_outside_the_span(self, reporter: str, year: int) -> None:
        """A year is flagged exactly when it lies more than a year outside the series' span."""
        start, end = _YEARS[reporter]
        citation = CaseCitation("x", "x", "us-reporter", "1", reporter, "1", year=year)
        flagged = any(c.attribute == "year" for c in implausible(citation))
        outside = year < start - 1 or (end is not None and year > end + 1)
        assert flagged == outside


class TestCourts:
    @pytest.mark.parametrize(
        ("text", "court"),
        [
            ("925 F.3d 1339 (S.D.N.Y. 2019)", "S.D.N.Y."),
            ("500 F.3d 1 (Cal. 2007)", "Cal."),
            ("10 F.4th 1 (D. Mass. 2021)", "D. Mass."),
            ("150 F.2d 100 (S.D.N.Y. 1945)", "S.D.N.Y."),
            ("100 F. Supp. 2d 5 (9th Cir. 2000)", "9th Cir."),
            ("100 F. Supp. 3d 5 (Tex. 2015)", "Tex."),
            ("123 Cal. App. 4th 456 (Tex. App. 2004)", "Tex. App."),
            ("500 S.W.2d 1 (Cal. 1973)", "Cal."),
            ("100 So. 3d 1 (Tex. 2012)", "Tex."),
        ],
    )
    def test_a_court_the_reporter_does_not_print(self, text: str, court: str) -> None:
        """Circuit reporters hold no district or state court; F. Supp. no circuit; states theirs."""
        comparison = attributes(text)["court"]
        assert (comparison.cited, comparison.match) == (court, False)

    @pytest.mark.parametrize(
        "text",
        [
            "925 F.3d 1339 (11th Cir. 2019)",
            "500 F.3d 1 (D.C. Cir. 2007)",
            "50 F.2d 100 (S.D.N.Y. 1931)",  # before F. Supp., F.2d printed district opinions
            "30 F. 100 (C.C.S.D.N.Y. 1887)",
            "755 F. Supp. 927 (E.D. Ky. 1990)",
            "100 F. Supp. 2d 5 (Ct. Int'l Trade 2000)",
            "500 S.W.2d 1 (Tex. 1973)",
            "123 Cal. App. 4th 456 (Cal. Ct. App. 2004)",
            "410 U.S. 113 (1973)",
        ],
    )
    def test_courts_the_reporter_prints_pass(self, text: str) -> None:
        """Real combinations, and ones not certainly wrong, give no reason."""
        assert implausible(case(text)) == ()


class TestExplain:
    def test_one_sentence_each(self) -> None:
        """Each reason reads as one short sentence naming the reporter."""
        year = Comparison("year", "2010", "1932-1998", False)
        court = Comparison("court", "9th Cir.", "federal district courts", False)
        text = explain([year, court], "F. Supp.")
        assert text == (
            "F. Supp. was published 1932-1998; a 2010 decision cannot be in it. "
            "F. Supp. prints only decisions of federal district courts; a decision of "
            "9th Cir. cannot be in it."
        )

    def test_nothing_to_explain(self) -> None:
        """No reasons give an empty message."""
        assert explain(()) == ""


def _real_case_citations() -> list[str]:
    texts = []
    for path in sorted(CITATIONS.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record.get("kind") == "case":
                texts.append(record["text"])
    return texts


# Parser fixtures with invented authorities that are certainly impossible: they must be flagged.
INVENTED = {
    "Smith v. Jones, 10 F.3d 1 (D.D.C. 1993)",
    "Smith v. Jones, 10 F.3d 1 (N.Y. App. Div. 1993)",
}


def test_no_false_alarms_on_the_citation_corpus() -> None:
    """None of the corpus's real case citations is flagged; only its invented ones are."""
    texts = _real_case_citations()
    parsed = [(t, citeverify.parse(t)) for t in texts]
    cases = [(t, c) for t, c in parsed if isinstance(c, CaseCitation)]
    assert len(cases) > 300
    flagged = {t for t, c in cases if implausible(c)}
    assert flagged == INVENTED & {t for t, _ in cases}


def test_committed_table_is_what_the_packages_build() -> None:
    """The committed plausibility.json is build_table() of the installed reporters-db, courts-db."""
    assert json.loads(_PATH.read_text(encoding="utf-8")) == build_table()
