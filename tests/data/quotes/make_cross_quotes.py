"""Build ``cross_quotes.json``: quotations the OT2016 opinions make of the 17 older opinions.

Run from the repository root: ``python tests/data/quotes/make_cross_quotes.py``.

For every citation of one of the older opinions in an OT2016 opinion
(``483 U. S., at 120`` or ``483 U. S. 107, 120-121``) preceded, within a short
distance and with the case's name in between, by a closing quotation mark,
the quotation (from its matching opening mark) is taken with the pin page or
range the citing opinion gives.  Nothing here uses the locator: what the
citing opinion says is the evidence.  ``EXCLUDED`` lists, by hand, extractions
that are not quotations of the cited case (a nested quotation of a third
case, the citing court's own words, a statute both cite); the reason is kept
beside each.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

HERE = Path(__file__).parent

# (cited case, first words of the extracted quotation): why it is not a quotation of that case.
# Checked by reading the cited text: the words are not there.
EXCLUDED: dict[tuple[str, str], str] = {
    ("469 U.S. 57", "which of the inconsistent verdicts—the acquittal[s]"): (
        "a paraphrase with a short inner quotation ('really meant'), not Powell's sentence"
    ),
    ("469 U.S. 57", "Where a determi\xad nation relied on"): (
        "Powell does not contain these words (the citing opinion quotes another source)"
    ),
    ("493 U.S. 182", "The EEOC does not have to"): (
        "the citing opinion's own sentence around an inner quotation of the case"
    ),
    ("515 U.S. 900", "protect[ ] Democratic incum- bents"): (
        "Miller v. Johnson is cited for another point; the words are not in it"
    ),
    ("532 U.S. 234", "[i]t is well settled that reappor-"): (
        "a quotation of Miller v. Johnson; Cromartie is a 'see also'"
    ),
    ("537 U.S. 322", "Especially in light of the capital"): (
        "the citing opinion quoting a lower court, with an inner quotation of Miller-El"
    ),
}
#: Quotations whose words are on another page than the citing opinion's pin (checked by
#: reading the cited text's star pages): kept, but their page is not compared.
PIN_ELSEWHERE: dict[tuple[str, str], str] = {
    ("420 U.S. 103", "the detention of suspects pending trial,"): "a footnote printed at the end",
    ("458 U.S. 176", "every handi- capped child who is"): "a footnote; called in the HTML only",
    ("469 U.S. 57", "the Government is precluded from ap\xad"): "the words are on page 65",
    ("505 U.S. 247", "sue and be sued in courts"): "the charter's words, on 248-276",
    ("537 U.S. 322", "only if the District Court’s decision"): "the words are on page 348",
}


def _short_name(case_name: str) -> str:
    first = case_name.split(" v. ")[0]
    words = [w for w in re.findall(r"[A-Za-z][A-Za-z\-]+", first) if w.lower() not in {"of"}]
    return words[-1] if words else first


def main() -> None:
    with gzip.open(HERE / "scotus_ot2016.jsonl.gz", "rt") as handle:
        ot = [json.loads(line) for line in handle]
    with gzip.open(HERE / "scotus_cited.jsonl.gz", "rt") as handle:
        cited = [json.loads(line) for line in handle]
    found: list[dict[str, object]] = []
    seen: set[tuple[str, str]] = set()
    for case in cited:
        volume, _, page = case["cite"].split()
        names = {_short_name(case["case_name"]), case["case_name"].split(" v. ")[-1].split()[0]}
        names |= {"Red Cross"} if case["cite"] == "505 U.S. 247" else set()
        cite = re.compile(
            volume
            + r"\s+U\.\s?S\.(?:,\s+at\s+(\d+)(?:[–-](\d+))?|\s+"
            + page
            + r",\s+(\d+)(?:[–-](\d+))?)"
        )
        for opinion in ot:
            text = opinion["plain_text"]
            for match in cite.finditer(text):
                first = int(match[1] or match[3])
                last = int(match[2] or match[4] or first)
                if last < first:  # "120–21"
                    last = int(str(first)[: -len(str(last))] + str(last))
                before = text[max(0, match.start() - 900) : match.start()]
                close = before.rfind("”")
                between = before[close + 1 :]
                if close < 0 or len(between) > 120 or "“" in between:
                    continue
                if not any(name in between for name in names):
                    continue
                depth, start = 0, None
                for i in range(close - 1, -1, -1):
                    if before[i] == "”":
                        depth += 1
                    elif before[i] == "“":
                        if depth == 0:
                            start = i
                            break
                        depth -= 1
                if start is None:
                    continue
                quote = before[start + 1 : close]
                if len(quote.split()) < 5 or "\x0c" in quote:
                    continue
                key = (case["cite"], " ".join(quote.split()[:6]))
                if key in seen or key in EXCLUDED:
                    continue
                seen.add(key)
                found.append(
                    {
                        "cite": case["cite"],
                        "pin": [first, last],
                        "quote": quote,
                        "citing": opinion["case_name"],
                        "pin_checked": key not in PIN_ELSEWHERE,
                    }
                )
    (HERE / "cross_quotes.json").write_text(json.dumps(found, ensure_ascii=False, indent=1))
    print(len(found), "quotations")


if __name__ == "__main__":
    main()
