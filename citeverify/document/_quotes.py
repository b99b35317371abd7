"""Finding the quotations of a brief: inline, in parentheticals, and set off as blocks.

One pass over the quotation marks of the text pairs openers with closers
inside a paragraph (a blank line ends every open quotation, so a stray mark
costs at most one paragraph); a second pass over the paragraphs finds block
quotations, paragraphs whose every line is indented.  Both passes are linear
in the text, whatever it holds.

Spans are half-open code-point offsets into the text.  For an inline
quotation the span covers the marks; ``quote`` is the text between them.
A block quotation's span covers the paragraph without its indentation, and
``quote`` is its lines joined with single spaces.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

import attrs

__all__ = ["QuotationSpan", "find_quotations", "paragraph_breaks"]

_OPENERS: Final = "\u201c"
_CLOSERS: Final = "\u201d"
_MARK: Final = re.compile(r'["\u201c\u201d]|\n[ \t\r]*\n')
_PARAGRAPH: Final = re.compile(r"\n[ \t\r]*\n")
_BLOCK_LINE: Final = re.compile(r"(?: {4,}|\t)\S")
_WORD: Final = re.compile(r"[A-Za-z0-9\u00c0-\u024f]+(?:['\u2019][A-Za-z]+)*")
#: An inline quotation longer than this is taken for unbalanced marks.
MAX_INLINE: Final = 4000


@attrs.frozen(slots=True)
class QuotationSpan:
    """A quotation in the document: its span, its words, and whether it is set off."""

    start: int
    end: int
    quote: str
    block: bool = False

    @property
    def words(self) -> int:
        return len(_WORD.findall(self.quote))


def paragraph_breaks(text: str) -> list[int]:
    """Offsets where a blank line separates paragraphs (each break's start)."""
    return [m.start() for m in _PARAGRAPH.finditer(text)]


def _inline(text: str) -> Iterator[QuotationSpan]:
    open_at: int | None = None
    for match in _MARK.finditer(text):
        mark = match.group(0)
        at = match.start()
        if mark[0] == "\n":  # a paragraph ends every open quotation
            open_at = None
            continue
        if open_at is None:
            if mark in _CLOSERS:
                continue  # a closer with no opener: a stray mark
            if mark == '"' and at + 1 < len(text) and text[at + 1].isspace():
                continue  # a straight mark before a space closes nothing we opened
            open_at = at
            continue
        if mark in _OPENERS:  # curly opener while open: the first was stray
            open_at = at
            continue
        if at - open_at > MAX_INLINE:
            open_at = None
            continue
        inner = text[open_at + 1 : at]
        if inner.strip():
            yield QuotationSpan(open_at, at + 1, inner)
        open_at = None


def _blocks(text: str) -> Iterator[QuotationSpan]:
    bounds: list[tuple[int, int]] = []
    start = 0
    for found in _PARAGRAPH.finditer(text):
        bounds.append((start, found.start()))
        start = found.end()
    bounds.append((start, len(text)))
    for start, end in bounds:
        paragraph = text[start:end]
        lines = paragraph.replace("\r", "").split("\n")
        if not lines or not all(_BLOCK_LINE.match(line) for line in lines if line.strip()):
            continue
        if not any(line.strip() for line in lines):
            continue
        lead = len(paragraph) - len(paragraph.lstrip())
        tail = len(paragraph.rstrip())
        body = " ".join(line.strip() for line in lines if line.strip())
        if (
            len(body) >= 2
            and body[0] in '"\u201c'
            and body[-1] in '"\u201d'
            and (body.count('"') + body.count("\u201c") + body.count("\u201d") == 2)
        ):
            body = body[1:-1]  # a block quotation in marks of its own
        yield QuotationSpan(start + lead, start + tail, body, block=True)


def find_quotations(text: str) -> list[QuotationSpan]:
    """Every quotation in ``text``, in document order, blocks first where they overlap.

    An inline quotation inside a block quotation is part of the block (a
    quotation within the quoted text), not a quotation of the brief's own.
    """
    blocks = list(_blocks(text))
    spans: list[QuotationSpan] = list(blocks)
    cursor = 0
    for quote in _inline(text):
        while cursor < len(blocks) and blocks[cursor].end <= quote.start:
            cursor += 1
        if cursor < len(blocks) and blocks[cursor].start <= quote.start < blocks[cursor].end:
            continue
        spans.append(quote)
    spans.sort(key=lambda s: (s.start, -s.end))
    return spans
