"""Quota meters: where ``usage`` comes from.

The pipeline knows how many citations a request bills after parsing and before
any lookup; it charges the meter once, atomically, and a meter that would go
past its limit raises ``RateLimited`` having charged nothing, so a request over
quota does no lookup at all.
"""

from __future__ import annotations

import threading
from typing import Protocol, runtime_checkable

from citeverify._model import Usage
from citeverify.errors import RateLimited

__all__ = ["UNLIMITED", "InMemoryMeter", "Meter"]

#: The limit of the default library meter: in library use nothing is billed for
#: real, so the default window is effectively unbounded (2**31 - 1 citations).
UNLIMITED = 2**31 - 1


@runtime_checkable
class Meter(Protocol):
    """Charges billed citations against a quota window."""

    def charge(self, billed: int) -> Usage:
        """Add ``billed`` to the window atomically and return the usage after it.

        Raise ``RateLimited`` (charging nothing) when ``used + billed`` would pass
        the limit.  ``billed == 0`` charges nothing and reports the current usage.
        """
        ...


class InMemoryMeter:
    """A thread-safe meter held in memory, for library use and tests.

    ``limit`` is the number of citations this meter will bill over its life (it
    has no calendar window); the default is effectively unlimited.  ``used`` is
    what has been charged so far.
    """

    def __init__(self, limit: int = UNLIMITED, used: int = 0) -> None:
        if limit < 0 or used < 0 or used > limit:
            raise ValueError("need 0 <= used <= limit")
        self._limit = limit
        self._used = used
        self._lock = threading.Lock()

    @property
    def usage(self) -> Usage:
        with self._lock:
            return Usage(used=self._used, remaining=self._limit - self._used, limit=self._limit)

    def charge(self, billed: int) -> Usage:
        if billed < 0:
            raise ValueError("billed must be >= 0")
        with self._lock:
            if self._used + billed > self._limit:
                raise RateLimited(
                    f"quota exhausted: {self._limit - self._used} of {self._limit} citations "
                    f"left, this request bills {billed}",
                    retry_after=0,
                )
            self._used += billed
            return Usage(used=self._used, remaining=self._limit - self._used, limit=self._limit)

    def __repr__(self) -> str:
        u = self.usage
        return f"InMemoryMeter(used={u.used}, limit={u.limit})"
