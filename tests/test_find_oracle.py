"""``find`` against eyecite's ``get_citations`` on whole Supreme Court slip opinions.

eyecite is a dev-only oracle.  Its full case citations with a page (a blank
``___`` page is a running head or a not-yet-paginated case) should be found
by ``find`` at the same volume, reporter and page, as a primary citation or a
parallel.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from citeverify.citations import CaseCitation, find

eyecite = pytest.importorskip("eyecite")

_DATA = Path(__file__).parent / "data" / "quotes" / "scotus_ot2016.jsonl.gz"


def _opinions(count: int) -> list[str]:
    with gzip.open(_DATA, "rt", encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle]
    # the longest opinions carry the most citations
    rows.sort(key=lambda row: -len(row["plain_text"]))
    return [row["plain_text"] for row in rows[:count]]


def test_recall_of_eyecite_full_case_citations() -> None:
    from eyecite.models import FullCaseCitation

    wanted = found = 0
    missed: list[tuple[str | None, ...]] = []
    for text in _opinions(6):
        ours: set[tuple[str | None, str | None, str | None]] = set()
        for item in find(text, ["case"]):
            citation = item.citation
            assert isinstance(citation, CaseCitation)
            assert citation.raw == text[item.start : item.end]
            ours.add((citation.volume, citation.reporter, citation.page))
            ours.update((p.volume, p.reporter, p.page) for p in citation.parallels)
            if citation.nominative:  # "10 Pet. 412" is read as 35 U.S. 412
                volume, *reporter, page = citation.nominative.split()
                ours.add((volume, " ".join(reporter), page))
        for theirs in eyecite.get_citations(text):
            if not isinstance(theirs, FullCaseCitation):
                continue
            key = (
                theirs.groups.get("volume"),
                theirs.corrected_reporter(),
                theirs.groups.get("page"),
            )
            if key[2] is None:
                continue
            wanted += 1
            if key in ours:
                found += 1
            else:
                missed.append(key)
    share = found / wanted
    print(
        f"find found {found} of eyecite's {wanted} full case citations ({share:.1%}); "
        f"missed {missed[:20]}"
    )
    assert wanted > 150
    assert share >= 0.95


def test_no_running_heads_in_slip_opinions() -> None:
    for text in _opinions(6):
        for item in find(text):
            assert "Cite as" not in text[max(0, item.start - 12) : item.start]
            if isinstance(item.citation, CaseCitation) and item.citation.page is None:
                assert item.citation.case_name is not None


def test_hand_checked_spans_in_an_opinion() -> None:
    text = next(t for t in _opinions(50) if "Daimler AG v. Bauman" in t)
    spans = [text[f.start : f.end] for f in find(text, ["case"])]
    assert any(s.startswith("Daimler AG v. Bauman, 571 U. S.") for s in spans)
    for span in spans:
        assert span == span.strip()
        assert not span.startswith(("See ", "see ", "Cf. "))
