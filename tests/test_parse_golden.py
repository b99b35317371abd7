"""``parse`` gives, on twenty thousand real and realistic inputs, exactly what it gave before.

``tests/data/parse_golden/golden.jsonl.gz`` was written by
``tests/data/parse_golden/generate.py`` with the parser as it was before it was made
faster (issue 17): the benchmark's Supreme Court citation strings and variants of
them, court parentheticals, reporters-db's examples, the citation corpus and the
citation tests' own inputs as every kind, and running text from the OT2016
opinions.  Each result is compared by its ``repr``, which names every field of the
result and of its pins, court and parallels.

The second half compares ``case._common_shape``, the fast path for the common
``Name, VOL REPORTER PAGE[, PIN] (COURT YEAR)`` shape, with the general path on those
inputs and on Hypothesis-generated citations of every reporter.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citeverify.citations import ParsedCitation, _parse, cache_clear, case, parse
from citeverify.citations._tables import tables
from citeverify.citations._text import clean

GOLDEN = Path(__file__).parent / "data" / "parse_golden" / "golden.jsonl.gz"


def _load() -> list[tuple[str, str, str]]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as handle:
        return [tuple(json.loads(line)) for line in handle]  # type: ignore[misc]


def test_golden_set_is_broad() -> None:
    """The set covers every kind and thousands of case citations, read and refused."""
    rows = _load()
    kinds = {kind for kind, _, _ in rows}
    assert kinds == {"case", "statute", "rule", "constitution", "link"}
    case_results = [expected for kind, _, expected in rows if kind == "case"]
    assert sum(r.startswith("CaseCitation(") for r in case_results) > 10_000
    assert sum(r.startswith("NotACitation(") for r in case_results) > 500
    assert sum("court=CourtRef(" in r for r in case_results) > 500
    assert sum("parallels=(CaseCitation(" in r for r in case_results) > 100


def test_parse_matches_golden() -> None:
    """Every input parses to the pinned result, through the cached and the uncached entry."""
    cache_clear()
    mismatches = []
    for kind, text, expected in _load():
        for got in (parse(text, kind), _parse(text, kind)):
            if repr(got) != expected:
                mismatches.append((kind, text, expected, repr(got)))
                break
    cache_clear()
    assert not mismatches, f"{len(mismatches)} differ; first: {mismatches[:3]}"


# --- the common-shape fast path against the general path -------------------------------


def _both(text: str) -> tuple[ParsedCitation | None, ParsedCitation]:
    """What the fast path gives (``None``: not its shape) and what the general path gives."""
    cleaned = clean(text)
    return case._common_shape(text, cleaned), case._parse_general(text, cleaned)


def test_fast_path_agrees_on_golden_inputs() -> None:
    """On every case input of the golden set the fast path takes, it gives the general result."""
    taken = 0
    for kind, text, _ in _load():
        if kind != "case":
            continue
        fast, general = _both(text)
        if fast is not None:
            taken += 1
            assert fast == general, text
    assert taken > 5_000


def test_fast_path_takes_the_benchmark_shape() -> None:
    """Every ``Name, VOL U.S. PAGE, PIN (YEAR)`` and court-parenthetical string is read fast."""
    shapes = [
        "Roe v. Wade, 410 U.S. 113, 153 (1973)",
        "Roe v. Wade, 410 U.S. 113 (1973)",
        "410 U.S. 113",
        "Varghese v. China S. Airlines Co., 925 F.3d 1339, 1345 (11th Cir. 2019)",
        "Doe v. Roe, 100 F. Supp. 2d 200, 205 (S.D.N.Y. 2000)",
    ]
    for text in shapes:
        fast, general = _both(text)
        assert fast is not None, text
        assert fast == general


def _reporter_spellings() -> list[str]:
    canonicals = sorted({e.canonical for es in tables().reporters.values() for e in es})
    return [*canonicals, "U. S.", "US", "u.s.", "F.3d", "F. 3d", "S.Ct.", "L.Ed.2d", "(So.", "So"]


_NAMES = st.sampled_from(
    [
        "Roe v. Wade",
        "See Roe v. Wade",
        "See, e.g., Roe v. Wade",
        "Roe v. Wade 2",
        "Local 1199 v. Doe",
        "Doe No. 4 v. Roe",
        "T. Smith v. Jones",
        "People v. Anderson (1987)",
        "Viking v. Moriana (2022) _ U.S. _",
        "Viking v. Moriana [",
        "Rogers v Rogers (",
        "*Roe v. Wade*",
        "ECLI:EU:C:2014:317",
        "12 F. 3,",
        "",
        "Stra\u00dfe v. \u00c9tat",
        "R. A. V. v. St. Paul",
    ]
)
_COURT_PARTS = st.sampled_from(
    [
        "",
        "11th Cir. ",
        "2d Cir. ",
        "S.D.N.Y. ",
        "D. Mass. ",
        "Cal. ",
        "So. ",
        "S. ",
        "T.C. ",
        "No. 5 ",
        "Jan. 5, ",
        "per curiam",
        "en banc ",
        "Fed. Cir. ",
        "N.D. ",
        "U.S. ",
        "1st ",
        "District Court, W.D. Texas ",
    ]
)


@st.composite
def _citations(draw: st.DrawFn) -> str:
    name = draw(_NAMES)
    separator = draw(st.sampled_from([", ", " ", ",  ", ",\n", "; ", ""]))
    volume = draw(st.sampled_from(["410", "1", "2015", "1986", "12345", "17A", "2019"]))
    reporter = draw(st.sampled_from(_reporter_spellings()))
    page = draw(st.sampled_from(["113", "1", "1339", "12345678", "___", "113A", "lxiv", "2d"]))
    pin = draw(
        st.sampled_from(
            [
                "",
                ", 153",
                ", 1345",
                ", 12345",
                ", 1234567",
                ", 153-54",
                ", at 153",
                ", *3",
                ", 153 n.5",
                ", 153, 155",
                " 153",
                ", 93 S. Ct. 705",
                ", 2019",
            ]
        )
    )
    court = draw(_COURT_PARTS)
    year = draw(st.sampled_from(["1973", "2019", "1600", "", "73"]))
    paren = draw(st.sampled_from(["", " (" + court + year + ")", " [" + year + "]", " ()"]))
    tail = draw(st.sampled_from(["", ".", " (per curiam)", " ", "; see also Doe"]))
    return f"{name}{separator}{volume} {reporter} {page}{pin}{paren}{tail}"


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_citations())
def test_fast_path_agrees_on_generated_citations(text: str) -> None:
    """Citations of every reporter, with names, pins and parentheticals that could mislead."""
    fast, general = _both(text)
    if fast is not None:
        assert fast == general


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="0123456789 ,.()[]_-UuSsFdCcvVaTN;", max_size=40))
def test_fast_path_agrees_on_noise(text: str) -> None:
    """Digits, punctuation and reporter letters in any order: agreement or no fast answer."""
    fast, general = _both(text)
    if fast is not None:
        assert fast == general


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                " ",
                "  ",
                "\n",
                "\t",
                "\u00a0",
                "\u2003",
                "\x1c",
                "\x85",
                "(",
                "[",
                ")",
                "T.",
                "No.",
                "T.C.",
                "0",
                "12",
                "\u0663",
                "\u00b2",
                "a",
                "v.",
                "U.S.",
                ",",
                "(1973)",
            ]
        ),
        max_size=40,
    ).map("".join)
)
def test_short_text_tokenizer_gives_the_token_regex_tokens(text: str) -> None:
    """The tokenizer for short single-spaced text yields what ``_TOKEN.finditer`` yields.

    Unicode spaces, a digit that is decimal (``\u0663``) and one that is not
    (``\u00b2``) included: whatever ``tokenize`` does not hand to the short path
    still matches.
    """
    expected = [(m.start(), m.end(), m.group()) for m in case._TOKEN.finditer(text)]
    assert case.tokenize(text) == expected
    assert case.tokenize(text * 40) == [
        (m.start(), m.end(), m.group()) for m in case._TOKEN.finditer(text * 40)
    ]
