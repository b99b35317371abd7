"""Generate the citation test corpus under ``tests/data/citations/`` from ``../shared/data``.

Run once (``python tests/make_citation_corpus.py [DATA_DIR]``) and commit the
output: the tests read only the committed files.  Every expected component
comes from the source columns (SCDB's ``usCite``/``sctCite``/``ledCite``,
``sections.tsv``'s title and section, the rules' numbers, the Constitution's
USLM ids), never from the parser.  The citation text is written in the forms
practitioners use (Bluebook, unspaced reporters, ``USC``, ``Sec.``, spelled-out
rules, links to the public hosts), chosen deterministically by row number.

It also checks the hand-written nominative cases (``5 U.S. (1 Cranch) 137``)
against ``scotus_dates.csv``: the U.S. Reports citation they map to must be a
real decision of the cited year.
"""

from __future__ import annotations

import csv
import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent / "data" / "citations"
DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"

ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def roman(text: str) -> int:
    total = 0
    for i, ch in enumerate(text):
        value = ROMAN[ch]
        total += -value if i + 1 < len(text) and ROMAN[text[i + 1]] > value else value
    return total


def write(name: str, rows: list[dict[str, Any]]) -> None:
    path = HERE / name
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{path}: {len(rows)} cases")


def scotus_cases(data: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    with (data / "scotus" / "scdb_2023_01_case_facts.csv").open(encoding="utf-8") as f:
        records = list(csv.DictReader(f))
    complete = [
        r for r in records if r["usCite"] and r["sctCite"] and r["ledCite"] and r["caseName"]
    ]
    seen: set[str] = set()
    for n, r in enumerate(complete[::40]):
        us, sct, led = r["usCite"], r["sctCite"], r["ledCite"]
        if us in seen:
            continue
        seen.add(us)
        volume, _, page = us.split(" ", 2)[0], None, us.split(" ")[-1]
        year = int(r["dateDecision"].split("/")[-1])
        name = r["caseName"].strip().rstrip(",")
        expect: dict[str, Any] = {
            "normalized": us,
            "volume": volume,
            "reporter": "U.S.",
            "page": page,
            "system": "us-reporter",
            "year": year,
        }
        form = n % 5
        if form == 0:
            text = f"{name}, {us}, {sct}, {led} ({year})"
            expect.update(case_name=name, parallels=[sct, led])
        elif form == 1:
            pin = int(page) + 1 + n % 9
            text = f"{name}, {us}, {pin} ({year})"
            expect.update(case_name=name, pin=str(pin), pin_first=pin, pin_last=pin)
        elif form == 2:
            text = (
                f"{name}, {us.replace('U.S.', 'U. S.')}, {sct.replace('S. Ct.', 'S.Ct.')} ({year})"
            )
            expect.update(case_name=name, parallels=[sct])
        elif form == 3:
            pin = int(page) + 2 + n % 7
            last = str(pin + 1)
            # Bluebook drops repeated leading digits only: 153-54, but 299-300.
            short = last[-2:] if last[:-2] == str(pin)[:-2] else last
            text = f"See {name}, {us}, {pin}-{short} ({year})"
            expect.update(case_name=name, pin_first=pin, pin_last=pin + 1)
        else:
            led_compact = led.replace("L. Ed. 2d", "L.Ed.2d").replace("L. Ed.", "L.Ed.")
            text = f"{us}, {led_compact} ({year})"
            expect.update(parallels=[led], case_name=None)
        rows.append({"kind": "case", "text": text, "expect": expect, "source": "scdb"})
        if len(rows) >= 160:
            break
    # S. Ct. as the primary citation, for recent cases without U.S. pages.
    recent = [r for r in records if not r["usCite"] and r["sctCite"]][::6][:20]
    for r in recent:
        sct = r["sctCite"]
        year = int(r["dateDecision"].split("/")[-1])
        volume, page = sct.split(" ")[0], sct.split(" ")[-1]
        rows.append(
            {
                "kind": "case",
                "text": f"{r['caseName'].strip().rstrip(',')}, {sct} ({year})",
                "expect": {
                    "normalized": sct,
                    "volume": volume,
                    "reporter": "S. Ct.",
                    "page": page,
                    "year": year,
                },
                "source": "scdb",
            }
        )
    # Lexis numbers from the same rows.
    for r in complete[5::300][:15]:
        lexis = r["lexisCite"]
        m = re.fullmatch(r"(\d{4}) (U\.S\. LEXIS) (\d+)", lexis)
        if not m:
            continue
        rows.append(
            {
                "kind": "case",
                "text": lexis,
                "expect": {
                    "normalized": lexis,
                    "system": "lexis",
                    "volume": m.group(1),
                    "reporter": m.group(2),
                    "page": m.group(3),
                },
                "source": "scdb",
            }
        )
    return rows


def scotus_dates_cases(data: Path) -> list[dict[str, Any]]:
    rows = []
    lines = (data / "scotus" / "scotus_dates.csv").read_text(encoding="utf-8").splitlines()
    for line in lines[::400]:
        cite, date = line.split("|")
        volume, _, page = cite.split(" ")
        year = int(date[:4])
        rows.append(
            {
                "kind": "case",
                "text": f"{cite} ({year})",
                "expect": {"normalized": cite, "volume": volume, "page": page, "year": year},
                "source": "scotus_dates",
            }
        )
    return rows


def check_nominatives(data: Path) -> None:
    dates: dict[str, int] = {}
    for line in (data / "scotus" / "scotus_dates.csv").read_text(encoding="utf-8").splitlines():
        cite, date = line.split("|")
        dates[cite] = int(date[:4])
    for line in (HERE / "handwritten.jsonl").read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        expect = case["expect"]
        if case["kind"] == "case" and expect.get("nominative"):
            cite = expect["normalized"]
            year = expect.get("year")
            assert cite in dates, f"{cite} is not in scotus_dates.csv"
            assert year is None or abs(dates[cite] - year) <= 1, (cite, dates[cite], year)
    print("nominative hand-written cases agree with scotus_dates.csv")


USC_FORMS = (
    "{t} U.S.C. § {s}",
    "{t} USC {s}",
    "{t} U.S.C.A. § {s}",
    "{t} U.S.C. Sec. {s}",
    "{t} U.S.C. §{s} (2018)",
    "See {t} U.S.C. § {s}",
)


def usc_cases(data: Path) -> list[dict[str, Any]]:
    rows = []
    with (data / "usc" / "sections.tsv").open(encoding="utf-8") as f:
        records = [r for r in csv.DictReader(f, delimiter="\t") if r["status"] == "current"]
    for n, r in enumerate(records[::500]):
        title, section = r["title"], r["section"]
        if not re.fullmatch(r"[0-9A-Za-z-]+", section):
            continue
        form = USC_FORMS[n % len(USC_FORMS)]
        expect: dict[str, Any] = {
            "system": "usc",
            "code": "U.S.C.",
            "title": title,
            "section": section,
            "normalized": f"{title} U.S.C. § {section}",
            "jurisdiction": "us",
        }
        if "(2018)" in form:
            expect["year"] = 2018
        rows.append(
            {
                "kind": "statute",
                "text": form.format(t=title, s=section),
                "expect": expect,
                "source": "sections.tsv",
            }
        )
        if n % 4 == 0:
            rows.append(
                {
                    "kind": "link",
                    "text": f"https://www.law.cornell.edu/uscode/text/{title}/{section}",
                    "expect": {"source": "lii", "target": f"{title} U.S.C. § {section}"},
                    "source": "sections.tsv",
                }
            )
    return rows


def rule_cases(data: Path) -> list[dict[str, Any]]:
    rows = []
    forms = {
        "fre": (
            "Fed. R. Evid. {n}",
            "F.R.E. {n}",
            "Federal Rule of Evidence {n}",
            "Rule {n} of the Federal Rules of Evidence",
            "FRE {n}",
        ),
        "frap": (
            "Fed. R. App. P. {n}",
            "FRAP {n}",
            "Fed.R.App.P. {n}",
            "Rule {n} of the Federal Rules of Appellate Procedure",
        ),
        "frcrmp": (
            "Fed. R. Crim. P. {n}",
            "Fed.R.Crim.P. {n}",
            "Federal Rule of Criminal Procedure {n}",
        ),
        "frbp": ("Fed. R. Bankr. P. {n}", "Bankruptcy Rule {n}", "FRBP {n}"),
    }
    canonical = {
        "fre": "Fed. R. Evid.",
        "frap": "Fed. R. App. P.",
        "frcrmp": "Fed. R. Crim. P.",
        "frbp": "Fed. R. Bankr. P.",
    }
    numbers: dict[str, list[str]] = {}
    for ruleset, name in (("fre", "fre-2024-12-01.jsonl"), ("frap", "frap-2024-12-01.jsonl")):
        lines = (data / "rules" / name).read_text(encoding="utf-8").splitlines()
        numbers[ruleset] = [json.loads(line)["rule"] for line in lines]
    for ruleset, name in (("frcrmp", "usc18a.xml"), ("frbp", "usc11a.xml")):
        xml = (data / "rules" / name).read_text(encoding="utf-8")
        found = re.findall(r'<num value="([0-9.]+)">Rule [0-9.]+\.</num>', xml)
        numbers[ruleset] = list(dict.fromkeys(found))
    strides = {"fre": 1, "frap": 1, "frcrmp": 2, "frbp": 8}
    for ruleset, rule_numbers in numbers.items():
        for n, number in enumerate(rule_numbers[:: strides[ruleset]]):
            form = forms[ruleset][n % len(forms[ruleset])]
            rows.append(
                {
                    "kind": "rule",
                    "text": form.format(n=number),
                    "expect": {
                        "ruleset": ruleset,
                        "rule": number,
                        "normalized": f"{canonical[ruleset]} {number}",
                        "subdivisions": [],
                    },
                    "source": f"rules/{ruleset}",
                }
            )
    return rows


def constitution_cases(data: Path) -> list[dict[str, Any]]:
    rows = []
    xml = (data / "constitution" / "constitution-uslm-hman117.xml").read_text(encoding="utf-8")
    ids = list(dict.fromkeys(re.findall(r'id="((?:article|amendment)-[IVXL]+(?:-\d+){0,2})"', xml)))
    for n, ident in enumerate(ids):
        parts = ident.split("-")
        part, numeral = parts[0], parts[1]
        section = parts[2] if len(parts) > 2 else None
        clause = parts[3] if len(parts) > 3 else None
        label = "art." if part == "article" else "amend."
        normalized = f"U.S. Const. {label} {numeral}"
        if section:
            normalized += f", § {section}"
        if clause:
            normalized += f", cl. {clause}"
        expect = {
            "part": part,
            "number": roman(numeral),
            "section": section,
            "clause": clause,
            "normalized": normalized,
            "jurisdiction": "us",
        }
        form = n % 3
        if form == 0:
            text = normalized
        elif form == 1:
            word = "Art." if part == "article" else "Amend."
            text = f"{word} {numeral}"
            if section:
                text += f", Sec. {section}"
            if clause:
                text += f", Cl. {clause}"
            text += " of the U.S. Constitution"
        else:
            text = normalized.replace("U.S. Const.", "U.S. CONST.").replace("§ ", "§")
        rows.append({"kind": "constitution", "text": text, "expect": expect, "source": "uslm"})
        if n % 2 == 0:
            url = f"https://constitution.congress.gov/browse/{part}-{roman(numeral)}/"
            if section:
                url += f"section-{section}/"
            if clause:
                url += f"clause-{clause}/"
            rows.append(
                {
                    "kind": "link",
                    "text": url,
                    "expect": {"source": "congress", "target": normalized},
                    "source": "uslm",
                }
            )
    return rows


def justia_links(data: Path) -> list[dict[str, Any]]:
    rows = []
    with (data / "scotus" / "scdb_2023_01_case_facts.csv").open(encoding="utf-8") as f:
        records = [r for r in csv.DictReader(f) if r["usCite"]]
    for r in records[3::300]:
        volume, _, page = r["usCite"].split(" ")
        rows.append(
            {
                "kind": "link",
                "text": f"https://supreme.justia.com/cases/federal/us/{volume}/{page}/",
                "expect": {"source": "justia", "target": r["usCite"], "host": "supreme.justia.com"},
                "source": "scdb",
            }
        )
    return rows


def main() -> None:
    data = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DATA
    HERE.mkdir(parents=True, exist_ok=True)
    write("generated_cases.jsonl", scotus_cases(data) + scotus_dates_cases(data))
    write("generated_statutes.jsonl", usc_cases(data))
    write("generated_rules.jsonl", rule_cases(data))
    write("generated_constitution.jsonl", constitution_cases(data))
    write("generated_links.jsonl", justia_links(data))
    check_nominatives(data)


if __name__ == "__main__":
    main()
