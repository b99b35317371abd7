"""eyecite as an oracle: both parsers read the same volume, reporter and page from the corpus.

eyecite (dev-only) is the domain's reference parser.  For every case citation
in the corpus that is an ordinary volume-reporter-page citation, its first
full citation must agree with ours.  Nominative forms are left out on
purpose: eyecite keeps ``1 Cranch 137`` as Cranch, we map it to ``5 U.S.``.
"""

from __future__ import annotations

from typing import Any

import pytest

from citeverify.citations import CaseCitation, parse
from tests.test_citations_corpus import CORPUS

eyecite = pytest.importorskip("eyecite")


def _oracle_cases() -> list[dict[str, Any]]:
    cases = []
    for case in CORPUS:
        if case["kind"] != "case" or case["expect"].get("not_a_citation"):
            continue
        parsed = parse(case["text"], "case")
        if not isinstance(parsed, CaseCitation):
            continue
        if parsed.system != "us-reporter" or parsed.nominative or parsed.page is None:
            continue
        cases.append(case)
    return cases


ORACLE = _oracle_cases()


class TestEyeciteAgreement:
    def test_enough_cases(self) -> None:
        """The oracle comparison covers a substantial part of the corpus."""
        assert len(ORACLE) >= 250

    @pytest.mark.parametrize("case", ORACLE, ids=[c["id"] for c in ORACLE])
    def test_same_volume_reporter_page(self, case: dict[str, Any]) -> None:
        """Our volume, canonical reporter and page equal eyecite's first full case citation."""
        ours = parse(case["text"], "case")
        assert isinstance(ours, CaseCitation)
        theirs = [
            c
            for c in eyecite.get_citations(eyecite.clean_text(case["text"], ["all_whitespace"]))
            if type(c).__name__ == "FullCaseCitation"
        ]
        assert theirs, f"eyecite found no full citation in {case['text']!r}"
        first = theirs[0]
        assert first.groups["volume"] == ours.volume
        assert first.corrected_reporter() == ours.reporter
        assert first.groups["page"] == ours.page
