"""Case citation parsing: reporters, courts, pins, parallels, names, and the precompiled tables."""

from __future__ import annotations

import json
import re

import pytest

from citeverify.citations import CaseCitation, NotACitation, parse
from citeverify.citations._tables import tables
from citeverify.citations._text import expand_range_end, from_roman, strip_signal, to_roman
from citeverify.citations.case import resolve_court


def case(text: str) -> CaseCitation:
    result = parse(text, "case")
    assert isinstance(result, CaseCitation), result
    return result


class TestReporters:
    @pytest.mark.parametrize(
        ("written", "canonical"),
        [
            ("U.S.", "U.S."),
            ("U. S.", "U.S."),
            ("US", "U.S."),
            ("S.Ct.", "S. Ct."),
            ("S. Ct.", "S. Ct."),
            ("L.Ed.2d", "L. Ed. 2d"),
            ("L. Ed.", "L. Ed."),
            ("F. 3d", "F.3d"),
            ("F.3d", "F.3d"),
            ("F.4th", "F.4th"),
            ("F. Supp. 2d", "F. Supp. 2d"),
            ("Fed. Appx.", "F. App'x"),
            ("F. App'x", "F. App'x"),
            ("A.2d", "A.2d"),
            ("N.E.3d", "N.E.3d"),
            ("Cal. Rptr. 3d", "Cal. Rptr. 3d"),
        ],
    )
    def test_variant_spellings(self, written: str, canonical: str) -> None:
        """Each reporter spelling maps to reporters-db's canonical abbreviation."""
        result = case(f"12 {written} 345")
        assert result.reporter == canonical
        assert result.normalized == f"12 {canonical} 345"
        assert result.system == "us-reporter"

    def test_longest_spelling_wins(self) -> None:
        """'F. Supp. 2d' is read whole, not as 'F. Supp.' followed by junk."""
        assert case("1 F. Supp. 2d 2").reporter == "F. Supp. 2d"

    def test_first_citation_is_primary(self) -> None:
        """The first citation in the text is the primary one; later ones are parallels."""
        result = case("93 S. Ct. 705, 410 U.S. 113")
        assert result.normalized == "93 S. Ct. 705"
        assert [p.normalized for p in result.parallels] == ["410 U.S. 113"]

    def test_number_before_unknown_word_is_skipped(self) -> None:
        """A number followed by words that name no reporter does not hide a later citation."""
        assert case("12 Angry Men 5, 410 U.S. 113").normalized == "410 U.S. 113"

    def test_nominative_outside_range_stays_nominative(self) -> None:
        """'10 Dall. 1' is past Dallas's four volumes, so it is not mapped to U.S. Reports."""
        result = case("10 Dall. 1")
        assert result.reporter == "Dall."
        assert result.nominative is None

    def test_blank_page(self) -> None:
        """A slip citation with a blank page has page None and a '___' normalized page."""
        result = case("576 U.S. ___ (2015)")
        assert result.page is None
        assert result.normalized == "576 U.S. ___"


class TestPins:
    @pytest.mark.parametrize(
        ("written", "first", "last", "footnote"),
        [
            (", 153", 153, 153, None),
            (", 153-54", 153, 154, None),
            (", 153–154", 153, 154, None),
            (", 199-201", 199, 201, None),
            (", 153 n.5", 153, 153, "5"),
            (", 153 nn.5-6", 153, 153, "5-6"),
            (" at 153", 153, 153, None),
        ],
    )
    def test_pin_forms(self, written: str, first: int, last: int, footnote: str | None) -> None:
        """Pins, ranges (abbreviated or not) and footnote pins read as numbers."""
        pin = case(f"410 U.S. 113{written} (1973)").pin
        assert pin is not None
        assert (pin.first, pin.last, pin.footnote) == (first, last, footnote)

    def test_star_pin(self) -> None:
        """A Westlaw star page keeps its text and has no page numbers."""
        pin = case("2019 WL 1234567, at *3").pin
        assert pin is not None
        assert (pin.text, pin.first, pin.last) == ("*3", None, None)

    def test_pin_is_not_a_parallel_volume(self) -> None:
        """A pin followed by a parallel citation is a pin, and the parallel keeps its own pin."""
        result = case("410 U.S. 113, 153, 93 S. Ct. 705, 727, 35 L. Ed. 2d 147 (1973)")
        assert result.pin is not None
        assert result.pin.first == 153
        assert [p.normalized for p in result.parallels] == ["93 S. Ct. 705", "35 L. Ed. 2d 147"]
        assert result.parallels[0].pin is not None
        assert result.parallels[0].pin.first == 727
        assert result.parallels[1].pin is None
        assert result.year == 1973


class TestNamesAndParentheticals:
    @pytest.mark.parametrize(
        ("prefix", "name"),
        [
            ("See ", "Roe v. Wade"),
            ("See, e.g., ", "Roe v. Wade"),
            ("Cf. ", "Roe v. Wade"),
            ("But see ", "Roe v. Wade"),
            ("See also ", "Roe v. Wade"),
            ("", "Roe v. Wade"),
        ],
    )
    def test_signals_are_removed(self, prefix: str, name: str) -> None:
        """Leading signals are not part of the case name."""
        assert case(f"{prefix}{name}, 410 U.S. 113 (1973)").case_name == name

    def test_year_from_dated_parenthetical(self) -> None:
        """A full date in the parenthetical gives its year, and the court before it."""
        result = case("Doe v. Roe, 2019 WL 1, at *2 (S.D.N.Y. Mar. 3, 2019)")
        assert result.year == 2019
        assert result.court is not None
        assert result.court.id == "nysd"

    def test_explanatory_parenthetical_is_ignored(self) -> None:
        """A parenthetical with neither date nor court sets nothing."""
        result = case("Smith v. Jones, 10 F.3d 1 (holding that x)")
        assert result.year is None
        assert result.court is None

    def test_supreme_court_is_not_invented(self) -> None:
        """A U.S. Reports citation without a court in the parenthetical has court None."""
        assert case("410 U.S. 113 (1973)").court is None


class TestResolveCourt:
    @pytest.mark.parametrize(
        ("cited", "court_id", "jurisdiction"),
        [
            ("11th Cir.", "ca11", "us-ca11"),
            ("11th Cir", "ca11", "us-ca11"),
            ("S.D.N.Y.", "nysd", "us-nysd"),
            ("SDNY", "nysd", "us-nysd"),
            ("Bankr. S.D.N.Y.", "nysb", "us-nysb"),
            ("Cal. Ct. App.", "calctapp", "us-calctapp"),
            ("U.S.", "scotus", "us"),
            ("Tex. App.-Dallas", "texapp", "us-texapp"),
        ],
    )
    def test_known_courts(self, cited: str, court_id: str, jurisdiction: str) -> None:
        """Bluebook court abbreviations resolve to courts-db ids with our jurisdiction form."""
        court = resolve_court(cited)
        assert court is not None
        assert (court.id, court.jurisdiction) == (court_id, jurisdiction)

    @pytest.mark.parametrize("cited", ["", "per curiam", "Court of Nowhere"])
    def test_unknown_courts(self, cited: str) -> None:
        """Text that names no court resolves to None."""
        assert resolve_court(cited) is None


class TestNotACitation:
    @pytest.mark.parametrize("text", ["", "hello", "Id. at 5", "supra note 3", "12 34 56"])
    def test_no_citation(self, text: str) -> None:
        """Text without a case citation is reported with the expected form."""
        result = parse(text, "case")
        assert isinstance(result, NotACitation)
        assert "410 U.S. 113" in result.message


class TestTables:
    def test_tables_match_installed_databases(self) -> None:
        """The shipped _tables.json equals a fresh build from the installed databases."""
        pytest.importorskip("reporters_db")
        pytest.importorskip("courts_db")
        from citeverify.citations import _gen_tables

        shipped = json.loads(_gen_tables.OUT.read_text(encoding="utf-8"))
        assert shipped == json.loads(json.dumps(_gen_tables.build()))

    def test_nominative_volumes_are_contiguous(self) -> None:
        """The early reporters fill U.S. Reports 1-90 in order, without gaps or overlaps."""
        spans = sorted(tables().nominative.values(), key=lambda s: s[2])
        expected_start = 1
        for first, last, us_start in spans:
            assert us_start == expected_start
            expected_start = us_start + last - first + 1
        assert expected_start == 91

    def test_package_does_not_import_reporters_db(self) -> None:
        """Parsing runs on the JSON tables, not on reporters-db (a 1.4 MB load at import)."""
        import subprocess
        import sys

        code = (
            "import sys, citeverify; citeverify.parse('410 U.S. 113'); "
            "print('reporters_db' in sys.modules, 'courts_db' in sys.modules)"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == "False False"


class TestTextHelpers:
    @pytest.mark.parametrize(("roman", "value"), [("I", 1), ("IV", 4), ("XIV", 14), ("XXVII", 27)])
    def test_roman_round_trip(self, roman: str, value: int) -> None:
        """Roman numerals convert both ways."""
        assert from_roman(roman) == value
        assert to_roman(value) == roman

    @pytest.mark.parametrize("text", ["", "IIII", "ABC", "VX"])
    def test_not_roman(self, text: str) -> None:
        """Malformed numerals are rejected."""
        assert from_roman(text) is None

    @pytest.mark.parametrize(
        ("first", "last", "end"), [("153", "54", 154), ("99", "101", 101), ("150", "40", None)]
    )
    def test_range_end(self, first: str, last: str, end: int | None) -> None:
        """Abbreviated range ends borrow the first page's leading digits."""
        assert expand_range_end(first, last) == end

    def test_signal_only(self) -> None:
        """A text that is only a signal strips to nothing."""
        assert strip_signal("See") == ""

    def test_name_that_starts_like_a_signal(self) -> None:
        """'Contra Costa County' and 'Butler' are names, not signals."""
        assert strip_signal("Contra Costa County v. Doe") == "Contra Costa County v. Doe"
        assert strip_signal("Butler v. Doe") == "Butler v. Doe"


def _reporters_db_examples() -> list[tuple[str, str, tuple[str, ...]]]:
    """(example, cite_type, editions) for every reporters-db example, or [] without it."""
    try:
        import reporters_db
    except ImportError:  # pragma: no cover - reporters-db is a dev dependency
        return []
    return [
        (example, rep["cite_type"], tuple(rep["editions"]))
        for group in reporters_db.REPORTERS.values()
        for rep in group
        for example in rep.get("examples") or []
    ]


# Volume, reporter spelling, optional nominative parenthetical, page with suffix.
_VRP = re.compile(
    r"(\d{1,5}) ([A-Za-z][^,()]*?) (?:\((?:\d{1,2} )?[A-Za-z][^()]*\) )?"
    r"(\d{1,7}(?:[A-Za-z]{1,2}|-[A-Z]{1,2}|\([A-Z]\)|\[[A-Z]\])?)"
)
# reporters-db examples in forms the parser does not read: two-digit years,
# year-page tax memos, "Page"/"P" before the page, a page suffix after a space,
# and spellings reporters-db lists under no reporter or under two.
_UNREAD = frozenset(
    {
        "22CO7",
        "21COA112",
        "T.C. Memo 2019-1234",
        "T.C. Summary Opinion 2002-43",
        "14 F. Cas. Page 1048",
        "10 F. Cas. page 164",
        "29 NDLR P 127",
        "43 NDLR P 87",
        "33 Ga. Supp. 9",
        "25 Tex. Supp. 9",
        "6 Dem.Surr. 478",
        "1 Hay. & Haz. 176",
        "2 Ware (Dav. 172) 176",
        "2023 VI Super 70 P",
    }
)
_EXAMPLES = _reporters_db_examples()


class TestReportersDbExamples:
    @pytest.mark.parametrize(
        ("example", "editions"),
        [(e, eds) for e, t, eds in _EXAMPLES if t == "neutral" and e not in _UNREAD],
    )
    def test_neutral_examples(self, example: str, editions: tuple[str, ...]) -> None:
        """Every reporters-db example of a neutral reporter parses to that reporter."""
        result = case(example)
        assert result.reporter in editions
        assert result.system == "neutral"
        assert result.volume is not None
        assert example.startswith(result.volume)
        assert result.page is not None
        assert example.rstrip().endswith(result.page)

    @pytest.mark.parametrize(
        ("example", "editions"),
        [
            (e, eds)
            for e, _t, eds in _EXAMPLES
            if _VRP.fullmatch(e.replace("\u2019", "'")) and e not in _UNREAD
        ],
    )
    def test_volume_reporter_page_examples(self, example: str, editions: tuple[str, ...]) -> None:
        """Every volume-reporter-page example in reporters-db gives its volume, reporter, page."""
        match = _VRP.fullmatch(example.replace("\u2019", "'"))
        assert match is not None
        result = case(example)
        assert (result.volume, result.page) == (match.group(1), match.group(3))
        assert result.reporter in editions or result.nominative is not None

    def test_sweep_is_not_empty(self) -> None:
        """The sweep covers the neutral reporters and hundreds of reporter examples."""
        pytest.importorskip("reporters_db")
        assert sum(1 for _e, t, _eds in _EXAMPLES if t == "neutral") >= 40
        assert sum(1 for e, _t, _eds in _EXAMPLES if _VRP.fullmatch(e)) >= 200


class TestParagraphPins:
    @pytest.mark.parametrize(
        ("written", "text"),
        [(", ¶ 15", "¶ 15"), (" ¶ 15", "¶ 15"), (", ¶¶ 12-14", "¶¶ 12-14"), (", ¶9", "¶9")],
    )
    def test_paragraph_pin(self, written: str, text: str) -> None:
        """A paragraph pin on a neutral citation keeps its text and claims no page."""
        pin = case(f"2019 IL App (4th) 180123-U{written}").pin
        assert pin is not None
        assert (pin.text, pin.first, pin.last) == (text, None, None)

    def test_paragraph_pin_before_parallel(self) -> None:
        """A paragraph pin does not swallow the parallel reporter citation after it."""
        result = case("2016 WI 10, ¶ 12, 366 Wis. 2d 1, 875 N.W.2d 1")
        assert [p.normalized for p in result.parallels] == ["366 Wis. 2d 1", "875 N.W.2d 1"]

    def test_year_volume_prefers_neutral_only_for_years(self) -> None:
        """'S.D.' with a year is South Dakota's neutral cite; with a small volume, its reports."""
        assert case("2018 S.D. 45").system == "neutral"
        assert case("90 S.D. 45").system == "us-reporter"


class TestStateNominatives:
    def test_official_volume_is_kept(self) -> None:
        """A state report with a nominative volume keeps the official volume and the nominative."""
        result = case("Commonwealth v. Hunt, 45 Mass. (4 Met.) 111 (1842)")
        assert (result.volume, result.reporter, result.page) == ("45", "Mass.", "111")
        assert result.nominative == "4 Met. 111"

    def test_state_name_is_no_nominative(self) -> None:
        """A state's abbreviation in the parentheses says where the reporter is from."""
        result = case("5 Cow. (N.Y.) 12")
        assert result.normalized == "5 Cow. 12"
        assert result.nominative is None
