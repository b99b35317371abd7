"""Parser for statute citations (placeholder until the parsing issue lands)."""

from __future__ import annotations

from citeverify.citations._types import NotACitation, ParsedCitation


def parse(text: str) -> ParsedCitation:
    return NotACitation(kind="statute", raw=text, message="statute parsing is not implemented yet")
