"""Citation parsers, one module per item kind, behind two verbs: ``parse`` reads one
citation from a short text, ``find`` every citation in a whole document, with spans."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import lru_cache
from typing import Final

from citeverify import _kinds
from citeverify.citations._find import Found, ShortCitation, find
from citeverify.citations._types import (
    CaseCitation,
    ConstitutionCitation,
    CourtRef,
    LinkCitation,
    NotACitation,
    ParsedCitation,
    Pinpoint,
    RuleCitation,
    StatuteCitation,
)

__all__ = [
    "CaseCitation",
    "ConstitutionCitation",
    "CourtRef",
    "Found",
    "LinkCitation",
    "NotACitation",
    "ParsedCitation",
    "Pinpoint",
    "RuleCitation",
    "ShortCitation",
    "StatuteCitation",
    "find",
    "parse",
]

#: The kinds ``parse`` reads, in the contract's order.
KINDS: Final = _kinds.kind_names(parsed=True)


#: Citations recur across briefs (every motion to dismiss cites Twombly and Iqbal),
#: and a parse result is immutable, so results for short texts are kept; the
#: bound keeps hostile input from growing it.
_CACHE_SIZE: Final = 16_384
_CACHE_MAX_TEXT: Final = 512


def parse(text: str, kind: str = "case") -> ParsedCitation:
    """Parse ``text`` as a citation of ``kind``; never raises.

    Text that is not a citation of that kind gives ``NotACitation`` with a
    message saying what was expected.  Results are immutable and cached for
    texts up to 512 characters (``parse.cache_clear()`` empties the cache).
    """
    if isinstance(text, str) and isinstance(kind, str) and len(text) <= _CACHE_MAX_TEXT:
        return _cached_parse(text, kind)
    return _parse(text, kind)


@lru_cache(maxsize=_CACHE_SIZE)
def _cached_parse(text: str, kind: str) -> ParsedCitation:
    return _parse(text, kind)


def cache_clear() -> None:
    """Forget cached parse results (for benchmarks and tests)."""
    _cached_parse.cache_clear()


#: Each kind's parser module, imported on its first use so that ``import citeverify``
#: loads none of them; then one dict lookup a call instead of an import statement.
_PARSERS: dict[str, Callable[[str], ParsedCitation]] = {}


def _parser(kind: str) -> Callable[[str], ParsedCitation] | None:
    parser = _PARSERS.get(kind)
    if parser is None and kind in KINDS:
        module = _kinds.KINDS[kind].parser
        parser = importlib.import_module(f"citeverify.citations.{module}").parse
        _PARSERS[kind] = parser
    return parser


def _parse(text: str, kind: str) -> ParsedCitation:
    if not isinstance(text, str):
        return NotACitation(
            kind=str(kind), raw=repr(text), message="citation text must be a string"
        )
    parser = _parser(kind) if isinstance(kind, str) else None
    if parser is None:
        return NotACitation(kind=str(kind), raw=text, message=f"unknown citation kind {kind!r}")
    return parser(text)
