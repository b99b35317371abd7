"""Accounts, keys and quotas in the state database, on SQLite and PostgreSQL."""

# ruff: noqa: F811  (pytest fixtures imported from tests.conftest_http)

from __future__ import annotations

import concurrent.futures
import datetime as dt
import multiprocessing
import os
import random
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citeverify._meter import Meter
from citeverify.errors import Forbidden, RateLimited, Unauthorized
from citeverify.http import AccountExists, AccountStore, NoSuchAccount, open_store
from citeverify.http._accounts import (
    KEY_PREFIX,
    digest_key,
    looks_like_key,
    new_key,
    seconds_until,
    window_bounds,
)
from tests.conftest_http import (  # noqa: F401  (fixtures)
    FakeClock,
    charge_worker,
    clock,
    fresh_postgres_database,
    postgres_url,
    state_url,
    store,
)

UTC = dt.UTC


class TestKeys:
    def test_new_keys_have_the_prefix_and_the_shape(self) -> None:
        """A new key starts with the visible prefix and passes the shape check."""
        key = new_key()
        assert key.startswith(KEY_PREFIX)
        assert looks_like_key(key)
        assert len(key) == len(KEY_PREFIX) + 43

    def test_new_keys_are_distinct(self) -> None:
        """A thousand fresh keys are all different (they are random, not derived)."""
        assert len({new_key() for _ in range(1000)}) == 1000

    @given(st.text(max_size=80))
    def test_arbitrary_text_is_not_a_key(self, text: str) -> None:
        """Text without the prefix and 43 base-62 characters never looks like a key."""
        if looks_like_key(text):
            assert text.startswith(KEY_PREFIX)
            assert text[len(KEY_PREFIX) :].isalnum()

    def test_digest_is_sha256_hex(self) -> None:
        """The stored form of a key is a 64-character hex digest, not the key."""
        key = new_key()
        digest = digest_key(key)
        assert len(digest) == 64
        assert int(digest, 16) >= 0
        assert key not in digest


class TestWindows:
    def test_day_window_is_the_utc_day(self) -> None:
        """A day window runs from UTC midnight to the next midnight."""
        start, end = window_bounds("day", dt.datetime(2025, 3, 9, 17, 5, tzinfo=UTC))
        assert start == dt.datetime(2025, 3, 9, tzinfo=UTC)
        assert end == dt.datetime(2025, 3, 10, tzinfo=UTC)

    def test_month_window_rolls_over_the_year(self) -> None:
        """December's month window ends on the first of January of the next year."""
        start, end = window_bounds("month", dt.datetime(2024, 12, 31, 23, 59, tzinfo=UTC))
        assert start == dt.datetime(2024, 12, 1, tzinfo=UTC)
        assert end == dt.datetime(2025, 1, 1, tzinfo=UTC)

    def test_other_timezones_are_converted_to_utc(self) -> None:
        """A local time just after midnight in UTC+2 still falls in the previous UTC day."""
        plus_two = dt.timezone(dt.timedelta(hours=2))
        start, _ = window_bounds("day", dt.datetime(2025, 3, 10, 1, 0, tzinfo=plus_two))
        assert start == dt.datetime(2025, 3, 9, tzinfo=UTC)

    @given(
        st.datetimes(
            min_value=dt.datetime(2000, 1, 1),
            max_value=dt.datetime(2100, 1, 1),
            timezones=st.just(UTC),
        ),
        st.sampled_from(["day", "month"]),
    )
    def test_window_contains_now(self, now: dt.datetime, window: str) -> None:
        """The window of any instant contains it and lasts a day or 28-31 days."""
        start, end = window_bounds(window, now)  # type: ignore[arg-type]
        assert start <= now < end
        days = (end - start).days
        assert days == 1 if window == "day" else 28 <= days <= 31

    def test_seconds_until_rounds_up_and_is_positive(self) -> None:
        """Retry-After is whole seconds rounded up, and never zero."""
        now = dt.datetime(2025, 1, 1, 23, 59, 59, 500_000, tzinfo=UTC)
        assert seconds_until(dt.datetime(2025, 1, 2, tzinfo=UTC), now) == 1
        assert seconds_until(now, now) == 1
        assert seconds_until(now + dt.timedelta(seconds=90.2), now) == 91


class TestAdministration:
    def test_create_then_authenticate(self, store: AccountStore) -> None:
        """A created account's key authenticates to that account with its quota."""
        key = store.create("alice", 50, "day")
        account = store.authenticate(key)
        assert (account.name, account.limit, account.window) == ("alice", 50, "day")
        assert account.key_hint == key[: len(KEY_PREFIX) + 4] + "..."

    def test_duplicate_name_is_refused(self, store: AccountStore) -> None:
        """Creating an account whose name exists raises AccountExists and keeps the first key."""
        key = store.create("alice", 50)
        with pytest.raises(AccountExists):
            store.create("alice", 10)
        assert store.authenticate(key).limit == 50

    @pytest.mark.parametrize("name", ["", " bob", "a b", "x" * 129, "ümlaut", "-lead"])
    def test_bad_names_are_refused(self, store: AccountStore, name: str) -> None:
        """Names outside the allowed alphabet or length raise ValueError."""
        with pytest.raises(ValueError, match="account name"):
            store.create(name, 1)

    @pytest.mark.parametrize(("limit", "window"), [(-1, "day"), (5, "week"), (True, "day")])
    def test_bad_quotas_are_refused(self, store: AccountStore, limit: int, window: str) -> None:
        """A negative or non-integer limit, or an unknown window, raises ValueError."""
        with pytest.raises(ValueError, match=r"limit|window"):
            store.create("alice", limit, window)  # type: ignore[arg-type]

    def test_only_the_digest_is_stored(self, tmp_path: Path) -> None:
        """The database file never contains the key's plaintext, only its digest."""
        path = tmp_path / "s.sqlite3"
        with open_store(str(path)) as s:
            key = s.create("alice", 5)
            regenerated = s.regenerate("alice")
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            dump = "\n".join(conn.iterdump())
        assert key not in dump
        assert regenerated not in dump
        assert digest_key(regenerated) in dump
        raw = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
        assert regenerated.encode() not in raw
        assert key.encode() not in raw

    def test_regenerate_kills_the_old_key_at_once(self, store: AccountStore) -> None:
        """After regenerate the old key is unknown (401) and the new one works."""
        old = store.create("alice", 5)
        new = store.regenerate("alice")
        assert new != old
        with pytest.raises(Unauthorized):
            store.authenticate(old)
        assert store.authenticate(new).name == "alice"

    def test_revoke_leaves_no_working_key(self, store: AccountStore) -> None:
        """A revoked key is unknown; the listing shows no key until regenerate."""
        key = store.create("alice", 5)
        store.revoke("alice")
        with pytest.raises(Unauthorized):
            store.authenticate(key)
        assert store.get("alice").key_hint is None
        assert store.authenticate(store.regenerate("alice")).name == "alice"

    def test_disable_forbids_and_enable_restores(self, store: AccountStore) -> None:
        """A disabled account's valid key raises Forbidden; enable makes it work again."""
        key = store.create("alice", 5)
        store.disable("alice")
        with pytest.raises(Forbidden):
            store.authenticate(key)
        store.enable("alice")
        assert store.authenticate(key).name == "alice"

    @pytest.mark.parametrize("action", ["regenerate", "revoke", "disable", "enable", "get"])
    def test_unknown_account(self, store: AccountStore, action: str) -> None:
        """Every administrative action on a missing account raises NoSuchAccount."""
        with pytest.raises(NoSuchAccount):
            getattr(store, action)("nobody")

    @pytest.mark.parametrize(
        "key",
        ["", "Bearer", "cv_live_", "cv_live_" + "a" * 42, "cv_live_" + "a" * 44, "sk_" + "a" * 48],
    )
    def test_malformed_keys_are_unauthorized(self, store: AccountStore, key: str) -> None:
        """Text that is not shaped like a key is refused before any lookup."""
        store.create("alice", 5)
        with pytest.raises(Unauthorized, match="malformed"):
            store.authenticate(key)

    def test_well_formed_unknown_key_is_unauthorized(self, store: AccountStore) -> None:
        """A key of the right shape that nobody owns is refused as not valid."""
        store.create("alice", 5)
        with pytest.raises(Unauthorized, match="not valid"):
            store.authenticate(new_key())

    def test_list_reports_current_window_usage(self, store: AccountStore) -> None:
        """The listing is sorted by name and shows each account's usage this window."""
        store.create("bob", 10, "month")
        store.create("alice", 7, "day")
        store.charge(store.get("alice"), 3)
        listed = store.list()
        assert [s.account.name for s in listed] == ["alice", "bob"]
        assert (listed[0].usage.used, listed[0].usage.remaining) == (3, 4)
        assert listed[1].usage.used == 0

    def test_set_limit_keeps_usage(self, store: AccountStore) -> None:
        """Changing the quota keeps what the window has used."""
        store.create("alice", 10, "day")
        store.charge(store.get("alice"), 4)
        store.set_limit("alice", 5)
        usage = store.charge(store.get("alice"), 1)
        assert (usage.used, usage.remaining, usage.limit) == (5, 0, 5)


class TestCharge:
    def test_meter_protocol(self, store: AccountStore) -> None:
        """The account meter satisfies the pipeline's Meter protocol."""
        store.create("alice", 5)
        assert isinstance(store.meter(store.get("alice")), Meter)

    def test_charges_add_up_to_the_limit(self, store: AccountStore) -> None:
        """Charges accumulate, and a charge that reaches the limit exactly is accepted."""
        store.create("alice", 10, "day")
        account = store.get("alice")
        assert store.charge(account, 4).used == 4
        usage = store.charge(account, 6)
        assert (usage.used, usage.remaining, usage.limit) == (10, 0, 10)

    def test_over_the_limit_charges_nothing(self, store: AccountStore, clock: FakeClock) -> None:
        """A charge past the limit raises RateLimited with the seconds to the window end."""
        store.create("alice", 10, "day")
        account = store.get("alice")
        store.charge(account, 8)
        with pytest.raises(RateLimited) as caught:
            store.charge(account, 3)
        assert caught.value.retry_after == 3600  # the clock is at 23:00 UTC
        assert store.charge(account, 0).used == 8
        assert store.charge(account, 2).used == 10

    def test_a_single_charge_over_the_whole_limit(self, store: AccountStore) -> None:
        """A first charge larger than the limit is refused and leaves usage at zero."""
        store.create("alice", 3, "day")
        account = store.get("alice")
        with pytest.raises(RateLimited):
            store.charge(account, 4)
        assert store.charge(account, 0).used == 0

    def test_zero_charge_reports_without_writing(self, store: AccountStore) -> None:
        """Charging zero returns the current usage, even on an exhausted quota."""
        store.create("alice", 0, "day")
        usage = store.charge(store.get("alice"), 0)
        assert (usage.used, usage.remaining, usage.limit) == (0, 0, 0)

    def test_negative_charge_is_a_programming_error(self, store: AccountStore) -> None:
        """A negative amount raises ValueError rather than crediting the account."""
        store.create("alice", 3)
        with pytest.raises(ValueError, match="billed"):
            store.charge(store.get("alice"), -1)

    def test_window_rolls_over(self, store: AccountStore, clock: FakeClock) -> None:
        """A new UTC day starts from zero; the previous day's usage stays with that day."""
        store.create("alice", 5, "day")
        account = store.get("alice")
        store.charge(account, 5)
        clock.advance(hours=1)  # 2025-02-01 00:00
        assert store.charge(account, 2).used == 2
        clock.advance(days=-1)
        assert store.charge(account, 0).used == 5

    def test_month_window(self, store: AccountStore, clock: FakeClock) -> None:
        """A month window spans its days and resets on the first of the next month."""
        clock.now = dt.datetime(2025, 2, 1, tzinfo=UTC)
        store.create("alice", 5, "month")
        account = store.get("alice")
        store.charge(account, 3)
        clock.advance(days=27, hours=23)  # still February
        with pytest.raises(RateLimited) as caught:
            store.charge(account, 3)
        assert caught.value.retry_after == 3600
        clock.advance(hours=1)
        assert store.charge(account, 3).used == 3

    def test_usage_belongs_to_the_account_not_the_key(self, store: AccountStore) -> None:
        """Regenerating the key keeps the window's usage."""
        store.create("alice", 5, "day")
        store.charge(store.get("alice"), 4)
        store.regenerate("alice")
        assert store.charge(store.get("alice"), 1).used == 5

    def test_concurrent_threads_are_exact(self, store: AccountStore) -> None:
        """Eight threads racing for a quota charge exactly the limit, no more, no less."""
        store.create("alice", 300, "day")
        account = store.get("alice")
        accepted: list[int] = []
        lock = threading.Lock()

        def work(seed: int) -> None:
            rng = random.Random(seed)
            mine = []
            for _ in range(40):
                n = rng.randint(1, 4)
                try:
                    store.charge(account, n)
                    mine.append(n)
                except RateLimited:
                    pass
            while True:
                try:
                    store.charge(account, 1)
                    mine.append(1)
                except RateLimited:
                    break
            with lock:
                accepted.extend(mine)

        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            list(pool.map(work, range(8)))
        used = store.charge(account, 0).used
        assert used == sum(accepted) == 300

    @pytest.mark.slow
    def test_concurrent_processes_are_exact(self, state_url: str) -> None:
        """Four processes racing for one quota through their own connections charge it exactly."""
        with open_store(state_url) as s:
            s.create("alice", 3000, "day")
        rng = random.Random(7)
        plans = [[rng.randint(1, 5) for _ in range(400)] for _ in range(4)]
        start_at = time.time() + 4.0  # spawned interpreters wait, then start together
        context = multiprocessing.get_context("spawn")
        with context.Pool(4) as pool:
            results = pool.starmap(
                charge_worker, [(state_url, "alice", plan, True, start_at) for plan in plans]
            )
        with open_store(state_url) as s:
            used = s.charge(s.get("alice"), 0).used
        assert used == sum(sum(r) for r in results) == 3000
        assert sum(1 for r in results if r) >= 2  # they really raced


class TestOpen:
    def test_sqlite_url_forms(self, tmp_path: Path) -> None:
        """A plain path and a sqlite:/// URL open the same file."""
        path = tmp_path / "x.sqlite3"
        with open_store(str(path)) as s:
            s.create("alice", 1)
        with open_store(f"sqlite:///{path}") as s:
            assert s.get("alice").limit == 1
            assert s.engine == "sqlite"

    def test_env_var_names_the_default(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """With no URL, $CITEVERIFY_STATE names the state database."""
        monkeypatch.setenv("CITEVERIFY_STATE", str(tmp_path / "env.sqlite3"))
        with open_store() as s:
            s.create("alice", 1)
        assert (tmp_path / "env.sqlite3").exists()

    def test_memory_database_is_shared_between_threads(self) -> None:
        """':memory:' is one private database that every thread of the store sees."""
        with open_store(":memory:") as s:
            key = s.create("alice", 3)
            seen: list[str] = []
            thread = threading.Thread(target=lambda: seen.append(s.authenticate(key).name))
            thread.start()
            thread.join()
        assert seen == ["alice"]

    def test_reopening_keeps_the_schema_and_data(self, state_url: str) -> None:
        """Opening an existing state database again neither fails nor loses accounts."""
        with open_store(state_url) as s:
            key = s.create("alice", 3)
        with open_store(state_url) as s:
            assert s.authenticate(key).name == "alice"

    def test_state_files_are_private(self, tmp_path: Path) -> None:
        """The account database and its WAL files are created 0600, whatever the umask."""
        old = os.umask(0o022)
        try:
            path = tmp_path / "private.sqlite3"
            with open_store(str(path)) as s:
                s.create("alice", 1)
                modes = {p.name: p.stat().st_mode & 0o777 for p in tmp_path.iterdir()}
        finally:
            os.umask(old)
        assert modes["private.sqlite3"] == 0o600
        assert set(modes.values()) == {0o600}, modes  # -wal and -shm copy the file's mode

    def test_courtlistener_cache_is_private(self, tmp_path: Path) -> None:
        """The CourtListener cache the server creates is 0600 too."""
        from citeverify.providers._cl_cache import Cache

        old = os.umask(0o022)
        try:
            Cache(tmp_path / "cl.sqlite3")
        finally:
            os.umask(old)
        assert (tmp_path / "cl.sqlite3").stat().st_mode & 0o777 == 0o600


@pytest.mark.postgres
def test_a_terminated_connection_is_replaced_once(postgres_url: str) -> None:
    """After the server drops the store's connection (a restart, pg_terminate_backend),
    the next call reconnects instead of failing."""
    import psycopg

    url = fresh_postgres_database(postgres_url)
    with open_store(url) as s:
        key = s.create("alice", 5)
        assert s.authenticate(key).name == "alice"
        with psycopg.connect(url, autocommit=True) as admin:
            killed = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
        assert killed  # the store's connection was there, and is gone
        assert s.authenticate(key).name == "alice"
        assert s.charge(s.get("alice"), 2).used == 2


@pytest.mark.postgres
def test_a_server_that_stays_down_still_fails(postgres_url: str) -> None:
    """The retry is once: a server that refuses the new connection too is an error."""
    import psycopg

    url = fresh_postgres_database(postgres_url)
    with open_store(url) as s:
        s.create("alice", 5)
        s._engine.url = "postgresql://cv@127.0.0.1:1/none"  # type: ignore[attr-defined]
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        with pytest.raises(psycopg.OperationalError):
            s.get("alice")
