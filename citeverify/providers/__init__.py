"""Authority providers: the protocol, and the sources that implement it.

``Memory`` (Python data), ``Chain`` (ask several in order) and ``Nothing`` are
always here; ``LocalStore`` (the embedded corpus, the default) and
``CourtListener`` (the ``courtlistener`` extra) load on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citeverify.providers._base import (
    Authority,
    AuthorityText,
    Found,
    LookupAnswer,
    LookupRequest,
    NotFound,
    OutsideCoverage,
    Provider,
    QuoteSearcher,
    Unavailable,
)
from citeverify.providers._memory import Chain, Memory, Nothing

if TYPE_CHECKING:
    from citeverify.providers.courtlistener import CourtListener
    from citeverify.providers.local import LocalStore

__all__ = [
    "Authority",
    "AuthorityText",
    "Chain",
    "CourtListener",
    "Found",
    "LocalStore",
    "LookupAnswer",
    "LookupRequest",
    "Memory",
    "NotFound",
    "Nothing",
    "OutsideCoverage",
    "Provider",
    "QuoteSearcher",
    "Unavailable",
    "default_provider",
]


def __getattr__(name: str) -> Any:
    if name == "LocalStore":
        from citeverify.providers.local import LocalStore

        return LocalStore
    if name == "CourtListener":
        from citeverify.providers.courtlistener import CourtListener

        return CourtListener
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_default: Provider | None = None


def default_provider() -> Provider:
    """The embedded corpus when it is installed, else a provider that covers nothing.

    Created once per process and shared (it is read-only and thread-safe).
    """
    global _default
    if _default is None:
        _default = _embedded() or Nothing("the embedded corpus is not installed")
    return _default


def _embedded() -> Provider | None:
    try:
        from citeverify.providers import local
    except ImportError:
        return None
    exists = getattr(local, "embedded_corpus_exists", None)
    if exists is not None and not exists():
        return None
    provider: Provider = local.LocalStore()
    return provider
