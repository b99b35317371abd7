"""``verify_request`` answers, byte for byte, what it answered before its hot path was optimised.

``tests/data/verify_golden/verify_golden.json.gz`` holds hashes of the encoded
responses to eight 500-item requests built from the embedded corpus's own rows
(cases as cited and mis-cited in a dozen ways, parallels, string cites, early
reporters, U.S. Code sections, quotations, links; every other request with the
reserved fields).  It was written by ``make_verify_golden.py`` beside it from
the pre-change code (issue 17).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
from pathlib import Path

import pytest

from citeverify.providers.local import embedded_corpus_exists

DATA = Path(__file__).resolve().parent / "data" / "verify_golden"

pytestmark = pytest.mark.skipif(
    not embedded_corpus_exists(), reason="the requests and responses come from the embedded corpus"
)


def _generator() -> object:
    sys.path.insert(0, str(DATA))
    try:
        import make_verify_golden
    finally:
        sys.path.remove(str(DATA))
    return make_verify_golden


def test_verify_responses_are_unchanged() -> None:
    gen = _generator()
    with gzip.open(DATA / "verify_golden.json.gz", "rt", encoding="utf-8") as handle:
        expected = json.load(handle)
    assert (expected["requests"], expected["items"]) == (gen.REQUESTS, gen.ITEMS)  # type: ignore[attr-defined]
    got = gen.hashes()  # type: ignore[attr-defined]
    assert [h["request"] for h in got] == [h["request"] for h in expected["hashes"]]
    wrong = [i for i, (a, b) in enumerate(zip(got, expected["hashes"], strict=True)) if a != b]
    assert not wrong, f"responses differ for requests {wrong}"


def test_generator_hashes_what_it_says() -> None:
    """The hash is of the encoded bytes: one changed byte changes it."""
    gen = _generator()
    data = b'{"a": 1}'
    assert gen._hash(data) == hashlib.sha256(data).hexdigest()[:24]  # type: ignore[attr-defined]
    assert gen._hash(data) != gen._hash(data + b" ")  # type: ignore[attr-defined]
