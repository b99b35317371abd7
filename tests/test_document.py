"""Whole-document mode: a brief in, every citation and quotation found, attributed, verified.

The expected verdicts come from the authorities themselves (the embedded
corpus and the opinion texts that ship with it), not from the code under
test: the sample brief quotes *Virginia v. Black* and *Tanner* word for word
at the right pages, misquotes *Gerstein* ("any" for "extended"), gives
*Miranda* the wrong year, and cites a case that does not exist.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import citeverify
from citeverify.errors import ValidationError

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "sample_brief.txt"


def check(text: str) -> dict[str, Any]:
    return citeverify.verify_document_request({"text": text})


def by_text(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {" ".join(r["position"]["text"].split()): r for r in body["results"]}


@pytest.fixture(scope="module")
def sample() -> tuple[str, dict[str, Any]]:
    text = SAMPLE.read_text(encoding="utf-8")
    return text, check(text)


class TestSampleBrief:
    def test_every_position_is_its_text(self, sample: tuple[str, dict[str, Any]]) -> None:
        text, body = sample
        assert body["results"]
        for result in body["results"]:
            position = result["position"]
            assert text[position["start"] : position["end"]] == position["text"]

    def test_document_order_and_ids(self, sample: tuple[str, dict[str, Any]]) -> None:
        _, body = sample
        starts = [r["position"]["start"] for r in body["results"]]
        assert starts == sorted(starts)
        cites = [r["id"] for r in body["results"] if r["type"] != "quote"]
        quotes = [r["id"] for r in body["results"] if r["type"] == "quote"]
        assert cites == [f"c{i}" for i in range(1, len(cites) + 1)]
        assert quotes == [f"q{i}" for i in range(1, len(quotes) + 1)]

    def test_citations_and_verdicts(self, sample: tuple[str, dict[str, Any]]) -> None:
        _, body = sample
        got = by_text(body)
        status = {k: (v["verdict"]["status"], v["verdict"].get("outcome")) for k, v in got.items()}
        assert status["42 U.S.C. § 1983"] == ("verified", "verified")
        assert status["Fed. R. Civ. P. 12(b)(6)"] == ("verified", "verified")
        assert status["Virginia v. Black, 538 U.S. 343, 359 (2003)"] == ("verified", "verified")
        assert status["Gerstein v. Pugh, 420 U.S. 103, 114 (1975)"] == ("verified", "verified")
        assert status["Miranda v. Arizona, 384 U.S. 436 (1965)"] == ("warning", "mismatch")
        assert status["Smith v. Jones, 410 U.S. 999, 1004 (1973)"] == ("critical", "not_found")
        varghese = "Varghese v. China Southern Airlines Co., 925 F.3d 1339, 1345 (11th Cir. 2019)"
        assert status[varghese][0] == "warning"
        assert status["Tanner v. United States, 483 U.S. 107, 127 (1987)"][0] == "verified"
        # nothing from the record, the docket or the dates
        assert not any("ECF" in k or "1:26-cv" in k or "March 3" in k for k in got)

    def test_short_forms_resolve(self, sample: tuple[str, dict[str, Any]]) -> None:
        _, body = sample
        got = by_text(body)
        black = got["Virginia v. Black, 538 U.S. 343, 359 (2003)"]["id"]
        for short in ("Id. at 359", "Id. at 360", "Black, 538 U.S. at 360"):
            result = got[short]
            assert result["citationId"] == black, short
            assert result["verdict"]["status"] == "verified", result["verdict"]
        iqbal = got["Iqbal, 556 U.S. at 678"]
        assert iqbal["verdict"]["status"] == "warning"
        assert "no earlier citation" in iqbal["verdict"]["message"]
        assert "citationId" not in iqbal

    def test_quotations(self, sample: tuple[str, dict[str, Any]]) -> None:
        _, body = sample
        quotes = [r for r in body["results"] if r["type"] == "quote"]
        ids = {r["id"]: r for r in body["results"]}
        named = {ids[q["citationId"]]["position"]["text"].split(",")[0]: q for q in quotes}
        assert len(quotes) == 5, [q["position"]["text"][:40] for q in quotes]
        # the block quotation, through Id. at 359, and two more through Id. and Black, at 360
        black = [
            q for q in quotes if ids[q["citationId"]]["citation"]["raw"].startswith("Virginia")
        ]
        assert len(black) == 3
        assert all(q["verdict"]["status"] == "verified" for q in black), [
            q["verdict"] for q in black
        ]
        assert black[0]["position"]["text"].lstrip().startswith('"True threats"')
        gerstein = named["Gerstein v. Pugh"]
        assert gerstein["verdict"]["status"] == "warning"
        assert gerstein["verdict"]["outcome"] == "mismatch"
        assert (
            "extended" in gerstein["verdict"]["message"] or "any" in gerstein["verdict"]["message"]
        )
        assert named["Tanner v. United States"]["verdict"]["status"] == "verified"
        # the defined term ("Messages") is not a quotation
        assert not any(q["position"]["text"] == '"Messages"' for q in quotes)

    def test_billing_counts_distinct_full_citations(
        self, sample: tuple[str, dict[str, Any]]
    ) -> None:
        _, body = sample
        full = {
            r["citation"]["normalized"]
            for r in body["results"]
            if r["type"] != "quote" and "citationId" not in r and r["citation"].get("normalized")
        }
        assert body["summary"]["billed_citations"] == len(full) == 8
        assert body["summary"]["total"] == len(body["results"])
        assert body["summary"]["is_fully_accounted"]
        assert "document" not in body  # plain text: positions index the text as sent


class TestAttribution:
    def test_quotation_in_a_parenthetical(self) -> None:
        text = (
            'See Virginia v. Black, 538 U.S. 343, 360 (2003) (explaining that "the speaker '
            'need not actually intend to carry out the threat").'
        )
        body = check(text)
        (quote,) = [r for r in body["results"] if r["type"] == "quote"]
        assert quote["citationId"] == "c1"
        assert quote["verdict"]["status"] == "verified"

    def test_prose_between_quotation_and_citation_breaks_the_link(self) -> None:
        text = (
            'He wrote "the speaker need not actually intend to carry out the threat." '
            "Then he went home and thought about many other things entirely. "
            "Virginia v. Black, 538 U.S. 343, 360 (2003)."
        )
        body = check(text)
        (quote,) = [r for r in body["results"] if r["type"] == "quote"]
        assert "citationId" not in quote
        assert quote["verdict"]["status"] == "warning"
        assert "no citation" in quote["verdict"]["message"]

    def test_scare_quotes_are_not_quotations(self) -> None:
        text = 'The so-called "true threats" doctrine and the "Agreement" are discussed below.'
        assert [r for r in check(text)["results"] if r["type"] == "quote"] == []

    def test_id_chain_checks_the_quote_at_the_short_forms_pin(self) -> None:
        text = (
            'Virginia v. Black, 538 U.S. 343 (2003). Id. at 359. The speaker "need not '
            'actually intend to carry out the threat." Id. at 359.'
        )
        body = check(text)
        (quote,) = [r for r in body["results"] if r["type"] == "quote"]
        assert quote["citationId"] == "c1"
        # the words are at page 360, the Id. names 359
        assert quote["verdict"]["status"] == "warning"
        assert quote["verdict"]["outcome"] == "mismatch"
        comparisons = quote["evidence"]["comparisons"]
        assert comparisons == [
            {"attribute": "pinpoint", "cited": "359", "found": "360", "match": False}
        ]

    def test_id_refers_to_a_statute(self) -> None:
        body = check("Jurisdiction lies under 28 U.S.C. § 1331. See also id. § 1332.")
        results = body["results"]
        assert results[0]["position"]["text"] == "28 U.S.C. § 1331"
        second = results[1]
        assert second["citationId"] == "c1"
        assert second["citation"]["normalized"] == "28 U.S.C. § 1332"
        assert second["verdict"]["status"] == "verified"
        assert body["summary"]["billed_citations"] == 1

    def test_short_form_pin_outside_the_case(self) -> None:
        body = check("Virginia v. Black, 538 U.S. 343 (2003). Later: 538 U.S. at 999.")
        short = body["results"][1]
        assert short["citationId"] == "c1"
        assert short["verdict"]["outcome"] == "mismatch"
        assert any(
            c["attribute"] == "pinpoint" and not c["match"]
            for c in short["evidence"]["comparisons"]
        )

    def test_string_cite_is_several_citations(self) -> None:
        body = check(
            "See Virginia v. Black, 538 U.S. 343 (2003); Smith v. Jones, 410 U.S. 999 (1973)."
        )
        statuses = [r["verdict"]["status"] for r in body["results"]]
        assert statuses == ["verified", "critical"]

    def test_id_with_nothing_before_it(self) -> None:
        (result,) = check("Id. at 5.")["results"]
        assert result["verdict"]["status"] == "warning"
        assert "citationId" not in result


class TestBadInput:
    def test_empty_text(self) -> None:
        body = check("")
        assert body["results"] == []
        assert body["summary"]["total"] == 0

    def test_many_quotation_marks(self) -> None:
        body = check('"' * 10_000)
        assert body["summary"]["total"] == len(body["results"])

    def test_too_many_short_forms_is_a_clear_error(self) -> None:
        with pytest.raises(ValidationError, match="more than 20,000"):
            check("Id. " * 100_000)

    @pytest.mark.parametrize(
        "body",
        [
            {},
            {"text": 5},
            {"text": "x", "extra": 1},
            "[1, 2]",
            b"\xff\xfe not json",
        ],
    )
    def test_invalid_requests(self, body: Any) -> None:
        with pytest.raises(ValidationError) as error:
            citeverify.verify_document_request(body)
        assert error.value.details

    def test_json_text_is_never_read_as_a_path(self, tmp_path: Path) -> None:
        secret = tmp_path / "secret.txt"
        secret.write_text("Virginia v. Black, 538 U.S. 343 (2003)", encoding="utf-8")
        body = citeverify.verify_document_request(json.dumps({"text": str(secret)}))
        assert body["results"] == []

    @settings(max_examples=60, deadline=None)
    @given(st.text(alphabet=st.sampled_from(list('Id. at5"“”\n U.S.;()v§')), max_size=400))
    def test_hostile_text_never_raises_and_positions_hold(self, text: str) -> None:
        body = check(text)
        for result in body["results"]:
            p = result["position"]
            assert 0 <= p["start"] <= p["end"] <= len(text)
            assert text[p["start"] : p["end"]] == p["text"]


def test_item_mode_string_cite_checks_every_citation() -> None:
    raw = "Roe v. Wade, 410 U.S. 113 (1973); Smith v. Jones, 410 U.S. 999 (1973)"
    (result,) = citeverify.verify([{"id": "1", "type": "case", "rawText": raw}]).results
    assert result.verdict.status.value == "critical"
    assert "410 U.S. 999" in (result.verdict.message or "")


def test_item_mode_wrong_parallel_is_a_mismatch() -> None:
    raw = "Roe v. Wade, 410 U.S. 113, 93 S. Ct. 999 (1973)"
    (result,) = citeverify.verify([{"id": "1", "type": "case", "rawText": raw}]).results
    assert result.verdict.outcome == "mismatch"
    assert result.evidence is not None
    parallel = [c for c in result.evidence.comparisons if c.attribute == "parallelCitation"]
    assert parallel
    assert not parallel[0].match


class TestPdfAndWord:
    """The sample brief as PDF and as Word gives the verdicts the text gives."""

    @pytest.fixture(scope="class")
    @classmethod
    def rendered(cls, tmp_path_factory: pytest.TempPathFactory) -> Path:
        import subprocess
        import sys

        out = tmp_path_factory.mktemp("rendered")
        subprocess.run(
            [
                sys.executable,
                str(ROOT / "examples" / "make_sample_documents.py"),
                str(SAMPLE),
                "--out-dir",
                str(out),
            ],
            check=True,
            capture_output=True,
        )
        return out

    @staticmethod
    def signature(response: citeverify.Response) -> list[tuple[Any, ...]]:
        return [
            (
                r.id,
                r.type.value,
                r.citation.normalized,
                r.verdict.status.value,
                r.verdict.outcome,
                r.citation_id,
            )
            for r in response.results
        ]

    @pytest.mark.parametrize("suffix", ["pdf", "docx"])
    def test_same_verdicts_as_the_text(self, rendered: Path, suffix: str) -> None:
        text = citeverify.verify_document(SAMPLE.read_text(encoding="utf-8"))
        document = citeverify.verify_document(rendered / f"sample_brief.{suffix}")
        assert self.signature(document) == self.signature(text)
        assert document.document is not None
        for result in document.results:
            position = result.position
            assert position is not None
            assert document.document.text[position.start : position.end] == position.text
        if suffix == "pdf":
            assert len(document.document.pages) == 2

    @pytest.mark.parametrize("suffix", ["pdf", "docx"])
    def test_shipped_samples_are_current(self, rendered: Path, suffix: str) -> None:
        name = f"sample_brief.{suffix}"
        assert (ROOT / "examples" / name).read_bytes() == (rendered / name).read_bytes(), (
            f"examples/{name} is stale: run python examples/make_sample_documents.py"
        )


@pytest.mark.parametrize(
    ("raw", "attribute"),
    [
        ("Doe v. Roe, 755 F. Supp. 927 (E.D. Ky. 2010)", "year"),
        ("Doe v. Roe, 925 F.3d 1339 (S.D.N.Y. 2019)", "court"),
        ("Doe v. Roe, 100 F. Supp. 2d 1 (9th Cir. 2000)", "court"),
    ],
)
def test_citation_that_cannot_exist_is_a_mismatch_offline(raw: str, attribute: str) -> None:
    """No source covers these, yet the reporter's own dates and courts rule them out."""
    (result,) = citeverify.verify([{"id": "1", "type": "case", "rawText": raw}]).results
    assert result.verdict.status.value == "warning"
    assert result.verdict.outcome == "mismatch"
    assert "cannot exist as cited" in (result.verdict.message or "")
    assert result.evidence is not None
    assert [c.attribute for c in result.evidence.comparisons] == [attribute]


def test_plausible_uncovered_citation_stays_unverified() -> None:
    raw = "Varghese v. China Southern Airlines Co., 925 F.3d 1339 (11th Cir. 2019)"
    (result,) = citeverify.verify([{"id": "1", "type": "case", "rawText": raw}]).results
    assert result.verdict.outcome == "unverified"


@pytest.mark.parametrize(
    "raw", ["Doe v. Roe, 2015 WL 13908106, at *7 (S.D.N.Y. 2015)", "2019 U.S. Dist. LEXIS 12345"]
)
def test_database_numbers_say_the_database_is_not_public(raw: str) -> None:
    (result,) = citeverify.verify([{"id": "1", "type": "case", "rawText": raw}]).results
    assert result.verdict.outcome == "unverified"
    assert "not public" in (result.verdict.message or "")


def test_run_budget_spent_leaves_quotations_unchecked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a run's locator steps are spent, the remaining quotations are warnings, never
    verified and never 'not found': the request's work is bounded as a whole."""
    import citeverify._verify as driver

    text = SAMPLE.read_text(encoding="utf-8")
    full = check(text)
    assert any(
        r["type"] == "quote" and r["verdict"]["status"] == "verified" for r in full["results"]
    )
    monkeypatch.setattr(driver, "MAX_RUN_STEPS", 1)
    starved = check(text)
    quotes = [r for r in starved["results"] if r["type"] == "quote"]
    assert quotes
    assert all(q["verdict"]["status"] == "warning" for q in quotes), [q["verdict"] for q in quotes]
    assert all(q["verdict"]["outcome"] == "unverified" for q in quotes)


@pytest.mark.parametrize("opener", ["As", "Thus,", "Under", "In", "Because", "Although"])
def test_a_sentence_opener_is_not_part_of_the_case_name(opener: str) -> None:
    body = check(f"{opener} Roe v. Wade, 410 U.S. 113, 153 (1973), the Court held so.")
    (result,) = body["results"]
    assert result["position"]["text"] == "Roe v. Wade, 410 U.S. 113, 153 (1973)"
    assert result["verdict"]["status"] == "verified", result["verdict"]


def test_in_re_keeps_its_opener() -> None:
    body = check("See In re Gault, 387 U.S. 1 (1967).")
    (result,) = body["results"]
    assert result["position"]["text"] == "In re Gault, 387 U.S. 1 (1967)"


def test_readme_python_examples_show_verified_quotations(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The README's Python examples check texts that ship, so a new user sees a quotation
    verified, not 'unverified' (issue: the old example quoted Roe, whose text does not ship)."""
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    assert len(blocks) >= 2
    exec(compile(blocks[1], "README.md", "exec"), {"__name__": "readme"})
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("2 verified quoted from"), lines


def test_slip_opinion_says_why_it_cannot_be_checked() -> None:
    raw = "Dobbs v. Jackson Women's Health Org., No. 19-1392, slip op. at 5 (U.S. June 24, 2022)"
    (result,) = citeverify.verify([{"id": "1", "type": "case", "rawText": raw}]).results
    assert result.verdict.outcome == "unverified"
    assert "slip opinion cited by docket number" in (result.verdict.message or "")
