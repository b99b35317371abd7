"""Regenerate ``find_golden.jsonl.gz``: what ``find``, ``find_quotations`` and ``assemble`` give.

Run from the repository root with the code whose behaviour is to be pinned::

    python tests/data/find_golden/make_find_golden.py

The inputs come from the repository alone: the 50 October Term 2016 opinions
of ``tests/data/quotes/scotus_ot2016.jsonl.gz``, ``examples/sample_brief.txt``
and every string literal of ``tests/test_find.py`` (see ``inputs``).  Each line
holds one input's name and the ``repr`` of every ``Found`` (span, signal,
parentheticals, and the citation with all its fields), of every quotation span,
and of every task ``assemble`` builds from them.  ``repr`` of these attrs
classes shows every field, so any change of output changes a line.
"""

from __future__ import annotations

import ast
import gzip
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "find_golden.jsonl.gz"


def documents() -> list[tuple[str, str]]:
    """``(name, text)`` for the 50 opinions, then the sample brief (``document_golden``'s
    inputs too)."""
    found: list[tuple[str, str]] = []
    with gzip.open(ROOT / "tests/data/quotes/scotus_ot2016.jsonl.gz", "rt", encoding="utf-8") as f:
        for number, line in enumerate(f):
            found.append((f"ot2016-{number}", json.loads(line)["plain_text"]))
    found.append(("sample_brief", (ROOT / "examples/sample_brief.txt").read_text("utf-8")))
    return found


def inputs() -> list[tuple[str, str]]:
    """``(name, text)`` for every input, in a fixed order."""
    found = documents()
    tree = ast.parse((ROOT / "tests/test_find.py").read_text("utf-8"))
    literals = sorted(
        {
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value
        }
    )
    found.extend((f"test_find-{number}", text) for number, text in enumerate(literals))
    return found


def record(name: str, text: str) -> dict[str, object]:
    """What the pinned functions give for one text."""
    from citeverify.citations import find
    from citeverify.document._assemble import assemble
    from citeverify.document._quotes import find_quotations

    found = list(find(text))
    quotations = find_quotations(text)
    tasks = assemble(text, found, quotations)
    return {
        "name": name,
        "found": [repr(f) for f in found],
        "quotations": [repr(q) for q in quotations],
        "tasks": [repr(t) for t in tasks],
    }


def main() -> None:
    with gzip.open(GOLDEN, "wt", encoding="utf-8", compresslevel=9) as out:
        for name, text in inputs():
            out.write(json.dumps(record(name, text), ensure_ascii=False, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
