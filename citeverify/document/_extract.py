"""Turn a brief (text, Markdown, PDF or Word) into one string with page offsets.

Whole-document checking reports every citation and quotation by its offsets in one text,
so this stage decides, once, what that text is.  Every format follows the same
conventions, so that the citation and quotation finders work the same on all of them:

- paragraphs are separated by a blank line (``"\\n\\n"``), lines inside a paragraph by
  ``"\\n"``;
- a set-off (block) quotation has each of its lines prefixed with four spaces, as a
  lawyer's plain-text brief would have it;
- plain text and Markdown are returned unchanged apart from decoding and normalising
  ``"\\r\\n"`` and ``"\\r"`` to ``"\\n"`` (the offsets index the normalised text).

Hostile or broken input is an ordinary event for a service that accepts uploads, so every
step is bounded before it runs: sizes are checked before parsing, a Word file's declared
unpacked sizes before it is opened, a PDF's page tree is counted before pypdf flattens it,
and a wall-clock budget is checked between pages.  Every failure is a
:class:`~citeverify.errors.ValidationError` whose message a lawyer understands; none is a
traceback.

pypdf and python-docx are imported only when a PDF or Word file arrives (the ``document``
extra), so plain-text checking needs neither.
"""

from __future__ import annotations

import io
import os
import re
import statistics
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import attrs

from citeverify.errors import ValidationError

__all__ = ["DocumentLimits", "ExtractedText", "extract"]

_MIB: Final = 1024 * 1024


@attrs.frozen(slots=True)
class DocumentLimits:
    """How much work one document may cost; each limit answers a clear error when passed."""

    max_bytes: int = 50 * _MIB  # a PDF or Word file
    max_chars: int = 10_000_000  # extracted or submitted text
    max_pages: int = 2_000
    max_seconds: float = 60.0  # extraction wall-clock budget, checked between pages


@attrs.frozen(slots=True)
class ExtractedText:
    """The text the positions index, where each page begins, and what was noticed on the way."""

    text: str
    pages: tuple[int, ...]  # offset in ``text`` where each page begins; (0,) for text and Word
    format: str  # "text" | "markdown" | "pdf" | "docx"
    warnings: tuple[str, ...] = ()


# -- errors -------------------------------------------------------------------------------


def _invalid(message: str) -> ValidationError:
    return ValidationError(message, details=[{"field": "document", "message": message}])


_NOT_A_DOCUMENT: Final = "not a text, PDF or Word file"
_PDF_DAMAGED: Final = "the PDF is damaged"
_PDF_ENCRYPTED: Final = "the PDF is encrypted"
_NO_TEXT_LAYER: Final = "no text layer: run OCR first"
_DOCX_DAMAGED: Final = "the Word file is damaged"
_OLD_OFFICE: Final = (
    "an old-format (.doc) or password-protected Word file: save it as an unprotected .docx or PDF"
)
_RTF: Final = "an RTF file: save it as .docx, PDF or plain text"
_NEEDS_EXTRA: Final = (
    "reading {what} files needs the 'document' extra: pip install 'citeverify[document]'"
)


def _megabytes(n: int) -> str:
    return f"{n // _MIB} MB" if n % _MIB == 0 else f"{n:,} bytes"


def _too_large(limits: DocumentLimits) -> ValidationError:
    return _invalid(f"the document is larger than {_megabytes(limits.max_bytes)}")


def _too_long(limits: DocumentLimits) -> ValidationError:
    return _invalid(f"the extracted text is longer than {limits.max_chars:,} characters")


def _too_slow(limits: DocumentLimits) -> ValidationError:
    return _invalid(f"the document could not be read within {limits.max_seconds:g} seconds")


# -- formats ------------------------------------------------------------------------------

_CONTENT_TYPES: Final = {
    "application/pdf": "pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "text/plain": "text",
    "text/markdown": "markdown",
    "text/x-markdown": "markdown",
}
_UNDECLARED: Final = frozenset({"", "application/octet-stream"})
_SUFFIXES: Final = {".txt": "text", ".md": "markdown", ".pdf": "pdf", ".docx": "docx"}
_DESCRIBED: Final = {"pdf": "a PDF", "docx": "a Word file", "text": "text", "markdown": "text"}


def _declared_format(content_type: str | None) -> str | None:
    if content_type is None:
        return None
    bare = content_type.split(";", 1)[0].strip().lower()
    if bare in _UNDECLARED:
        return None
    if bare not in _CONTENT_TYPES:
        raise _invalid(f"{_NOT_A_DOCUMENT} (sent as {bare})")
    return _CONTENT_TYPES[bare]


def _suffix_format(name: str | None) -> str | None:
    if not name:
        return None
    return _SUFFIXES.get(os.path.splitext(name)[1].lower())


def _contradiction(found: str, declared: str) -> ValidationError:
    return _invalid(f"the file is {_DESCRIBED[found]}, but it was sent as {_DESCRIBED[declared]}")


def _names_a_file(source: str) -> bool:
    """The one case where a ``str`` is a path: a short single line naming an existing file."""
    if len(source) >= 4096 or "\n" in source or "\r" in source:
        return False
    if not source.lower().endswith(tuple(_SUFFIXES)):
        return False
    try:
        return os.path.isfile(source)
    except (OSError, ValueError):  # a NUL byte or an unreadable directory
        return False


def extract(
    source: str | os.PathLike[str] | bytes,
    *,
    filename: str | None = None,
    content_type: str | None = None,
    limits: DocumentLimits = DocumentLimits(),  # frozen, so one shared default is safe
) -> ExtractedText:
    """Extract a brief's text, with the offset where each page begins.

    ``source`` is one of:

    - an ``os.PathLike``: a file to read;
    - ``bytes``: a file's contents, recognised by their first bytes (``%PDF`` is a PDF, a
      zip holding ``word/document.xml`` a Word file, anything else UTF-8 text, with or
      without a byte-order mark; UTF-16 and UTF-32 need their byte-order mark; text that is
      not UTF-8 is read as Windows-1252, with a warning);
    - a ``str``: the brief's text itself, **except** a single line shorter than 4096
      characters that ends in ``.txt``, ``.md``, ``.pdf`` or ``.docx`` and names an existing
      file: that is read as a path.

    ``filename`` and ``content_type`` (``application/pdf``, the Word ``.docx`` type,
    ``text/plain``, ``text/markdown``) say what the bytes are meant to be: a Markdown
    suffix or type makes the format ``"markdown"``, and a content type that contradicts
    the bytes is an error.

    The returned text follows the module's conventions (paragraphs separated by a blank
    line, block quotations' lines indented by four spaces); plain text and Markdown come
    back as given, with line endings normalised to ``"\\n"``, and the offsets index that
    normalised text.

    Raises:
        ValidationError: the input is not a readable text, PDF or Word file, or passes a
            limit; the message says which, in words a lawyer understands.
    """
    declared = _declared_format(content_type)
    if isinstance(source, str):
        if _names_a_file(source):
            return _from_path(Path(source), filename, declared, limits)
        return _from_str(source, filename, declared, limits)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return _from_bytes(bytes(source), filename, declared, limits)
    if isinstance(source, os.PathLike):
        return _from_path(Path(os.fspath(source)), filename, declared, limits)
    raise TypeError(f"a document is text, bytes or a path, not {type(source).__name__}")


def _from_path(
    path: Path, filename: str | None, declared: str | None, limits: DocumentLimits
) -> ExtractedText:
    # Text can legitimately take up to four bytes a character, so the read cap is the
    # larger of the file cap and the text cap in bytes; one byte more tells "too big".
    cap = max(limits.max_bytes, 4 * limits.max_chars + 4)
    try:
        if not path.is_file():
            raise _invalid(f"no such file: {path.name}")
        with path.open("rb") as f:
            data = f.read(cap + 1)
    except OSError as error:
        raise _invalid(f"the file could not be read: {error.strerror or error}") from None
    if len(data) > cap:
        if _sniff(data) in ("pdf", "zip"):
            raise _too_large(limits)
        raise _too_long(limits)
    return _from_bytes(data, filename or path.name, declared, limits)


def _text_format(filename: str | None, declared: str | None) -> str:
    if declared == "markdown" or (declared is None and _suffix_format(filename) == "markdown"):
        return "markdown"
    return "text"


def _from_str(
    text: str, filename: str | None, declared: str | None, limits: DocumentLimits
) -> ExtractedText:
    if declared in ("pdf", "docx"):
        raise _contradiction("text", declared)
    return _finish_text(text, _text_format(filename, declared), (), limits)


def _finish_text(
    text: str, fmt: str, warnings: tuple[str, ...], limits: DocumentLimits
) -> ExtractedText:
    # Normalising line endings at most halves the length, so anything longer than twice
    # the cap is refused before a copy is made.
    if len(text) > 2 * limits.max_chars:
        raise _too_long(limits)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if len(text) > limits.max_chars:
        raise _too_long(limits)
    return ExtractedText(text=text, pages=(0,), format=fmt, warnings=warnings)


# -- bytes: sniffing and text decoding -----------------------------------------------------

_OLE_MAGIC: Final = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_BOMS: Final = (  # UTF-32 first: its little-endian mark begins with UTF-16's
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)
# C0 controls other than tab, newline, vertical tab, form feed and carriage return.
_CONTROL: Final = re.compile(r"[\x01-\x08\x0e-\x1f\x7f]")


def _sniff(data: bytes) -> str | None:
    if data.startswith(b"%PDF"):
        return "pdf"
    if data.startswith(b"PK\x03\x04"):
        return "zip"
    if data.startswith(_OLE_MAGIC):
        return "ole"
    if data.lstrip()[:5] == b"{\\rtf":
        return "rtf"
    return None


def _from_bytes(
    data: bytes, filename: str | None, declared: str | None, limits: DocumentLimits
) -> ExtractedText:
    kind = _sniff(data)
    meant = declared or _suffix_format(filename)
    if kind == "pdf":
        if declared not in (None, "pdf"):
            raise _contradiction("pdf", declared)
        if len(data) > limits.max_bytes:
            raise _too_large(limits)
        return _from_pdf(data, limits)
    if kind == "zip":
        if declared not in (None, "docx"):
            raise _contradiction("docx", declared)
        if len(data) > limits.max_bytes:
            raise _too_large(limits)
        return _from_docx(data, meant == "docx", limits)
    if kind == "ole":
        raise _invalid(_OLD_OFFICE)
    if kind == "rtf":
        raise _invalid(_RTF)
    if meant == "pdf":
        raise _invalid(_PDF_DAMAGED + " (it does not begin like a PDF)")
    if meant == "docx":
        raise _invalid(_DOCX_DAMAGED + " (it is not a .docx package)")
    if len(data) > 4 * limits.max_chars + 4:  # more bytes than the longest text can take
        raise _too_long(limits)
    text, warnings = _decode(data)
    return _finish_text(text, _text_format(filename, declared), warnings, limits)


def _decode(data: bytes) -> tuple[str, tuple[str, ...]]:
    warnings: tuple[str, ...] = ()
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                text = data[len(bom) :].decode(encoding)
            except UnicodeDecodeError:
                raise _invalid(_NOT_A_DOCUMENT) from None
            break
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            # Word processors on Windows still save "plain text" as Windows-1252 (curly
            # quotes as 0x93/0x94); binary data fails the control-character test below.
            try:
                text = data.decode("cp1252")
            except UnicodeDecodeError:
                raise _invalid(_NOT_A_DOCUMENT) from None
            warnings = ("the text is not UTF-8; it was read as Windows-1252",)
    if "\x00" in text or _looks_binary(text):
        raise _invalid(_NOT_A_DOCUMENT)
    return text, warnings


def _looks_binary(text: str) -> bool:
    sample = text[:1_000_000]
    for controls, _ in enumerate(_CONTROL.finditer(sample), start=1):
        if controls * 100 > len(sample):
            return True
    return False


# -- shared layout ------------------------------------------------------------------------

_INDENT: Final = "    "


def _paragraph(lines: list[str], block: bool) -> str:
    """Lines of one paragraph; a block quotation's each get the four-space prefix."""
    if block:
        return "\n".join(_INDENT + line for line in lines)
    return "\n".join(lines)


class _Budget:
    """Characters and seconds left; checked as the text grows and between pages."""

    def __init__(self, limits: DocumentLimits) -> None:
        self.limits = limits
        self.deadline = time.monotonic() + limits.max_seconds
        self.chars = 0

    def add(self, n: int) -> None:
        self.chars += n
        if self.chars > self.limits.max_chars:
            raise _too_long(self.limits)

    def check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise _too_slow(self.limits)


# -- PDF ----------------------------------------------------------------------------------

_POINTS_PER_INCH: Final = 72.0
# A line counts as set off when its left edge is this far right of the page's body margin
# ("about 0.4 inch", with room for rounding) and not so far that it is a signature block or
# the right-hand column of a caption.
_BLOCK_MIN_INDENT: Final = 0.35 * _POINTS_PER_INCH
_BLOCK_MAX_INDENT: Final = 2.0 * _POINTS_PER_INCH
_SAME_EDGE: Final = 4.0  # points: lines of one block share their left edge
_FIRST_LINE_INDENT: Final = 0.15 * _POINTS_PER_INCH  # an indented line opens a paragraph
_PARAGRAPH_GAP: Final = 1.3  # a gap this many times the usual line spacing ends a paragraph
_NUMBER_ONLY: Final = re.compile(r"[\divxlcdmIVXLCDM\-–—.\s]{1,12}")


@attrs.frozen(slots=True)
class _Line:
    text: str
    x: float | None  # left edge in page points, or None when unknown (rotated text)
    y: float | None


def _from_pdf(data: bytes, limits: DocumentLimits) -> ExtractedText:
    try:
        from pypdf import PdfReader
    except ImportError:  # pragma: no cover - the extra is installed in development
        raise _invalid(_NEEDS_EXTRA.format(what="PDF")) from None
    budget = _Budget(limits)
    # A file cut short lacks its end-of-file marker; pypdf would quietly rebuild what it
    # can and return part of the brief, which must not pass as the whole of it.
    if b"%%EOF" not in data[-2048:]:
        raise _invalid(_PDF_DAMAGED + " (it appears to be cut short)")
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        encrypted = reader.is_encrypted
    except Exception:
        raise _invalid(_PDF_DAMAGED) from None
    if encrypted:
        try:
            opened = bool(reader.decrypt(""))
        except Exception:
            opened = False
        if not opened:
            raise _invalid(_PDF_ENCRYPTED)
    try:
        _count_pages(reader, limits)
        pages = reader.pages
        count = len(pages)
    except ValidationError:
        raise
    except Exception:
        raise _invalid(_PDF_DAMAGED) from None
    if count > limits.max_pages:
        raise _too_many_pages(limits)

    texts: list[str] = []
    empty: list[int] = []
    failed: list[int] = []
    for number in range(1, count + 1):
        budget.check_time()
        try:
            lines = _pdf_lines(pages[number - 1])
        except ValidationError:
            raise
        except Exception:
            failed.append(number)
            texts.append("")
            continue
        page_text = _layout_page(lines)
        if not page_text.strip():
            empty.append(number)
            page_text = ""
        budget.add(len(page_text) + 2)
        texts.append(page_text)
    budget.check_time()

    if count == 0 or len(failed) == count:
        raise _invalid(_PDF_DAMAGED)
    if len(empty) + len(failed) == count:
        if failed:
            raise _invalid(_PDF_DAMAGED)
        raise _invalid(_NO_TEXT_LAYER)
    warnings = []
    if empty:
        warnings.append(_pages_phrase(empty, "has no text layer", "have no text layer"))
    if failed:
        warnings.append(_pages_phrase(failed, "could not be read", "could not be read"))

    text_parts: list[str] = []
    starts: list[int] = []
    length = 0
    for page_text in texts:
        if page_text and length:
            text_parts.append("\n\n")
            length += 2
        starts.append(length)
        text_parts.append(page_text)
        length += len(page_text)
    text = "".join(text_parts)
    if len(text) > limits.max_chars:
        raise _too_long(limits)
    return ExtractedText(text=text, pages=tuple(starts), format="pdf", warnings=tuple(warnings))


def _too_many_pages(limits: DocumentLimits) -> ValidationError:
    return _invalid(f"the PDF has more than {limits.max_pages:,} pages")


def _count_pages(reader: Any, limits: DocumentLimits) -> int:
    """Walk the page tree with a budget before pypdf flattens it.

    pypdf builds a page object for every leaf at once; a small file can declare millions
    of tiny pages, so they are counted first and the walk stops at the cap.
    """
    from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject

    root = reader.trailer["/Root"].get_object()
    node_ref = root["/Pages"]
    stack: list[Any] = [node_ref]
    seen: set[tuple[int, int]] = set()
    leaves = 0
    visits = 0
    while stack:
        ref = stack.pop()
        if isinstance(ref, IndirectObject):
            key = (ref.idnum, ref.generation)
            if key in seen:
                continue
            seen.add(key)
        visits += 1
        if visits > 2 * limits.max_pages + 1000:
            raise _too_many_pages(limits)
        node = ref.get_object()
        if not isinstance(node, DictionaryObject):
            continue
        kids = node.get("/Kids")
        if node.get("/Type") == "/Pages" or kids is not None:
            kids = kids.get_object() if kids is not None else None
            if isinstance(kids, ArrayObject):
                if len(kids) > limits.max_pages:
                    raise _too_many_pages(limits)
                stack.extend(reversed(list(kids)))
            continue
        leaves += 1
        if leaves > limits.max_pages:
            raise _too_many_pages(limits)
    return leaves


def _pdf_lines(page: Any) -> list[_Line]:
    """The page's text lines as pypdf extracts them, each with where it starts.

    pypdf reports every piece it adds to its output through ``visitor_text``, with the
    text and transformation matrices in force where the piece starts; the pieces joined
    are its ``extract_text()`` result, so lines here break where pypdf breaks them.
    """
    lines: list[_Line] = []
    current: list[str] = []
    where: list[tuple[float | None, float | None]] = []

    def end_line() -> None:
        text = "".join(current).strip()
        if text:
            x, y = where[0] if where else (None, None)
            lines.append(_Line(text, x, y))
        current.clear()
        where.clear()

    def visit(text: Any, cm: Any, tm: Any, _font: Any, _size: Any) -> None:
        if not isinstance(text, str) or not text:
            return
        segments = text.split("\n")
        for index, segment in enumerate(segments):
            if index:
                end_line()
            if segment.strip() and not where:
                where.append(_origin(cm, tm) if index == 0 else (None, None))
            current.append(segment)

    page.extract_text(visitor_text=visit)
    end_line()
    return lines


def _origin(cm: Any, tm: Any) -> tuple[float | None, float | None]:
    """Where a piece starts on the page, for upright text; unknown for rotated text."""
    try:
        a, b, c, d, e, f = (float(v) for v in cm)
        ta, tb, _, _, tx, ty = (float(v) for v in tm)
    except (TypeError, ValueError):
        return None, None
    # The text matrix times the current transformation matrix: its origin and its
    # x axis; only text running left to right has a left margin worth comparing.
    x_axis = ta * a + tb * c
    skew = ta * b + tb * d
    if x_axis <= 0 or abs(skew) > 0.01 * abs(x_axis):
        return None, None
    return tx * a + ty * c + e, tx * b + ty * d + f


def _is_number_only(text: str) -> bool:
    """Page numbers and pleading-paper line numbers: never body text, never a block."""
    return _NUMBER_ONLY.fullmatch(text) is not None


def _body_margin(lines: list[_Line]) -> float | None:
    """The page's body margin: the leftmost left edge that many lines share."""
    edges: dict[int, int] = {}
    for line in lines:
        if line.x is not None and not _is_number_only(line.text):
            key = round(line.x / 2)
            edges[key] = edges.get(key, 0) + 1
    if not edges:
        return None
    total = sum(edges.values())
    common = [key for key, n in edges.items() if n >= max(2, total // 10)]
    return 2.0 * min(common or edges)


def _block_lines(lines: list[_Line], margin: float | None) -> list[bool]:
    """Which lines belong to set-off quotations: runs of two or more lines indented
    between about 0.4 and 2 inches beyond the margin, sharing one left edge (the first may
    sit further right, as a paragraph indent inside the quotation)."""
    n = len(lines)
    block = [False] * n
    if margin is None:
        return block

    def candidate(line: _Line) -> bool:
        return (
            line.x is not None
            and _BLOCK_MIN_INDENT <= line.x - margin <= _BLOCK_MAX_INDENT
            and not _is_number_only(line.text)
        )

    i = 0
    while i < n:
        first = lines[i]
        if not candidate(first) or i + 1 >= n or not candidate(lines[i + 1]):
            i += 1
            continue
        edge = lines[i + 1].x or 0.0
        if (first.x or 0.0) < edge - _SAME_EDGE:
            i += 1
            continue
        j = i + 1
        while j < n and candidate(lines[j]):
            x = lines[j].x or 0.0
            same_edge = abs(x - edge) <= _SAME_EDGE
            # a later paragraph of the quotation, indented again on its first line
            reindented = (
                x > edge
                and j + 1 < n
                and candidate(lines[j + 1])
                and abs((lines[j + 1].x or 0.0) - edge) <= _SAME_EDGE
            )
            if not (same_edge or reindented):
                break
            j += 1
        for k in range(i, j):
            block[k] = True
        i = j
    return block


def _gaps(lines: list[_Line], block: list[bool], kind: bool) -> float | None:
    """The usual line spacing between consecutive lines of one kind (body or block)."""
    gaps = []
    for prev, line, pb, lb in zip(lines, lines[1:], block, block[1:], strict=False):
        if pb == lb == kind and prev.y is not None and line.y is not None:
            gap = prev.y - line.y
            if gap > 0:
                gaps.append(gap)
    return statistics.median(gaps) if gaps else None


def _layout_page(lines: list[_Line]) -> str:
    """One page's text: lines grouped into paragraphs, block quotations indented."""
    if not lines:
        return ""
    margin = _body_margin(lines)
    block = _block_lines(lines, margin)
    usual = {True: _gaps(lines, block, True), False: _gaps(lines, block, False)}
    paragraphs: list[str] = []
    current: list[str] = []
    current_block = block[0]
    for index, line in enumerate(lines):
        if index and _starts_paragraph(
            lines[index - 1], line, block[index - 1], block[index], margin, usual[block[index]]
        ):
            paragraphs.append(_paragraph(current, current_block))
            current = []
        if not current:
            current_block = block[index]
        current.append(line.text)
    paragraphs.append(_paragraph(current, current_block))
    return "\n\n".join(paragraphs)


def _starts_paragraph(
    prev: _Line,
    line: _Line,
    prev_block: bool,
    line_block: bool,
    margin: float | None,
    usual_gap: float | None,
) -> bool:
    if prev_block != line_block:
        return True
    if _is_number_only(prev.text) or _is_number_only(line.text):
        return True
    if prev.y is not None and line.y is not None:
        gap = prev.y - line.y
        if gap <= 0:  # back up the page: a new column or a text box
            return True
        if usual_gap is not None and gap > _PARAGRAPH_GAP * usual_gap:
            return True
    # A line indented further than the one before opens a paragraph (a first-line indent);
    # within a block quotation the same, measured from the block's edge.
    return line.x is not None and prev.x is not None and line.x - prev.x > _FIRST_LINE_INDENT


def _pages_phrase(numbers: list[int], one: str, many: str) -> str:
    ranges: list[str] = []
    start = prev = numbers[0]
    for number in [*numbers[1:], None]:
        if number is not None and number == prev + 1:
            prev = number
            continue
        ranges.append(str(start) if start == prev else f"{start}-{prev}")
        if number is not None:
            start = prev = number
    shown = ", ".join(ranges[:20]) + (f" and {len(ranges) - 20} more" if len(ranges) > 20 else "")
    if len(numbers) == 1:
        return f"page {shown} {one}"
    return f"pages {shown} {many}"


# -- Word ---------------------------------------------------------------------------------

_W: Final = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_MC: Final = "http://schemas.openxmlformats.org/markup-compatibility/2006"


def _w(tag: str) -> str:
    return f"{{{_W}}}{tag}"


_P: Final = _w("p")
_T: Final = _w("t")
_SKIPPED: Final = frozenset(
    {_w("pPr"), _w("rPr"), _w("del"), _w("moveFrom"), _P, f"{{{_MC}}}Fallback", _w("sectPr")}
)
_BREAKS: Final = frozenset({_w("br"), _w("cr")})
_FOOTNOTE_REFERENCE: Final = _w("footnoteReference")
_MAX_ZIP_MEMBERS: Final = 10_000
_MAX_RATIO: Final = 100  # unpacked size over file size, past which a zip is a bomb
_RATIO_FREE: Final = 10 * _MIB  # small packages may compress as well as they like
_BLOCK_TWIPS: Final = 576  # 0.4 inch in twentieths of a point
_QUOTE_STYLE: Final = re.compile(r"quot|block\s*text", re.IGNORECASE)
_MEASURE: Final = re.compile(r"(-?\d+(?:\.\d+)?)(mm|cm|in|pt|pc|pi)?")
_TWIPS_PER: Final = {
    "mm": 1440 / 25.4,
    "cm": 1440 / 2.54,
    "in": 1440.0,
    "pt": 20.0,
    "pc": 240.0,
    "pi": 240.0,
}


def _from_docx(data: bytes, meant_docx: bool, limits: DocumentLimits) -> ExtractedText:
    _check_package(data, meant_docx, limits)
    try:
        import docx
    except ImportError:  # pragma: no cover - the extra is installed in development
        raise _invalid(_NEEDS_EXTRA.format(what="Word")) from None
    budget = _Budget(limits)
    try:
        document = docx.Document(io.BytesIO(data))
        body = document.element.body
        styles = _Styles(document.styles.element)
        paragraphs = list(_docx_paragraphs(body, styles, budget))
        notes = _footnotes(document, styles, budget)
    except ValidationError:
        raise
    except Exception:
        raise _invalid(_DOCX_DAMAGED) from None
    parts = [text for text, _ in paragraphs if text]
    numbered = 0
    for ref in (ref for _, refs in paragraphs for ref in refs):
        note = notes.pop(ref, None)
        if note is None:
            continue
        # Footnotes follow the body, numbered as Word shows them; a note that opens with a
        # block quotation gets its number as a paragraph of its own.
        numbered += 1
        if note[0].startswith(_INDENT):
            parts.append(str(numbered))
        else:
            note[0] = f"{numbered} {note[0]}"
        parts.extend(note)
    text = "\n\n".join(parts)
    if len(text) > limits.max_chars:
        raise _too_long(limits)
    return ExtractedText(text=text, pages=(0,), format="docx")


def _check_package(data: bytes, meant_docx: bool, limits: DocumentLimits) -> None:
    """Refuse a zip that is not a Word file, or that would unpack to too much, before
    python-docx reads every part of it into memory."""
    damaged = _DOCX_DAMAGED if meant_docx else _NOT_A_DOCUMENT
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            members = package.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        raise _invalid(damaged) from None
    if len(members) > _MAX_ZIP_MEMBERS:
        raise _invalid(_DOCX_DAMAGED + " (it holds too many parts)")
    names = {m.filename for m in members}
    if "word/document.xml" not in names:
        raise _invalid(damaged)
    if any(m.flag_bits & 0x1 for m in members):
        raise _invalid("the Word file is encrypted")
    unpacked = sum(m.file_size for m in members)
    cap = 4 * limits.max_bytes
    if unpacked > cap:
        raise _invalid(f"the Word file unpacks to more than {_megabytes(cap)}")
    if unpacked > _RATIO_FREE and unpacked > _MAX_RATIO * max(len(data), 1):
        raise _invalid(_DOCX_DAMAGED + f" (it would unpack {len(data):,} bytes to {unpacked:,})")
    main = next(m for m in members if m.filename == "word/document.xml")
    if main.file_size > 2 * limits.max_bytes:
        raise _invalid(
            f"the Word file's text part is larger than {_megabytes(2 * limits.max_bytes)}"
        )


def _twips(value: str | None) -> float | None:
    if value is None:
        return None
    match = _MEASURE.fullmatch(value.strip())
    if match is None:
        return None
    number = float(match[1])
    unit = match[2]
    return number if unit is None else number * _TWIPS_PER[unit]


class _Styles:
    """What a paragraph inherits from its style chain: names, indents, numbering."""

    def __init__(self, styles_element: Any) -> None:
        self.by_id: dict[str, Any] = {}
        self.default: str | None = None
        for style in styles_element.iterchildren(_w("style")):
            if style.get(_w("type")) != "paragraph":
                continue
            style_id = style.get(_w("styleId"))
            if style_id is None:
                continue
            self.by_id[style_id] = style
            if style.get(_w("default")) in ("1", "true", "on"):
                self.default = style_id

    def chain(self, style_id: str | None) -> Iterator[Any]:
        seen: set[str] = set()
        current = style_id if style_id is not None else self.default
        while current is not None and current not in seen and len(seen) < 20:
            seen.add(current)
            style = self.by_id.get(current)
            if style is None:
                return
            yield style
            based = style.find(_w("basedOn"))
            current = based.get(_w("val")) if based is not None else None


def _ind_of(ppr: Any) -> Any:
    return ppr.find(_w("ind")) if ppr is not None else None


def _is_block(paragraph: Any, styles: _Styles) -> bool:
    """A set-off quotation: a quotation style, or a left indent of at least 0.4 inch that
    is not a list item's and is not undone by a hanging first line."""
    ppr = paragraph.find(_w("pPr"))
    style_ref = ppr.find(_w("pStyle")) if ppr is not None else None
    chain = list(styles.chain(style_ref.get(_w("val")) if style_ref is not None else None))
    numbered = ppr is not None and ppr.find(_w("numPr")) is not None
    left: float | None = None
    hanging: float | None = None
    for holder in [ppr, *(style.find(_w("pPr")) for style in chain)]:
        if holder is None:
            continue
        numbered = numbered or holder.find(_w("numPr")) is not None
        ind = _ind_of(holder)
        if ind is None:
            continue
        if left is None:
            left = _twips(ind.get(_w("left")) or ind.get(_w("start")))
        if hanging is None:
            hanging = _twips(ind.get(_w("hanging")))
    names = []
    for style in chain:
        name = style.find(_w("name"))
        names.append(name.get(_w("val"), "") if name is not None else "")
        names.append(style.get(_w("styleId"), ""))
    if any(_QUOTE_STYLE.search(name) for name in names) and not numbered:
        return True
    if numbered or left is None or any(name.lower().startswith("list") for name in names):
        return False
    return left >= _BLOCK_TWIPS and left - (hanging or 0.0) >= _BLOCK_TWIPS


def _paragraph_text(paragraph: Any) -> tuple[str, list[str]]:
    """A paragraph's visible text (tracked deletions left out) and its footnote ids."""
    out: list[str] = []
    notes: list[str] = []
    stack = list(reversed(list(paragraph)))
    while stack:
        element = stack.pop()
        tag = element.tag
        if not isinstance(tag, str) or tag in _SKIPPED:
            continue
        if tag == _T:
            out.append(element.text or "")
        elif tag == _w("tab"):
            out.append("\t")
        elif tag in _BREAKS:
            out.append("\n")
        elif tag == _w("noBreakHyphen"):
            out.append("-")
        elif tag == _FOOTNOTE_REFERENCE:
            ref = element.get(_w("id"))
            if ref is not None:
                notes.append(ref)
        else:
            stack.extend(reversed(list(element)))
    return "".join(out), notes


def _docx_paragraphs(
    root: Any, styles: _Styles, budget: _Budget
) -> Iterator[tuple[str, list[str]]]:
    """Paragraphs in document order (tables' too), laid out by the conventions."""
    fallback = f"{{{_MC}}}Fallback"
    for count, paragraph in enumerate(root.iter(_P)):
        if count % 256 == 0:
            budget.check_time()
        if any(True for _ in paragraph.iterancestors(fallback)):
            continue
        raw, notes = _paragraph_text(paragraph)
        lines = [line.strip() for line in raw.split("\n")]
        lines = [line for line in lines if line]
        if not lines:
            if notes:
                yield "", notes
            continue
        text = _paragraph(lines, _is_block(paragraph, styles))
        budget.add(len(text) + 2)
        yield text, notes


def _footnotes(document: Any, styles: _Styles, budget: _Budget) -> dict[str, list[str]]:
    """Each footnote's paragraphs by id; they follow the body, in order of reference."""
    from docx.oxml.parser import parse_xml

    part = None
    for rel in document.part.rels.values():
        if rel.reltype.endswith("/footnotes") and not rel.is_external:
            part = rel.target_part
            break
    if part is None:
        return {}
    root = parse_xml(part.blob)
    notes: dict[str, list[str]] = {}
    for note in root.iterchildren(_w("footnote")):
        if note.get(_w("type")) not in (None, "normal"):
            continue
        ref = note.get(_w("id"))
        texts = [text for text, _ in _docx_paragraphs(note, styles, budget) if text]
        if ref is not None and texts:
            notes[ref] = texts
    return notes
