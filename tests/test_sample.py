"""The README's sample request, on the embedded corpus: what a new user sees first."""

from __future__ import annotations

import json
from pathlib import Path

import citeverify

SAMPLE = Path(__file__).resolve().parent.parent / "examples" / "sample_request.json"


class TestSampleRequest:
    def test_each_item_gets_the_verdict_it_demonstrates(self) -> None:
        """Real authorities verify; the wrong year, misquote and fabrications are flagged."""
        out = citeverify.verify_request(SAMPLE.read_bytes())
        verdicts = {
            r["id"]: (r["verdict"]["status"], r["verdict"]["outcome"]) for r in out["results"]
        }
        assert verdicts == {
            "black": ("verified", "verified"),
            "roe": ("verified", "verified"),
            "black-quote": ("verified", "verified"),
            "misquote": ("warning", "mismatch"),
            "wrong-year": ("warning", "mismatch"),
            "fabricated": ("critical", "not_found"),
            "lower-court": ("warning", "unverified"),
            "statute": ("verified", "verified"),
            "rule": ("verified", "verified"),
            "no-such-rule": ("critical", "not_found"),
            "constitution": ("verified", "verified"),
            "link": ("verified", "verified"),
        }
        assert out["summary"]["billed_citations"] == 10
        misquote = next(r for r in out["results"] if r["id"] == "misquote")
        assert "need not" in misquote["verdict"]["message"]

    def test_sample_is_valid_json_request(self) -> None:
        """The sample file is a valid VerifyRequest."""
        body = json.loads(SAMPLE.read_text(encoding="utf-8"))
        assert len(body["items"]) == 12
