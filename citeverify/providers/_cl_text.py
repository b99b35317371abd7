"""CourtListener opinion markup to plain text, keeping star-pagination page markers.

CourtListener's HTML renderings (``html_with_citations``, ``html``,
``html_lawbox``, ``xml_harvard``...) mark the start of each reporter page with
``<span class="star-pagination" label="663">*663</span>`` (older files: no
``label``, text ``*663`` or ``*Page 663``).  Quotation checks need the text
without those markers (a quote may run across a page break) and the pages
themselves (a pin cite names one), so this module strips every tag, drops the
marker text, and records ``(offset, page)`` where each page begins.

Markers inside footnotes repeat or contradict the body's pagination, so they
are ignored; so are markers of a second page scheme (a parallel reporter) and
any marker that would make the page numbers go backwards.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from html.parser import HTMLParser
from typing import Any

__all__ = ["TEXT_FIELDS", "markup_to_text", "opinion_text", "plain_to_text"]

# The text fields of a CourtListener opinion (API record or bulk-data row), best first.
TEXT_FIELDS = (
    "plain_text",
    "html_with_citations",
    "html",
    "html_lawbox",
    "html_columbia",
    "html_anon_2020",
    "xml_harvard",
)

# Elements after which a reader sees a line break.
_BLOCK = frozenset(
    {
        "p",
        "div",
        "br",
        "li",
        "ul",
        "ol",
        "blockquote",
        "center",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "pre",
        "table",
        "tr",
        "section",
        "article",
        "opinion",
        "author",
        "footnote",
        "footnote_body",
        "hr",
    }
)
_VOID = frozenset({"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base"})
_SKIP = frozenset({"script", "style", "head", "title"})
_MARKER_PAGE = re.compile(r"\*\s*(?:page\s*)?(\d+)", re.IGNORECASE)
_WHITESPACE = re.compile(r"\s+")


def _classes(attrs: list[tuple[str, str | None]]) -> set[str]:
    for key, value in attrs:
        if key == "class" and value:
            return set(value.split())
    return set()


def _attr(attrs: list[tuple[str, str | None]], name: str) -> str | None:
    for key, value in attrs:
        if key == name:
            return value
    return None


class _Extractor(HTMLParser):
    """Collects text pieces and page markers; a marker is a page start at the current offset."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: list[str] = []
        self.length = 0
        self.pages: list[tuple[int, int]] = []
        self._stack: list[tuple[str, bool, bool]] = []  # (tag, is_marker, is_footnote)
        self._skip = 0
        self._footnote = 0
        self._marker_depth = 0
        self._marker_label: str | None = None
        self._marker_scheme: str | None = None
        self._marker_text: list[str] = []
        self._scheme: str | None = None
        self._scheme_seen = False

    def _emit(self, text: str) -> None:
        if text:
            self.pieces.append(text)
            self.length += len(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCK:
            self._emit("\n")
        if tag in _VOID:
            return
        classes = _classes(attrs)
        is_marker = self._marker_depth == 0 and (
            "star-pagination" in classes or "page-label" in classes
        )
        is_footnote = any(c.startswith("footnote") for c in classes) or tag in (
            "footnote",
            "footnote_body",
        )
        self._stack.append((tag, is_marker, is_footnote))
        if tag in _SKIP:
            self._skip += 1
        if is_footnote:
            self._footnote += 1
        if is_marker:
            self._marker_depth = 1
            self._marker_label = _attr(attrs, "label") or _attr(attrs, "data-label")
            self._marker_scheme = _attr(attrs, "pagescheme")
            self._marker_text = []
        elif self._marker_depth:
            self._marker_depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCK:
            self._emit("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID:
            if tag in _BLOCK:
                self._emit("\n")
            return
        # Close up to the matching open tag (tolerates unclosed inner tags).
        for index in range(len(self._stack) - 1, -1, -1):
            if self._stack[index][0] == tag:
                break
        else:
            return
        while len(self._stack) > index:
            open_tag, is_marker, is_footnote = self._stack.pop()
            if open_tag in _SKIP:
                self._skip -= 1
            if is_footnote:
                self._footnote -= 1
            if is_marker:
                self._marker_depth = 0
                self._close_marker()
            elif self._marker_depth:
                self._marker_depth -= 1
            if open_tag in _BLOCK:
                self._emit("\n")

    def _close_marker(self) -> None:
        text = "".join(self._marker_text)
        label = self._marker_label
        page: int | None = None
        if label and label.strip().isdigit():
            page = int(label.strip())
        else:
            found = _MARKER_PAGE.search(text)
            if found:
                page = int(found.group(1))
        if page is None or self._footnote:
            return
        if not self._scheme_seen:
            self._scheme_seen = True
            self._scheme = self._marker_scheme
        elif self._marker_scheme != self._scheme:
            return
        if self.pages and page < self.pages[-1][1]:
            return
        self.pages.append((self.length, page))
        # Keep words on either side of the marker apart.
        self._emit(" ")

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._marker_depth:
            self._marker_text.append(data)
            return
        self._emit(data)


def _tidy(
    pieces: list[str], pages: list[tuple[int, int]]
) -> tuple[str, tuple[tuple[int, int], ...]]:
    """Collapse whitespace runs (one with a line break becomes ``\n``), moving page offsets."""
    raw = "".join(pieces)
    parts: list[str] = []
    # new_at[i] is the offset in the tidied text of raw offset i (one past the end included).
    new_at: list[int] = []
    position = 0
    cursor = 0
    for match in _WHITESPACE.finditer(raw):
        start, end = match.span()
        parts.append(raw[cursor:start])
        new_at.extend(range(position, position + start - cursor))
        position += start - cursor
        parts.append("\n" if "\n" in match.group() else " ")
        new_at.extend([position] * (end - start))
        position += 1
        cursor = end
    parts.append(raw[cursor:])
    new_at.extend(range(position, position + len(raw) - cursor))
    position += len(raw) - cursor
    new_at.append(position)
    text = "".join(parts)
    lead = len(text) - len(text.lstrip())
    body = text.strip()
    moved: list[tuple[int, int]] = []
    for offset, page in pages:
        at = min(max(new_at[offset] - lead, 0), len(body))
        # A marker that lands on a space starts the page at the next word.
        while at < len(body) and body[at].isspace():
            at += 1
        if moved and moved[-1][0] == at:
            moved[-1] = (at, page)  # two markers with nothing between: the later one wins
        else:
            moved.append((at, page))
    return body, tuple(moved)


def markup_to_text(markup: str) -> tuple[str, tuple[tuple[int, int], ...]]:
    """Text of an HTML/XML opinion and the ascending ``(offset, page)`` starts of its pages."""
    parser = _Extractor()
    parser.feed(markup)
    parser.close()
    return _tidy(parser.pieces, parser.pages)


def plain_to_text(text: str) -> str:
    """CourtListener's ``plain_text``, with entities decoded and trailing space trimmed."""
    return html.unescape(text).strip()


def opinion_text(record: Mapping[str, Any]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The best text of an opinion record, with its pages (``("", ())`` when it has none).

    HTML with star-pagination is preferred over ``plain_text`` because it says
    where each page begins (pin cites need that); otherwise ``plain_text``,
    otherwise any other rendering with its tags stripped.
    """
    marked = record.get("html_with_citations")
    if isinstance(marked, str) and marked.strip():
        text, pages = markup_to_text(marked)
        if pages and text:
            return text, pages
    plain = record.get("plain_text")
    if isinstance(plain, str) and plain.strip():
        return plain_to_text(plain), ()
    for field in TEXT_FIELDS[1:]:
        markup = record.get(field)
        if isinstance(markup, str) and markup.strip():
            text, pages = markup_to_text(markup)
            if text:
                return text, pages
    return "", ()
