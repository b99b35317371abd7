"""The literal-first fast paths of ``find`` give exactly what the plain patterns give.

Each fast path replaces a regex that the engine tries at every offset with
one tried only where a match can begin; these tests compare the two over the
50 October Term 2016 opinions (cleaned as ``find`` cleans them) and over
strings made to sit on the edges (marks at the text's ends, matches inside
matches, lookbehinds that refuse).
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeverify.citations import _find
from citeverify.citations._text import clean

OPINIONS = Path(__file__).resolve().parent / "data" / "quotes" / "scotus_ot2016.jsonl.gz"


def _opinions() -> list[str]:
    with gzip.open(OPINIONS, "rt", encoding="utf-8") as handle:
        return [clean(json.loads(line)["plain_text"]) for line in handle]


TEXTS = _opinions()
EDGES = [
    "",
    "Id.",
    "id. at 5",
    "Ibid",
    "ibid.",
    "xId. at 4 said. Id.Id. (ibid) Id. § 12(ibid) .Id. at 3",
    "Id. at 12-13 n. 4, Ibid Ibidem ibid, Id. §§ 1983(a)(1)",
    "(((a) b)) ) ( (x",
    "(" * 70 + ")" * 75 + "(a)",
    "410 U. S., at 153; 2 id., at 5 at 3 x at *4 \tat  _",
]
# The plain patterns the fast paths stand for (as they read before the fast paths).
PLAIN_AT = re.compile(r"\sat\s{1,3}[\d*_]")


def _plain_closers(text: str) -> dict[int, int]:
    table: dict[int, int] = {}
    stack: list[int] = []
    depth = 0
    for match in re.finditer(r"[()]", text):
        if match.group() == "(":
            depth += 1
            if len(stack) < 64:
                stack.append(match.start())
        elif depth > len(stack):
            depth -= 1
        elif stack:
            depth -= 1
            table[stack.pop()] = match.end()
    return table


def _check(text: str) -> None:
    want = [(m.span(), m.groupdict()) for m in _find._ID.finditer(text)]
    assert [(m.span(), m.groupdict()) for m in _find._id_matches(text)] == want
    # the fast pattern starts at "at", the plain one at the space before it
    fast = [m.span() for m in _find._AT.finditer(text)]
    assert fast == [(m.start() + 1, m.end()) for m in PLAIN_AT.finditer(text)]
    assert _find._Chunk(text, 0).closers() == _plain_closers(text)


def test_opinions_hold_what_the_fast_paths_handle() -> None:
    whole = "".join(TEXTS)
    assert len(list(_find._ID.finditer(whole))) > 500
    assert len(list(PLAIN_AT.finditer(whole))) > 500
    assert len(_plain_closers(whole)) > 1000


@pytest.mark.parametrize("index", range(len(TEXTS)))
def test_fast_paths_on_opinions(index: int) -> None:
    _check(TEXTS[index])


@pytest.mark.parametrize("text", EDGES)
def test_fast_paths_on_edges(text: str) -> None:
    _check(text)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "Id.",
                "id.",
                "Ibid",
                "I",
                "d.",
                " at ",
                "at",
                "(",
                ")",
                " ",
                "\t",
                "x",
                ".",
                ",",
                "3",
                "*",
                "_",
                "§ ",
                "12",
                "n. 4",
            ]
        )
    )
)
def test_fast_paths_on_generated_text(parts: list[str]) -> None:
    _check("".join(parts))


# -- quotations ------------------------------------------------------------------

QUOTE_EDGES = [
    "",
    '"',
    'a "b" c \u201cd\u201d e\n\n"f',
    '\n  \n\n\r\n"x\n\n\t\n" "y"',
    "    indented\n    block\n\n  \r  held\n\tmore\n\n\f\n    after a form feed\n\nplain\n    x",
    '    "A block in marks."\n    two lines\n\n\n\n    \n',
]


def _raw_opinions() -> list[str]:
    with gzip.open(OPINIONS, "rt", encoding="utf-8") as handle:
        return [json.loads(line)["plain_text"] for line in handle]


RAW = _raw_opinions()


def _check_quotes(text: str) -> None:
    from citeverify.document import _quotes

    want = [(m.start(), m.group()[0]) for m in _quotes._MARK.finditer(text)]
    breaks = _quotes._paragraph_spans(text)
    assert _quotes._marks(text, breaks) == want
    for quote in [*_quotes._inline(text), *_quotes._blocks(text)]:
        for count in range(-1, quote.words + 2):
            assert quote.has_words(count) == (quote.words >= count)


def _plain_blocks(text: str) -> list[tuple[int, int, str]]:
    """The block pass as it read before its first-line shortcut (spans and bodies)."""
    from citeverify.document import _quotes

    found = []
    bounds, start = [], 0
    for match in _quotes._PARAGRAPH.finditer(text):
        bounds.append((start, match.start()))
        start = match.end()
    bounds.append((start, len(text)))
    for start, end in bounds:
        paragraph = text[start:end]
        lines = paragraph.replace("\r", "").split("\n")
        if not all(_quotes._BLOCK_LINE.match(line) for line in lines if line.strip()):
            continue
        if not any(line.strip() for line in lines):
            continue
        lead = len(paragraph) - len(paragraph.lstrip())
        found.append((start + lead, start + len(paragraph.rstrip()), lines[0]))
    return found


def _blocks(text: str) -> list[tuple[int, int, str]]:
    from citeverify.document import _quotes

    spans = [(q.start, q.end) for q in _quotes._blocks(text)]
    return [(*span, plain[2]) for span, plain in zip(spans, _plain_blocks(text), strict=False)]


@pytest.mark.parametrize("text", [*QUOTE_EDGES, *RAW[:20]])
def test_quotation_fast_paths(text: str) -> None:

    _check_quotes(text)
    assert _blocks(text) == _plain_blocks(text)


def test_opinions_hold_block_quotations() -> None:
    assert sum(len(_plain_blocks(text)) for text in RAW) > 20


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                '"',
                "\u201c",
                "\u201d",
                "\n",
                "\n\n",
                " ",
                "    ",
                "\t",
                "\r",
                "\f",
                "x",
                "Held",
                ".",
                "it's",
            ]
        )
    )
)
def test_quotation_fast_paths_on_generated_text(parts: list[str]) -> None:

    text = "".join(parts)
    _check_quotes(text)
    assert _blocks(text) == _plain_blocks(text)


# -- assembling ------------------------------------------------------------------


def test_evolve_is_attrs_evolve_on_every_citation_of_the_opinions() -> None:
    """``_assemble._evolve`` gives what ``attrs.evolve`` gives, for every field changed."""
    import attrs

    from citeverify.citations import find
    from citeverify.document._assemble import _evolve

    citations = [found.citation for text in RAW[:25] for found in find(text)]
    kinds = {type(c).__name__ for c in citations}
    assert {"CaseCitation", "ShortCitation", "StatuteCitation"} <= kinds
    for citation in citations:
        assert _evolve(citation) == attrs.evolve(citation)
        for field in attrs.fields(type(citation)):
            value = None if field.name != "raw" else "x"
            try:
                want = attrs.evolve(citation, **{field.alias: value})
            except (TypeError, ValueError) as error:
                with pytest.raises(type(error)):
                    _evolve(citation, **{field.alias: value})
                continue
            assert _evolve(citation, **{field.alias: value}) == want


def _plain_signal(cleaned: str, start: int) -> str | None:
    match = _find._SIGNAL_BEFORE.search(cleaned[max(0, start - _find._SIGNAL_WINDOW) : start])
    return None if match is None else " ".join(match.group("signal").split())


@pytest.mark.parametrize("index", range(0, len(TEXTS), 5))
def test_signal_before_is_the_plain_search_at_every_offset(index: int) -> None:
    text = TEXTS[index][:60_000]
    chunk = _find._Chunk(text, 0)
    signals = 0
    for start in range(len(text) + 1):
        want = _plain_signal(text, start)
        assert chunk.signal_before(start) == want, start
        signals += want is not None
    assert signals > 0


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "See",
                "see",
                " also",
                " generally",
                "But",
                " cf.",
                "Cf.",
                "E.g.",
                " e.g.",
                ",",
                " ",
                "  \n",
                "\n",
                "(",
                "Accord",
                "contra",
                "Compare",
                "x",
                ";",
            ]
        )
    )
)
def test_signal_before_on_generated_text(parts: list[str]) -> None:
    text = "".join(parts)
    chunk = _find._Chunk(text, 0)
    for start in range(len(text) + 1):
        assert chunk.signal_before(start) == _plain_signal(text, start)
