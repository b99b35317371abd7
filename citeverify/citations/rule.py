"""Parser for rule citations (placeholder until the parsing issue lands)."""

from __future__ import annotations

from citeverify.citations._types import NotACitation, ParsedCitation


def parse(text: str) -> ParsedCitation:
    return NotACitation(kind="rule", raw=text, message="rule parsing is not implemented yet")
