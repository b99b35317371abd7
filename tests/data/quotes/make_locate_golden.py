"""Build ``locate_golden.json.gz``: the quotation locator's outputs over real input, pinned.

Run from the repository root: ``python tests/data/quotes/make_locate_golden.py``.

Speed work on ``citeverify.quotes`` and ``LocalStore.find_quote`` must not change
a single output.  This records, with the code as it was before that work:

* ``normalize``: for every text the locator reads here (the 50 OT2016 slip
  opinions, the 17 older opinions as plain text and as CourtListener HTML,
  every text of the embedded corpus) and for every quotation found in the
  opinions (``quote=True``), a digest of the matching form, of every word's
  original span, and of the page marks and paragraphs read from markup;
* ``calls``: every ``QuoteIndex.locate_many`` call that ``verify_document``
  makes over the benchmark's documents (the opinions and the sample brief),
  with its text (inline when short, else by digest of an embedded corpus
  text, or as a slice of one), the quotations, preferred pages and budget,
  and every ``QuoteMatch`` field the call returned (the passage by a digest);
* ``own``: every quotation found in each OT2016 opinion located in that
  opinion itself, verbatim and with a word dropped or two words swapped
  (near misses and absences), with all fields;
* ``find_quote``: ``LocalStore.find_quote`` for every search ``verify_document``
  makes over those documents and for 300 further quotations.

The test (``tests/test_quotes_golden.py``) replays all of it from the repository
alone: the opinions ship in this folder, the corpus in ``citeverify/data``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import sqlite3
import sys
import zlib
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
ROOT = HERE.parents[2]
OUT = HERE / "locate_golden.json.gz"
sys.path.insert(0, str(ROOT))

#: Texts shorter than this are stored inline.
INLINE = 4000


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def norm_digest(text: str, *, quote: bool = False) -> str:
    """A digest of everything ``normalize_text`` says about ``text``."""
    from citeverify.quotes._normalize import normalize_text

    norm = normalize_text(text, quote=quote)
    spans = [norm.span(k) for k in range(norm.word_count)]
    payload = json.dumps(
        [norm.text, spans, list(norm.marks), list(norm.paragraphs)], separators=(",", ":")
    )
    return sha(payload)


def match_fields(match: Any) -> list[Any]:
    return [
        match.status,
        match.start,
        match.end,
        list(match.pages),
        match.paragraph,
        None if match.passage is None else sha(match.passage)[:16],
        match.message,
        match.steps,
    ]


def corpus_texts() -> list[tuple[str, tuple[tuple[int, int], ...]]]:
    """Every text of the embedded corpus, as ``LocalStore`` reads it, in id order."""
    from citeverify.providers.local import _embedded_path

    connection = sqlite3.connect(_embedded_path())
    out = []
    for body, pages in connection.execute("SELECT body, pages FROM texts ORDER BY id"):
        text = zlib.decompress(body).decode("utf-8")
        marks = tuple((int(o), int(p)) for o, p in json.loads(pages)) if pages else ()
        out.append((text, marks))
    return out


def opinions() -> tuple[list[str], list[dict[str, Any]]]:
    with gzip.open(HERE / "scotus_ot2016.jsonl.gz", "rt", encoding="utf-8") as handle:
        slips = [json.loads(line)["plain_text"] for line in handle]
    with gzip.open(HERE / "scotus_cited.jsonl.gz", "rt", encoding="utf-8") as handle:
        cited = [json.loads(line) for line in handle]
    return slips, cited


def mutations(quote: str, rng: random.Random) -> list[str]:
    words = quote.split()
    if len(words) < 6:
        return []
    drop = rng.randrange(1, len(words) - 1)
    swap = rng.randrange(1, len(words) - 2)
    swapped = list(words)
    swapped[swap], swapped[swap + 1] = swapped[swap + 1], swapped[swap]
    return [" ".join(words[:drop] + words[drop + 1 :]), " ".join(swapped)]


def main() -> None:
    import citeverify
    from citeverify.document._quotes import find_quotations
    from citeverify.providers import default_provider
    from citeverify.providers._base import AuthorityText
    from citeverify.quotes import QuoteIndex

    slips, cited = opinions()
    brief = (ROOT / "examples" / "sample_brief.txt").read_text(encoding="utf-8")
    corpus = corpus_texts()
    by_sha = {sha(text): (text, pages) for text, pages in corpus}

    normalize: dict[str, str] = {}
    for i, text in enumerate(slips):
        normalize[f"ot2016:{i}"] = norm_digest(text)
    for record in cited:
        normalize[f"cited:{record['cite']}:plain"] = norm_digest(record["plain_text"])
        if record.get("html"):
            normalize[f"cited:{record['cite']}:html"] = norm_digest(record["html"])
    for key, (text, _) in by_sha.items():
        normalize[f"corpus:{key}"] = norm_digest(text)
    found_quotes = [[q.quote for q in find_quotations(text)] for text in [*slips, brief]]
    for i, quotes in enumerate(found_quotes):
        joined = [norm_digest(q, quote=True) for q in quotes]
        normalize[f"quotes:{i}"] = sha(json.dumps(joined))

    # Every locate_many call and find_quote search of verify_document on the bench texts.
    calls: list[dict[str, Any]] = []
    searches: list[dict[str, Any]] = []
    original_init = QuoteIndex.__init__
    original_locate_many = QuoteIndex.locate_many
    provider = default_provider()
    original_find = type(provider).find_quote

    def init(self: Any, text: Any) -> None:
        original_init(self, text)
        self._golden_text = text

    def locate_many(self: Any, quotes: Any, *, prefer_pages: Any = None, budget: Any = None) -> Any:
        kwargs = {} if budget is None else {"budget": budget}
        got = original_locate_many(self, quotes, prefer_pages=prefer_pages, **kwargs)
        calls.append(
            {
                "text": describe(self._golden_text, by_sha),
                "quotes": list(quotes),
                "prefer": list(prefer_pages) if prefer_pages is not None else None,
                "budget": budget,
                "matches": [match_fields(m) for m in got],
            }
        )
        return got

    def find_quote(self: Any, quote: str, *, exclude: str | None = None) -> Any:
        got = original_find(self, quote, exclude=exclude)
        searches.append(
            {"quote": quote, "exclude": exclude, "found": None if got is None else got.reference}
        )
        return got

    QuoteIndex.__init__ = init  # type: ignore[method-assign]
    QuoteIndex.locate_many = locate_many  # type: ignore[method-assign]
    type(provider).find_quote = find_quote  # type: ignore[method-assign]
    from citeverify import _verify

    _verify._INDEXES.clear()
    try:
        for text in [*slips, brief]:
            citeverify.verify_document(text, provider=provider)
    finally:
        QuoteIndex.__init__ = original_init  # type: ignore[method-assign]
        QuoteIndex.locate_many = original_locate_many  # type: ignore[method-assign]
        type(provider).find_quote = original_find  # type: ignore[method-assign]
    _verify._INDEXES.clear()

    rng = random.Random(20161003)
    own: list[dict[str, Any]] = []
    for i, text in enumerate(slips):
        quotes = list(dict.fromkeys(found_quotes[i]))
        quotes += [m for q in quotes for m in mutations(q, rng)]
        got = QuoteIndex(AuthorityText(text)).locate_many(quotes, budget=10**9)
        own.append({"opinion": i, "quotes": quotes, "matches": [match_fields(m) for m in got]})

    pool = sorted({q for quotes in found_quotes for q in quotes})
    for quote in rng.sample(pool, 300):
        got = provider.find_quote(quote)
        searches.append(
            {"quote": quote, "exclude": None, "found": None if got is None else got.reference}
        )

    golden = {"normalize": normalize, "calls": calls, "own": own, "find_quote": searches}
    with gzip.open(OUT, "wt", encoding="utf-8", compresslevel=9) as handle:
        json.dump(golden, handle, ensure_ascii=False, separators=(",", ":"))
    print(
        f"{OUT.name}: {len(normalize)} texts, {len(calls)} calls, "
        f"{sum(len(o['quotes']) for o in own)} own quotations, {len(searches)} searches"
    )


def describe(text: Any, by_sha: dict[str, Any]) -> dict[str, Any]:
    """How the test finds ``text`` again: inline, a corpus text, or a slice of one."""
    out: dict[str, Any] = {"pages": [list(p) for p in text.pages]}
    if text.paragraphs:
        out["paragraphs"] = list(text.paragraphs)
    digest = sha(text.text)
    if digest in by_sha:
        out["corpus"] = digest
    elif len(text.text) < INLINE:
        out["inline"] = text.text
    else:
        for key, (full, _) in by_sha.items():
            start = full.find(text.text)
            if start >= 0:
                out.update(corpus=key, start=start, end=start + len(text.text))
                break
        else:
            raise SystemExit("a text the locator read is not in the corpus")
    out["sha"] = digest
    return out


if __name__ == "__main__":
    main()
