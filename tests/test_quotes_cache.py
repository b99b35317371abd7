"""The caches that keep quotation texts and their indexes loaded between runs are bounded.

A running server checks brief after brief; the texts they quote and their
normalised indexes stay loaded, but only up to a number of characters, never
without limit, and a text larger than the whole budget is not kept at all.
"""

from __future__ import annotations

import pytest

from citeverify import _verify
from citeverify.providers import local
from citeverify.providers._base import AuthorityText


def _texts(count: int, size: int) -> list[AuthorityText]:
    return [AuthorityText(f"text {i} " + "word " * (size // 5)) for i in range(count)]


def test_index_cache_is_bounded_by_characters_and_keeps_the_recent() -> None:
    cache = _verify._IndexCache(max_chars=10_000, max_entries=100)
    texts = _texts(30, 1_000)
    for text in texts:
        cache.put(text, object())
        assert cache.chars <= 10_000
        assert cache.chars == sum(map(len, cache.entries))
    held = [t for t in texts if cache.get(t) is not None]
    assert held == texts[-len(held) :]  # the most recent, none older
    assert 8 <= len(held) < 30


def test_index_cache_holds_more_texts_than_a_brief_quotes() -> None:
    """Forty texts of 20 KB (a brief quoting forty opinions) all stay loaded: a
    count of 32 would drop them in turn when the next brief quotes them again."""
    cache = _verify._IndexCache(_verify._INDEXES_MAX_CHARS, _verify._INDEXES_MAX)
    texts = _texts(40, 20_000)
    for text in texts:
        cache.put(text, object())
    assert all(cache.get(t) is not None for t in texts)


def test_index_cache_refuses_a_text_larger_than_its_budget_and_counts_entries() -> None:
    cache = _verify._IndexCache(max_chars=1_000, max_entries=3)
    big = AuthorityText("x" * 1_001)
    cache.put(big, object())
    assert cache.get(big) is None
    assert cache.chars == 0
    for text in _texts(5, 10):
        cache.put(text, object())
    assert len(cache.entries) == 3
    cache.clear()
    assert (cache.chars, len(cache.entries)) == (0, 0)


def test_index_cache_checks_the_pages_not_only_the_text() -> None:
    cache = _verify._IndexCache(max_chars=1_000, max_entries=3)
    plain = AuthorityText("the same words here")
    paged = AuthorityText("the same words here", pages=((0, 5),))
    marker = object()
    cache.put(plain, marker)
    assert cache.get(plain) is marker
    assert cache.get(paged) is None
    cache.put(paged, object())
    assert cache.chars == len(plain.text)


def test_store_text_cache_is_bounded_by_characters(monkeypatch: pytest.MonkeyPatch) -> None:
    if not local.embedded_corpus_exists():  # pragma: no cover - the corpus ships
        pytest.skip("no embedded corpus")
    monkeypatch.setattr(local, "_TEXT_CACHE_CHARS", 200_000)  # read when the store is made
    store = local.LocalStore()
    ids = [row[0] for row in store._connection().execute("SELECT id FROM texts LIMIT 60")]
    for text_id in ids:
        store._text(text_id)
        held = sum(len(t.text) for t in store._texts.values())
        assert held <= 200_000 or len(store._texts) == 1
    assert list(store._texts)[-1] == ids[-1]
    assert len(store._texts) < len(ids)
