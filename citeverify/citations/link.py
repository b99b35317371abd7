"""Parser for link citations (placeholder until the parsing issue lands)."""

from __future__ import annotations

from citeverify.citations._types import NotACitation, ParsedCitation


def parse(text: str) -> ParsedCitation:
    return NotACitation(kind="link", raw=text, message="link parsing is not implemented yet")
