"""The quotation locator: normalisation, parsing, near misses, pages, one scan, hostile input."""

from __future__ import annotations

import time
from typing import Any

import pytest

import citeverify.quotes._locate as locate_module
from citeverify.providers._base import AuthorityText
from citeverify.quotes import (
    MAX_BRACKET_WORDS,
    MAX_ELLIPSIS_WORDS,
    QuoteIndex,
    QuoteMatch,
    locate,
    normalize,
)
from citeverify.quotes._parse import Gap, Segment, Wild, parse_quote
from tests.test_quotes_corpus import cited_opinions, cited_text, slip_opinions, star_pages


def _words(text: str) -> list[str]:
    return normalize(text)[0].split()


class TestNormalize:
    def test_case_compatibility_forms_and_accents_fold(self) -> None:
        """Case, ligatures and accents do not distinguish words."""
        assert _words("The ﬁnal DÉCISION of Señor Müller") == [
            "the",
            "final",
            "decision",
            "of",
            "senor",
            "muller",
        ]

    def test_quotes_dashes_and_whitespace_separate_words(self) -> None:
        """Curly or straight quotation marks, dashes and line breaks are only separators."""
        assert _words("“at  home”—in\nthe ‘State’") == _words("\"at home\" -- in the 'State'")

    def test_words_hyphenated_across_lines_join(self) -> None:
        """A hyphen at a line end joins the word, as an in-line hyphen does."""
        assert _words("juris-\n   diction of subject-\nmatter") == [
            "jurisdiction",
            "of",
            "subjectmatter",
        ]
        assert _words("subject-matter") == ["subjectmatter"]

    def test_soft_hyphens_and_apostrophes_join(self) -> None:
        """A soft hyphen (with its break) and an apostrophe inside a word join it."""
        assert _words("com\xad\nplaint doesn’t") == ["complaint", "doesnt"]

    def test_footnote_markers_go(self) -> None:
        """Footnote numbers glued after punctuation or in brackets are dropped; numbers stay."""
        assert _words("jurisdiction.1 Then held.”2 A[3] Rule 3.131 and 1078. 4") == [
            "jurisdiction",
            "then",
            "held",
            "a",
            "rule",
            "3",
            "131",
            "and",
            "1078",
            "4",
        ]

    def test_star_page_markers_go_even_mid_word(self) -> None:
        """Plain and HTML star-page markers vanish, joining a word they split."""
        html = 'juris<span class="star-pagination">*153</span>diction and *154 more'
        assert _words(html) == ["jurisdiction", "and", "more"]

    def test_markup_and_entities(self) -> None:
        """Tags go (block tags separate), entities decode, an entity apostrophe joins."""
        assert _words("<p>Chiarella&#8217;s <i>rule</i></p><p>next&nbsp;one</p>") == [
            "chiarellas",
            "rule",
            "next",
            "one",
        ]

    def test_slip_opinion_headers_vanish_across_pages(self) -> None:
        """A hyphenated word broken by a page header and a footnote block reads whole."""
        text = (
            "the United States un-\n——————\n  1 A footnote here.\n"
            "\x0c2                  BNSF R. CO. v. TYRRELL\n\n"
            "                     Opinion of the Court\n\n    der this chapter"
        )
        words = _words(text)
        assert words[:6] == ["the", "united", "states", "under", "this", "chapter"]
        assert words[6:] == ["a", "footnote", "here"]  # moved after the body
        assert "tyrrell" not in words
        assert "opinion" not in words

    def test_offset_map_points_into_the_original(self) -> None:
        """Every normalised character maps to the original character it was read from."""
        text = "“Juris-\ndiction” at *7 HOME—and [1] the ﬁle"
        norm, where = normalize(text)
        assert len(where) == len(norm)
        for i, char in enumerate(norm):
            if char != " ":
                original = text[where[i]]
                assert original.casefold() == char or original in "ﬁ"
        assert list(where) == [where[i] for i in range(len(norm))]

    def test_offset_map_rejects_out_of_range(self) -> None:
        """The map is a proper sequence: indexing past its end raises IndexError."""
        _, where = normalize("one two")
        assert where[-1] == where[len(where) - 1]
        with pytest.raises(IndexError):
            where[len(where)]

    def test_real_slip_opinion_has_no_header_words(self) -> None:
        """No 'Cite as' running head survives in a normalised slip opinion."""
        text = slip_opinions()[0]["plain_text"]
        assert "Cite as:" in text
        assert " cite as " not in normalize(text)[0]

    def test_html_and_plain_versions_read_alike(self) -> None:
        """CourtListener's HTML and the same opinion's plain text normalise to the same words."""
        record = cited_opinions()["420 U.S. 103"]
        assert normalize(record["html"])[0] == normalize(record["plain_text"])[0]


class TestParseQuote:
    def test_ellipsis_spellings_are_ordered_gaps(self) -> None:
        """Every ellipsis spelling becomes one gap of up to MAX_ELLIPSIS_WORDS words."""
        for mark in (". . .", "...", "…", ". . . .", "* * *", "[...]"):
            parsed = parse_quote(f"first words {mark} last words")
            assert parsed.gaps == (Gap(0, MAX_ELLIPSIS_WORDS, "ellipsis", parsed.gaps[0].span),)
            assert [u.words for u in parsed.units if isinstance(u, Segment)] == [
                ("first", "words"),
                ("last", "words"),
            ]

    def test_bracketed_letters_make_a_wild_word(self) -> None:
        """[t]he and d[id] stand for one word with the unbracketed letters."""
        parsed = parse_quote("[T]he railroad d[id] business")
        first, _, third, _ = parsed.units
        assert first == Wild("", "he", (0, 5))
        assert isinstance(third, Wild)
        assert third.prefix == "d"
        assert third.accepts("do")
        assert not third.accepts("was")

    def test_standalone_bracket_replaces_a_few_words(self) -> None:
        """A bracketed insertion between words is a gap of up to MAX_BRACKET_WORDS."""
        parsed = parse_quote("courts of [the State] may hear")
        assert parsed.gaps[0].kind == "bracket"
        assert parsed.gaps[0].high == MAX_BRACKET_WORDS

    def test_editorial_notes_are_dropped(self) -> None:
        """[sic], [emphasis added] and a trailing explanatory parenthetical are not words."""
        parsed = parse_quote(
            "the Court ha[s] [sic] held [emphasis added] that (internal quotation marks omitted)."
        )
        words = [w for u in parsed.units if isinstance(u, Segment) for w in u.words]
        assert words == ["the", "court", "held", "that"]
        assert all(g.kind == "none" for g in parsed.gaps)

    def test_leading_and_trailing_gaps_are_dropped(self) -> None:
        """An ellipsis at either end of a quotation constrains nothing."""
        parsed = parse_quote("... in the State ...")
        assert parsed.gaps == ()
        assert parsed.word_count == 3

    def test_nothing_to_parse(self) -> None:
        """Empty, punctuation-only and ellipsis-only quotations have no units."""
        for quote in ("", "  ", "“”—!?", ". . . " * 50, "[]", "[sic]"):
            assert parse_quote(quote).is_empty


TEXT = (
    "The Montana courts could not exercise general personal jurisdiction over BNSF, "
    "because the railroad is not at home in Montana. A state court may exercise "
    "jurisdiction only when the corporation's affiliations with the State are so "
    "continuous and systematic as to render it essentially at home in the forum State. "
    "Section 56 does not address personal jurisdiction over railroads."
)


@pytest.fixture
def index() -> QuoteIndex:
    return QuoteIndex(AuthorityText(TEXT, pages=((0, 411), (TEXT.index("A state court"), 412))))


class TestLocate:
    def test_verbatim_quote_is_found_with_offsets_and_passage(self, index: QuoteIndex) -> None:
        """A verbatim quotation is found at its offsets, with the authority's text."""
        match = index.locate("the railroad is not at home in Montana")
        start = TEXT.index("the railroad")
        assert match == QuoteMatch(
            "found",
            start,
            start + len("the railroad is not at home in Montana"),
            (411,),
            None,
            "the railroad is not at home in Montana",
        )

    def test_pages_covered_by_a_span(self, index: QuoteIndex) -> None:
        """A match across a page start lists both pages; one after it, only the second."""
        assert index.locate("at home in Montana. A state court may exercise").pages == (411, 412)
        assert index.locate("systematic as to render it").pages == (412,)

    def test_bluebook_alterations_are_tolerated(self, index: QuoteIndex) -> None:
        """Brackets, ellipses, [sic] and an emphasis note still locate the passage."""
        quote = (
            "[a] state court may exercise jurisdiction only when [a company's] affiliations "
            "with the State are so continuous . . . as to render it essentially at home "
            "[sic] in the forum State (emphasis added)."
        )
        match = index.locate(quote)
        assert match.status == "found"
        assert match.passage is not None
        # "[a]" replaces a word: the match begins after it.
        assert match.passage.startswith("state court may exercise")
        assert match.passage.endswith("forum State")

    @pytest.mark.parametrize(
        ("quote", "message"),
        [
            (
                "A state court shall exercise jurisdiction only when",
                "'shall' where the authority says 'may'",
            ),
            ("because the railroad is at home in Montana", "'not' omitted"),
            ("because the railroad is not home at in Montana", "words in another order"),
            ("A state court may exercise jurisdiction when", "'only' omitted"),
            (
                "A state court may exercise jurisdiction only when the corporation's "
                "affiliations are so continuous",
                "'with the State' omitted",
            ),
            (
                "Section 56 does not address personal jurisdiction over all railroads",
                "'all' is not in the authority",
            ),
        ],
    )
    def test_near_misses_name_the_difference(
        self, index: QuoteIndex, quote: str, message: str
    ) -> None:
        """A changed, dropped, added or reordered word is a near miss that says so."""
        match = index.locate(quote)
        assert match.status == "near"
        assert match.message is not None
        assert message in match.message
        assert match.passage is not None

    def test_long_gap_without_ellipsis_is_named(self, index: QuoteIndex) -> None:
        """Several omitted words without an ellipsis are a 'gap without an ellipsis'."""
        match = index.locate(
            "The Montana courts could not exercise general personal jurisdiction in Montana. "
            "A state court may exercise"
        )
        assert match.status == "near"
        assert match.message is not None
        assert "gap without an ellipsis" in match.message

    def test_omitted_citation_is_tolerated(self) -> None:
        """A quotation that drops a citation without an ellipsis is found, with a note."""
        text = AuthorityText(
            "The paradigm forums are the place of incorporation, Daimler, 571 U. S., at 137, "
            "and the principal place of business of the corporation."
        )
        match = locate(
            "The paradigm forums are the place of incorporation and the principal place of "
            "business of the corporation",
            text,
        )
        assert match.status == "found"
        assert match.message == "citation omitted"

    def test_unrelated_quote_is_absent(self, index: QuoteIndex) -> None:
        """Words from nowhere in the text are absent."""
        assert index.locate("the quality of mercy is not strained").status == "absent"

    def test_ellipsis_gap_is_bounded(self) -> None:
        """An ellipsis bridges at most MAX_ELLIPSIS_WORDS words."""
        filler = " ".join(f"w{i}" for i in range(MAX_ELLIPSIS_WORDS + 5))
        text = AuthorityText(f"alpha beta gamma {filler} delta epsilon zeta")
        assert locate("alpha beta gamma ... delta epsilon zeta", text).status != "found"
        near = " ".join(f"w{i}" for i in range(MAX_ELLIPSIS_WORDS - 5))
        text = AuthorityText(f"alpha beta gamma {near} delta epsilon zeta")
        assert locate("alpha beta gamma ... delta epsilon zeta", text).status == "found"

    def test_prefer_page_picks_the_occurrence_on_the_pin(self) -> None:
        """Of two occurrences, the one on the preferred page is returned."""
        text = AuthorityText(
            "so continuous and systematic as to render it at home. " * 2,
            pages=((0, 10), (55, 11)),
        )
        index = QuoteIndex(text)
        assert index.locate("continuous and systematic as to render").pages == (10,)
        assert index.locate("continuous and systematic as to render", prefer_page=11).pages == (11,)

    def test_paragraph_is_reported(self) -> None:
        """The paragraph a match starts in comes from AuthorityText.paragraphs."""
        text = AuthorityText(
            "First paragraph words. Second paragraph words here.", paragraphs=(0, 23)
        )
        assert locate("second paragraph words here", text).paragraph == 2
        assert locate("first paragraph words", text).paragraph == 1


class TestPagesFromMarkup:
    def test_star_pagination_spans_give_pages(self) -> None:
        """Without given pages, CourtListener's star-pagination spans number the pages."""
        record = cited_opinions()["420 U.S. 103"]
        index = QuoteIndex(AuthorityText(record["html"]))
        assert [page for _, page in index.pages] == [page for _, page in star_pages(record)[1:]]
        plain = QuoteIndex(cited_text("420 U.S. 103"))
        quote = "the issue in this case is whether a person arrested and held for trial"
        assert index.locate(quote).pages == plain.locate(quote).pages

    def test_footnote_at_the_end_takes_the_page_of_its_call(self) -> None:
        """A footnote printed after the opinion is on the page where the body calls it."""
        record = cited_opinions()["458 U.S. 176"]
        index = QuoteIndex(AuthorityText(record["html"]))
        match = index.locate("every handicapped child who is advancing from grade to grade")
        assert match.status == "found"
        call = record["html"].index("<sup>[25]</sup>")
        page = [p for o, p in index.pages if o <= call][-1]
        assert match.pages == (page,)

    def test_paragraph_numbers_from_markup(self) -> None:
        """CourtListener's numbered paragraphs give the paragraph of a match."""
        record = cited_opinions()["532 U.S. 234"]
        index = QuoteIndex(AuthorityText(record["html"]))
        match = index.locate(
            "In this appeal, we review a three-judge District Court's determination"
        )
        assert match.paragraph == 1


class TestOneScan:
    def test_locate_many_scans_the_text_once(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Many quotations cost one automaton scan and one normalisation of the text."""
        scans: list[int] = []
        normalisations: list[int] = []
        automata = getattr(locate_module, "ahocorasick")  # noqa: B009
        real_automaton = automata.Automaton
        real_normalize = getattr(locate_module, "normalize_text")  # noqa: B009

        class Counting:
            def __init__(self) -> None:
                self.inner: Any = real_automaton()

            def __getattr__(self, name: str) -> Any:
                return getattr(self.inner, name)

            def iter(self, text: str) -> Any:
                scans.append(len(text))
                return self.inner.iter(text)

        def counting_normalize(text: str, **kwargs: Any) -> Any:
            normalisations.append(len(text))
            return real_normalize(text, **kwargs)

        monkeypatch.setattr(automata, "Automaton", Counting)
        monkeypatch.setattr(locate_module, "normalize_text", counting_normalize)
        text = cited_opinions()["511 U.S. 738"]["plain_text"]
        index = QuoteIndex(AuthorityText(text))
        words = text.split()
        quotes = [" ".join(words[i : i + 12]) for i in range(400, 4400, 80)]
        results = index.locate_many(quotes)
        assert len(scans) == 1
        assert normalisations == [len(text)]
        assert sum(r.status == "found" for r in results) >= 40

    def test_locate_many_agrees_with_locate(self) -> None:
        """Locating together gives the same answers as locating one by one."""
        text = cited_text("483 U.S. 107")
        index = QuoteIndex(text)
        words = text.text.split()
        quotes = [" ".join(words[i : i + 10]) for i in range(300, 3000, 300)]
        quotes += ["absent words here entirely", "", "…"]
        assert index.locate_many(quotes) == [index.locate(q) for q in quotes]


def _timed(function: Any) -> tuple[float, Any]:
    started = time.perf_counter()
    result = function()
    return time.perf_counter() - started, result


class TestHostileInput:
    @pytest.mark.parametrize(
        "quote",
        [
            "the " * 2500,
            "jurisdiction " * 800,
            ". . . " * 5000,
            "..." * 5000,
            "",
            "!?,;:“”—" * 200,
            "[" * 3000 + "]" * 3000,
            "(emphasis " * 2000,
            "[t]he " * 2000,
            "a-\n" * 3000,
            "\x00\x0c\u200b" * 1000,
        ],
        ids=lambda q: repr(q[:12]),
    )
    def test_never_raises_and_stays_fast(self, quote: str) -> None:
        """Degenerate quotations of up to 10,000+ characters answer in well under a second."""
        index = QuoteIndex(AuthorityText(slip_opinions()[0]["plain_text"]))
        elapsed, match = _timed(lambda: index.locate(quote))
        assert match.status in {"found", "near", "absent"}
        assert elapsed < 1.0

    def test_repetitive_text_and_quote(self) -> None:
        """A text and a quotation of one repeated word stay bounded."""
        text = AuthorityText("the " * 50_000)
        elapsed, match = _timed(lambda: locate("the " * 2500 + "end", text))
        assert match.status in {"near", "absent"}
        assert elapsed < 1.0

    def test_hostile_authority_text(self) -> None:
        """Unclosed markup, stray form feeds and footnote rules in a text do not break it."""
        text = AuthorityText(
            "<span class='star-pagination'>*1 <p>" * 500
            + "\x0c" * 300
            + "——————\n" * 300
            + "real words at the end"
        )
        match = locate("real words at the end", text)
        assert match.status == "found"
        assert match.passage == "real words at the end"
