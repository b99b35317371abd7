"""The HTTP adapter's fast paths give what the general code they stand in for gives.

Each fast path exists to save per-request work (issue 17); each is compared here
with the general code on broad input, so the general code stays the single
source of truth.
"""

from __future__ import annotations

import datetime as dt
import uuid
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from citeverify.http import open_store
from citeverify.http._accounts import window_bounds
from citeverify.http._handler import _new_request_id


def test_request_ids_are_uuid4_hex() -> None:
    """Ids have the shape of ``uuid.uuid4().hex``, and every random bit varies."""
    ids = [_new_request_id() for _ in range(2000)]
    assert len(set(ids)) == len(ids)
    ones = 0
    zeros = 0
    for text in ids:
        value = uuid.UUID(hex=text)
        assert value.hex == text
        assert value.version == 4
        assert value.variant == uuid.RFC_4122
        ones |= value.int
        zeros |= ~value.int
    fixed = (0xF000 << 64) | (0xC000 << 48)  # the version nibble and the variant bits
    everything = (1 << 128) - 1
    assert ones | fixed == everything
    assert zeros & everything | fixed == everything


ZONES = st.sampled_from(
    [dt.UTC, dt.timezone(dt.timedelta(hours=-11)), dt.timezone(dt.timedelta(hours=13, minutes=45))]
)
MOMENTS = st.builds(
    lambda base, zone: base.replace(tzinfo=dt.UTC).astimezone(zone),
    st.datetimes(min_value=dt.datetime(1999, 12, 1), max_value=dt.datetime(2101, 1, 31)),
    ZONES,
)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["day", "month"]), MOMENTS), min_size=1, max_size=40))
def test_remembered_window_start_is_window_bounds(moments: list[tuple[str, dt.datetime]]) -> None:
    """The window start the charge uses, remembered between charges, is always what
    ``window_bounds`` gives for that moment, whichever way the clock moves."""
    store = open_store(":memory:")
    try:
        for window, now in moments:
            start, _ = window_bounds(window, now)  # type: ignore[arg-type]
            got = store._window_start(window, now)  # type: ignore[arg-type]
            assert got == start.date().isoformat()
            # Near a boundary: the instants either side of the window's end.
            _, end = window_bounds(window, now)  # type: ignore[arg-type]
            for moment in (end - dt.timedelta(microseconds=1), end):
                want = window_bounds(window, moment)[0].date().isoformat()  # type: ignore[arg-type]
                assert store._window_start(window, moment) == want  # type: ignore[arg-type]
    finally:
        store.close()


def test_charges_follow_the_window_across_a_rollover(tmp_path: Path) -> None:
    """Charges on either side of midnight go to their own day's window."""
    now = [dt.datetime(2025, 1, 31, 23, 59, 59, 999999, tzinfo=dt.UTC)]
    with open_store(str(tmp_path / "s.sqlite3"), clock=lambda: now[0]) as store:
        key = store.create("a", 100, "day")
        assert store.key_meter(key).charge(6).used == 6
        assert store.key_meter(key).charge(4).used == 10  # remembered key, same window
        now[0] += dt.timedelta(microseconds=1)
        assert store.key_meter(key).charge(3).used == 3  # a new day
        now[0] -= dt.timedelta(seconds=1)  # a clock stepped back lands in the old window
        assert store.key_meter(key).charge(1).used == 11
