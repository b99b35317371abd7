"""``find``: every citation in a document, with exact spans (issue 12, item 1)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeverify.citations import (
    CaseCitation,
    ConstitutionCitation,
    Found,
    RuleCitation,
    ShortCitation,
    StatuteCitation,
    find,
    parse,
)
from citeverify.citations import case as case_module


def spans(text: str, **kwargs: object) -> list[str]:
    return [text[f.start : f.end] for f in find(text, **kwargs)]  # type: ignore[arg-type]


def only(text: str) -> Found:
    found = list(find(text))
    assert len(found) == 1, [f.citation.raw for f in found]
    return found[0]


class TestFullCases:
    def test_span_runs_from_name_through_parenthetical_not_signal_or_explanation(self) -> None:
        text = 'See, e.g., Roe v. Wade, 410 U.S. 113, 153 (1973) (holding that "x (y)").'
        found = only(text)
        assert (found.start, found.end) == (11, 48)
        assert text[found.start : found.end] == "Roe v. Wade, 410 U.S. 113, 153 (1973)"
        assert found.signal == "See, e.g.,"
        assert [text[a:b] for a, b in found.parentheticals] == ['(holding that "x (y)")']
        citation = found.citation
        assert isinstance(citation, CaseCitation)
        assert citation.raw == text[found.start : found.end]
        assert (citation.volume, citation.reporter, citation.page) == ("410", "U.S.", "113")
        assert citation.case_name == "Roe v. Wade"
        assert citation.pin is not None
        assert citation.pin.first == 153
        assert citation.year == 1973

    def test_string_cite_splits_at_semicolon(self) -> None:
        text = "Roe v. Wade, 410 U.S. 113 (1973); Doe v. Bolton, 410 U.S. 179 (1973)"
        assert spans(text) == [
            "Roe v. Wade, 410 U.S. 113 (1973)",
            "Doe v. Bolton, 410 U.S. 179 (1973)",
        ]

    def test_fields_match_parse_of_the_span(self) -> None:
        text = (
            "The court relied on Varghese v. China S. Airlines Co., 925 F.3d 1339, 1345 "
            "(11th Cir. 2019), and Bush v. Gore, 531 U.S. 98, 104, 121 S. Ct. 525, "
            "148 L. Ed. 2d 388 (2000) (per curiam)."
        )
        found = list(find(text))
        assert [text[f.start : f.end] for f in found] == [
            "Varghese v. China S. Airlines Co., 925 F.3d 1339, 1345 (11th Cir. 2019)",
            "Bush v. Gore, 531 U.S. 98, 104, 121 S. Ct. 525, 148 L. Ed. 2d 388 (2000)",
        ]
        for item in found:
            assert parse(item.citation.raw, "case") == item.citation
        bush = found[1].citation
        assert isinstance(bush, CaseCitation)
        assert [p.reporter for p in bush.parallels] == ["S. Ct.", "L. Ed. 2d"]
        assert found[0].citation.court is not None  # type: ignore[union-attr]
        assert found[0].citation.court.id == "ca11"  # type: ignore[union-attr]
        assert [text[a:b] for a, b in found[1].parentheticals] == ["(per curiam)"]

    @pytest.mark.parametrize(
        "text",
        [
            "Roe v. Wade, 410 U.S. 113, 153 (1973)",
            "Varghese v. China S. Airlines Co., 925 F.3d 1339, 1345 (11th Cir. 2019)",
            "Smith v. Jones, 2015 WL 13908106, at *7 (S.D.N.Y. 2015)",
            "Marbury v. Madison, 5 U.S. (1 Cranch) 137 (1803)",
            "In re Gault, 387 U.S. 1 (1967)",
            "See Bush v. Gore, 531 U.S. 98, 121 S. Ct. 525 (2000)",
        ],
    )
    def test_parse_is_the_first_citation_find_yields(self, text: str) -> None:
        first = next(iter(find(text, ["case"])))
        parsed = parse(text, "case")
        assert isinstance(parsed, CaseCitation)
        assert parsed.raw == text
        if (first.start, first.end) == (0, len(text)):
            assert first.citation == parsed
        for field in ("normalized", "volume", "reporter", "page", "pin", "year", "case_name"):
            assert getattr(first.citation, field) == getattr(parsed, field), field
        assert first.citation.court == parsed.court
        assert first.citation.parallels == parsed.parallels

    def test_westlaw_and_lexis(self) -> None:
        text = (
            "Smith v. Jones, 2015 WL 13908106, at *7 (S.D.N.Y. 2015); 2019 U.S. Dist. LEXIS 12345."
        )
        found = list(find(text))
        assert [text[f.start : f.end] for f in found] == [
            "Smith v. Jones, 2015 WL 13908106, at *7 (S.D.N.Y. 2015)",
            "2019 U.S. Dist. LEXIS 12345",
        ]
        westlaw, lexis = (f.citation for f in found)
        assert isinstance(westlaw, CaseCitation)
        assert isinstance(lexis, CaseCitation)
        assert (westlaw.reporter, westlaw.page, westlaw.system) == ("WL", "13908106", "westlaw")
        assert westlaw.pin is not None
        assert westlaw.pin.text == "*7"
        assert westlaw.pin.first is None
        assert (lexis.reporter, lexis.page) == ("U.S. Dist. LEXIS", "12345")

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            ("as in 539\n U. S. 306 (2003).", "539\n U. S. 306 (2003)"),
            (
                "Grutter v. Bollinger, 539\nU.S. 306, 343 (2003).",
                "Grutter v. Bollinger, 539\nU.S. 306, 343 (2003)",
            ),
            (
                "Grutter v.\nBollinger, 539 U. S.\n306 (2003)",
                "Grutter v.\nBollinger, 539 U. S.\n306 (2003)",
            ),
        ],
    )
    def test_line_breaks_inside_a_citation(self, text: str, expected: str) -> None:
        found = only(text)
        assert text[found.start : found.end] == expected
        assert found.citation.raw == expected
        assert isinstance(found.citation, CaseCitation)
        assert (found.citation.volume, found.citation.page) == ("539", "306")

    def test_name_stops_at_sentence_and_previous_citation(self) -> None:
        text = (
            "The statute was passed by Congress in 1871. Monroe v. Pape, 365 U.S. 167 (1961). "
            "Id. at 154. Monell v. Dep't of Soc. Servs., 436 U.S. 658 (1978)."
        )
        assert spans(text) == [
            "Monroe v. Pape, 365 U.S. 167 (1961)",
            "Id. at 154",
            "Monell v. Dep't of Soc. Servs., 436 U.S. 658 (1978)",
        ]

    def test_name_in_prose_drops_lower_case_lead_in(self) -> None:
        text = "the Court held in Smith v. Jones, 1 F.3d 2 (2d Cir. 1993), that"
        found = only(text)
        assert text[found.start : found.end] == "Smith v. Jones, 1 F.3d 2 (2d Cir. 1993)"


class TestOtherForms:
    """Official styles, Tax Court memoranda, Roman pages, slip opinions in running text."""

    TEXT = (
        "The court agreed. Rogers v Rogers (63 NY2d 582 [1984]). See People v Smith, "
        "1 NY3d 1, 5 [2003]; Viking River Cruises v. Moriana (2022) _ U.S. _ "
        "[213 L.Ed.2d 179, 200-201]. Also Craig v. Harrah, ___ Nev. ___ [201 P.2d 1081], "
        "and People v. Anderson (1987) 43 Cal.3d 1104, 1120. Tax: Smith v. Commissioner, "
        "T.C. Memo. 2019-233; T.C. Summ. Op. 2010-12; 150 T.C. 1 (2018). Front matter: "
        "12 Neb. App. lxiv. Slip: No. 21-1234, slip op. at 5 (U.S. June 24, 2022); "
        "Dobbs v. Jackson Women's Health Org., No. 19-1392, slip op. at 5 (U.S. June 24, "
        "2022). Docket No. 21-1234 was filed on June 24, 2022."
    )

    def test_spans(self) -> None:
        assert spans(self.TEXT) == [
            "Rogers v Rogers (63 NY2d 582 [1984])",
            "People v Smith, 1 NY3d 1, 5 [2003]",
            "Viking River Cruises v. Moriana (2022) _ U.S. _ [213 L.Ed.2d 179, 200-201]",
            "Craig v. Harrah, ___ Nev. ___ [201 P.2d 1081]",
            "People v. Anderson (1987) 43 Cal.3d 1104, 1120",
            "Smith v. Commissioner, T.C. Memo. 2019-233",
            "T.C. Summ. Op. 2010-12",
            "150 T.C. 1 (2018)",
            "12 Neb. App. lxiv",
            "No. 21-1234, slip op. at 5 (U.S. June 24, 2022)",
            "Dobbs v. Jackson Women's Health Org., No. 19-1392, slip op. at 5 (U.S. June 24, 2022)",
        ]

    def test_slip_page_after_blank_official_cite(self) -> None:
        text = (
            "As held in Dobbs v. Jackson Women's Health Org., 597 U.S. ___, slip op. at 5 (2022)."
        )
        found = only(text)
        assert text[found.start : found.end] == (
            "Dobbs v. Jackson Women's Health Org., 597 U.S. ___, slip op. at 5 (2022)"
        )

    def test_fields_match_parse_of_the_span(self) -> None:
        found = list(find(self.TEXT, ["case"]))
        assert len(found) == 11
        for item in found:
            citation = item.citation
            assert isinstance(citation, CaseCitation)
            assert parse(citation.raw, "case") == citation
        systems = [f.citation.system for f in found]  # type: ignore[union-attr]
        assert systems.count("tax-court") == 2
        assert systems.count("slip-opinion") == 2
        years = [f.citation.year for f in found]  # type: ignore[union-attr]
        assert years == [1984, 2003, 2022, None, 1987, 2019, 2010, 2018, None, 2022, 2022]

    @pytest.mark.parametrize(
        ("text", "expected"),
        [
            # no name: the span is the citation inside the parentheses or brackets
            ("as held (63 NY2d 582 [1984]).", "63 NY2d 582 [1984]"),
            ("a parallel [201 P.2d 1081] follows", "201 P.2d 1081"),
            ("the memo (T.C. Memo. 2019-233) says", "T.C. Memo. 2019-233"),
        ],
    )
    def test_without_a_name(self, text: str, expected: str) -> None:
        assert spans(text) == [expected]

    @pytest.mark.parametrize(
        "text",
        [
            "No. 21-1234, at 5 (U.S. June 24, 2022)",
            "Case No. 1:20-cv-01234 (S.D.N.Y. 2021)",
            "ECF No. 45, slip sheet",
            "the slip op. at 5",
            "in (2022) _ U.S. _ form",
            "see [2003] and (1987)",
            "12 Neb. App. v. Smith",
            "T.C. Memo. 2019",
            "8A Am. Jur. 2d, Bailment §166, pp. 685-686 (2009)",
            "pages 12-1 F.3d 5",
        ],
    )
    def test_not_a_citation(self, text: str) -> None:
        assert spans(text) == []


class TestShortForms:
    @pytest.mark.parametrize(
        ("text", "form", "pin", "extra"),
        [
            ("Id.", "id", None, {}),
            ("Id. at 154", "id", (154, 154), {}),
            ("id. at 154-55", "id", (154, 155), {}),
            ("Id., at 154", "id", (154, 154), {}),
            ("Ibid.", "ibid", None, {}),
            ("410 U.S. at 153", "reporter", (153, 153), {"volume": "410", "reporter": "U.S."}),
            ("Roe, 410 U.S. at 153", "reporter", (153, 153), {"name": "Roe", "volume": "410"}),
            (
                "Grutter, 539 U. S., at 343",
                "reporter",
                (343, 343),
                {"name": "Grutter", "reporter": "U.S."},
            ),
            ("Roe, supra, at 160", "supra", (160, 160), {"name": "Roe"}),
            ("supra note 4", "supra-note", None, {"note": "4"}),
            ("Tribe, supra note 4, at 12", "supra-note", (12, 12), {"name": "Tribe", "note": "4"}),
            ("Id. § 1983(b)", "id", None, {"section": "1983(b)"}),
        ],
    )
    def test_forms(
        self, text: str, form: str, pin: tuple[int, int] | None, extra: dict[str, str]
    ) -> None:
        found = only(text)
        assert (found.start, found.end) == (0, len(text))
        citation = found.citation
        assert isinstance(citation, ShortCitation)
        assert citation.raw == text
        assert citation.form == form
        if pin is None:
            assert citation.pin is None
        else:
            assert citation.pin is not None
            assert (citation.pin.first, citation.pin.last) == pin
        for key, value in extra.items():
            assert getattr(citation, key) == value

    def test_series_is_no_page(self) -> None:
        # "3d" must not be read as page 3d of "P." (a full citation); it is P. 3d's series
        for text in ("373 P. 3d, at 9", "373\nP. 3d, at 11-12", "925 F. 2d, at 7"):
            citation = only(text).citation
            assert isinstance(citation, ShortCitation)
            assert citation.form == "reporter"
            assert citation.volume == text[:3]
            assert citation.reporter in ("P.3d", "F.2d")

    def test_star_pin_keeps_text(self) -> None:
        citation = only("Id. at *7").citation
        assert isinstance(citation, ShortCitation)
        assert citation.pin is not None
        assert citation.pin.text == "*7"
        assert citation.pin.first is None

    def test_shorts_in_a_paragraph(self) -> None:
        text = "Ibid. Roe, 410 U.S. at 153. See id. at 154-55; Roe, supra, at 160."
        found = list(find(text))
        assert [text[f.start : f.end] for f in found] == [
            "Ibid.",
            "Roe, 410 U.S. at 153",
            "id. at 154-55",
            "Roe, supra, at 160",
        ]
        assert found[2].signal == "See"


class TestStatutesRulesConstitutions:
    @pytest.mark.parametrize(
        ("text", "kind", "normalized"),
        [
            ("42 U.S.C. § 1983", StatuteCitation, "42 U.S.C. § 1983"),
            ("42 U.S.C. § 1983 (2018)", StatuteCitation, "42 U.S.C. § 1983"),
            ("28 U.S.C. §§ 1331-1332", StatuteCitation, "28 U.S.C. §§ 1331-1332"),
            ("28 U.S.C. 1331", StatuteCitation, "28 U.S.C. § 1331"),
            ("29 C.F.R. § 1630.2(g)", StatuteCitation, "29 C.F.R. § 1630.2(g)"),
            ("Pub. L. No. 111-148", StatuteCitation, "Pub. L. No. 111-148"),
            ("124 Stat. 119", StatuteCitation, "124 Stat. 119"),
            ("Fed. R. Civ. P. 12(b)(6)", RuleCitation, "Fed. R. Civ. P. 12(b)(6)"),
            ("Fed. R. Evid. 403", RuleCitation, "Fed. R. Evid. 403"),
            (
                "U.S. Const. art. I, § 8, cl. 3",
                ConstitutionCitation,
                "U.S. Const. art. I, § 8, cl. 3",
            ),
            ("U.S. Const. amend. XIV, § 1", ConstitutionCitation, "U.S. Const. amend. XIV, § 1"),
        ],
    )
    def test_whole_text_is_one_citation(self, text: str, kind: type, normalized: str) -> None:
        found = only(f"As {text} provides.")
        assert found.citation.raw == text
        assert isinstance(found.citation, kind)
        assert found.citation.normalized == normalized  # type: ignore[union-attr]
        assert found.citation == parse(text, found.citation.kind)  # type: ignore[arg-type]

    def test_mixed_document_in_order(self) -> None:
        text = (
            "Under 42 U.S.C. § 1983 and Fed. R. Civ. P. 12(b)(6), see U.S. Const. amend. XIV, "
            "§ 1; Roe v. Wade, 410 U.S. 113 (1973); Id. § 1983(b)."
        )
        found = list(find(text))
        assert [type(f.citation).__name__ for f in found] == [
            "StatuteCitation",
            "RuleCitation",
            "ConstitutionCitation",
            "CaseCitation",
            "ShortCitation",
        ]
        assert found[2].signal == "see"

    def test_kinds_filter(self) -> None:
        text = "42 U.S.C. § 1983; Roe v. Wade, 410 U.S. 113 (1973); Id. at 5."
        assert spans(text, kinds=["statute"]) == ["42 U.S.C. § 1983"]
        assert spans(text, kinds=["case"]) == ["Roe v. Wade, 410 U.S. 113 (1973)"]
        assert spans(text, kinds=["short"]) == ["Id. at 5"]
        assert spans(text, kinds=[]) == []
        assert spans(text, kinds="statute") == ["42 U.S.C. § 1983"]


class TestNotCitations:
    @pytest.mark.parametrize(
        "text",
        [
            "Cite as: 570 U. S. ____ (2013)",
            "                 Cite as: 581 U. S. 1 (2017)            3",
            "570 U. S. ___",
            "R. 45",
            "3 R. 45",
            "ER 123",
            "App. 12a",
            "2 App. 45",
            "Pet. App. 12a",
            "J.A. 34",
            "Tr. 56:3-9",
            "No. 21-1234",
            "ECF No. 45",
            "Dkt. 12",
            "Doc. 7 at 3",
            "Doc. 7, at 3",
            "June 24, 2022",
            "$1,500",
            "see Part II.A",
            "See supra Part II",
            "Section III",
            "§ II.B",
            "§ 1983",
            "in 1973 the Court",
            "the Agreement (as defined in Section 2)",
            "1. First item 2. Second item",
            "(555) 123-4567 or 555-123-4567",
            "Rule 12(b)(6)",
            "the First Amendment",
            "Ibidem and Idaho, forbid. paid.",
        ],
    )
    def test_not_a_citation(self, text: str) -> None:
        assert spans(text) == []

    def test_running_head_between_real_citations(self) -> None:
        text = (
            "Bush v. Gore, 531 U.S. 98 (2000), and\n\x0c                 "
            "Cite as: 581 U. S. ____ (2017)            9\n\n  Id. at 5."
        )
        assert spans(text) == ["Bush v. Gore, 531 U.S. 98 (2000)", "Id. at 5"]


class TestRobustness:
    @pytest.mark.parametrize("bad", [None, 3, b"410 U.S. 113", ["x"]])
    def test_non_text_gives_nothing(self, bad: object) -> None:
        assert list(find(bad)) == []  # type: ignore[arg-type]

    @settings(max_examples=300, deadline=None)
    @given(
        st.lists(
            st.sampled_from(
                [
                    "Roe v. Wade, ",
                    "410 U.S. 113",
                    ", 153",
                    " (1973)",
                    "; ",
                    "Id.",
                    " at ",
                    "supra",
                    " note 4",
                    "42 U.S.C. § 1983",
                    "Fed. R. Civ. P. 12",
                    "U.S. Const. art. I",
                    "(",
                    ")",
                    '"',
                    "\n",
                    " ",
                    ".",
                    "539",
                    "U. S.",
                    "Cite as:",
                    "___",
                    "\u201c",
                    "\u2014",
                ]
            ),
            max_size=40,
        )
        | st.text(max_size=200)
    )
    def test_properties(self, parts: list[str] | str) -> None:
        text = "".join(parts)
        found = list(find(text))
        last = 0
        for item in found:
            assert 0 <= last <= item.start < item.end <= len(text)
            assert item.citation.raw == text[item.start : item.end]
            for start, end in item.parentheticals:
                assert item.end <= start < end <= len(text)
                assert text[start] == "("
                assert text[end - 1] == ")"
            last = item.end


_FRAGMENTS = [
    "Roe v. Wade, ",
    "Smith v. Jones, ",
    "410 U.S. 113",
    "925 F.3d 1339",
    ", 153",
    " (1973)",
    " (11th Cir. 2019)",
    "; ",
    ", ",
    "Id.",
    " at ",
    "42 U.S.C. § 1983",
    "(",
    ")",
    "\n",
    " ",
    ". ",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_FRAGMENTS), max_size=30))
def test_parse_reads_the_first_case_find_yields(parts: list[str]) -> None:
    """Where ``parse`` reads a case from a text, ``find``'s first case is the same citation."""
    text = "".join(parts)
    parsed = parse(text, "case")
    cases = list(find(text, ["case"]))
    if not isinstance(parsed, CaseCitation):
        assert cases == []
        return
    first = cases[0].citation
    assert isinstance(first, CaseCitation)
    for field in ("normalized", "volume", "reporter", "page", "pin", "year", "court", "parallels"):
        assert getattr(first, field) == getattr(parsed, field), field


_HOSTILE = {
    "ids": "Id. " * 20_000,
    "quotes": '"' * 10_000 + " Roe v. Wade, 410 U.S. 113 (1973)",
    "digits": "1" * 1_000_000,
    "spaced digits": "1 " * 100_000,
    "citation repeated": "Roe v. Wade, 410 U.S. 113, 153 (1973); " * 4_000,
    "short repeated": "Roe, 410 U.S. at 153. " * 5_000,
    "open parentheses": "410 U.S. 113 " + "(" * 100_000,
    "names": "Smith v. " * 20_000 + "Jones, 1 U.S. 1",
    "rules": "Fed. R. Civ. P. " * 10_000,
    "statutes": "42 U.S.C. § " * 10_000,
}


class TestLinearWork:
    """Work is bounded by counting steps, not by timing: lookups per token stay constant."""

    @pytest.mark.parametrize("name", sorted(_HOSTILE))
    def test_lookups_per_token_are_bounded(
        self, name: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        calls = {"at": 0}
        original = case_module._Scanner.at

        def counting(self: case_module._Scanner, index: int) -> object:
            calls["at"] += 1
            return original(self, index)

        monkeypatch.setattr(case_module._Scanner, "at", counting)
        text = _HOSTILE[name]
        found = list(find(text))
        tokens = len(text.split())
        assert calls["at"] <= 4 * tokens + 10
        last = 0
        for item in found:
            assert last <= item.start < item.end <= len(text)
            last = item.end

    def test_hostile_results(self) -> None:
        assert len(list(find(_HOSTILE["ids"]))) == 20_000
        assert len(list(find(_HOSTILE["citation repeated"]))) == 4_000
        assert spans(_HOSTILE["quotes"]) == ["Roe v. Wade, 410 U.S. 113 (1973)"]

    def test_long_document_is_chunked_without_losing_offsets(self) -> None:
        unit = "Some prose here.\n\nRoe v. Wade, 410 U.S. 113, 153 (1973).\n\n"
        text = unit * 8_000  # 480 KB: three chunks
        found = list(find(text))
        assert len(found) == 8_000
        for item in found:
            assert text[item.start : item.end] == "Roe v. Wade, 410 U.S. 113, 153 (1973)"


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [" ", "\n", "\t", "(", "[", ")", "T.", "No.", "T.C.", "0", "12", "a", "v."]
        ),
        max_size=40,
    ).map("".join)
)
def test_fast_tokenizer_gives_the_token_regex_tokens(text: str) -> None:
    """The split-and-sum tokenizer yields exactly what ``_TOKEN.finditer`` yields."""
    from citeverify.citations.case import _TOKEN, tokenize

    expected = [(m.start(), m.end(), m.group()) for m in _TOKEN.finditer(text)]
    assert tokenize(text) == expected
