"""Build ``golden.jsonl.gz``: ``parse`` outputs pinned over broad input.

Run from the repository root: ``python tests/data/parse_golden/generate.py``.

Written before the single-citation parser was made faster (issue 17), with the
parser as it was, so ``tests/test_parse_golden.py`` proves the faster code
gives every result exactly as before.  The inputs are real or realistic:

* every citation string ``bench.bench_verify.make_items`` makes for several seeds
  (Supreme Court names, volumes, first pages, pins and years from the embedded
  corpus), and variants of some of them (no pin, pin ranges and footnotes, ``at``,
  several pins, parallels, court parentheticals, signals, odd spacing, typographic
  dashes, trailing text, California and New York styles, short forms);
* ``bench.bench_parse.strings`` (court parentheticals: ``(11th Cir. 2019)``);
* every reporters-db example citation (reporters-db is a dev dependency);
* the texts of the citation corpus under ``tests/data/citations/``, and every
  string literal with a digit in the citation tests, parsed as every kind;
* windows of running text around reporter citations in the 50 OT2016 opinions.

``golden.jsonl.gz`` holds one ``[kind, text, repr]`` a line: the inputs themselves,
so the test needs neither reporters-db nor the generator's sources, and the
``repr`` of each result (attrs reprs name every field, nested ones too).
"""

from __future__ import annotations

import ast
import gzip
import json
import random
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
KINDS = ("case", "statute", "rule", "constitution", "link")

_COURTS = (
    "11th Cir.",
    "2d Cir.",
    "D.C. Cir.",
    "S.D.N.Y.",
    "N.D. Cal.",
    "Fed. Cir.",
    "D. Mass.",
    "Cal.",
    "N.Y.",
    "Tex. App.-Houston [14th Dist.]",
    "So. Dist.",
    "T.C.",
    "per curiam",
    "Sept. 3,",
    "District Court, W.D. Texas",
)


def _variants(raw: str, rng: random.Random) -> list[str]:
    """Shapes a brief may give the same citation in, common and odd."""
    match = re.match(r"^(.*), (\d+) U\.S\. (\d+), (\d+) \((\d{4})\)$", raw)
    if match is None:
        return []
    name, volume, page, pin, year = match.groups()
    court = rng.choice(_COURTS)
    n = int(pin)
    return [
        f"{name}, {volume} U.S. {page} ({year})",
        f"{name}, {volume} U.S. {page}",
        f"{volume} U.S. {page}, {pin}",
        f"{name}, {volume} U.S. {page}, {pin}-{n + 2} ({year})",
        f"{name}, {volume} U.S. {page}, {pin}\u2013{str(n + 12)[-2:]} ({year})",
        f"{name}, {volume} U.S. {page}, {pin} n.{rng.randint(1, 30)} ({year})",
        f"{name}, {volume} U.S. {page}, at {pin} ({year})",
        f"{name}, {volume} U.S. {page}, {pin}, {n + 3} ({year})",
        f"{name}, {volume} U.S. {page}, {pin} ({court} {year})",
        f"{name}, {volume} U.S. {page} ({court} {year})",
        f"{name}, {volume} U.S. {page}, {pin} ({court})",
        f"{name}, {volume} U.S. {page}, {pin} ({year}) (per curiam)",
        f"{name}, {volume} U.S. {page}, {pin} ({year}).",
        f"{name}, {volume} U.S. {page}, {pin} ({year}); see also {name}",
        f"See, e.g., {name}, {volume} U.S. {page}, {pin} ({year})",
        f"*{name}*, {volume} U.S. {page}, {pin} ({year})",
        f"{name} {volume} U.S. {page}, {pin} ({year})",
        f"{name},  {volume}  U.S.  {page},  {pin}  ({year})",
        f"{name},\n{volume} U.S. {page},\t{pin} ({year})",
        f"{name}, {volume} U. S. {page}, {pin} ({year})",
        f"{name}, {volume} US {page}, {pin} ({year})",
        f"{name.lower()}, {volume} u.s. {page}, {pin} ({year})",
        f"{name}, {volume} U.S. {page}, {pin} (Jan. 5, {year})",
        f"{name}, {volume} U.S. {page}, {pin} [{year}]",
        f"{name} ({year}) {volume} U.S. {page}, {pin}",
        f"{name}, {volume} U.S. {page}, {pin}, 93 S. Ct. 705, 35 L. Ed. 2d 147 ({year})",
        f"{name}, {volume} U.S. {page}, 93 S. Ct. {pin} ({year})",
        f"{name}, {volume} U.S. at {pin}",
        f"{name}, {volume} U.S. ___, {pin} ({year})",
        f"{name}, {volume} U.S. {page}A, {pin} ({year})",
        f"{name}, {volume} F.3d {page}, {pin} ({court} {year})",
        f"{name}, {volume} F. Supp. 2d {page}, {pin} ({court} {year})",
        f"{name}, {volume} S. Ct. {page}, {pin} ({year})",
        f"{name}, {volume} L. Ed. 2d {page}, {pin} ({year})",
        f"{name}, {volume} U.S. {page}, {pin} ({year}",
        f"{name}, {volume} U.S. {page}, {pin} (T.C. {year})",
        f"{name}, {volume} U.S. {page}, {pin} (No. 12 {year})",
        f"{name}, {volume} U.S. {page}, {pin} (So. {year})",
        f"{name}, {volume} U.S. {page}, {pin} ({year}) ({year})",
        f"{name}, {volume} U.S. {page}, {n * 10} ({year})",
        f"{name} 2, {volume} U.S. {page}, {pin} ({year})",
        f"{name}, 12 F. 3, {volume} U.S. {page}, {pin} ({year})",
        f"Doe No. 4 v. {name}, {volume} U.S. {page}, {pin} ({year})",
        f"T. {name}, {volume} U.S. {page}, {pin} ({year})",
        f"{name}, 5 Cranch {page}, {pin} ({year})",
        f"{name}, {volume} U.S. (1 Cranch) {page}, {pin} ({year})",
        f"{name}, {volume} U.S. {page}, {pin}-{n - 1} ({year})",
        f"{name}, {volume} U.S. {page}, *{pin} ({year})",
        f"{name}, 2015 WL {page}{pin}, at *{pin} ({court} {year})",
    ]


def _bench_items() -> list[str]:
    sys.path.insert(0, str(ROOT))
    from bench.bench_parse import strings
    from bench.bench_verify import make_items

    texts: list[str] = []
    texts.extend(item["rawText"] for item in make_items(1000))  # the benchmark's own
    for seed in (1, 2):
        texts.extend(item["rawText"] for item in make_items(2000, seed=seed))
    rng = random.Random(17)
    sample = rng.sample(texts, 120)
    for raw in sample:
        texts.extend(_variants(raw, rng))
    texts.extend(strings(600))
    return texts


def _reporters_db_examples() -> list[str]:
    import reporters_db

    return [
        example
        for group in reporters_db.REPORTERS.values()
        for rep in group
        for example in rep.get("examples") or []
    ]


def _corpus() -> list[tuple[str, str]]:
    found = []
    for path in sorted((ROOT / "tests" / "data" / "citations").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            found.append((case.get("kind") or case.get("type") or "case", case["text"]))
    return found


def _test_literals() -> list[str]:
    """String constants with a digit in the citation and find tests: their hand-made inputs."""
    found: list[str] = []
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        if not path.name.startswith(("test_citations", "test_find", "test_names")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if 2 <= len(text) <= 600 and any(c.isdigit() for c in text):
                    found.append(text)
    return found


_REPORTER_IN_TEXT = re.compile(r"\d+ (?:U\. ?S\.|F\. ?[234]d|S\. ?Ct\.|F\. Supp\.|L\. ?Ed\.)")


def _opinion_windows() -> list[str]:
    path = ROOT / "tests" / "data" / "quotes" / "scotus_ot2016.jsonl.gz"
    windows = []
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            text = json.loads(line)["plain_text"]
            for match in _REPORTER_IN_TEXT.finditer(text):
                windows.append(text[max(0, match.start() - 140) : match.end() + 70])
    return windows


def inputs() -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    pairs.extend(("case", t) for t in _bench_items())
    pairs.extend(("case", t) for t in _reporters_db_examples())
    for kind, text in _corpus():
        pairs.extend((k, text) for k in KINDS)
        del kind
    for text in _test_literals():
        pairs.extend((k, text) for k in KINDS)
    pairs.extend(("case", t) for t in _opinion_windows())
    seen: set[tuple[str, str]] = set()
    unique = []
    for pair in pairs:
        if pair not in seen:
            seen.add(pair)
            unique.append(pair)
    return unique


def main() -> None:
    sys.path.insert(0, str(ROOT))
    from citeverify.citations import _parse

    pairs = inputs()
    lines = [json.dumps([k, t, repr(_parse(t, k))]) + "\n" for k, t in pairs]
    with gzip.GzipFile(HERE / "golden.jsonl.gz", "wb", compresslevel=9, mtime=0) as raw:
        raw.write("".join(lines).encode("utf-8"))
    print(f"{len(pairs)} inputs")


if __name__ == "__main__":
    main()
