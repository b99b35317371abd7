"""Regenerate ``document_golden.jsonl.gz``: the whole ``verify_document`` Response.

Run from the repository root with the code whose behaviour is to be pinned::

    python tests/data/document_golden/make_document_golden.py

The inputs are the documents ``bench/bench_document.py`` times, from the
repository alone: the 50 October Term 2016 opinions of
``tests/data/quotes/scotus_ot2016.jsonl.gz`` and ``examples/sample_brief.txt``,
checked against the embedded corpus (``default_provider()`` with no
configuration).  Each line holds one document's name and the ``repr`` of every
result, of the summary and of the usage: ``repr`` of these attrs classes shows
every field (verdict, evidence, opinion, quote, position, citation id), so any
change of output changes a line.  The finding and attributing stages are pinned
apart by ``find_golden``; this pins what the driver and the verdict policy make
of them, the part ``verify_request``'s golden files do not reach.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "document_golden.jsonl.gz"
sys.path.insert(0, str(HERE.parent / "find_golden"))

from make_find_golden import documents  # noqa: E402


def inputs() -> list[tuple[str, str]]:
    """``(name, text)`` for every document, in a fixed order: ``find_golden``'s documents."""
    return documents()


def record(name: str, text: str, provider: object) -> dict[str, object]:
    """What ``verify_document`` gives for one text."""
    from citeverify import verify_document

    response = verify_document(text, provider=provider)  # type: ignore[arg-type]
    return {
        "name": name,
        "results": [repr(r) for r in response.results],
        "summary": repr(response.summary),
        "usage": repr(response.usage),
        "document": repr(response.document),
    }


def provider() -> object:
    """The embedded corpus, as the benchmark checks against it."""
    from citeverify.providers import default_provider

    return default_provider()


def main() -> None:
    checker = provider()
    with gzip.open(GOLDEN, "wt", encoding="utf-8", compresslevel=9) as out:
        for name, text in inputs():
            row = record(name, text, checker)
            out.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
