"""The in-memory quota meter."""

from __future__ import annotations

import threading

import pytest

from citeverify._meter import UNLIMITED, InMemoryMeter, Meter
from citeverify.errors import RateLimited


class TestInMemoryMeter:
    def test_is_a_meter(self) -> None:
        """InMemoryMeter satisfies the Meter protocol."""
        assert isinstance(InMemoryMeter(), Meter)

    def test_charges_and_reports_usage(self) -> None:
        """Charging adds to used and used + remaining stays the limit."""
        meter = InMemoryMeter(limit=10)
        usage = meter.charge(3)
        assert (usage.used, usage.remaining, usage.limit) == (3, 7, 10)
        assert meter.charge(0).used == 3

    def test_over_limit_charges_nothing(self) -> None:
        """A charge past the limit raises RateLimited and leaves usage unchanged."""
        meter = InMemoryMeter(limit=5, used=4)
        with pytest.raises(RateLimited):
            meter.charge(2)
        assert meter.usage.used == 4
        assert meter.charge(1).remaining == 0

    def test_default_is_effectively_unlimited(self) -> None:
        """The library default bills without a practical ceiling."""
        assert InMemoryMeter().usage.limit == UNLIMITED

    @pytest.mark.parametrize(("limit", "used"), [(-1, 0), (5, 6), (5, -1)])
    def test_rejects_impossible_state(self, limit: int, used: int) -> None:
        """A meter cannot start negative or over its limit."""
        with pytest.raises(ValueError, match="used"):
            InMemoryMeter(limit=limit, used=used)

    def test_concurrent_charges_are_exact(self) -> None:
        """Under threads, used equals the sum charged and never passes the limit."""
        meter = InMemoryMeter(limit=1000)
        refused = []

        def work() -> None:
            for _ in range(300):
                try:
                    meter.charge(1)
                except RateLimited:
                    refused.append(1)

        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert meter.usage.used == 1000
        assert len(refused) == 200
