"""Fetching the texts quotations need: inline for local texts, threads under the deadline
for the rest, and every failure a warning that says why."""

from __future__ import annotations

import threading
import time

import attrs
import pytest

import citeverify
from citeverify.providers import AuthorityText, LocalStore, Memory
from tests.test_verify import ROE, ROE_TEXT

QUOTE = "enough to encompass a woman's decision whether or not to terminate her pregnancy"
ITEMS = [
    {"id": "c", "type": "case", "rawText": "Roe v. Wade, 410 U.S. 113, 153 (1973)"},
    {"id": "q", "type": "quote", "quoteText": QUOTE, "parentCaseId": "c"},
]


def _quote_result(provider: Memory, deadline: float = 5.0) -> dict[str, object]:
    out = citeverify.verify_request({"items": ITEMS}, provider=provider, deadline=deadline)
    return dict(out["results"][1])


def _provider(**changes: object) -> Memory:
    return Memory([attrs.evolve(ROE, **changes)], complete=["U.S."], as_of="2023-01-01T00:00:00Z")


def test_local_and_remote_texts_give_the_same_verdict() -> None:
    local = _quote_result(_provider(text_is_local=True))
    remote = _quote_result(_provider(text_is_local=False))
    assert local == remote
    assert local["verdict"]["status"] == "verified"  # type: ignore[index]


def test_a_local_text_is_read_on_the_calling_thread() -> None:
    threads: list[threading.Thread] = []

    def load() -> AuthorityText:
        threads.append(threading.current_thread())
        return AuthorityText(ROE_TEXT, pages=((0, 153),))

    _quote_result(_provider(load_text=load, text_is_local=True))
    assert threads == [threading.current_thread()]
    threads.clear()
    _quote_result(_provider(load_text=load, text_is_local=False))
    assert len(threads) == 1
    assert threads[0] is not threading.current_thread()


def test_a_remote_text_that_hangs_is_a_warning_at_the_deadline() -> None:
    release = threading.Event()

    def hang() -> AuthorityText:
        release.wait(30)
        return AuthorityText(ROE_TEXT)

    try:
        started = time.monotonic()
        result = _quote_result(_provider(load_text=hang, text_is_local=False), deadline=0.5)
        assert time.monotonic() - started < 10  # bounded by the deadline, not by the fetch
    finally:
        release.set()
    verdict = result["verdict"]
    assert verdict["status"] == "warning"  # type: ignore[index]
    assert "in time" in verdict["message"]  # type: ignore[index]


def test_a_local_text_that_fails_is_a_warning_that_says_so() -> None:
    def broken() -> AuthorityText:
        raise OSError("disk gone")

    verdict = _quote_result(_provider(load_text=broken, text_is_local=True))["verdict"]
    assert verdict["status"] == "warning"  # type: ignore[index]
    assert "OSError" in verdict["message"]  # type: ignore[index]


def test_only_stores_on_this_machine_read_texts_inline() -> None:
    assert LocalStore.TEXTS_ARE_LOCAL is True
    found = LocalStore().lookup([citeverify.testing.request_for("420 U.S. 103")])[0]
    authority = found.authorities[0]  # type: ignore[union-attr]
    assert authority.has_text
    assert authority.text_is_local


def test_a_store_over_the_network_fetches_texts_under_the_deadline() -> None:
    pytest.importorskip("psycopg")
    from citeverify.providers.postgres import PostgresStore

    assert PostgresStore.TEXTS_ARE_LOCAL is False
