"""The quotation locator: normalisation, parsing, near misses, pages, one scan, hostile input."""

from __future__ import annotations

import importlib.util
import random
import re
from pathlib import Path
from typing import Any

import pytest

import citeverify.quotes._locate as locate_module
from citeverify.providers._base import AuthorityText
from citeverify.quotes import (
    FRAGMENTARY,
    MAX_BRACKET_WORDS,
    MAX_CALL_STEPS,
    MAX_ELLIPSIS_WORDS,
    MAX_QUOTE_STEPS,
    UNCHECKED,
    QuoteIndex,
    QuoteMatch,
    fragmentary,
    locate,
    normalize,
    quote_steps,
)
from citeverify.quotes._negation import NEGATIONS
from citeverify.quotes._parse import Gap, Segment, Wild, parse_quote
from citeverify.quotes._stopwords import STOPWORDS
from tests.test_quotes_corpus import (
    altered,
    cited_opinions,
    cited_text,
    passages,
    slip_opinions,
    star_pages,
)


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
        assert first == Wild("", "he", (0, 5), False, "the")
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
        assert index.locate("continuous and systematic as to render it").pages == (412,)

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
            "Opening paragraph words here. Second paragraph words here.", paragraphs=(0, 30)
        )
        assert locate("second paragraph words here", text).paragraph == 2
        assert locate("opening paragraph words here", text).paragraph == 1


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

    def test_footnote_at_the_end_without_its_call_has_no_page(self) -> None:
        """Without the call in the text, an end footnote's page is unknown, not the last page."""
        text = cited_text("458 U.S. 176")
        assert "[25]" not in text.text[: text.text.index("\n[1] ")]  # the calls were stripped
        match = QuoteIndex(text).locate(
            "every handicapped child who is advancing from grade to grade"
        )
        assert match.status == "found"
        assert match.pages == ()

    def test_footnote_call_in_plain_text_gives_its_page(self) -> None:
        """A plain-text call (``word.[2]``) puts the footnote on the call's page."""
        body = "Opening words of the opinion here.[1] More words follow on the second page.[2] "
        notes = "\n[1] A first note about railroads.\n[2] A second note about jurisdiction here."
        text = AuthorityText(body + notes, pages=((0, 5), (body.index("More"), 6)))
        index = QuoteIndex(text)
        assert index.locate("a second note about jurisdiction").pages == (6,)
        assert index.locate("a first note about railroads").pages == (5,)

    def test_footnote_printed_where_it_falls_is_on_its_own_page(self) -> None:
        """A footnote before the last page mark is on the page its own marker is on."""
        body = "Words of the opinion here.[1]\n[1] A note printed about railroads.\n"
        text = AuthorityText(body + "Later text on another page.", pages=((0, 5), (len(body), 6)))
        assert QuoteIndex(text).locate("a note printed about railroads").pages == (5,)

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
    def test_never_raises_and_stays_bounded(self, quote: str) -> None:
        """Degenerate quotations of up to 10,000+ characters are never found, within budget."""
        index = QuoteIndex(AuthorityText(slip_opinions()[0]["plain_text"]))
        match = index.locate(quote)
        assert match.status in {"absent", "fragmentary"}
        assert match.steps <= quote_steps(quote)

    def test_repetitive_text_and_quote(self) -> None:
        """A text and a quotation of one repeated word stay bounded and are not found."""
        text = AuthorityText("the " * 50_000)
        match = locate("the " * 2500 + "end", text)
        assert match.status == "fragmentary"
        match = locate("the fat cat " * 800 + "end", AuthorityText("the fat cat " * 20_000))
        assert match.status in {"near", "absent", "unchecked"}
        assert match.steps <= quote_steps("the fat cat " * 800 + "end")

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


# -- the work budget, fragmentary quotations, negations ----------------------------------


def _long_opinion() -> QuoteIndex:
    """The longest shipped slip opinion (Cooper v. Harris's size class), indexed once."""
    global _LONG
    if _LONG is None:
        text = max((r["plain_text"] for r in slip_opinions()), key=len)
        _LONG = QuoteIndex(AuthorityText(text))
    return _LONG


_LONG: QuoteIndex | None = None

#: Quotations whose bounded loops multiply: common phrases joined by ellipses and
#: brackets, ending in a word the text lacks, so every placement is tried in vain.
HOSTILE = [
    "the district court . . . " * 5 + "race . . . the . . . " * 40 + "zyzzyva",
    "[t]he district court . . . th[e] . . . " * 20 + "race zyzzyva",
    "of the State . . . district . . . race . . . " * 30 + "zyzzyva",
    "of the State . . . " * 3 + "district [ ] race [ ] " * 20 + "zyzzyva",
    "district court . . . race . . . jury " * 300,
]


class TestWorkBudget:
    @pytest.mark.parametrize("quote", HOSTILE, ids=lambda q: repr(q[:24]))
    def test_hostile_quotations_stay_within_their_budget(self, quote: str) -> None:
        """Multiplying loops stop at the quotation's step budget, and nothing is found."""
        match = _long_opinion().locate(quote)
        assert match.status in {"absent", "near", "unchecked"}
        assert 0 < match.steps <= quote_steps(quote)
        assert quote_steps(quote) <= MAX_QUOTE_STEPS

    def test_budget_runs_out_as_unchecked(self) -> None:
        """The two hostile shapes that exhaust their budget say so, with its message."""
        exhausted = [m for m in map(_long_opinion().locate, HOSTILE) if m.status == "unchecked"]
        assert exhausted
        for match in exhausted:
            assert match.message == UNCHECKED
            assert not match.checked
            assert match.start is None

    def test_a_found_quotation_can_run_out_of_budget(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """With a tiny budget, a quotation that is there is 'unchecked', never 'found'."""
        quote = "the railroad is not at home in Montana"
        index = QuoteIndex(AuthorityText(TEXT))
        assert index.locate(quote).status == "found"
        monkeypatch.setattr(locate_module, "MAX_QUOTE_STEPS", 3)
        match = index.locate(quote)
        assert match.status == "unchecked"
        assert match.steps <= 3

    def test_one_call_has_one_budget(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """All the quotations of one locate_many share MAX_CALL_STEPS; later ones run out."""
        index = cited_text("483 U.S. 107")
        words = index.text.split()
        quotes = [" ".join(words[i : i + 12]) for i in range(300, 6000, 300)]
        located = QuoteIndex(index)
        ordinary = located.locate_many(quotes)
        total = sum(m.steps for m in ordinary)
        monkeypatch.setattr(locate_module, "MAX_CALL_STEPS", total // 2)
        limited = located.locate_many(quotes)
        assert sum(m.steps for m in limited) <= total // 2
        assert limited[-1].status == "unchecked"
        assert "found" not in {m.status for m in limited[limited.index(limited[-1]) :]}

    def test_ordinary_quotations_use_a_small_share_of_their_budget(self) -> None:
        """Real passages, altered, use under a fifth of their budget (headroom for real text)."""
        record = slip_opinions()[4]
        rng = random.Random(4)
        chosen = passages(record["plain_text"], rng, 30, slip=True, words=(8, 40))
        quotes = [altered(p.quote, rng)[0] for p in chosen]
        for quote, match in zip(
            quotes, QuoteIndex(AuthorityText(record["plain_text"])).locate_many(quotes), strict=True
        ):
            assert match.steps <= quote_steps(quote) / 5, (quote, match)

    def test_a_megabyte_of_quotations_in_one_call(self) -> None:
        """99 quotations of 10 kB each: every one answered, none found, within the call's budget."""
        quotes = [f"the . . . {i} " + "the . . . " * 1000 for i in range(60)]
        quotes += [f"district court {i} . . . race . . . jury " * 280 for i in range(39)]
        assert sum(map(len, quotes)) > 1_000_000
        matches = _long_opinion().locate_many(quotes)
        assert {m.status for m in matches[:60]} == {"fragmentary"}
        assert "found" not in {m.status for m in matches}
        assert sum(m.steps for m in matches) <= MAX_CALL_STEPS


class TestFragmentary:
    @pytest.mark.parametrize(
        "quote",
        [
            "the … " * 20 + "th",
            "the . . . the . . . " * 10,
            "the . . . " * 1000,
            "[T]he Court . . . held . . . that",
            "of the [State] in the . . . case",
            "race race race race race",
            "equal protection",
            "",
        ],
        ids=lambda q: repr(q[:20]),
    )
    def test_degenerate_quotations_are_fragmentary(self, quote: str) -> None:
        """Only common words, ellipses and brackets, or too few words: not checked."""
        match = _long_opinion().locate(quote)
        assert match.status == "fragmentary"
        assert match.message == FRAGMENTARY == "the quotation is too fragmentary to check"
        assert not match.checked
        assert match.steps == 0
        assert fragmentary(quote)

    def test_three_words_of_its_own_are_enough(self) -> None:
        """A short quotation with three uncommon words is checked (and found)."""
        index = QuoteIndex(AuthorityText(TEXT))
        assert index.locate("general personal jurisdiction over BNSF").status == "found"
        assert index.locate("[T]he Montana courts could not").status == "found"

    def test_stopwords_are_the_committed_list(self) -> None:
        """STOPWORDS is what make_stopwords.py computes from the shipped opinions."""
        spec = importlib.util.spec_from_file_location(
            "make_stopwords", Path(__file__).parent / "data" / "quotes" / "make_stopwords.py"
        )
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        computed = module.stopwords()
        assert frozenset(computed) == STOPWORDS
        assert {"the", "of", "court"} <= STOPWORDS
        assert not STOPWORDS & NEGATIONS

    def test_local_store_does_not_claim_a_fragmentary_quotation(self) -> None:
        """LocalStore.find_quote names no source for a degenerate quotation."""
        from citeverify.providers.local import LocalStore

        store = LocalStore()
        assert store.find_quote("the … " * 20 + "th") is None
        assert store.find_quote("the . . . the . . . " * 5) is None


class TestNegations:
    TEXT = "We presume that the jury has not followed the court's instructions in this case."

    def test_a_bracket_never_absorbs_a_negation(self) -> None:
        """'[did] follo[w]' does not stand for 'has not followed': a near miss that says so."""
        match = locate("the jury [did] follo[w] the court's instructions", AuthorityText(self.TEXT))
        assert match.status == "near"
        assert match.message is not None
        assert "negation" in match.message
        assert "has not followed" in match.message

    @pytest.mark.parametrize(
        "quote",
        [
            "the jury [has not] followed the court's instructions",
            "the jury has [not] follo[w]ed the court's instructions",
            "the jury has not follo[w]ed the court's instructions",
            "the jury [never] followed the court's instructions",
        ],
    )
    def test_a_bracket_may_carry_the_negation(self, quote: str) -> None:
        """A bracket that keeps the negation (or says it) replaces its words as before."""
        assert locate(quote, AuthorityText(self.TEXT)).status == "found"

    @pytest.mark.parametrize(
        "quote",
        [
            "the jury [has not] followed the court's instructions",
            "the jury [did not] follo[w] the court's instructions",
            "the jury [n]o[t] followed the court's instructions",
        ],
    )
    def test_a_bracket_never_adds_a_negation(self, quote: str) -> None:
        """A bracketed 'not' where the authority has none is not found."""
        text = AuthorityText("We presume that the jury has followed the court's instructions.")
        assert locate(quote, text).status != "found"

    def test_in_a_real_opinion(self) -> None:
        """Every 'not' of a real opinion's passages: bracketing it away is never found."""
        record = slip_opinions()[9]
        text = record["plain_text"]
        index = QuoteIndex(AuthorityText(text))
        rng = random.Random(9)
        pool = passages(text, rng, 400, slip=True, words=(10, 24))
        tried = 0
        for passage in pool:
            found = re.search(r"\b(\w+) not (\w+)\b", passage.quote)
            if found is None or found.start() == 0 or found.end() == len(passage.quote):
                continue
            # "has not held" -> "[did] hold": the bracket swallows the negation.
            quote = (
                passage.quote[: found.start()] + "[did] " + found[2] + passage.quote[found.end() :]
            )
            assert index.locate(quote).status != "found", (passage.quote, quote)
            honest = (
                passage.quote[: found.start()]
                + "[did] not "
                + found[2]
                + passage.quote[found.end() :]
            )
            assert index.locate(honest).status in {"found", "fragmentary"}, honest
            tried += 1
        assert tried >= 5


@pytest.fixture(scope="module")
def cooper() -> tuple[QuoteIndex, str]:
    """Cooper v. Harris, 137 S. Ct. 1455, from the embedded corpus, indexed."""
    import citeverify
    from citeverify.providers import default_provider
    from citeverify.providers._base import LookupRequest

    citation = citeverify.parse("Cooper v. Harris, 137 S. Ct. 1455 (2017)")
    answer = default_provider().lookup([LookupRequest(citation)])[0]  # type: ignore[arg-type]
    authorities = getattr(answer, "authorities", ())
    text = authorities[0].text() if authorities else None
    if text is None:
        pytest.skip("the embedded corpus has no text for 137 S. Ct. 1455")
    assert len(text.text) > 100_000
    return QuoteIndex(text), text.text


class TestCooperVHarris:
    """The robustness issue's own cases, against the embedded corpus's Cooper v. Harris."""

    @pytest.mark.parametrize("repeats", [20, 100])
    def test_the_ellipsis_chain_is_fragmentary(
        self, cooper: tuple[QuoteIndex, str], repeats: int
    ) -> None:
        """'the … ' x 20 + 'th' (122 characters; 600 with x 100) is not checked, with no work."""
        match = cooper[0].locate("the … " * repeats + "th")
        assert match.status == "fragmentary"
        assert match.steps == 0

    def test_hostile_shapes_stay_in_budget(self, cooper: tuple[QuoteIndex, str]) -> None:
        """Searchable hostile shapes stop within their budget and are never found."""
        for quote in HOSTILE:
            match = cooper[0].locate(quote)
            assert match.status != "found"
            assert match.steps <= quote_steps(quote)

    def test_a_real_quotation_is_still_found(self, cooper: tuple[QuoteIndex, str]) -> None:
        """An ordinary passage of the opinion is found, using a small share of its budget."""
        quote = " ".join(cooper[1].split()[5000:5030])
        match = cooper[0].locate(quote)
        assert match.status == "found"
        assert match.steps <= quote_steps(quote) / 5
