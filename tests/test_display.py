"""Notebook renderings: ``_repr_html_`` of Response, Result and parse results."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citeverify._display import parsed_html, response_html, result_html
from citeverify._model import (
    Citation,
    Comparison,
    Court,
    Document,
    Evidence,
    ItemType,
    Opinion,
    Quote,
    Response,
    Result,
    Status,
    Summary,
    Usage,
    Verdict,
)
from citeverify.citations._types import (
    CaseCitation,
    ConstitutionCitation,
    CourtRef,
    LinkCitation,
    NotACitation,
    Pinpoint,
    RuleCitation,
    StatuteCitation,
)

HOSTILE = '<script>alert("x")</script>'
ALLOWED_TAGS = {"p", "table", "thead", "tbody", "tr", "th", "td", "span", "small", "br", "b"} | {
    "em",
    "a",
    "code",
}
VOID = {"br"}


class _Structure(HTMLParser):
    """Collects tags, checks nesting, and gathers the text a reader would see."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.stack: list[str] = []
        self.text: list[str] = []
        self.hrefs: list[str] = []
        self.balanced = True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "a":
            self.hrefs.extend(v or "" for k, v in attrs if k == "href")
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack.pop() != tag:
            self.balanced = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def structure(html: str) -> _Structure:
    parser = _Structure()
    parser.feed(html)
    parser.close()
    return parser


def make_result(
    *,
    status: Status = Status.VERIFIED,
    outcome: str | None = "verified",
    raw: str = "Roe v. Wade, 410 U.S. 113 (1973)",
    message: str | None = "the authority exists and agrees",
    comparisons: tuple[Comparison, ...] | None = None,
    opinion: Opinion | None = None,
    quote: Quote | None = None,
    id: str = "1",
) -> Result:
    return Result(
        id=id,
        type=ItemType.QUOTE if quote is not None else ItemType.CASE,
        citation=Citation(raw=raw, normalized="410 U.S. 113"),
        verdict=Verdict(status=status, outcome=outcome, message=message),
        evidence=Evidence(comparisons) if comparisons is not None else None,
        opinion=opinion,
        quote=quote,
    )


def make_opinion(
    name: str = "Roe v. Wade", url: str = "https://supreme.justia.com/cases/federal/us/410/113/"
) -> Opinion:
    return Opinion(
        court=Court(name="Supreme Court of the United States", jurisdiction="us"),
        case_name=name,
        year=1973,
        citations=("410 U.S. 113", "93 S. Ct. 705"),
        documents=(Document(provider="justia", url=url),),
    )


def make_response(results: tuple[Result, ...]) -> Response:
    counts = {s: sum(r.verdict.status is s for r in results) for s in Status}
    worst = max((r.verdict.status for r in results), key=lambda s: s.severity)
    return Response(
        results=results,
        summary=Summary(
            verified=counts[Status.VERIFIED],
            warning=counts[Status.WARNING],
            critical=counts[Status.CRITICAL],
            total=len(results),
            unique_citations=len(results),
            billed_citations=len(results),
            is_fully_verified=worst is Status.VERIFIED,
            is_fully_accounted=True,
            overall_status=worst,
        ),
        usage=Usage(used=7, remaining=93, limit=100),
    )


class TestResultHtml:
    """One result rendered as a one-row table."""

    @pytest.mark.parametrize(
        ("status", "colour"),
        [
            (Status.VERIFIED, "#1a7f37"),
            (Status.WARNING, "#9a6700"),
            (Status.CRITICAL, "#cf222e"),
        ],
    )
    def test_status_shown_in_words_and_colour(self, status: Status, colour: str) -> None:
        """The status is written out and drawn in its own colour, so it reads without colour."""
        html = make_result(status=status)._repr_html_()
        assert colour in html
        assert status.value in "".join(structure(html).text)

    def test_outcome_shown_when_it_adds_to_the_status(self) -> None:
        """A warning's outcome (e.g. mismatch) appears beside the status."""
        html = result_html(make_result(status=Status.WARNING, outcome="mismatch"))
        assert "mismatch" in "".join(structure(html).text)

    def test_failed_comparisons_listed_with_cited_and_found(self) -> None:
        """What differed shows each failed attribute with both values; matches are not listed."""
        comparisons = (
            Comparison("year", "1965", "1966", match=False),
            Comparison("caseName", "Miranda v. Arizona", "Miranda v. Arizona", match=True),
            Comparison("pinpoint", "999", None, match=False),
        )
        html = result_html(
            make_result(status=Status.WARNING, outcome="mismatch", comparisons=comparisons)
        )
        text = " ".join(structure(html).text)
        assert "year" in text
        assert "1965" in text
        assert "1966" in text
        assert "pinpoint" in text
        assert "none" in text  # a null found value is named, not printed as "None"
        assert "caseName" not in text

    def test_all_comparisons_matching_says_what_agreed(self) -> None:
        """When every compared attribute matched, the cell says which ones were compared."""
        comparisons = (Comparison("year", "1973", "1973", match=True),)
        html = result_html(make_result(comparisons=comparisons))
        assert "agrees on year" in " ".join(structure(html).text)

    def test_authority_and_link(self) -> None:
        """The authority found is named with year and court, with a link to read it."""
        html = result_html(make_result(opinion=make_opinion()))
        parsed = structure(html)
        text = " ".join(parsed.text)
        assert "Roe v. Wade (1973)" in text
        assert "Supreme Court of the United States" in text
        assert parsed.hrefs == ["https://supreme.justia.com/cases/federal/us/410/113/"]
        assert 'rel="noopener noreferrer"' in html

    def test_no_opinion_no_link(self) -> None:
        """A result without an opinion has no link."""
        html = result_html(make_result(status=Status.CRITICAL, outcome="not_found"))
        assert structure(html).hrefs == []

    @pytest.mark.parametrize(
        "url",
        [
            "javascript:alert(1)",
            " JavaScript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "//evil.example/x",
            "ftp://example.com/x",
            "http://[::1",
        ],
    )
    def test_only_http_urls_become_links(self, url: str) -> None:
        """A URL that is not absolute http(s) is shown as text, never as a clickable link."""
        html = result_html(make_result(opinion=make_opinion(url=url)))
        parsed = structure(html)
        assert parsed.hrefs == []
        assert "<script" not in html

    def test_long_quotation_is_cut(self) -> None:
        """A long quotation is cut with an ellipsis; the full text stays in the Result."""
        snippet = "word " * 200
        html = result_html(make_result(quote=Quote(matched=True, snippet=snippet)))
        assert "\u2026" in html
        assert len(html) < len(snippet) + 3000

    def test_quotation_shown_above_its_citation(self) -> None:
        """A quote result shows the quoted words and the parent's citation."""
        html = result_html(make_result(quote=Quote(matched=False, snippet="the right of privacy")))
        text = " ".join(structure(html).text)
        assert "the right of privacy" in text
        assert "Roe v. Wade, 410 U.S. 113 (1973)" in text

    def test_hostile_strings_everywhere_are_escaped(self) -> None:
        """Markup in any field (id, citation, message, names, values, URL) is shown as text."""
        result = make_result(
            id=HOSTILE,
            raw=HOSTILE,
            message=HOSTILE,
            outcome=HOSTILE,
            status=Status.WARNING,
            comparisons=(Comparison(HOSTILE, HOSTILE, HOSTILE, match=False),),
            opinion=Opinion(
                court=Court(name=HOSTILE),
                case_name=HOSTILE,
                citations=(HOSTILE,),
                documents=(Document(provider=HOSTILE, url='https://x.example/"><script>'),),
            ),
            quote=Quote(matched=True, snippet=HOSTILE),
        )
        html = result_html(result)
        parsed = structure(html)
        assert "<script" not in html.lower()
        assert set(parsed.tags) <= ALLOWED_TAGS
        assert parsed.balanced
        assert HOSTILE in "".join(parsed.text)
        assert parsed.hrefs == ['https://x.example/"><script>']  # the attribute stayed intact

    @given(
        raw=st.text(max_size=200),
        message=st.text(max_size=200),
        name=st.text(max_size=100),
    )
    def test_any_text_stays_text(self, raw: str, message: str, name: str) -> None:
        """Whatever the strings, the output holds only our own tags and shows the strings."""
        result = make_result(
            raw=raw, message=message, opinion=make_opinion(name=name), status=Status.WARNING
        )
        parsed = structure(result_html(result))
        assert set(parsed.tags) <= ALLOWED_TAGS
        assert parsed.balanced
        seen = "".join(parsed.text)
        # HTMLParser reports text with \r normalised away; compare what a reader sees.
        for value in (raw, message, name):
            assert value.replace("\r", "") in seen.replace("\r", "")


class TestResponseHtml:
    """A response: a summary line and one row per result."""

    def test_one_row_per_result_in_order(self) -> None:
        """Each result has its own row, in the response's order, under one header row."""
        results = (
            make_result(id="a"),
            make_result(id="b", status=Status.CRITICAL, outcome="not_found"),
            make_result(id="c", status=Status.WARNING, outcome="unverified"),
        )
        html = make_response(results)._repr_html_()
        assert html.count("<tr>") == len(results) + 1
        assert html.index(">a</td>") < html.index(">b</td>") < html.index(">c</td>")

    def test_summary_line(self) -> None:
        """The summary shows the overall status in colour and the counts, billing and usage."""
        results = (make_result(), make_result(id="2", status=Status.CRITICAL, outcome="not_found"))
        html = response_html(make_response(results))
        head = html.split("<table", 1)[0]
        text = " ".join(structure(head).text)
        assert "critical" in text
        assert "#cf222e" in head
        assert "1 verified, 0 warning, 1 critical of 2" in text
        assert "usage 7 of 100 (93 left)" in text


def _case(raw: str = "Roe v. Wade, 410 U.S. 113, 153 (1973)") -> CaseCitation:
    return CaseCitation(
        raw=raw,
        normalized="410 U.S. 113",
        system="us-reporter",
        volume="410",
        reporter="U.S.",
        page="113",
        pin=Pinpoint("153", 153, 153),
        year=1973,
        case_name="Roe v. Wade",
        court=CourtRef("scotus", "Supreme Court of the United States", "us", ""),
        parallels=(
            CaseCitation(
                raw="93 S. Ct. 705",
                normalized="93 S. Ct. 705",
                system="us-reporter",
                volume="93",
                reporter="S. Ct.",
                page="705",
            ),
        ),
    )


class TestParsedHtml:
    """Parse results rendered as a table of the fields they carry."""

    def test_case_citation_fields(self) -> None:
        """A case citation shows its normalised form, parts, pin, court and parallels."""
        html = _case()._repr_html_()
        text = " ".join(structure(html).text)
        assert "case citation" in text
        for expected in ("410 U.S. 113", "U.S.", "153", "1973", "Roe v. Wade", "93 S. Ct. 705"):
            assert expected in text
        assert "Supreme Court of the United States (scotus)" in text

    def test_empty_fields_left_out(self) -> None:
        """Fields a parser left empty get no row."""
        html = _case()._repr_html_()
        assert "nominative" not in html

    @pytest.mark.parametrize(
        ("parsed", "expected"),
        [
            (
                StatuteCitation(
                    raw="15 U.S.C. § 78j(b)",
                    normalized="15 U.S.C. § 78j(b)",
                    system="usc",
                    code="U.S.C.",
                    title="15",
                    section="78j",
                    subdivisions=("b",),
                ),
                ("statute citation", "78j", "U.S.C."),
            ),
            (
                RuleCitation(
                    raw="FRCP 12(b)(6)",
                    normalized="Fed. R. Civ. P. 12(b)(6)",
                    ruleset="frcp",
                    rule="12",
                    subdivisions=("b", "6"),
                ),
                ("rule citation", "frcp", "b; 6"),
            ),
            (
                ConstitutionCitation(
                    raw="First Amendment",
                    normalized="U.S. Const. amend. I",
                    part="amendment",
                    number=1,
                ),
                ("constitution citation", "amendment", "U.S. Const. amend. I"),
            ),
            (
                LinkCitation(
                    raw="https://supreme.justia.com/cases/federal/us/410/113/",
                    normalized="https://supreme.justia.com/cases/federal/us/410/113/",
                    scheme="https",
                    host="supreme.justia.com",
                    source="justia",
                    target=_case("410 U.S. 113"),
                ),
                ("link", "justia", "410 U.S. 113"),
            ),
        ],
    )
    def test_each_kind(self, parsed: object, expected: tuple[str, ...]) -> None:
        """Every kind of parse result renders its label and its main fields."""
        html = parsed._repr_html_()  # type: ignore[attr-defined]
        text = " ".join(structure(html).text)
        for value in expected:
            assert value in text

    def test_not_a_citation_is_a_warning_with_its_message(self) -> None:
        """Text that did not parse shows a warning, the kind expected and the parser's message."""
        parsed = NotACitation("case", "hello", "expected a case citation such as '410 U.S. 113'")
        html = parsed._repr_html_()
        text = " ".join(structure(html).text)
        assert "#9a6700" in html
        assert "not a case citation" in text
        assert "expected a case citation" in text

    def test_hostile_parse_result_is_escaped(self) -> None:
        """Markup in the raw text or message of a parse result is shown as text."""
        html = parsed_html(NotACitation(HOSTILE, HOSTILE, HOSTILE))
        parsed = structure(html)
        assert "<script" not in html.lower()
        assert set(parsed.tags) <= ALLOWED_TAGS
        assert parsed.balanced
        assert _case(HOSTILE)._repr_html_().lower().count("<script") == 0


class TestFromThePipeline:
    """A response made by ``verify`` (not by hand) renders what the pipeline found."""

    def test_mismatch_row_shows_the_year_and_the_link(self) -> None:
        """A wrong year shows as cited/found in its row, with the authority and its link."""
        import datetime as dt

        import citeverify
        from citeverify.citations import CaseCitation, parse
        from citeverify.providers import Authority, Memory

        if not isinstance(parse("384 U.S. 436"), CaseCitation):
            pytest.skip("the case parser is a placeholder here")
        miranda = Authority(
            kind="case",
            reference="test:miranda",
            provider="test",
            citations=("384 U.S. 436",),
            name="Miranda v. Arizona",
            court=Court(name="Supreme Court of the United States", jurisdiction="us"),
            court_id="scotus",
            decided=dt.date(1966, 6, 13),
            documents=(Document(provider="justia", url="https://supreme.justia.com/us/384/436/"),),
        )
        response = citeverify.verify(
            [{"id": "m", "type": "case", "rawText": "Miranda v. Arizona, 384 U.S. 436 (1965)"}],
            provider=Memory([miranda], complete={"U.S."}),
        )
        html = response._repr_html_()
        parsed = structure(html)
        text = " ".join(parsed.text)
        assert "mismatch" in text
        assert "year : cited 1965, found 1966" in text  # <b>year</b>: cited ..., found ...
        assert "Miranda v. Arizona (1966)" in text
        assert parsed.hrefs == ["https://supreme.justia.com/us/384/436/"]


class TestQuoteMarksAndUsage:
    def test_quotation_marks_are_not_doubled(self) -> None:
        """A quotation that brings its own marks is not wrapped in a second pair."""
        own = make_result(quote=Quote(matched=True, snippet="\u201cTrue threats\u201d encompass"))
        assert "\u201c\u201c" not in result_html(own)
        bare = make_result(quote=Quote(matched=True, snippet="True threats encompass"))
        assert "\u201cTrue threats encompass\u201d" in result_html(bare)

    def test_unlimited_library_meter_shows_no_quota(self) -> None:
        """The library's unlimited default meter is not shown as a 2-billion quota."""
        from citeverify._meter import UNLIMITED

        response = make_response((make_result(),))
        unlimited = Response(
            results=response.results,
            summary=response.summary,
            usage=Usage(used=3, remaining=UNLIMITED - 3, limit=UNLIMITED),
        )
        assert "no quota" in response_html(unlimited)
        assert str(UNLIMITED) not in response_html(unlimited)
        assert "usage 7 of 100" in response_html(response)
