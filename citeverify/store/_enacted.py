"""Enacted text for the corpus: the Constitution, the federal rules, the U.S. Code.

Decisions taken here, and why:

* Constitution: one authority per article, amendment and the preamble;
  sections and clauses are subdivisions (``s8/c3``; ``c2`` for a clause of
  an article without sections, and for the numbered paragraphs of an
  amendment without sections, e.g. the Seventeenth's second paragraph).
  The Eighteenth Amendment is ``repealed`` (by the Twenty-first).  The
  House Manual's own annotations and section headings are not the
  Constitution's text and are left out.
* Rules: one authority per rule; the subdivision tree comes from the USLM
  XML (Criminal, Bankruptcy) or from the text's markers (Civil, Evidence,
  Appellate: see ``_subdivisions``).  Appellate Rule 35, absent from the
  source because it was abrogated on 1 December 2024, is recorded as
  ``abrogated``.
* U.S. Code: one authority per section of ``sections.tsv``; a range row
  (``202 to 204``) is expanded to its sections when both ends can be
  enumerated (``5 to 5b``, ``1a-1 to 1a-5``).  Text and subdivisions come
  from the title XML (release point 119-36) where shipped; the list (and so
  the status) is release point 119-100.  Titles with every dead section
  listed are complete; in the others only section numbers beyond twice the
  highest number the title has ever used are certainly absent.
"""

from __future__ import annotations

import csv
import json
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

from citeverify._facts import RULE_SETS
from citeverify.citations._text import to_roman
from citeverify.store._frcp import read_frcp
from citeverify.store._rows import (
    AuthorityRow,
    CitationRow,
    CoverageRow,
    DocumentRow,
    LinkTemplateRow,
    SubdivisionRow,
    TextRow,
)
from citeverify.store._subdivisions import roman_value, subdivisions
from citeverify.store._uslm import label_of, local, text_of, uslm_text

__all__ = [
    "COMPLETE_TITLES",
    "RULESETS",
    "read_constitution",
    "read_rules",
    "read_usc",
    "to_roman",
]

COMPLETE_TITLES = frozenset(
    {1, 3, 4, 9, 13, 14, 17, 24, 27, 32, 35, 37, 39, 41, 44, 45, 51, 52, 54}
)
TEXT_TITLES = (1, 4, 9, 17, 35)

# ruleset -> (citation prefix, name, uscourts.gov page)
RULESETS = {
    r.id: (r.abbreviation, r.name, r.uscourts)
    for r in RULE_SETS.values()
    if r.uscourts is not None
}
_USCOURTS = (
    "https://www.uscourts.gov/rules-policies/current-rules-practice-procedure/federal-rules-{}"
)


def _created(root: ET.Element) -> str | None:
    for element in root.iter():
        if local(element.tag) == "created" and element.text:
            stamp = element.text.strip()
            return stamp if stamp.endswith("Z") else stamp + "Z"
    return None


# --- the Constitution -------------------------------------------------------------------


def _provision_text(element: ET.Element) -> str:
    """Text of a clause or section without its number and notes."""
    parts: list[str] = []
    for child in element.iter():
        if local(child.tag) == "text":
            value = text_of(child)
            if value:
                parts.append(value)
    return "\n".join(parts)


def read_constitution(path: Path) -> tuple[list[AuthorityRow], list[CoverageRow]]:
    """Articles, amendments and the preamble of the Constitution, with sections and clauses."""
    root = ET.parse(path).getroot()
    as_of = "2021-01-03T00:00:00Z"  # House Manual of the 117th Congress (convened 3 Jan 2021)
    authorities: list[AuthorityRow] = []
    for element in root.iter():
        tag = local(element.tag)
        ident = element.get("id") or ""
        if tag == "preamble":
            text = _provision_text(element) or text_of(element)
            text = text.split("\n")[0]
            authorities.append(_provision("preamble", 0, text, [], as_of))
        match = re.fullmatch(r"(article|amendment)-([IVXL]+)", ident)
        if match is None:
            continue
        part, number = match[1], roman_value(match[2])
        assert number is not None
        body: list[str] = []
        rows: list[SubdivisionRow] = []
        offset = 0

        def add(
            piece: str,
            path: str | None,
            body: list[str] = body,
            rows: list[SubdivisionRow] = rows,
        ) -> None:
            nonlocal offset
            if not piece:
                return
            start = offset
            body.append(piece)
            offset += len(piece) + 1
            if path is not None:
                rows.append(SubdivisionRow(path, None, start, start + len(piece)))

        sections = [c for c in element if local(c.tag) == "section"]
        clauses = [c for c in element if local(c.tag) == "clause"]
        if sections:
            for section in sections:
                label = (section.get("id") or "").rsplit("-", 1)[-1]
                start = offset
                sub_clauses = [c for c in section if local(c.tag) == "clause"]
                if sub_clauses:
                    for clause in sub_clauses:
                        clause_label = (clause.get("id") or "").rsplit("-", 1)[-1]
                        add(_provision_text(clause), f"s{label}/c{clause_label}")
                else:
                    add(_provision_text(section), None)
                rows.append(SubdivisionRow(f"s{label}", None, start, max(start, offset - 1)))
        elif clauses:
            for clause in clauses:
                clause_label = (clause.get("id") or "").rsplit("-", 1)[-1]
                add(_provision_text(clause), f"c{clause_label}")
        else:
            paragraphs = [text_of(c) for c in element if local(c.tag) == "text"]
            paragraphs = [p for p in paragraphs if p]
            if len(paragraphs) > 1 and part == "amendment":
                for index, paragraph in enumerate(paragraphs, 1):
                    add(paragraph, f"c{index}")
            else:
                add("\n".join(paragraphs), None)
        rows.sort(key=lambda r: (r.start, r.path))
        authorities.append(_provision(part, number, "\n".join(body), rows, as_of))
    coverage = [
        CoverageRow(
            "constitution",
            None,
            None,
            True,
            "the Constitution of the United States: the preamble, articles I-VII and "
            "amendments 1-27, with sections and clauses",
            as_of,
        )
    ]
    return authorities, coverage


def _provision(
    part: str, number: int, text: str, rows: list[SubdivisionRow], as_of: str
) -> AuthorityRow:
    if part == "preamble":
        cite, url = "U.S. Const. pmbl.", "https://constitution.congress.gov/constitution/preamble/"
        volume, page = "preamble", ""
    else:
        short = "art." if part == "article" else "amend."
        cite = f"U.S. Const. {short} {to_roman(number)}"
        url = f"https://constitution.congress.gov/constitution/{part}-{number}/"
        volume, page = part, str(number)
    status = note = None
    if part == "amendment" and number == 18:
        status, note = "repealed", "repealed by the Twenty-first Amendment (1933)"
    return AuthorityRow(
        kind="constitution",
        reference=f"constitution:us:{volume}:{page}".rstrip(":"),
        name=cite,
        court_id="united-states",
        citations=[CitationRow("constitution", volume, page, cite)],
        status=status,
        status_note=note,
        text=TextRow(text),
        subdivisions=rows,
        subdivisions_complete=True,
        documents=[DocumentRow("congress", url, "html", True)],
    )


# --- court rules ------------------------------------------------------------------------


def _rule(
    ruleset: str,
    number: str,
    heading: str,
    text: str,
    rows: list[SubdivisionRow],
    status: str | None = None,
    note: str | None = None,
) -> AuthorityRow:
    prefix = RULESETS[ruleset][0]
    cite = f"{prefix} {number}"
    return AuthorityRow(
        kind="rule",
        reference=f"rule:{ruleset}:{number}",
        name=f"{cite}. {heading}" if heading else cite,
        court_id="scotus",
        citations=[CitationRow(ruleset, "", number, cite)],
        status=status,
        status_note=note,
        text=TextRow(text) if text else None,
        subdivisions=rows,
        subdivisions_complete=bool(text),
    )


def _rules_from_xml(path: Path, ruleset: str, heading: str) -> tuple[list[AuthorityRow], str]:
    root = ET.parse(path).getroot()
    out: list[AuthorityRow] = []
    for group in root.iter():
        if local(group.tag) != "courtRules" or text_of(_child(group, "heading")) != heading:
            continue
        for element in group.iter():
            if local(element.tag) != "courtRule":
                continue
            number = label_of(element)
            if number is None:
                continue
            title = text_of(_child(element, "heading")).strip()
            status = element.get("status")
            marker = re.match(r"\[(Reserved|Transferred|Abrogated)\]", title)
            if marker is not None:
                status = status or marker[1].lower()
            text, rows = uslm_text(element)
            note = None
            if status is not None:
                note = title.split("]", 1)[-1].strip(" \u202f0123456789") or None
                title = f"[{status.capitalize()}]"
            out.append(_rule(ruleset, number, title, text, rows, status, note))
        break
    return out, _created(root) or ""


def _rules_from_jsonl(path: Path, ruleset: str) -> tuple[list[AuthorityRow], str]:
    out: list[AuthorityRow] = []
    amended = ""
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            text = record["text"].strip()
            amended = record.get("last_amended") or amended
            out.append(_rule(ruleset, record["rule"], record["heading"], text, subdivisions(text)))
    return out, amended


def _iso_from_words(words: str) -> str:
    import datetime as dt

    return dt.datetime.strptime(words.strip(), "%B %d, %Y").strftime("%Y-%m-%dT00:00:00Z")


def read_rules(
    folder: Path,
) -> tuple[list[AuthorityRow], list[CoverageRow], list[LinkTemplateRow]]:
    """All five rule sets, with their coverage rows and link templates."""
    authorities: list[AuthorityRow] = []
    coverage: list[CoverageRow] = []
    as_of: dict[str, str] = {}

    civil = [
        _rule(
            "frcp",
            r.number,
            r.heading,
            r.text,
            [] if r.status else subdivisions(r.text),
            r.status,
            r.text.strip("[]") if r.status else None,
        )
        for r in read_frcp(folder / "frcp-2022-12-01.pdf")
    ]
    authorities += civil
    as_of["frcp"] = "2022-12-01T00:00:00Z"

    criminal, as_of["frcrmp"] = _rules_from_xml(
        folder / "usc18a.xml", "frcrmp", "FEDERAL RULES OF CRIMINAL PROCEDURE"
    )
    bankruptcy, as_of["frbp"] = _rules_from_xml(
        folder / "usc11a.xml", "frbp", "FEDERAL RULES OF BANKRUPTCY PROCEDURE"
    )
    authorities += criminal + bankruptcy
    for ruleset, name in (("fre", "fre-2024-12-01.jsonl"), ("frap", "frap-2024-12-01.jsonl")):
        rules, amended = _rules_from_jsonl(folder / name, ruleset)
        as_of[ruleset] = _iso_from_words(amended)
        if ruleset == "frap" and not any(r.reference == "rule:frap:35" for r in rules):
            rules.append(
                _rule(
                    "frap",
                    "35",
                    "[Abrogated]",
                    "",
                    [],
                    "abrogated",
                    "abrogated effective December 1, 2024; en banc determination is now "
                    "governed by Rule 40",
                )
            )
        authorities += rules

    templates: list[LinkTemplateRow] = []
    for ruleset, (_, name, slug) in RULESETS.items():
        coverage.append(
            CoverageRow(ruleset, None, None, True, f"the {name}, every rule", as_of[ruleset])
        )
        templates.append(LinkTemplateRow(ruleset, "uscourts", _USCOURTS.format(slug), "html", True))
        templates.append(
            LinkTemplateRow(
                ruleset, "lii", f"https://www.law.cornell.edu/rules/{ruleset}/rule_{{page}}", "html"
            )
        )
    return authorities, coverage, templates


def _child(element: ET.Element, name: str) -> ET.Element | None:
    for child in element:
        if local(child.tag) == name:
            return child
    return None


# --- the U.S. Code ----------------------------------------------------------------------

_RANGE = re.compile(r"^(.*?)(\d+|[a-z]+)$")


def _expand(first: str, last: str) -> list[str] | None:
    """The sections of a range row, or ``None`` when they cannot be enumerated."""
    if first.isdigit() and last.isdigit():
        low, high = int(first), int(last)
        return [str(n) for n in range(low, high + 1)] if 0 <= high - low <= 500 else None
    if last.startswith(first) and re.fullmatch(r"[a-z]", last[len(first) :]):
        end = last[len(first) :]
        return [first] + [first + chr(c) for c in range(ord("a"), ord(end) + 1)]
    ma, mb = _RANGE.match(first), _RANGE.match(last)
    if ma is None or mb is None or ma[1] != mb[1]:
        return None
    prefix, a, b = str(ma[1]), str(ma[2]), str(mb[2])
    if a.isdigit() and b.isdigit() and 0 <= int(b) - int(a) <= 500:
        return [f"{prefix}{n}" for n in range(int(a), int(b) + 1)]
    if len(a) == len(b) == 1 and a.isalpha() and b.isalpha() and a <= b:
        return [f"{prefix}{chr(c)}" for c in range(ord(a), ord(b) + 1)]
    return None


def _leading_number(section: str) -> int | None:
    match = re.match(r"\d+", section)
    return int(match[0]) if match else None


def _section_texts(
    folder: Path,
) -> tuple[dict[tuple[str, str], tuple[str, list[SubdivisionRow]]], str]:
    texts: dict[tuple[str, str], tuple[str, list[SubdivisionRow]]] = {}
    created = ""
    for title in TEXT_TITLES:
        root = ET.parse(folder / f"usc{title:02d}.xml").getroot()
        created = max(created, _created(root) or "")
        for element in root.iter():
            if local(element.tag) != "section":
                continue
            match = re.fullmatch(r"/us/usc/t(\d+)/s([^/]+)", element.get("identifier") or "")
            if match is None:
                continue
            text, rows = uslm_text(element)
            texts[(match[1], match[2])] = (text, rows)
    return texts, created


def read_usc(
    folder: Path,
) -> tuple[list[AuthorityRow], list[CoverageRow], list[LinkTemplateRow], dict[str, int]]:
    """Titles and sections of the U.S. Code, with coverage per title."""
    notes: dict[str, int] = defaultdict(int)
    meta = json.loads((folder / "titles.json").read_text(encoding="utf-8"))
    as_of = meta["generated"].split(".")[0].replace("+00:00", "") + "Z"
    texts, _ = _section_texts(folder)

    rows: dict[tuple[str, str], tuple[str, str]] = {}  # (title, section) -> (heading, status)
    with (folder / "sections.tsv").open(encoding="utf-8", newline="") as handle:
        for record in csv.DictReader(handle, delimiter="\t"):
            title, section = record["title"].strip(), record["section"].strip()
            heading, status = record["heading"].strip(), record["status"].strip()
            if " to " in section:
                first, _, last = section.partition(" to ")
                members = _expand(first.strip(), last.strip())
                if members is None:
                    notes["usc_ranges_not_expanded"] += 1
                    continue
                notes["usc_ranges_expanded"] += 1
            else:
                members = [section]
            for member in members:
                key = (title, member)
                if key in rows and (rows[key][1] == "current" or status != "current"):
                    notes["usc_duplicate_rows"] += 1
                    continue
                rows[key] = (heading, status)

    authorities: list[AuthorityRow] = []
    headings: dict[str, str] = {}
    for entry in meta["titles"]:
        number, heading = str(entry["number"]), " ".join(entry["heading"].split())
        if number == "42" and "Git" in heading:
            heading = "THE PUBLIC HEALTH AND WELFARE"  # the source's placeholder, corrected
        headings[number] = heading
        authorities.append(
            AuthorityRow(
                kind="statute",
                reference=f"usc:title:{number}",
                name=f"Title {number}, United States Code—{heading}",
                court_id="congress",
                citations=[CitationRow("U.S.C.", number, "", f"{number} U.S.C.")],
                status="current",
            )
        )

    highest: dict[str, int] = defaultdict(int)
    for (title, section), (heading, status) in sorted(rows.items(), key=_section_order):
        lead = _leading_number(section)
        if lead is not None:
            highest[title] = max(highest[title], lead)
        cite = f"{title} U.S.C. § {section}"
        shipped = texts.get((title, section))
        current = status == "current"
        note = None
        if status == "not-current":
            note = "not in the Code at release point 119-100 (in an earlier edition)"
            if heading:
                note += f"; it was headed “{heading}”"
        elif not current:
            note = heading or None
        authority = AuthorityRow(
            kind="statute",
            reference=f"usc:{title}:{section}",
            name=f"{cite}. {heading}" if current and heading else cite,
            court_id="congress",
            citations=[CitationRow("U.S.C.", title, section, cite)],
            status=status,
            status_note=note,
        )
        if shipped is not None and current:
            authority.text = TextRow(shipped[0])
            authority.subdivisions = shipped[1]
            authority.subdivisions_complete = True
            notes["usc_sections_with_text"] += 1
        authorities.append(authority)

    coverage: list[CoverageRow] = [
        CoverageRow(
            "U.S.C.",
            None,
            None,
            True,
            "the titles of the United States Code (1-52 and 54; title 53 is reserved)",
            as_of,
        )
    ]
    for title in sorted(highest, key=int):
        title_number = int(title)
        if title_number in COMPLETE_TITLES:
            coverage.append(
                CoverageRow(
                    "U.S.C.",
                    title_number,
                    title_number,
                    True,
                    f"title {title_number}: every section, including repealed, transferred and "
                    "omitted ones",
                    as_of,
                )
            )
        else:
            coverage.append(
                CoverageRow(
                    "U.S.C.",
                    title_number,
                    title_number,
                    False,
                    f"not in the current Code: title {title_number}'s list of repealed and "
                    "transferred sections is incomplete, so this may be a former section",
                    as_of,
                    number_limit=2 * highest[title],
                )
            )
    templates = [
        LinkTemplateRow(
            "U.S.C.",
            "uscode",
            "https://uscode.house.gov/view.xhtml?req=granuleid:USC-prelim-title{volume}-"
            "section{page}&num=0&edition=prelim",
            "html",
            True,
        ),
        LinkTemplateRow(
            "U.S.C.", "lii", "https://www.law.cornell.edu/uscode/text/{volume}/{page}", "html"
        ),
    ]
    return authorities, coverage, templates, dict(notes)


def _section_order(item: tuple[tuple[str, str], tuple[str, str]]) -> tuple[int, int, str]:
    (title, section), _ = item
    lead = _leading_number(section)
    return int(title), lead if lead is not None else -1, section
