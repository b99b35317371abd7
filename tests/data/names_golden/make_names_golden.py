"""Regenerate ``names_golden.json.gz``: what ``name_matches`` and ``_party`` give.

Run from the repository root with the code whose behaviour is to be pinned::

    python tests/data/names_golden/make_names_golden.py

The inputs come from the repository alone (see ``pairs``): every case name of
the embedded corpus, cited as a brief would (first parties title-cased, as
``bench/bench_verify.py``'s ``make_items`` does) against its own name, against
other cases' names and against a name sharing one party; the same names with one
typo, with Bluebook abbreviations, as initialisms, as one-party short names and
as ``In re`` names; the names the October Term 2016 opinions cite against every
name the corpus holds at that citation; every pair of strings in
``tests/test_compare.py``; and a few hostile strings.  The file holds the
answers (one ``0``/``1`` per pair, in order), each party string's ``_party``
words (see ``party_record``) and fingerprints of both input lists.
"""

from __future__ import annotations

import ast
import gzip
import hashlib
import json
import random
import re
import sqlite3
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "names_golden.json.gz"


def _title(name: str) -> str:
    """As ``bench/bench_verify.py`` cites a corpus name: first parties, title case."""
    words = name.replace(" et al.", "").replace(" ET AL.", "").split(" v. ")
    return " v. ".join(part.split(",")[0].title() for part in words[:2])


def _case_names() -> list[str]:
    from citeverify.providers.local import _embedded_path

    db = sqlite3.connect(f"file:{_embedded_path()}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT DISTINCT name FROM authorities WHERE kind = 'case' AND name IS NOT NULL"
        " ORDER BY name"
    ).fetchall()
    db.close()
    return [name for (name,) in rows]


def _abbreviations() -> dict[str, str]:
    """Long word (lower case) -> one Bluebook abbreviation of it, from reporters-db's T6."""
    from citeverify._compare import _reporters_db_json

    table: dict[str, str] = {}
    for abbreviation, longs in sorted(_reporters_db_json("case_name_abbreviations.json").items()):
        for long in longs:
            if " " not in long:
                table.setdefault(long.lower(), abbreviation)
    return table


def _typo(text: str, rng: random.Random) -> str:
    """One letter changed, dropped, added or two swapped in the longest word."""
    words = text.split(" ")
    index = max(range(len(words)), key=lambda i: len(words[i]))
    word = words[index]
    if len(word) < 3:
        return text
    at = rng.randrange(1, len(word) - 1)
    kind = rng.randrange(4)
    if kind == 0:
        word = word[:at] + "x" + word[at + 1 :]
    elif kind == 1:
        word = word[:at] + word[at + 1 :]
    elif kind == 2:
        word = word[:at] + "e" + word[at:]
    else:
        word = word[: at - 1] + word[at] + word[at - 1] + word[at + 1 :]
    words[index] = word
    return " ".join(words)


def _abbreviate(text: str, table: dict[str, str]) -> str:
    return " ".join(table.get(w.lower(), w) for w in text.split(" "))


def _initialism(party: str) -> str:
    return "".join(w[0] for w in re.findall(r"[A-Za-z]+", party)).upper()


def _ot2016_pairs() -> list[tuple[str, str]]:
    sys.path.insert(0, str(ROOT))
    from citeverify.citations._types import CaseCitation
    from citeverify.providers import LocalStore
    from citeverify.providers._base import Found, LookupRequest
    from tests.test_names_ot2016 import CITED, MISMATCHES

    requests = [
        LookupRequest(CaseCitation("x", "x", "us-reporter", str(v), "U.S.", str(p)))
        for _, v, p in CITED
    ]
    found: list[tuple[str, str]] = list(MISMATCHES)
    for (name, _, _), answer in zip(CITED, LocalStore().lookup(requests), strict=True):
        if isinstance(answer, Found):
            found.extend((name, a.name) for a in answer.authorities if a.name)
    return found


def _test_compare_pairs() -> list[tuple[str, str]]:
    tree = ast.parse((ROOT / "tests/test_compare.py").read_text("utf-8"))
    pairs = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Tuple)
            and len(node.elts) == 2
            and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)
        ):
            cited, found = (e.value for e in node.elts)  # type: ignore[attr-defined]
            pairs.append((cited, found))
    return pairs


HOSTILE = [
    ("", ""),
    ("v.", "v."),
    (" v. ", "ROE v. WADE"),
    ("Roe v.", "ROE v. WADE"),
    ("v. Wade", "ROE v. WADE"),
    ("Roe v. Wade v. Bolton", "ROE v. WADE"),
    ("Roe vs Wade", "ROE v. WADE"),
    ("Roe versus Wade", "ROE v. WADE"),
    ("ROE V. WADE", "Roe v. Wade"),
    ("Roe V. Wade", "ROE et al. v. WADE, DISTRICT ATTORNEY OF DALLAS COUNTY"),
    ("Ro\u00e9 v. W\u00e4de", "ROE v. WADE"),
    ("O\u2019Brien v. Smith", "O'BRIEN v. SMITH"),
    ("O'Brien v. Smith", "OBRIEN v. SMITH"),
    ("\u00c9cole v. \ufb01sher", "ECOLE v. FISHER"),
    ("Smith et ux. v. Jones etc.", "SMITH v. JONES"),
    ("In the Matter of Smith", "SMITH v. JONES"),
    ("Application of Smith", "IN RE SMITH"),
    ("Petition of Smith", "EX PARTE SMITH"),
    ("Smith ex rel. Jones v. Doe", "JONES v. DOE"),
    ("The the of and v. a an", "THE v. AN"),
    ("Co. v. Inc.", "COMPANY v. INCORPORATED"),
    ("Smith " * 60 + "v. Jones", "SMITH v. JONES"),
    ("a. b. c. d. v. e. f.", "ABCD v. EF"),
    ("U. S. v. Smith", "UNITED STATES v. SMITH"),
    ("USA v. Smith", "UNITED STATES OF AMERICA v. SMITH"),
    ("Commonwealth v. Smith", "MASSACHUSETTS v. SMITH"),
    ("Pennsylvania v. Smith", "COMMONWEALTH v. SMITH"),
    ("12 Angry Men v. 3.14 Pi", "12 ANGRY MEN v. 3.14 PI"),
    ("Smith\tv.\nJones", "SMITH v. JONES"),
    ("Smith v. Jones;", ";SMITH v. JONES,"),
]


def pairs() -> list[tuple[str, str]]:
    """Every ``(cited, found)`` pair, in a fixed order."""
    names = _case_names()
    versus = [n for n in names if " v. " in n]
    table = _abbreviations()
    rng = random.Random(17)
    found: list[tuple[str, str]] = []
    for name in names:
        title = _title(name)
        found.append((title, name))
        found.append((title, rng.choice(names)))
        parties = title.split(" v. ")
        if len(parties) == 2:
            other = rng.choice(versus).split(" v. ")
            found.append((f"{parties[0]} v. {_title(other[1])}", name))
            found.append((f"{_title(other[0])} v. {parties[1]}", name))
        choice = rng.randrange(5)
        if choice == 0:
            found.append((_typo(title, rng), name))
        elif choice == 1:
            found.append((_abbreviate(title, table), name))
        elif choice == 2 and len(parties) == 2:
            found.append((f"{_initialism(parties[0])} v. {parties[1]}", name))
            found.append((title, f"{_initialism(parties[0])} v. {parties[1].upper()}"))
        elif choice == 3:
            found.append((parties[-1], name))
            found.append((f"In re {parties[0]}", name))
        else:
            found.append((name, name))
            found.append((name.lower(), title))
    found += _ot2016_pairs()
    found += _test_compare_pairs()
    found += HOSTILE
    return found


def parties(inputs: list[tuple[str, str]]) -> list[str]:
    """Every party string ``name_matches`` reads for the pairs, in a fixed order."""
    from citeverify._compare import split_parties

    seen: dict[str, None] = {}
    for cited, found in inputs:
        for name in (cited, found):
            for party in split_parties(name):
                seen.setdefault(party, None)
    return list(seen)


def party_record(party: str) -> str:
    """``_party``'s words, raw spellings and whole-caption words, as one line.

    ``words`` alone when the other three say nothing more (raw spellings equal
    to the words, no whole caption read), else the four joined by ``|``.
    """
    from citeverify._compare import _party

    p = _party(party)
    if p.raw == p.words and p.whole == p.words and p.whole_raw == p.raw:
        return " ".join(p.words)
    return "|".join(" ".join(x) for x in (p.words, p.raw, p.whole, p.whole_raw))


def digest(strings: object) -> str:
    """A fingerprint of the inputs, so a changed input set is told from a changed answer."""
    return hashlib.sha256(json.dumps(strings).encode("utf-8")).hexdigest()


def main() -> None:
    from citeverify._compare import name_matches

    inputs = pairs()
    names = parties(inputs)
    golden = {
        "pairs_sha256": digest(inputs),
        "matches": "".join("1" if name_matches(c, f) else "0" for c, f in inputs),
        "parties_sha256": digest(names),
        "parties": [party_record(p) for p in names],
    }
    with gzip.open(GOLDEN, "wt", encoding="utf-8", compresslevel=9) as handle:
        json.dump(golden, handle)


if __name__ == "__main__":
    main()
