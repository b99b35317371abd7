"""A least-recently-used map bounded by the size of what it holds, not only by a count.

Authority texts and their quotation indexes are kept between runs, and a count
of entries says nothing of the memory a few very long texts take; both caches
bound what they hold by characters through this one class.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

__all__ = ["SizedLRU"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class SizedLRU(Generic[K, V]):
    """At most ``max_entries`` entries and ``max_size`` in all (``size`` of each value).

    The least recently used entries go first.  An entry larger than the whole
    budget is kept alone until the next arrives; a caller that would rather not
    keep it checks before ``put``.  Safe to share between threads.
    """

    def __init__(self, max_entries: int, max_size: int, size: Callable[[V], int]) -> None:
        self.max_entries = max_entries
        self.max_size = max_size
        self._size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self.held = 0
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.held -= self._size(old)
            self._entries[key] = value
            self.held += self._size(value)
            while len(self._entries) > 1 and (
                len(self._entries) > self.max_entries or self.held > self.max_size
            ):
                _, dropped = self._entries.popitem(last=False)
                self.held -= self._size(dropped)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self.held = 0

    def values(self) -> list[V]:
        with self._lock:
            return list(self._entries.values())

    def __iter__(self) -> Iterator[K]:
        with self._lock:
            return iter(list(self._entries))

    def __len__(self) -> int:
        return len(self._entries)
