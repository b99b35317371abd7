"""Cited-versus-found comparisons."""

from __future__ import annotations

import datetime as dt

import pytest

from citeverify._compare import (
    compare_court,
    compare_pinpoint,
    compare_year,
    name_matches,
    normalize_party,
)
from citeverify._model import Court
from citeverify.citations._types import CaseCitation, CourtRef, Pinpoint
from citeverify.providers._base import Authority


def authority(**kw: object) -> Authority:
    base: dict[str, object] = {
        "kind": "case",
        "reference": "t:1",
        "provider": "t",
        "citations": ("410 U.S. 113",),
        "name": "ROE et al. v. WADE, DISTRICT ATTORNEY OF DALLAS COUNTY",
        "court": Court("Supreme Court of the United States", "us"),
        "court_id": "scotus",
        "decided": dt.date(1973, 1, 22),
        "first_page": 113,
        "last_page": 178,
    }
    base.update(kw)
    return Authority(**base)  # type: ignore[arg-type]


def cite(**kw: object) -> CaseCitation:
    base: dict[str, object] = {
        "raw": "x",
        "normalized": "410 U.S. 113",
        "system": "us-reporter",
        "volume": "410",
        "reporter": "U.S.",
        "page": "113",
    }
    base.update(kw)
    return CaseCitation(**base)  # type: ignore[arg-type]


class TestNameMatches:
    @pytest.mark.parametrize(
        ("cited", "found"),
        [
            ("Roe v. Wade", "ROE et al. v. WADE, DISTRICT ATTORNEY OF DALLAS COUNTY"),
            ("Bell Atl. Corp. v. Twombly", "BELL ATLANTIC CORP. et al. v. TWOMBLY et al."),
            ("Ashcroft v. Iqbal", "ASHCROFT, FORMER ATTORNEY GENERAL, et al. v. IQBAL et al."),
            ("Miranda", "MIRANDA v. ARIZONA"),
            ("In re Gault", "IN RE GAULT et al."),
            ("Ex parte Young", "EX PARTE YOUNG"),
            (
                "NLRB v. Jones & Laughlin Steel Corp.",
                "NATIONAL LABOR RELATIONS BOARD v. JONES & LAUGHLIN STEEL CORP.",
            ),
            ("United States v. Lopez", "UNITED STATES v. LOPEZ"),
            ("U.S. v. Lopez", "UNITED STATES v. LOPEZ"),
            ("Brown v. Bd. of Educ.", "BROWN et al. v. BOARD OF EDUCATION OF TOPEKA et al."),
            ("Marbury vs. Madison", "Marbury v. Madison"),
            ("Dep't of Commerce v. New York", "DEPARTMENT OF COMMERCE et al. v. NEW YORK et al."),
        ],
    )
    def test_same_case_in_other_words_matches(self, cited: str, found: str) -> None:
        """Short forms, abbreviations, et al. and descriptors do not make a mismatch."""
        assert name_matches(cited, found)

    @pytest.mark.parametrize(
        ("cited", "found"),
        [
            (
                "Chevron U.S.A. Inc. v. NRDC",
                "Chevron U.S.A. Inc. v. Natural Resources Defense Council, Inc.",
            ),
            (
                "Chevron U. S. A. Inc. v. NRDC",
                "CHEVRON U.S.A. INC. v. NATURAL RESOURCES DEFENSE COUNCIL, INC.",
            ),
            (
                "NAACP v. Button",
                "NATIONAL ASSOCIATION FOR THE ADVANCEMENT OF COLORED PEOPLE v. BUTTON",
            ),
            (
                "EPA v. EME Homer City",
                "ENVIRONMENTAL PROTECTION AGENCY v. EME HOMER CITY GENERATION",
            ),
            ("SEC v. Jarkesy", "SECURITIES AND EXCHANGE COMMISSION v. JARKESY et al."),
            ("FCC v. Fox", "FEDERAL COMMUNICATIONS COMMISSION v. FOX TELEVISION STATIONS, INC."),
            ("INS v. Chadha", "IMMIGRATION AND NATURALIZATION SERVICE v. CHADHA et al."),
            ("Natural Resources Defense Council v. Smith", "NRDC v. SMITH"),
        ],
    )
    def test_initialisms_name_the_agency(self, cited: str, found: str) -> None:
        """An initialism names the party whose words it abbreviates, either way round."""
        assert name_matches(cited, found)

    @pytest.mark.parametrize(
        ("cited", "found"),
        [
            (
                "Nat'l Ass'n of Mfrs. v. Dep't of Def.",
                "NATIONAL ASSOCIATION OF MANUFACTURERS v. DEPARTMENT OF DEFENSE",
            ),
            ("Int'l Union v. Sec'y of Labor", "INTERNATIONAL UNION v. SECRETARY OF LABOR"),
            ("Fed. Commc'ns Comm'n v. Smith", "FEDERAL COMMUNICATIONS COMMISSION v. SMITH"),
            ("Gov't Emps. Ins. Co. v. Doe", "GOVERNMENT EMPLOYEES INSURANCE CO. v. DOE"),
            ("Mercy Hosp. v. Univ. of Cal.", "MERCY HOSPITAL v. UNIVERSITY OF CALIFORNIA"),
            ("Orange Cnty. v. Bd. of Educ.", "ORANGE COUNTY v. BOARD OF EDUCATION"),
            (
                "Allied-Bruce Terminix Cos. v. Dobson",
                "ALLIED-BRUCE TERMINIX COMPANIES, INC. v. DOBSON",
            ),
            (
                "Central Hudson Gas & Elec. Corp. v. Public Serv. Comm\u2019n of N. Y.",
                "CENTRAL HUDSON GAS & ELECTRIC CORP. v. PUBLIC SERVICE COMMISSION OF NEW YORK",
            ),
            (
                "Northwest Austin Municipal Util. Dist. No. One v. Holder",
                "NORTHWEST AUSTIN MUNICIPAL UTILITY DISTRICT NUMBER ONE v. HOLDER",
            ),
            ("Acme LLC v. Jones", "ACME v. JONES"),
        ],
    )
    def test_bluebook_abbreviations_and_suffixes(self, cited: str, found: str) -> None:
        """T6/T10 abbreviations, the Court's own spellings and corporate suffixes are equal."""
        assert name_matches(cited, found)

    @pytest.mark.parametrize(
        ("cited", "found"),
        [
            ("R. A. V. v. St. Paul", "RAV v. CITY OF ST. PAUL, MINNESOTA"),
            (
                "Verlinden B. V. v. Central Bank of Nigeria",
                "VERLINDEN BV v. CENTRAL BANK OF NIGERIA",
            ),
            ("Republic of Philippines v. Pimentel", "PHILIPPINES v. PIMENTEL"),
            ("City of Los Angeles v. Lyons", "LOS ANGELES v. LYONS"),
            (
                "Mine Workers v. Bagwell",
                "INTERNATIONAL UNION, UNITED MINE WORKERS OF AMERICA, et al. v. BAGWELL",
            ),
            ("Gonzalez v. Thaler", "RAFAEL ARRIAZA GONZALES v. RICK THALER, DIRECTOR"),
            (
                "Henderson v. Shinseki",
                "HENDERSON v. ERIC K. SHINESKI, SECRETARY OF VETERANS AFFAIRS",
            ),
            (
                "Holmes v. Securities Investors Protection Corp.",
                "HOLMES v. SECURITIES INVESTOR PROTECTION CORPORATION",
            ),
            ("State v. Smith", "OHIO v. SMITH"),
            ("People v. Smith", "NEW YORK v. SMITH"),
            ("United States ex rel. Stevens v. Doe", "UNITED STATES EX REL. STEVENS v. DOE"),
            ("Illinois v. Gates", "ILLINOIS v. GATES ET UX."),
            ("In re Smith", "SMITH v. JONES"),
        ],
    )
    def test_how_the_court_shortens_names(self, cited: str, found: str) -> None:
        """Initials with spaces, dropped titles, union captions, one typo, State for its name."""
        assert name_matches(cited, found)

    @pytest.mark.parametrize(
        ("cited", "found"),
        [
            ("Ex parte Gordon", "Canal Co. v. Gordon"),
            ("State v. Smith", "OHIO v. JONES"),
            ("Ohio v. Smith", "TEXAS v. SMITH"),
            ("Smith v. Jones", "SMYTH v. JONES"),
            ("NLRB v. Jones", "FEDERAL TRADE COMMISSION v. JONES"),
            ("Gonzalez v. Raich", "GONZALES v. CARHART"),
            ("Johnson v. United States", "JOHNSTON v. UNITED STATES"),
            ("Ng v. Smith", "NATIONAL GUARD v. SMITH"),
        ],
    )
    def test_close_but_other_parties_do_not_match(self, cited: str, found: str) -> None:
        """Tolerances stop at another party: a short name one letter off, another state."""
        assert not name_matches(cited, found)

    def test_hostile_names_are_bounded(self) -> None:
        """A megabyte of name is read only up to a bound and compared (no error, no match)."""
        assert not name_matches("Smith " * 200_000 + "v. Jones", "MIRANDA v. ARIZONA")
        assert not name_matches("v. " * 100_000, "MIRANDA v. ARIZONA")

    @pytest.mark.parametrize(
        ("cited", "found"),
        [
            ("Brown v. Board of Education", "ROE et al. v. WADE"),
            ("United States v. Lopez", "UNITED STATES v. MORRISON et al."),
            ("Roe v. Bolton", "ROE et al. v. WADE"),
            ("Doe v. Wade", "ROE et al. v. WADE"),
            ("Smith v. Jones", "MIRANDA v. ARIZONA"),
            ("", "MIRANDA v. ARIZONA"),
        ],
    )
    def test_another_case_does_not_match(self, cited: str, found: str) -> None:
        """Another real case's name is a mismatch."""
        assert not name_matches(cited, found)

    def test_party_descriptor_after_comma_is_dropped(self) -> None:
        """What follows a party's first comma describes it and is not compared."""
        assert normalize_party("WADE, DISTRICT ATTORNEY OF DALLAS COUNTY") == ("wade",)


class TestYear:
    def test_same_year_matches(self) -> None:
        """The cited year equal to the decision year matches."""
        comparison, note = compare_year(cite(year=1973), authority())
        assert comparison is not None
        assert comparison.match
        assert note is None

    def test_other_year_is_mismatch(self) -> None:
        """Another year is a mismatch, with both years shown."""
        comparison, _ = compare_year(cite(year=1972), authority())
        assert comparison is not None
        assert (comparison.cited, comparison.found, comparison.match) == ("1972", "1973", False)

    def test_filing_date_gets_one_year_with_a_note(self) -> None:
        """Where only a filing date is known, the next year matches and says why."""
        filed = authority(decided=dt.date(2004, 10, 4), date_is_filing=True)
        comparison, note = compare_year(cite(year=2005), filed)
        assert comparison is not None
        assert comparison.match
        assert note is not None
        assert "filing" in note
        earlier, _ = compare_year(cite(year=2003), filed)
        assert earlier is not None
        assert not earlier.match

    def test_not_compared_without_a_cited_year(self) -> None:
        """No cited year means no comparison."""
        assert compare_year(cite(), authority()) == (None, None)


class TestCourt:
    def test_same_court_matches(self) -> None:
        """A cited court with the authority's court id matches."""
        ref = CourtRef(id="scotus", name="Supreme Court", jurisdiction="us", cited="U.S.")
        comparison = compare_court(cite(court=ref), authority())
        assert comparison is not None
        assert comparison.match

    def test_other_court_is_mismatch(self) -> None:
        """A parenthetical naming another court is a mismatch."""
        ref = CourtRef(
            id="ca11", name="Eleventh Circuit", jurisdiction="us-ca11", cited="11th Cir."
        )
        comparison = compare_court(cite(court=ref), authority())
        assert comparison is not None
        assert not comparison.match
        assert comparison.cited == "11th Cir."


class TestPinpoint:
    @pytest.mark.parametrize(
        ("pin", "match"),
        [
            (Pinpoint("153", 153, 153), True),
            (Pinpoint("113", 113, 113), True),
            (Pinpoint("178", 178, 178), True),
            (Pinpoint("153-54", 153, 154), True),
            (Pinpoint("179", 179, 179), False),
            (Pinpoint("112", 112, 112), False),
            (Pinpoint("170-80", 170, 180), False),
        ],
    )
    def test_pin_inside_page_range(self, pin: Pinpoint, match: bool) -> None:
        """A pin matches exactly when every page it covers is in the authority's range."""
        comparison = compare_pinpoint(pin, authority())
        assert comparison is not None
        assert comparison.match is match
        assert comparison.found == "113-178"

    def test_unknown_last_page_compares_only_the_start(self) -> None:
        """With no known last page, only a pin before the first page is decidable."""
        open_ended = authority(last_page=None)
        assert compare_pinpoint(Pinpoint("500", 500, 500), open_ended) is None
        before = compare_pinpoint(Pinpoint("100", 100, 100), open_ended)
        assert before is not None
        assert not before.match

    def test_non_numeric_pin_is_not_compared(self) -> None:
        """A pin that is not a page number is not compared."""
        assert compare_pinpoint(Pinpoint("*3"), authority()) is None
