"""The HTTP adapter's fast paths give what the general code they stand in for gives.

Each fast path exists to save per-request work (issue 17); each is compared here
with the general code on broad input, so the general code stays the single
source of truth.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import uuid
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

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


def _send_asgi(chunks: list[Any]) -> list[Any]:
    """What a fresh app (a new account, so usage is the same) sends for a POST to the verify
    path with ``chunks`` as the body."""
    from citeverify import Limits
    from citeverify.http import Service
    from citeverify.http._asgi import AsgiApp

    sent: list[Any] = []
    read = 0

    async def receive() -> dict[str, Any]:
        nonlocal read
        read += 1
        return {"type": "http.request", "body": chunks[read - 1], "more_body": read < len(chunks)}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    with open_store(":memory:") as store:
        key = store.create("a", 10**12, "month")
        service = Service(store, limits=Limits(max_body_bytes=600), request_id=lambda: "id")
        app = AsgiApp(service, offload=False, close_store=False)
        headers = [
            (b"authorization", f"Bearer {key}".encode()),
            (b"content-type", b"application/json"),
        ]
        scope = {"type": "http", "method": "POST", "path": "/api/v1/verify", "headers": headers}
        asyncio.run(app(scope, receive, send))
    return sent


BODIES = st.one_of(
    st.just(b'{"items":[{"id":"1","type":"case","rawText":"410 U.S. 113"}]}'),
    st.just(b'{"items":[{"id":"1","type":"case","rawText":"' + b"9" * 600 + b'"}]}'),
    st.binary(max_size=700),
)


@settings(max_examples=80, deadline=None)
@given(body=BODIES, cuts=st.lists(st.integers(0, 700), max_size=4))
def test_one_message_body_equals_the_streamed_body(body: bytes, cuts: list[int]) -> None:
    """A body in one message (the fast path) is answered exactly as the same body
    streamed in several messages (the general loop), under and over the limit."""
    points = sorted({min(c, len(body)) for c in cuts})
    pieces = [body[a:b] for a, b in zip([0, *points], [*points, len(body)], strict=True)]
    whole = _send_asgi([body])
    assert _send_asgi([bytearray(body)]) == whole
    if len(pieces) > 1:
        assert _send_asgi(pieces) == whole


class _FakeLoop:
    """Just enough of an event loop for the protocol's timers: a settable clock."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.pending: list[_FakeTimer] = []

    def time(self) -> float:
        return self.now

    def call_at(self, when: float, callback: Any) -> _FakeTimer:
        timer = _FakeTimer(when, callback)
        self.pending.append(timer)
        return timer

    def advance(self, seconds: float) -> None:
        """Move the clock on, running each timer that falls due, in time order."""
        end = self.now + seconds
        while True:
            due = [t for t in self.pending if not t.cancelled and t.at <= end]
            if not due:
                break
            timer = min(due, key=lambda t: t.at)
            self.pending.remove(timer)
            self.now = max(self.now, timer.at)
            timer.callback()
        self.now = end


class _FakeTimer:
    def __init__(self, at: float, callback: Any) -> None:
        self.at = at
        self.callback = callback
        self.cancelled = False

    def when(self) -> float:
        return self.at

    def cancel(self) -> None:
        self.cancelled = True


STEPS_OF_TIME = st.lists(
    st.one_of(
        st.tuples(st.just("arm"), st.sampled_from([0.5, 2.0, 10.0, 30.0])),
        st.tuples(st.just("disarm"), st.just(0.0)),
        st.tuples(st.just("advance"), st.floats(0.0, 40.0)),
    ),
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(STEPS_OF_TIME)
def test_one_timer_times_out_each_phase_as_its_own_timer_would(steps: list[Any]) -> None:
    """The protocol's single lazy timer expires exactly when a timer per phase (cancelled
    at each change of phase, the code before) would have: when the current phase's
    deadline passes, and never after the phase ended."""
    from citeverify.http._protocol import GuardedProtocol

    loop = _FakeLoop()
    protocol = GuardedProtocol.__new__(GuardedProtocol)  # the timer machinery only
    protocol.loop = loop  # type: ignore[assignment]
    protocol._timer = None
    protocol._linger = None
    protocol._deadline = None
    fired: list[float] = []
    protocol._expired = lambda: fired.append(loop.now)  # type: ignore[method-assign]
    expected: list[float] = []
    deadline: float | None = None
    for action, value in steps:
        if action == "arm":
            protocol._arm(value)
            deadline = loop.now + value
        elif action == "disarm":
            protocol._disarm()
            deadline = None
        else:
            end = loop.now + value
            if deadline is not None and deadline <= end:
                expected.append(deadline)
                deadline = None
            loop.advance(value)
    assert len(fired) == len(expected)
    for got, want in zip(fired, expected, strict=True):
        assert want - 0.001 <= got <= want
