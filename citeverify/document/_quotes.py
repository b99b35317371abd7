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
from itertools import islice
from typing import Final

import attrs

__all__ = ["QuotationSpan", "find_quotations"]

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

    def has_words(self, count: int) -> bool:
        """``self.words >= count``, reading no further than the ``count``-th word."""
        return (
            count <= 0
            or next(islice(_WORD.finditer(self.quote), count - 1, None), None) is not None
        )


def _marks(text: str, breaks: list[tuple[int, int]]) -> list[tuple[int, str]]:
    """Each quotation mark and paragraph break of ``text`` in order: ``_MARK.finditer``.

    Marks are rare, so ``str.find`` jumps to each in C, where ``_MARK`` (a
    character set) is tried at every offset.  No mark lies inside a paragraph
    break, so the two lists merged are exactly ``_MARK``'s matches; a break is
    given as ``"\n"``, its first character, which is all ``_inline`` reads.
    """
    events: list[tuple[int, str]] = [(start, "\n") for start, _end in breaks]
    for mark in _MARKS:
        at = text.find(mark)
        while at >= 0:
            events.append((at, mark))
            at = text.find(mark, at + 1)
    events.sort()
    return events


_MARKS: Final = ('"', "\u201c", "\u201d")


def _paragraph_spans(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in _PARAGRAPH.finditer(text)]


def _inline(text: str, breaks: list[tuple[int, int]] | None = None) -> Iterator[QuotationSpan]:
    open_at: int | None = None
    for at, mark in _marks(text, _paragraph_spans(text) if breaks is None else breaks):
        if mark == "\n":  # a paragraph ends every open quotation
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


def _blocks(text: str, breaks: list[tuple[int, int]] | None = None) -> Iterator[QuotationSpan]:
    bounds: list[tuple[int, int]] = []
    start = 0
    for found_start, found_end in _paragraph_spans(text) if breaks is None else breaks:
        bounds.append((start, found_start))
        start = found_end
    bounds.append((start, len(text)))
    for start, end in bounds:
        # Most paragraphs fail on their first line: read it alone first.  Exact
        # when the line is not blank and holds no "\r" (which the test drops).
        newline = text.find("\n", start, end)
        first = text[start : end if newline < 0 else newline]
        if first.strip() and "\r" not in first and not _BLOCK_LINE.match(first):
            continue
        paragraph = text[start:end]
        lines = paragraph.replace("\r", "").split("\n")
        stripped = [line.strip() for line in lines]  # each line stripped once
        pairs = zip(lines, stripped, strict=True)
        if not all(_BLOCK_LINE.match(line) for line, bare in pairs if bare):
            continue
        if not any(stripped):
            continue
        lead = len(paragraph) - len(paragraph.lstrip())
        tail = len(paragraph.rstrip())
        body = " ".join(bare for bare in stripped if bare)
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
    breaks = _paragraph_spans(text)  # read once for both passes
    blocks = list(_blocks(text, breaks))
    spans: list[QuotationSpan] = list(blocks)
    cursor = 0
    for quote in _inline(text, breaks):
        while cursor < len(blocks) and blocks[cursor].end <= quote.start:
            cursor += 1
        if cursor < len(blocks) and blocks[cursor].start <= quote.start < blocks[cursor].end:
            continue
        spans.append(quote)
    spans.sort(key=lambda s: (s.start, -s.end))
    return spans
