"""Supreme Court cases for the corpus: U.S. Reports dates, the Supreme Court Database, opinions.

Decisions taken here, and why:

* The decision date of a case in the Supreme Court Database (SCDB) is
  SCDB's, not the Library of Congress list's: the two disagree for about a
  fifth of the 1946-2005 cases and SCDB's dates are the checked ones (e.g.
  *Cleveland v. United States*, 329 U.S. 14, decided 18 November 1946, which
  the list gives as 16 December).  Cases before 1946 carry the list's date;
  for some early cases that date is only a month (given as its first day).
* A page of the U.S. Reports on which several decisions begin (order lists)
  gives one authority per decision, in date order.
* Page ranges: a case's last page is the *first page of the next case* in
  the same volume and reporter, not the page before it, because a case
  usually ends on the page where the next one begins; counting that page in
  both ranges never calls a correct pin cite wrong.  The last case of a
  volume has no known last page.  In partly covered volumes (SCDB only) the
  next listed case may not be the next case printed, so the range can only
  be too long, never too short.
* The SCDB release labels the Lawyers' Edition citations of the 1947-1955
  terms ``L. Ed. 2d``; the second series began with the 1956 term
  (352 U.S.), so those are corrected to ``L. Ed.`` (volumes 92-100).
* Nominative reports (Dallas to Wallace, U.S. volumes 1-90) keep the U.S.
  Reports' pagination, so ``5 U.S. 137`` is also ``1 Cranch 137``; that form
  is stored as a parallel citation.
* Names of the cases SCDB does not hold (before 1946) come from the Lone
  Dissent citation list, one authority per listed case, so that a page on
  which several cases begin offers every name and the cited one can be
  picked.  Its years are sometimes wrong (by a decade, even a century), so a
  case takes the date list's date where the list has one for its page
  (matching the year when the page has several); a case the date list lacks
  keeps the list's year only when it falls within a year of the dates of its
  volume, given as the year's first day (the year is all that is compared),
  and has no date otherwise.  Rows with page 0 (appendix pages with Roman
  numbers, cases not yet paginated) cannot be cited by page and are skipped.
"""

from __future__ import annotations

import csv
import datetime as dt
import itertools
import json
import re
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path

import attrs

from citeverify.store._rows import (
    AuthorityRow,
    CitationRow,
    CoverageRow,
    DocumentRow,
    LinkTemplateRow,
    TextRow,
)

__all__ = ["NOMINATIVE", "CaseData", "nominative_for", "read_cases"]

COURT = "scotus"
COMPLETE_LAST_VOLUME = 546
LED2D_FIRST_TERM = 1956  # L. Ed. 2d begins with 352 U.S. (October Term 1956)

# (reporter, first U.S. volume, last U.S. volume): nominative volume n is U.S. first + n - 1.
NOMINATIVE = (
    ("Dall.", 1, 4),
    ("Cranch", 5, 13),
    ("Wheat.", 14, 25),
    ("Pet.", 26, 41),
    ("How.", 42, 65),
    ("Black", 66, 67),
    ("Wall.", 68, 90),
)

_DATE_LINE = re.compile(r"^(\d+) U\.S\. ?(\d+)\|(\d{4}-\d\d-\d\d)$")
_US = re.compile(r"^(\d+) U\.S\. (\d+)$")
_SCT = re.compile(r"^(\d+) S\. Ct\. (\d+)$")
_LED = re.compile(r"^(\d+) (L\. Ed\.(?: 2d)?) (\d+)$")
_LEXIS = re.compile(r"^(\d{4}) U\.S\. LEXIS (\d+)$")
_DOCKET = re.compile(r"Nos?\.\s+(\d{2,3}[–-]\d+)")


def nominative_for(volume: int) -> tuple[str, int] | None:
    """The nominative reporter and volume of U.S. Reports volume ``volume`` (1-90)."""
    for reporter, first, last in NOMINATIVE:
        if first <= volume <= last:
            return reporter, volume - first + 1
    return None


@attrs.define
class CaseData:
    """Everything the case part of the corpus contributes."""

    authorities: list[AuthorityRow]
    coverage: list[CoverageRow]
    templates: list[LinkTemplateRow]
    as_of: str
    notes: dict[str, int]


@attrs.define
class _Scdb:
    case_id: str
    us: tuple[int, int] | None
    sct: tuple[int, int] | None
    led: tuple[str, int, int] | None
    lexis: tuple[int, int] | None
    decided: str
    docket: str
    name: str


@attrs.define
class _Opinion:
    opinion_id: str
    name: str
    date_filed: str
    text: str
    pages: tuple[tuple[int, int], ...]
    cite: tuple[int, int] | None = None
    dockets: tuple[str, ...] = ()


def _iso(us_date: str) -> str:
    month, day, year = (int(x) for x in us_date.split("/"))
    return dt.date(year, month, day).isoformat()


def _read_dates(path: Path, notes: dict[str, int]) -> dict[tuple[int, int], list[str]]:
    dates: dict[tuple[int, int], set[str]] = defaultdict(set)
    skipped = 0
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            match = _DATE_LINE.match(line.strip())
            if match is None:
                skipped += bool(line.strip())
                continue
            dates[(int(match[1]), int(match[2]))].add(match[3])
    notes["scotus_dates_lines_skipped"] = skipped
    return {key: sorted(value) for key, value in dates.items()}


def _read_names(path: Path, notes: dict[str, int]) -> dict[tuple[int, int], list[tuple[str, int]]]:
    """Each U.S. Reports page's ``(name, year)`` pairs from the Lone Dissent list, in file order."""
    names: dict[tuple[int, int], dict[tuple[str, int], None]] = defaultdict(dict)
    skipped = 0
    with path.open(encoding="utf-8", newline="") as handle:
        for record in csv.DictReader(handle):
            volume, page, year = record["volume"], record["page"], record["year"]
            name = " ".join(record["caseTitle"].replace("\u2019", "'").split())
            if not (volume.isdigit() and page.isdigit() and year.isdigit()) or not name:
                skipped += 1
                continue
            if int(volume) == 0 or int(page) == 0:
                skipped += 1
                continue
            names[(int(volume), int(page))][(name, int(year))] = None
    notes["lonedissent_rows_without_page"] = skipped
    return {key: list(value) for key, value in names.items()}


def _volume_years(
    dates: dict[tuple[int, int], list[str]], scdb: list[_Scdb]
) -> dict[int, tuple[int, int]]:
    """The first and last year of the known decisions of each U.S. Reports volume."""
    years: dict[int, list[int]] = defaultdict(list)
    for (volume, _), listed in dates.items():
        years[volume] += [int(d[:4]) for d in listed]
    for row in scdb:
        if row.us is not None:
            years[row.us[0]].append(int(row.decided[:4]))
    return {volume: (min(found), max(found)) for volume, found in years.items()}


def _named_cases(
    volume: int,
    page: int,
    names: list[tuple[str, int]],
    listed: list[str],
    span: tuple[int, int] | None,
    notes: dict[str, int],
) -> list[AuthorityRow]:
    """The authorities of a page the Lone Dissent list names (see the module's docstring)."""
    listed_years = {int(d[:4]) for d in listed}
    several_years = any(year in listed_years for _, year in names) and len(names) > 1
    dated: list[tuple[str, str | None]] = []
    for name, year in names:
        plausible = span is not None and span[0] - 1 <= year <= span[1] + 1
        same_year = [d for d in listed if int(d[:4]) == year]
        decided: str | None
        if same_year:
            decided = same_year[0]
        elif listed and not (several_years and plausible):
            decided = min(listed, key=lambda d: (abs(int(d[:4]) - year), d))
            notes["lonedissent_years_replaced"] = notes.get("lonedissent_years_replaced", 0) + 1
        elif plausible:
            decided = f"{year:04d}-01-01"
        else:
            decided = None
            notes["lonedissent_years_dropped"] = notes.get("lonedissent_years_dropped", 0) + 1
        dated.append((name, decided))
    dated.sort(key=lambda item: (item[1] or "9999", item[0]))
    return [
        AuthorityRow(
            kind="case",
            reference=f"us:{volume}:{page}" + (f":{index + 1}" if index else ""),
            name=name,
            court_id=COURT,
            citations=_us_citations(volume, page),
            decided=decided,
        )
        for index, (name, decided) in enumerate(dated)
    ]


def _pair(pattern: re.Pattern[str], text: str) -> tuple[int, int] | None:
    match = pattern.match(text.strip())
    return (int(match[1]), int(match[2])) if match else None


def _read_scdb(path: Path) -> list[_Scdb]:
    rows: list[_Scdb] = []
    with path.open(encoding="utf-8", newline="") as handle:
        for record in csv.DictReader(handle):
            led_match = _LED.match(record["ledCite"].strip())
            led_reporter = led_match[2] if led_match else ""
            if led_reporter == "L. Ed. 2d" and int(record["term"]) < LED2D_FIRST_TERM:
                led_reporter = "L. Ed."  # the release's error for the 1947-1955 terms
            rows.append(
                _Scdb(
                    case_id=record["caseId"],
                    us=_pair(_US, record["usCite"]),
                    sct=_pair(_SCT, record["sctCite"]),
                    led=(led_reporter, int(led_match[1]), int(led_match[3])) if led_match else None,
                    lexis=_pair(_LEXIS, record["lexisCite"]),
                    decided=_iso(record["dateDecision"]),
                    docket=record["docket"].strip(),
                    name=" ".join(record["caseName"].split()),
                )
            )
    rows.sort(key=lambda r: r.case_id)
    return rows


def _clean_pages(first: int, star_pages: Iterable[Iterable[int]]) -> tuple[tuple[int, int], ...]:
    """``(offset, page)`` ascending in both, the first page at offset 0.

    CourtListener's markers sometimes repeat a page or put two pages at one
    offset (a page with no text of its own): at one offset the later page
    wins, and a page that does not advance is dropped.
    """
    from citeverify.quotes._locate import advancing_pages

    return tuple(advancing_pages([(0, first), *((int(o), int(p)) for o, p in star_pages)]))


def _read_opinions(folder: Path) -> list[_Opinion]:
    opinions: list[_Opinion] = []
    with (folder / "scotus_cited.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            cite = _pair(_US, record["cite"])
            assert cite is not None, record["cite"]
            opinions.append(
                _Opinion(
                    opinion_id=str(record["courtlistener_opinion_id"]),
                    name=record["case_name"],
                    date_filed=record["date_filed"],
                    text=record["plain_text"],
                    pages=_clean_pages(cite[1], record["star_pages"])
                    if record["star_pages"]
                    else (),
                    cite=cite,
                )
            )
    with (folder / "scotus_ot2016.jsonl").open(encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            text = record["plain_text"]
            dockets = tuple(
                dict.fromkeys(d.replace("–", "-") for d in _DOCKET.findall(text[:5000]))
            )
            opinions.append(
                _Opinion(
                    opinion_id=str(record["courtlistener_opinion_id"]),
                    name=record["case_name"],
                    date_filed=record["date_filed"],
                    text=text,
                    pages=(),
                    dockets=dockets,
                )
            )
    opinions.sort(key=lambda o: int(o.opinion_id))
    return opinions


def _courtlistener(opinion: _Opinion) -> tuple[DocumentRow, tuple[str, str, str]]:
    url = f"https://www.courtlistener.com/api/rest/v4/opinions/{opinion.opinion_id}/"
    return DocumentRow("courtlistener", url, None, False), (
        "courtlistener",
        "opinion",
        opinion.opinion_id,
    )


def _us_citations(volume: int, page: int) -> list[CitationRow]:
    rows = [CitationRow("U.S.", str(volume), str(page), f"{volume} U.S. {page}", page)]
    nominative = nominative_for(volume)
    if nominative is not None:
        reporter, nom_volume = nominative
        rows.append(
            CitationRow(
                reporter, str(nom_volume), str(page), f"{nom_volume} {reporter} {page}", page
            )
        )
    return rows


def _scdb_authority(row: _Scdb) -> AuthorityRow:
    citations: list[CitationRow] = []
    if row.us is not None:
        citations.extend(_us_citations(*row.us))
    if row.sct is not None:
        v, p = row.sct
        citations.append(CitationRow("S. Ct.", str(v), str(p), f"{v} S. Ct. {p}", p))
    if row.led is not None:
        reporter, v, p = row.led
        citations.append(CitationRow(reporter, str(v), str(p), f"{v} {reporter} {p}", p))
    if row.lexis is not None:
        year, number = row.lexis
        citations.append(
            CitationRow("U.S. LEXIS", str(year), str(number), f"{year} U.S. LEXIS {number}", number)
        )
    documents: list[DocumentRow] = []
    if row.us is not None and row.us[0] > 575 and re.fullmatch(r"\d+-\d+", row.docket):
        documents.append(
            DocumentRow(
                "justia",
                f"https://supreme.justia.com/cases/federal/us/{row.us[0]}/{row.docket}/",
                "html",
                False,
            )
        )
    return AuthorityRow(
        kind="case",
        reference=f"scdb:{row.case_id}",
        name=row.name,
        court_id=COURT,
        citations=citations,
        decided=row.decided,
        docket=row.docket or None,
        documents=documents,
        identifiers=[("scdb", "case", row.case_id)],
    )


def _norm_name(name: str) -> set[str]:
    words = re.findall(r"[a-z0-9]+", name.casefold())
    stop = {"v", "et", "al", "the", "of", "inc", "co", "corp", "united", "states", "us", "city"}
    return {w for w in words if w not in stop and len(w) > 2}


def _attach_opinions(
    authorities: list[AuthorityRow],
    by_us: dict[tuple[int, int], list[AuthorityRow]],
    scdb_rows: dict[str, AuthorityRow],
    scdb_by_docket: dict[str, list[_Scdb]],
    opinions: list[_Opinion],
    notes: dict[str, int],
) -> None:
    """Give each shipped opinion's text to its authority, creating one when none matches."""
    unmatched = 0
    for opinion in opinions:
        target: AuthorityRow | None = None
        if opinion.cite is not None:
            candidates = by_us.get(opinion.cite, [])
            target = candidates[0] if candidates else None
            if target is not None and target.name is None:
                target.name = opinion.name
        else:
            for docket in opinion.dockets[:1]:
                for row in scdb_by_docket.get(docket, []):
                    if _norm_name(row.name) & _norm_name(opinion.name):
                        target = scdb_rows[row.case_id]
                        break
        document, identifier = _courtlistener(opinion)
        text = TextRow(opinion.text, opinion.pages)
        if target is None:
            unmatched += 1
            first_docket = opinion.dockets[0] if opinion.dockets else None
            authorities.append(
                AuthorityRow(
                    kind="case",
                    reference=f"courtlistener:opinion:{opinion.opinion_id}",
                    name=opinion.name,
                    court_id=COURT,
                    decided=opinion.date_filed or None,
                    docket=first_docket,
                    text=text,
                    documents=[document],
                    identifiers=[identifier],
                )
            )
            continue
        target.text = text
        target.documents.insert(0, document)
        target.identifiers.append(identifier)
    notes["opinions_without_citation"] = unmatched


def _page_ranges(authorities: list[AuthorityRow]) -> None:
    """Set ``last_page`` of every numeric citation to the next first page in its volume."""
    firsts: dict[tuple[str, str], set[int]] = defaultdict(set)
    for authority in authorities:
        for citation in authority.citations:
            if citation.page_number is not None and citation.reporter != "U.S. LEXIS":
                firsts[(citation.reporter, citation.volume)].add(citation.page_number)
    following: dict[tuple[str, str, int], int] = {}
    for key, pages in firsts.items():
        ordered = sorted(pages)
        for here, after in itertools.pairwise(ordered):
            following[(*key, here)] = after
    for authority in authorities:
        for citation in authority.citations:
            if citation.page_number is not None:
                citation.last_page = following.get(
                    (citation.reporter, citation.volume, citation.page_number)
                )


def read_cases(source: Path) -> CaseData:
    """Read ``scotus/`` and ``opinions/`` under ``source`` into case authorities."""
    notes: dict[str, int] = {}
    dates = _read_dates(source / "scotus" / "scotus_dates.csv", notes)
    scdb = _read_scdb(source / "scotus" / "scdb_2023_01_case_facts.csv")
    names = _read_names(source / "scotus" / "lonedissent_citations.csv", notes)
    spans = _volume_years(dates, scdb)
    opinions = _read_opinions(source / "opinions")

    scdb_by_us: dict[tuple[int, int], list[_Scdb]] = defaultdict(list)
    scdb_by_docket: dict[str, list[_Scdb]] = defaultdict(list)
    for row in scdb:
        if row.us is not None:
            scdb_by_us[row.us].append(row)
        scdb_by_docket[row.docket].append(row)

    authorities: list[AuthorityRow] = []
    by_us: dict[tuple[int, int], list[AuthorityRow]] = {}
    scdb_rows: dict[str, AuthorityRow] = {}
    disagreements = 0
    for volume, page in sorted(set(dates) | set(scdb_by_us) | set(names)):
        group: list[AuthorityRow] = []
        if (volume, page) in scdb_by_us:
            for row in scdb_by_us[(volume, page)]:
                authority = _scdb_authority(row)
                scdb_rows[row.case_id] = authority
                group.append(authority)
                listed = dates.get((volume, page))
                disagreements += bool(listed) and row.decided not in (listed or ())
        elif (volume, page) in names:
            group = _named_cases(
                volume,
                page,
                names[(volume, page)],
                dates.get((volume, page), []),
                spans.get(volume),
                notes,
            )
        else:
            for index, decided in enumerate(dates[(volume, page)]):
                suffix = f":{index + 1}" if index else ""
                group.append(
                    AuthorityRow(
                        kind="case",
                        reference=f"us:{volume}:{page}{suffix}",
                        name=None,
                        court_id=COURT,
                        citations=_us_citations(volume, page),
                        decided=decided,
                    )
                )
        by_us[(volume, page)] = group
        authorities.extend(group)
    notes["scdb_date_disagreements"] = disagreements
    for row in scdb:
        if row.us is None and (row.sct is not None or row.led is not None):
            authority = _scdb_authority(row)
            scdb_rows[row.case_id] = authority
            authorities.append(authority)

    _attach_opinions(authorities, by_us, scdb_rows, scdb_by_docket, opinions, notes)
    _page_ranges(authorities)

    latest = max([row.decided for row in scdb] + [d for listed in dates.values() for d in listed])
    as_of = f"{latest}T00:00:00Z"
    last_us = max(row.us[0] for row in scdb if row.us is not None)
    coverage = [
        CoverageRow(
            "U.S.",
            1,
            COMPLETE_LAST_VOLUME,
            True,
            f"every decision in volumes 1-{COMPLETE_LAST_VOLUME} of the United States Reports",
            as_of,
        ),
        CoverageRow(
            "U.S.",
            COMPLETE_LAST_VOLUME + 1,
            last_us,
            False,
            f"volume is only partly covered: volumes {COMPLETE_LAST_VOLUME + 1}-{last_us} hold "
            "only the cases of the Supreme Court Database, not every order or summary "
            "disposition",
            as_of,
        ),
    ]
    for reporter, first, last in NOMINATIVE:
        coverage.append(
            CoverageRow(
                reporter,
                1,
                last - first + 1,
                True,
                f"every decision in {reporter} (U.S. Reports volumes {first}-{last})",
                as_of,
            )
        )
    for reporter in ("S. Ct.", "L. Ed.", "L. Ed. 2d", "U.S. LEXIS"):
        coverage.append(
            CoverageRow(
                reporter,
                None,
                None,
                False,
                f"{reporter} is only partly covered: it holds the parallel citations of the "
                "Supreme Court Database's cases (1946-2022 terms), not every page",
                as_of,
            )
        )
    templates = [
        LinkTemplateRow(
            "U.S.",
            "justia",
            "https://supreme.justia.com/cases/federal/us/{volume}/{page}/",
            "html",
            False,
            1,
            575,
        )
    ]
    return CaseData(authorities, coverage, templates, as_of, notes)
