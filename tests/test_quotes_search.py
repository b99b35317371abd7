"""``LocalStore.find_quote`` searches all texts at once; it must answer as a search
text by text, in authority order, would (the plain reading of its docstring)."""

from __future__ import annotations

import random

import pytest

from citeverify.providers import local
from citeverify.quotes import fragmentary

pytestmark = pytest.mark.skipif(not local.embedded_corpus_exists(), reason="no embedded corpus")


def _text_by_text(store: local.LocalStore, quote: str, exclude: str | None) -> str | None:
    """The reference: each text in order, the quote's pieces found in order in it."""
    pieces = local._quote_pieces(quote)
    if not pieces or sum(len(p.split()) for p in pieces) < 4 or fragmentary(quote):
        return None
    index = store._quotes()
    for number, authority_id in enumerate(index.ids):
        text = index.joined[index.starts[number] : index.starts[number + 1] - 1].decode()
        position = 0
        for piece in pieces:
            position = text.find(piece, position)
            if position < 0:
                break
            position += len(piece)
        else:
            record = store._records([authority_id]).get(authority_id)
            if record is None or record.reference == exclude:
                continue
            return record.reference
    return None


def test_joined_texts_are_the_texts() -> None:
    store = local.LocalStore()
    index = store._quotes()
    assert len(index.ids) == len(index.starts) - 1
    assert index.starts[-1] == len(index.joined)
    for number in range(len(index.ids)):
        assert index.joined[index.starts[number + 1] - 1 :][:1] == b"\n"
    assert index.joined.count(b"\n") == len(index.ids)


def test_find_quote_agrees_with_a_search_text_by_text() -> None:
    store = local.LocalStore()
    index = store._quotes()
    rng = random.Random(12)
    quotes: list[str] = []
    for number in rng.sample(range(len(index.ids)), 40):
        text = index.joined[index.starts[number] : index.starts[number + 1] - 1].decode()
        words = text.split()
        if len(words) < 40:
            continue
        at = rng.randrange(len(words) - 30)
        quotes.append(" ".join(words[at : at + 8]))  # verbatim: found there, maybe earlier
        quotes.append(" ".join(words[at : at + 4]) + " . . . " + " ".join(words[at + 9 : at + 13]))
        quotes.append(" ".join(words[at + 5 : at + 9]) + " . . . " + " ".join(words[at : at + 4]))
    quotes += ["the court of appeals held that the", "it is so ordered and the judgment"]
    found_any = excluded_moved = 0
    for quote in quotes:
        first = _text_by_text(store, quote, None)
        got = store.find_quote(quote)
        assert (got.reference if got else None) == first, quote
        found_any += first is not None
        if first is None:
            continue
        second = _text_by_text(store, quote, first)
        got = store.find_quote(quote, exclude=first)
        assert (got.reference if got else None) == second, quote
        excluded_moved += second is not None
    assert found_any > 20
    assert excluded_moved  # some quotations are in more than one text
