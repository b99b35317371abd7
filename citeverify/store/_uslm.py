"""Plain text and the subdivision tree from USLM XML (the U.S. Code, court rules, the Constitution).

The text keeps what the enacted provision says (numbers, headings, chapeaux,
subdivisions, continuations) and drops editorial matter: notes, source
credits, tables of contents and footnote references.  Each structural level
(subsection, paragraph, subparagraph, clause...) becomes a
``SubdivisionRow`` whose path is built from the ``value`` of its ``num``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from citeverify.store._rows import SubdivisionRow

__all__ = ["LEVEL_TAGS", "TextBuilder", "label_of", "local", "text_of", "uslm_text"]

LEVEL_TAGS = frozenset(
    {"subsection", "paragraph", "subparagraph", "clause", "subclause", "item", "subitem"}
)
_SKIP = frozenset({"notes", "note", "sourceCredit", "toc", "footnote", "meta"})
_BLOCK = frozenset({"content", "chapeau", "continuation", "p", "text", "proviso"})
_SPACE = re.compile(r"\s+")


def local(tag: str) -> str:
    """The tag name without its namespace."""
    return tag.rsplit("}", 1)[-1]


def text_of(element: ET.Element | None) -> str:
    """All text inside ``element``, whitespace collapsed."""
    if element is None:
        return ""
    return _SPACE.sub(" ", "".join(element.itertext())).strip()


def label_of(element: ET.Element) -> str | None:
    """The label of a numbered element: its ``num``'s ``value``, else the number without marks."""
    for child in element:
        if local(child.tag) == "num":
            value = child.get("value")
            if value:
                return value.strip()
            raw = text_of(child)
            cleaned = raw.strip("()§. \u202f").removeprefix("Rule").strip(" .")
            return cleaned or None
    return None


class TextBuilder:
    """Accumulates text while recording where each subdivision starts and ends."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.length = 0
        self.rows: list[SubdivisionRow] = []
        self.after_num = False

    def write(self, text: str) -> None:
        text = _SPACE.sub(" ", text)
        if not text.strip():
            if self.parts and not self.parts[-1].endswith((" ", "\n")) and text:
                self._append(" ")
            return
        if not self.parts or self.parts[-1].endswith(("\n", " ")):
            text = text.lstrip()
        self.after_num = False
        self._append(text)

    def newline(self) -> None:
        if self.after_num:
            return  # "(1) to reproduce...": a number stays on the line of its text
        if self.parts and not self.parts[-1].endswith("\n"):
            last = self.parts[-1]
            if last.endswith(" "):
                self.parts[-1] = last.rstrip(" ")
                self.length -= len(last) - len(self.parts[-1])
            self._append("\n")

    def _append(self, text: str) -> None:
        self.parts.append(text)
        self.length += len(text)

    def end(self) -> int:
        """The current length, not counting trailing whitespace."""
        if not self.parts:
            return 0
        last = self.parts[-1]
        return self.length - (len(last) - len(last.rstrip()))

    def text(self) -> str:
        return "".join(self.parts).rstrip()


def _is_footnote_ref(element: ET.Element) -> bool:
    if local(element.tag) not in ("ref", "sup"):
        return False
    kind = (element.get("class") or "") + (element.get("role") or "")
    return "footnote" in kind.lower() or text_of(element).isdigit()


def _walk(element: ET.Element, path: tuple[str, ...], out: TextBuilder) -> None:
    tag = local(element.tag)
    if tag in _SKIP or _is_footnote_ref(element):
        return
    if tag in LEVEL_TAGS:
        label = label_of(element)
        if label is not None:
            out.newline()
            start = out.length
            sub_path = (*path, label)
            _children(element, sub_path, out)
            heading = None
            for child in element:
                if local(child.tag) == "heading":
                    heading = text_of(child).rstrip(".—-– ") or None
            end = out.end()
            out.rows.append(SubdivisionRow("/".join(sub_path), heading, start, end))
            out.newline()
            return
    if tag in _BLOCK:
        out.newline()
    _children(element, path, out)
    if tag in _BLOCK or tag == "heading":
        out.newline()
    elif tag == "num":
        out.write(" ")
        out.after_num = True


def _children(element: ET.Element, path: tuple[str, ...], out: TextBuilder) -> None:
    if element.text:
        out.write(element.text)
    for child in element:
        _walk(child, path, out)
        if child.tail:
            out.write(child.tail)


def uslm_text(element: ET.Element) -> tuple[str, list[SubdivisionRow]]:
    """The text of a section, rule or provision, and its subdivisions sorted by start."""
    out = TextBuilder()
    _children(element, (), out)
    text = out.text()
    rows = sorted(out.rows, key=lambda r: (r.start, r.path))
    return text, [SubdivisionRow(r.path, r.heading, r.start, min(r.end, len(text))) for r in rows]
