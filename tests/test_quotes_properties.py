"""Properties of the quotation locator over random passages of real opinions."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from citeverify.providers._base import AuthorityText
from citeverify.quotes import MAX_CALL_STEPS, QuoteIndex, normalize, quote_steps
from citeverify.quotes._locate import _fragmentary, _surely_fragmentary
from citeverify.quotes._parse import parse_quote
from citeverify.quotes._stopwords import STOPWORDS
from tests.test_quotes_corpus import (
    INTOLERABLE,
    TOLERATED,
    _check_found,
    cited_opinions,
    cited_text,
    expected_pages,
    passages,
    slip_opinions,
)

# Two opinions of each kind: star-paged older opinions, slip opinions with headers.
CITED = ("420 U.S. 103", "511 U.S. 738")
SLIP = (0, 17)

Alteration = Callable[[str, random.Random], str | None]
STATUSES = {"found", "near", "absent", "fragmentary", "unchecked"}
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def _index(key: str) -> tuple[QuoteIndex, AuthorityText, bool]:
    if key in CITED:
        text = cited_text(key)
        return QuoteIndex(text), text, False
    text = AuthorityText(slip_opinions()[int(key)]["plain_text"])
    return QuoteIndex(text), text, True


_OPINIONS = st.sampled_from([*CITED, *(str(i) for i in SLIP)])


@PROPERTY
@given(
    key=_OPINIONS,
    rng=st.randoms(use_true_random=False),
    alterations=st.lists(st.sampled_from(TOLERATED), unique=True, max_size=4),
)
def test_tolerated_alterations_are_found_at_the_passage(
    key: str, rng: random.Random, alterations: list[Alteration]
) -> None:
    """Any combination of tolerated alterations of a real passage is found there, on its page."""
    index, text, slip = _index(key)
    chosen = passages(text.text, rng, 1, slip=slip, words=(12, 30))
    if not chosen:
        return
    passage = chosen[0]
    quote, names = passage.quote, list[str]()
    order = [a for a in TOLERATED if a in alterations]
    for alteration in order:
        result = alteration(quote, rng)
        if result is not None:
            quote, names = result, [*names, alteration.__name__]
    match = index.locate(quote)
    _check_found(match, passage, names, text.text, quote)
    if text.pages and (match.start, match.end) == (passage.start, passage.end):
        assert match.pages == expected_pages(text.pages, passage.start, passage.end)


@PROPERTY
@given(
    key=_OPINIONS,
    rng=st.randoms(use_true_random=False),
    edit=st.sampled_from(INTOLERABLE),
)
def test_a_single_intolerable_edit_is_never_found(
    key: str, rng: random.Random, edit: Alteration
) -> None:
    """One changed, dropped, added or swapped word, or a dropped 'not', is never found."""
    index, text, slip = _index(key)
    for passage in passages(text.text, rng, 6, slip=slip, words=(10, 30)):
        quote = edit(passage.quote, rng)
        if quote is None:
            continue
        if " " + normalize(quote)[0] + " " in " " + normalize(text.text)[0] + " ":
            continue  # the edited words happen to be elsewhere in the text
        assert index.locate(quote).status != "found", (passage.quote, quote)
        return


@settings(max_examples=150, deadline=None)
@given(quote=st.text(max_size=400))
def test_any_quotation_is_answered_without_raising(quote: str) -> None:
    """Whatever the quotation, the answer is a QuoteMatch with a known status."""
    index, text, _ = _index(CITED[0])
    match = index.locate(quote)
    assert match.status in STATUSES
    assert match.steps <= quote_steps(quote)
    if match.start is not None and match.end is not None:
        assert text.text[match.start : match.end] == match.passage


@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=600), quote=st.text(max_size=200))
def test_any_text_and_quotation_are_answered_without_raising(text: str, quote: str) -> None:
    """Arbitrary authority text with arbitrary quotations never raises."""
    match = QuoteIndex(AuthorityText(text)).locate(quote)
    assert match.status in STATUSES
    if match.start is not None and match.end is not None:
        assert 0 <= match.start <= match.end <= len(text)
        assert text[match.start : match.end] == match.passage


_WORDS = ["the", "court", "not", "held", "montana", "railroad", "-", "[a]", "..."]


@settings(max_examples=150, deadline=None)
@given(words=st.lists(st.sampled_from(_WORDS), max_size=60))
def test_a_text_quoted_whole_is_found(words: list[str]) -> None:
    """A text made of real words is found when quoted exactly, alterations and all,
    unless it has too few words of its own to check."""
    text = " ".join(words)
    match = QuoteIndex(AuthorityText(text)).locate(text)
    own = {"not", "montana", "railroad"} & set(words)
    if len(own) == 3 and len([w for w in words if w[0].isalpha()]) >= 4:
        assert match.status == "found"
    else:
        assert match.status == "fragmentary"


@settings(max_examples=25, deadline=None)
@given(
    word=st.sampled_from(["the", "a", "jurisdiction", "...", "[t]he", "not", "§"]),
    repeats=st.integers(min_value=1000, max_value=3000),
)
def test_hostile_quotations_stay_bounded(word: str, repeats: int) -> None:
    """A quotation of one word repeated thousands of times is not found, within its budget."""
    index, _, _ = _index(CITED[1])
    quote = " ".join([word] * repeats)
    match = index.locate(quote)
    assert match.status != "found"
    assert match.steps <= quote_steps(quote)


def test_the_property_opinions_have_pages() -> None:
    """The star-paged opinions used above really carry page marks (so pages are checked)."""
    for cite in CITED:
        assert cited_text(cite).pages
        assert cited_opinions()[cite]["star_pages"]


# -- hostile quotations built from the opinions' own commonest words ------------------------

_ELLIPSES = [". . .", "...", "…", ". . . ."]
_BRACKETS = ["[t]he", "[T]he", "[did]", "[ ]", "[the State]", "o[f]", "[is]"]
#: Common words that are not stopwords: with them, a quotation is searched for in earnest.
_COMMON = ["district", "race", "jury", "federal", "evidence", "congress", "statute", "trial"]
_STOP = sorted(STOPWORDS)
#: Words the normaliser joins or folds: the quick test must read them no finer.
_JOINED = ["on-the", "court's", "n't", "Café", "ﬁnd", "follo[w]", "a]-[b", "a- be", "a-\nbe"]


@functools.cache
def _long_index() -> QuoteIndex:
    """The longest shipped slip opinion (about 180,000 characters)."""
    return QuoteIndex(AuthorityText(max((r["plain_text"] for r in slip_opinions()), key=len)))


_hostile_tokens = st.lists(
    st.one_of(
        st.sampled_from(_ELLIPSES),
        st.sampled_from(_BRACKETS),
        st.sampled_from(_STOP),
        st.sampled_from(_COMMON),
    ),
    max_size=300,
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tokens=_hostile_tokens)
def test_hostile_shapes_finish_within_the_step_budget(tokens: list[str]) -> None:
    """Ellipses, brackets and common words in any order: within budget, and a quotation
    of only stopwords, ellipses and brackets is never found."""
    quote = " ".join(tokens)
    match = _long_index().locate(quote)
    assert match.steps <= quote_steps(quote)
    if not set(tokens) & set(_COMMON):
        assert match.status == "fragmentary"
    if match.status in {"fragmentary", "unchecked"}:
        assert not match.checked
        assert match.start is None


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tokens=st.lists(st.sampled_from([*_ELLIPSES, *_STOP[:20], *_COMMON[:3]]), max_size=60))
def test_hostile_shapes_in_one_call_share_one_budget(tokens: list[str]) -> None:
    """Many such quotations in one locate_many: the call stays within MAX_CALL_STEPS."""
    quotes = [" ".join(tokens[i:] + tokens[:i]) for i in range(0, max(len(tokens), 1), 3)]
    matches = _long_index().locate_many(quotes)
    assert sum(m.steps for m in matches) <= MAX_CALL_STEPS
    for quote, match in zip(quotes, matches, strict=True):
        assert match.steps <= quote_steps(quote)


@settings(max_examples=1000, deadline=None)
@given(
    quote=st.one_of(
        st.text(max_size=120),
        st.lists(
            st.one_of(
                st.sampled_from([*_ELLIPSES, *_BRACKETS, *_STOP, *_COMMON]),
                st.sampled_from(_JOINED),
            ),
            max_size=12,
        ).map(" ".join),
    )
)
@example(quote="0:0:\u00be")  # ¾ is three words once expanded: 3, ⁄, 4
@example(quote="0:0:\u00d90:K")  # Ù0 is one word, u0, once its accent goes
def test_the_quick_fragmentary_test_agrees_with_the_parsed_one(quote: str) -> None:
    """The pre-parse shortcut never calls fragmentary a quotation the parsed rule would check."""
    if _surely_fragmentary(quote):
        assert _fragmentary(parse_quote(quote)), quote


# -- fast readings agree with the general one ------------------------------------------

_TOKENS = st.sampled_from(
    [
        *'abcXYZ \t\n.,;:!?()"_\u2018\u201c\u201d',
        "Slip",
        "Opinion",
        "(Slip Opinion)",
        *"1-'\u2019[]*<&\u2014\u00ad\x0c",
    ]
)


def _general_words(piece: str) -> list[tuple[str, tuple[int, int]]]:
    from citeverify.quotes._normalize import normalize_text

    norm = normalize_text(piece, quote=True)
    return [(norm.word(k), norm.span(k)) for k in range(norm.word_count)]


def _fast_words(piece: str) -> list[tuple[str, tuple[int, int]]] | None:
    from citeverify.quotes._parse import plain_words

    plain = plain_words(piece, 0, len(piece))
    return None if plain is None else [(m[0].lower(), m.span()) for m in plain]


@PROPERTY
@given(st.lists(_TOKENS, max_size=40).map("".join))
@example("held, (Slip Opinion) that the")
@example("we\n(Slip Opinion) held that\nthe words")
@example("the \u201cplain\u201d \u2018meaning\u2019 of_it")
def test_plain_words_read_as_normalisation_does(piece: str) -> None:
    fast = _fast_words(piece)
    if fast is not None:
        assert fast == _general_words(piece)


def test_plain_words_read_real_quotations_as_normalisation_does() -> None:
    import re

    from citeverify.document._quotes import find_quotations

    plain = 0
    for record in slip_opinions():
        for quote in find_quotations(record["plain_text"]):
            for piece in re.split(r"\.\s?\.\s?\.|\[[^\]]*\]", quote.quote):
                fast = _fast_words(piece)
                if fast is not None:
                    plain += 1
                    assert fast == _general_words(piece), piece
    assert plain > 1000  # most pieces are plain: the fast reading is the common one


_NOTE_TOKENS = st.sampled_from(
    [*"ab1 \t\n>[]", "<sup>", "</sup>", "<p>", "[12]", "[1]", " [3] ", "\n[1] ", "\n[2]\t"]
)


@PROPERTY
@given(st.lists(_NOTE_TOKENS, max_size=40).map("".join), st.integers(0, 60))
def test_footnote_patterns_read_as_their_first_spelling(text: str, last_mark: int) -> None:
    """The footnote patterns were reordered for speed; they match as the first
    spelling did (kept here as the reference)."""
    import re

    from citeverify.quotes import _locate

    call = re.compile(r"<sup>\s*\[(\d{1,3})\]\s*</sup>|(?<=[^\s>])\[(\d{1,3})\]")
    start = re.compile(r"(?:^|\n|<p>)[ \t]*\[(\d{1,3})\][ \t]")
    spans = [(m.span(), m.groups()) for m in _locate._NOTE_CALL.finditer(text)]
    assert spans == [(m.span(), m.groups()) for m in call.finditer(text)]
    later = [m.span() for m in _locate._NOTE_START.finditer(text, last_mark)]
    assert later == [m.span() for m in start.finditer(text) if m.start() >= last_mark]
