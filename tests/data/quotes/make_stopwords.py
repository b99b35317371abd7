"""Print ``STOPWORDS`` for ``citeverify/quotes/_stopwords.py``: the words a quotation
cannot be checked on alone.

Run from the repository root: ``python tests/data/quotes/make_stopwords.py``.

The words are read from the 67 shipped opinions (``scotus_ot2016.jsonl.gz`` and
``scotus_cited.jsonl.gz``) in the locator's matching form (``normalize``).  A
stopword is one of the ``TOP`` commonest words that also occurs in at least
``SHARE`` of the opinions: function words (``the``, ``of``, ``which``) and the
vocabulary of every opinion (``court``, ``case``, ``id``), not words of one
subject (``jury``, ``race``, ``patent``).  Negations are never stopwords: a
``not`` is what a quotation most needs to get right.  ``test_quotes.py``
checks that the committed list is what this script prints.
"""

from __future__ import annotations

import collections
import gzip
import json
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent.parent.parent))

from citeverify.quotes._negation import NEGATIONS  # noqa: E402
from citeverify.quotes._normalize import normalize  # noqa: E402

TOP = 150
SHARE = 0.9


def stopwords() -> list[str]:
    counts: collections.Counter[str] = collections.Counter()
    documents: collections.Counter[str] = collections.Counter()
    opinions = 0
    for name in ("scotus_ot2016.jsonl.gz", "scotus_cited.jsonl.gz"):
        with gzip.open(HERE / name, "rt", encoding="utf-8") as handle:
            for line in handle:
                words = normalize(json.loads(line)["plain_text"])[0].split()
                counts.update(words)
                documents.update(set(words))
                opinions += 1
    return sorted(
        word
        for word, _ in counts.most_common(TOP)
        if documents[word] >= SHARE * opinions and word not in NEGATIONS
    )


def main() -> None:
    words = stopwords()
    print(f"# {len(words)} words")
    print('_WORDS = """')
    for line in textwrap.wrap(" ".join(words), 92):
        print(line)
    print('"""')
    print("STOPWORDS = frozenset(_WORDS.split())")


if __name__ == "__main__":
    main()
