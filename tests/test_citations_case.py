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

    @pytest.mark.parametrize(
        ("cited", "court_id"),
        [
            ("2d Dept", "nyappdiv"),
            ("1st Dept", "nyappdiv"),
            ("Sup Ct, NY County", "nysupct"),
            ("App Term, 2d Dept, 2d, 11th & 13th Jud Dists", "nyappterm"),
        ],
    )
    def test_new_york_brackets(self, cited: str, court_id: str) -> None:
        """New York's official style names its courts in brackets with the year."""
        result = case(f"People v Doe, 50 AD3d 1 [{cited} 2008]")
        assert result.year == 2008
        assert result.court is not None
        assert result.court.id == court_id

    def test_courts_db_strings_sweep(self) -> None:
        """Every courts-db citation string, name and short name, in a parenthetical, resolves.

        Strings that name several courts are left out (no answer would be
        right); what stays unresolved are names with parentheses inside, which
        cannot stand in a parenthetical.
        """
        courts_db = pytest.importorskip("courts_db")
        owners: dict[str, set[str]] = {}
        for court in courts_db.courts:
            for field in ("citation_string", "name", "name_abbreviation"):
                if court.get(field):
                    owners.setdefault(court[field], set()).add(court["id"])
        unique = [(text, next(iter(ids))) for text, ids in owners.items() if len(ids) == 1]
        resolved = 0
        for text, court_id in unique:
            result = parse(f"1 F.3d 1 ({text} 2000)", "case")
            assert isinstance(result, CaseCitation)
            resolved += result.court is not None and result.court.id == court_id
        share = resolved / len(unique)
        print(f"courts-db strings resolved: {resolved}/{len(unique)} = {share:.2%}")
        assert len(unique) >= 4000
        assert share >= 0.995  # measured 99.8% (courts-db 0.10.27)
        # and every citation string, the Bluebook form, without exception
        missed = [
            court["citation_string"]
            for court in courts_db.courts
            if court.get("citation_string")
            and getattr(resolve_court(court["citation_string"]), "id", None) != court["id"]
        ]
        assert missed == []

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
        assert result.system in ("neutral", "tax-court")
        assert result.volume is not None
        assert result.volume in example
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

    def test_share_of_every_example(self) -> None:
        """Every reporters-db example in any form: the share read with its reporter and volume.

        A reading counts when the reporter is one of the example's reporter's
        editions (or the example is a nominative mapped to U.S. Reports) and the
        volume is the example's leading number.  What stays unread is mostly
        reporters cited without a volume ("Baldw. 196"), looseleaf services
        cited without one, and spellings reporters-db files under two reporters.
        """
        pytest.importorskip("reporters_db")
        read = 0
        for example, _type, editions in _EXAMPLES:
            result = parse(example, "case")
            if not isinstance(result, CaseCitation):
                continue
            lead = re.match(r"\s*(\d[\dA-Z-]*)", example.replace("\u2019", "'"))
            if result.reporter in editions:
                volume = result.volume or ""
                read += lead is None or volume == lead.group(1) or volume in example
            elif result.nominative is not None and any(e in result.nominative for e in editions):
                read += lead is None or result.nominative.startswith(lead.group(1))
        share = read / len(_EXAMPLES)
        print(f"reporters-db examples read: {read}/{len(_EXAMPLES)} = {share:.1%}")
        assert len(_EXAMPLES) >= 450
        assert share >= 0.66  # measured 66.9% (reporters-db 3.2.67)

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


class TestOwnYear:
    @pytest.mark.parametrize(
        ("text", "year"),
        [
            ("2017 IL App (1st) 122579-U", 2017),
            ("2025 ND 78", 2025),
            ("2024 UT App 36", 2024),
            ("2024 NY Slip Op 51192[U]", 2024),
            ("2020-Ohio-1234", 2020),
            ("2015 WL 13908106", 2015),
            ("2019 U.S. Dist. LEXIS 12345", 2019),
        ],
    )
    def test_year_is_the_volume(self, text: str, year: int) -> None:
        """A neutral, Westlaw or Lexis number carries its year as its volume."""
        result = case(text)
        assert result.year == year
        assert result.volume == str(year)

    def test_parenthetical_year_has_the_last_word(self) -> None:
        """A dated parenthetical after the number overrides the number's own year."""
        assert case("2015 WL 13908106, at *2 (S.D.N.Y. Jan. 5, 2016)").year == 2016

    def test_volume_that_is_no_year(self) -> None:
        """A reporter volume is no year, even for a tax reporter filed as neutral."""
        assert case("160 T.C. No. 5").year is None
        assert case("410 U.S. 113").year is None


class TestOfficialStyles:
    """The New York and California official styles (issue 13, item 6)."""

    @pytest.mark.parametrize(
        ("text", "fields", "name"),
        [
            (
                "Rogers v Rogers (63 NY2d 582 [1984])",
                ("63", "N.Y.2d", "582", None, 1984),
                "Rogers v Rogers",
            ),
            (
                "People v Smith, 1 NY3d 1, 5 [2003]",
                ("1", "N.Y.3d", "1", "5", 2003),
                "People v Smith",
            ),
            (
                "Viking River Cruises v. Moriana (2022) _ U.S. _ [213 L.Ed.2d 179, 200-201]",
                ("213", "L. Ed. 2d", "179", "200-201", 2022),
                "Viking River Cruises v. Moriana",
            ),
            (
                "Craig v. Harrah, ___ Nev. ___ [201 P.2d 1081]",
                ("201", "P.2d", "1081", None, None),
                "Craig v. Harrah",
            ),
            (
                "People v. Anderson (1987) 43 Cal.3d 1104, 1120",
                ("43", "Cal. 3d", "1104", "1120", 1987),
                "People v. Anderson",
            ),
        ],
    )
    def test_components(
        self, text: str, fields: tuple[str, str, str, str | None, int | None], name: str
    ) -> None:
        """Volume, reporter, page, pin, year and name read from each style; raw keeps it all."""
        result = case(text)
        components = result.components()
        assert (
            components.volume,
            components.reporter,
            components.page,
            components.pinpoint,
            components.year,
        ) == fields
        assert result.case_name == name
        assert result.system == "us-reporter"
        assert result.raw == text

    def test_bracketed_pin_range(self) -> None:
        """The pin inside California's bracketed parallel is a page range."""
        pin = case("Viking River Cruises v. Moriana (2022) _ U.S. _ [213 L.Ed.2d 179, 200-201]").pin
        assert pin is not None
        assert (pin.first, pin.last) == (200, 201)

    def test_blank_without_bracket_is_not_the_citation(self) -> None:
        """A blank official cite with nothing to look up stays a blank page citation."""
        result = case("Craig v. Harrah, 65 Nev. ___ (1949)")
        assert (result.volume, result.reporter, result.page) == ("65", "Nev.", None)
        assert result.year == 1949


class TestTaxCourt:
    @pytest.mark.parametrize(
        ("text", "reporter", "volume", "page"),
        [
            ("T.C. Memo. 2019-233", "T.C. Memo.", "2019", "233"),
            ("T.C. Memo 2019-1234", "T.C. Memo.", "2019", "1234"),
            ("T. C. Memo. 2001-5", "T.C. Memo.", "2001", "5"),
            ("T.C. Summ. Op. 2010-12", "T.C. Summary Opinion", "2010", "12"),
            ("T.C. Summary Opinion 2002-43", "T.C. Summary Opinion", "2002", "43"),
        ],
    )
    def test_memoranda_and_summary_opinions(
        self, text: str, reporter: str, volume: str, page: str
    ) -> None:
        """The year is the volume, the opinion number the page; the year is the citation's."""
        result = case(f"Smith v. Commissioner, {text}, at *3")
        assert (result.volume, result.reporter, result.page) == (volume, reporter, page)
        assert result.system == "tax-court"
        assert result.year == int(volume)
        assert result.normalized == f"{volume} {reporter} {page}"
        assert result.case_name == "Smith v. Commissioner"

    def test_tax_court_reports(self) -> None:
        """The bound Tax Court reports are an ordinary reporter."""
        result = case("150 T.C. 1, 4 (2018)")
        assert (result.volume, result.reporter, result.page, result.year) == (
            "150",
            "T.C.",
            "1",
            2018,
        )

    @pytest.mark.parametrize("text", ["T.C. Memo. 2019", "T.C. 2019-233", "T.C. Memo. 19-233"])
    def test_incomplete_memo(self, text: str) -> None:
        """A memorandum citation needs the year and the number."""
        assert isinstance(parse(text, "case"), NotACitation)


class TestRomanPages:
    @pytest.mark.parametrize(
        ("text", "reporter", "page"),
        [
            ("12 Neb. App. lxiv", "Neb. Ct. App.", "lxiv"),
            ("131 U.S. Appx. cxxi", "U.S. (Apx.)", "cxxi"),
            ("5 F.3d xii, xiv", "F.3d", "xii"),
        ],
    )
    def test_front_matter_pages(self, text: str, reporter: str, page: str) -> None:
        """Front matter is numbered in lower-case Roman numerals."""
        result = case(text)
        assert (result.reporter, result.page) == (reporter, page)

    @pytest.mark.parametrize("text", ["12 Neb. App. v. Smith", "5 F.3d civil", "5 F.3d i.e. the"])
    def test_words_are_no_pages(self, text: str) -> None:
        """'v.' (versus), 'i.e.' and words made partly of numeral letters are no pages."""
        assert isinstance(parse(text, "case"), NotACitation)


class TestSlipOpinions:
    def test_docket_and_slip_page(self) -> None:
        """Docket number kept, no volume or page, the slip page is the pin, the court is read."""
        result = case("No. 21-1234, slip op. at 5 (U.S. June 24, 2022)")
        assert result.system == "slip-opinion"
        assert (result.docket, result.volume, result.reporter, result.page) == (
            "21-1234",
            None,
            "slip op.",
            None,
        )
        assert result.normalized == "No. 21-1234, slip op."
        assert result.pin is not None
        assert result.pin.first == 5
        assert result.year == 2022
        assert result.court is not None
        assert result.court.id == "scotus"
        assert result.components().pinpoint == "5"

    def test_with_name(self) -> None:
        """The case name before the docket number is read."""
        result = case(
            "Dobbs v. Jackson Women's Health Org., No. 19-1392, slip op. at 5 (U.S. June 24, 2022)"
        )
        assert result.case_name == "Dobbs v. Jackson Women's Health Org."
        assert result.docket == "19-1392"

    @pytest.mark.parametrize(
        "text", ["No. 21-1234", "No. 21-1234 (U.S. June 24, 2022)", "ECF No. 45", "slip op. at 5"]
    )
    def test_docket_alone_is_no_citation(self, text: str) -> None:
        """A docket number without 'slip op.' is no citation."""
        assert isinstance(parse(text, "case"), NotACitation)


class TestOlderAndLooseleafForms:
    """Forms reporters-db's examples show that briefs still use."""

    @pytest.mark.parametrize(
        ("text", "fields"),
        [
            ("141 FERC ¶ 61,049", ("141", "FERC", "61,049", None)),
            ("153 Lab. Cas. (CCH) P 60,267", ("153", "Lab. Cas. (CCH)", "60,267", None)),
            (
                "1986-1 Trade Cas. (CCH) ¶ 66,984",
                ("1986-1", "Trade Cas. (CCH)", "66,984", None),
            ),
            ("17A N.Y.2d 7", ("17A", "N.Y.2d", "7", None)),
            ("126 S. Ct. (2006) 1910", ("126", "S. Ct.", "1910", 2006)),
            ("5 Am. Law Reg. (1857) 280", ("5", "Am. Law Reg.", "280", 1857)),
            ("90 So.3d LII", ("90", "So. 3d", "LII", None)),
        ],
    )
    def test_forms(self, text: str, fields: tuple[str, str, str, int | None]) -> None:
        """Looseleaf paragraph numbers, split volumes, interposed years, Roman pages."""
        result = case(text)
        assert (result.volume, result.reporter, result.page, result.year) == fields

    @pytest.mark.parametrize(
        "text", ["5 F.3d P 12", "pages 12-1 F.3d 5", "5 F.3d par. 12", "5 F.3d I 7"]
    )
    def test_not_for_ordinary_reporters(self, text: str) -> None:
        """A "P" paragraph, a year-half volume and a one-letter numeral belong to no reporter."""
        assert isinstance(parse(text, "case"), NotACitation)


class TestVerdicts:
    """Forms the embedded corpus cannot hold are unverified with a reason, never not-found."""

    @pytest.mark.parametrize(
        ("text", "says"),
        [
            ("No. 21-1234, slip op. at 5 (U.S. June 24, 2022)", "No. 21-1234, slip op."),
            ("Smith v. Commissioner, T.C. Memo. 2019-233", "2019 T.C. Memo. 233"),
            ("T.C. Summ. Op. 2010-12", "2010 T.C. Summary Opinion 12"),
        ],
    )
    def test_outside_coverage(self, text: str, says: str) -> None:
        import citeverify

        response = citeverify.verify([{"id": "1", "type": "case", "rawText": text}])
        verdict = response.results[0].verdict
        assert verdict.status.value == "warning"
        assert verdict.outcome == "unverified"
        assert verdict.message.startswith(says)
        # either the corpus does not hold it, or (a slip opinion) nothing can look it up
        assert "corpus" in verdict.message or "cannot be looked up" in verdict.message


class TestBlankPages:
    def test_slip_page_after_a_blank_official_cite(self) -> None:
        """The slip page is no U.S. Reports page: text only; the year after it is still read."""
        result = case("Dobbs v. Jackson Women's Health Org., 597 U.S. ___, slip op. at 5 (2022)")
        assert result.normalized == "597 U.S. ___"
        assert result.pin is not None
        assert (result.pin.text, result.pin.first, result.pin.last) == ("slip op. at 5", None, None)
        assert result.year == 2022

    def test_blank_pin(self) -> None:
        """A blank pin is kept as text and does not hide the year."""
        result = case("597 U.S. ___, ___ (2022)")
        assert result.pin is not None
        assert (result.pin.text, result.pin.first) == ("___", None)
        assert result.year == 2022
