"""The quotation locator's outputs over broad real input, pinned before any speed work.

``tests/data/quotes/locate_golden.json.gz`` was written by
``make_locate_golden.py`` (beside it) with the code before it was made faster:
the normalised form and offset map of every opinion, corpus text and found
quotation; every ``locate_many`` call ``verify_document`` makes over the
benchmark's documents; every quotation of each OT2016 opinion located in that
opinion, verbatim and altered; and ``LocalStore.find_quote`` searches.  A
change that alters any of it changes a verdict or a response somewhere.
"""

from __future__ import annotations

import functools
import gzip
import importlib.util
import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from citeverify.providers._base import AuthorityText
from citeverify.quotes import QuoteIndex

HERE = Path(__file__).parent / "data" / "quotes"


@functools.cache
def maker() -> ModuleType:
    """The generator script, for its readers and digests (one definition of each)."""
    spec = importlib.util.spec_from_file_location(
        "make_locate_golden", HERE / "make_locate_golden.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@functools.cache
def golden() -> dict[str, Any]:
    with gzip.open(HERE / "locate_golden.json.gz", "rt", encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


@functools.cache
def corpus() -> dict[str, tuple[str, tuple[tuple[int, int], ...]]]:
    make = maker()
    return {make.sha(text): (text, pages) for text, pages in make.corpus_texts()}


def _text(described: dict[str, Any]) -> AuthorityText:
    if "inline" in described:
        text = described["inline"]
    else:
        full, _ = corpus()[described["corpus"]]
        text = full[described.get("start", 0) : described.get("end", len(full))]
    assert maker().sha(text) == described["sha"]
    pages = tuple((o, p) for o, p in described["pages"])
    return AuthorityText(text, pages, tuple(described.get("paragraphs", ())))


def test_normalised_opinions_and_quotations_are_unchanged() -> None:
    make = maker()
    slips, cited = make.opinions()
    expected = golden()["normalize"]
    brief = (HERE.parents[2] / "examples" / "sample_brief.txt").read_text(encoding="utf-8")
    from citeverify.document._quotes import find_quotations

    for i, text in enumerate(slips):
        assert make.norm_digest(text) == expected[f"ot2016:{i}"], i
    for record in cited:
        cite = record["cite"]
        assert make.norm_digest(record["plain_text"]) == expected[f"cited:{cite}:plain"], cite
        assert make.norm_digest(record["html"]) == expected[f"cited:{cite}:html"], cite
    for i, text in enumerate([*slips, brief]):
        quotes = [q.quote for q in find_quotations(text)]
        joined = [make.norm_digest(q, quote=True) for q in quotes]
        assert make.sha(json.dumps(joined)) == expected[f"quotes:{i}"], i


def test_normalised_corpus_texts_are_unchanged() -> None:
    make = maker()
    expected = golden()["normalize"]
    keys = [k for k in expected if k.startswith("corpus:")]
    assert len(keys) == len(corpus())
    for key in keys:
        text, _ = corpus()[key.removeprefix("corpus:")]
        assert make.norm_digest(text) == expected[key], key


def test_every_locate_call_of_the_document_benchmark_is_unchanged() -> None:
    make = maker()
    calls = golden()["calls"]
    assert calls
    for call in calls:
        index = QuoteIndex(_text(call["text"]))
        kwargs = {} if call["budget"] is None else {"budget": call["budget"]}
        got = index.locate_many(call["quotes"], prefer_pages=call["prefer"], **kwargs)
        assert [make.match_fields(m) for m in got] == call["matches"]


@pytest.mark.parametrize("part", range(4))
def test_quotations_located_in_their_own_opinion_are_unchanged(part: int) -> None:
    make = maker()
    slips, _ = make.opinions()
    statuses: set[str] = set()
    for entry in golden()["own"][part::4]:
        index = QuoteIndex(AuthorityText(slips[entry["opinion"]]))
        got = index.locate_many(entry["quotes"], budget=10**9)
        fields = [make.match_fields(m) for m in got]
        assert fields == entry["matches"], entry["opinion"]
        statuses.update(f[0] for f in fields)
    assert {"found", "near", "absent"} <= statuses  # the input is broad enough to matter


def test_find_quote_is_unchanged() -> None:
    from citeverify.providers.local import LocalStore, embedded_corpus_exists

    if not embedded_corpus_exists():  # pragma: no cover - the corpus ships in the package
        pytest.skip("no embedded corpus")
    store = LocalStore()
    searches = golden()["find_quote"]
    assert any(s["found"] for s in searches)
    for search in searches:
        got = store.find_quote(search["quote"], exclude=search["exclude"])
        assert (None if got is None else got.reference) == search["found"], search["quote"]
