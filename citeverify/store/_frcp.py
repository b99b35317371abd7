"""The Federal Rules of Civil Procedure from the House Judiciary Committee print (a PDF).

The PDF is a re-rendering of extracted text elements: every line starts with
an element label (``Title:``, ``NarrativeText:``...), running heads and page
numbers are elements of their own, elements break mid-sentence, and words
broken at the print's line ends keep a hyphen and a space (``re- lief``).
Cleaning, in order: strip labels; drop page numbers, running heads and
chapter titles; join an element to the previous one when that one ended
mid-sentence; rejoin a broken word when the joined word occurs unbroken
elsewhere in the print or when a piece is not a word on its own (else keep
the hyphen: ``third-party``); cut the
rules out of the body using the table of contents (rule numbers and full
headings); cut each rule before its amendment history.

``pypdf`` is needed only here, at build time; it is never imported at run
time.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs

__all__ = ["FrcpRule", "read_frcp"]

_LABEL = re.compile(r"^(Title|NarrativeText|UncategorizedText|ListItem|[A-Za-z]+Text):\s?")
_DROP = (
    re.compile(r"^\d{1,4}$"),
    re.compile(r"^\([IVXLC]+\)$"),
    re.compile(r"^[IVXLC]+$"),
    re.compile(r"^FEDERAL RULES OF CIVIL PROCEDURE$"),
    re.compile(r"^Rules? \d+(?:\.\d+)?(?:[–-]\d+)?$"),
    re.compile(r"^HISTORICAL NOTE$"),
    re.compile(r"^TITLE [IVXL]+\..*$"),
)
_BROKEN = re.compile(r"(\w+)- (\w+)")
_WORD = re.compile(r"[A-Za-z]+")
_TOC_ENTRY = re.compile(r"Rule (\d+(?:\.\d+)?)\. (.+?)\s*(?:\.{4,}|(?=Rule \d)|$)")
_RULE_START = re.compile(r"^Rule (\d+(?:\.\d+)?)\. ", re.MULTILINE)
_HISTORY = re.compile(r"\n\((?:As amended|As added|Amended|Added)\b")


@attrs.frozen
class FrcpRule:
    number: str
    heading: str
    text: str
    status: str | None = None


def _key(number: str) -> tuple[int, int]:
    whole, _, part = number.partition(".")
    return int(whole), int(part or 0)


def _elements(path: Path) -> list[str]:
    from pypdf import PdfReader  # build-time only

    lines: list[str] = []
    for page in PdfReader(str(path)).pages:
        for raw in (page.extract_text() or "").splitlines():
            line = _LABEL.sub("", raw).strip()
            if line:
                lines.append(line)
    return lines


def _vocabulary(lines: list[str]) -> set[str]:
    words: set[str] = set()
    for line in lines:
        cleaned = _BROKEN.sub(" ", line)
        words.update(w.lower() for w in _WORD.findall(cleaned))
    return words


def _rejoin(text: str, vocabulary: set[str]) -> str:
    def fix(match: re.Match[str]) -> str:
        joined = match[1] + match[2]
        whole_words = match[1].lower() in vocabulary and match[2].lower() in vocabulary
        if joined.lower() in vocabulary or not whole_words:
            return joined
        return f"{match[1]}-{match[2]}"

    return _BROKEN.sub(fix, text)


def _join(lines: list[str]) -> str:
    """Paragraphs: an element continues the previous one when that one ended mid-sentence."""
    out: list[str] = []
    for line in lines:
        if any(p.match(line) for p in _DROP):
            continue
        if out and not _RULE_START.match(line):
            previous = out[-1]
            starts_marker = bool(re.match(r"^\(([a-z]{1,4}|\d{1,3}|[A-Z]{1,4})\)", line))
            if previous.endswith("-") and not previous.endswith(" -"):
                out[-1] = previous + " " + line  # "reason- able": rejoined below
                continue
            if not starts_marker and not re.search(r"[.;:—)\]]$", previous):
                out[-1] = previous + " " + line
                continue
        out.append(line)
    return "\n".join(out)


def read_frcp(path: Path) -> list[FrcpRule]:
    """The rules 1-86 of the print, each with heading, text and status (``abrogated``)."""
    lines = _elements(path)
    vocabulary = _vocabulary(lines)
    text = _rejoin(_join(lines), vocabulary)
    body_start = re.search(r"\nRule 1\. Scope and Purpose(?! *\.\.)", text)
    if body_start is None:
        raise ValueError("the Rules of Civil Procedure do not begin where expected")
    toc = text[text.index("TABLE OF CONTENTS") : body_start.start()]
    body = text[body_start.start() + 1 :]
    end = body.find("\nAPPENDIX OF FORMS")
    body = body[: end if end >= 0 else len(body)]

    headings: dict[str, str] = {}
    for match in _TOC_ENTRY.finditer(toc.replace("\n", " ")):
        headings.setdefault(match[1], " ".join(match[2].split()))

    starts: list[tuple[int, str]] = []
    last: tuple[int, int] = (0, 0)
    for match in _RULE_START.finditer(body):
        number = match[1]
        if number in headings and _key(number) > last:
            starts.append((match.start(), number))
            last = _key(number)
    rules: list[FrcpRule] = []
    for index, (start, number) in enumerate(starts):
        stop = starts[index + 1][0] if index + 1 < len(starts) else len(body)
        chunk = body[start:stop]
        chunk = chunk[len(f"Rule {number}. ") :]
        heading = headings[number]
        if not heading.startswith("[Abrogated"):
            chunk = _skip_heading(chunk, heading)
        history = _HISTORY.search("\n" + chunk)
        if history is not None:
            chunk = chunk[: max(0, history.start() - 1)]
        chunk = chunk.strip()
        status = None
        if heading.startswith("[Abrogated") or chunk.startswith("[Abrogated"):
            status = "abrogated"
            heading = "[Abrogated]"
        rules.append(FrcpRule(number, heading.rstrip("."), chunk, status))
    return rules


def _skip_heading(chunk: str, heading: str) -> str:
    """``chunk`` after the characters that spell ``heading`` (ignoring spacing and marks)."""
    wanted = [c for c in heading.lower() if c.isalnum()]
    position = 0
    for index, ch in enumerate(chunk):
        if position == len(wanted):
            return chunk[index:]
        if ch.isalnum():
            if ch.lower() != wanted[position]:
                return chunk  # the heading is not there as expected: keep everything
            position += 1
    return "" if position == len(wanted) else chunk
