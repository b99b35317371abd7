"""Citation parsers, one module per item kind, behind one verb: ``parse``."""

from __future__ import annotations

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
    "LinkCitation",
    "NotACitation",
    "ParsedCitation",
    "Pinpoint",
    "RuleCitation",
    "StatuteCitation",
    "parse",
]

KINDS = ("case", "statute", "rule", "constitution", "link")


def parse(text: str, kind: str = "case") -> ParsedCitation:
    """Parse ``text`` as a citation of ``kind``; never raises.

    Text that is not a citation of that kind gives ``NotACitation`` with a
    message saying what was expected.
    """
    if not isinstance(text, str):
        return NotACitation(
            kind=str(kind), raw=repr(text), message="citation text must be a string"
        )
    if kind == "case":
        from citeverify.citations import case

        return case.parse(text)
    if kind == "statute":
        from citeverify.citations import statute

        return statute.parse(text)
    if kind == "rule":
        from citeverify.citations import rule

        return rule.parse(text)
    if kind == "constitution":
        from citeverify.citations import constitution

        return constitution.parse(text)
    if kind == "link":
        from citeverify.citations import link

        return link.parse(text)
    return NotACitation(kind=str(kind), raw=text, message=f"unknown citation kind {kind!r}")
