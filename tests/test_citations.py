"""``citeverify.citations.parse``: dispatch by kind, never raising, linear time on hostile input."""

from __future__ import annotations

import time
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citeverify.citations import KINDS, NotACitation, parse

# Alphabets that produce many near-citations: digits, reporter letters, section signs.
_CITATION_ALPHABET = st.sampled_from(
    [*"0123456789 .,;()-§*_'USCFRLEdPpatvn\u2013\u00a0\n", "U.S.", "F.3d", "S. Ct.", " at "]
)


class TestDispatch:
    def test_unknown_kind(self) -> None:
        """An unknown kind gives NotACitation naming the kind."""
        result = parse("410 U.S. 113", "treaty")
        assert isinstance(result, NotACitation)
        assert "treaty" in result.message

    def test_non_string(self) -> None:
        """A non-string text gives NotACitation instead of raising."""
        result = parse(410, "case")  # type: ignore[arg-type]
        assert isinstance(result, NotACitation)

    @pytest.mark.parametrize("kind", KINDS)
    def test_empty_text(self, kind: str) -> None:
        """Empty text is not a citation of any kind, and the message says what was expected."""
        result = parse("", kind)
        assert isinstance(result, NotACitation)
        assert result.kind == kind
        assert "expected" in result.message


class TestNeverRaises:
    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(text=st.text(max_size=2000), kind=st.sampled_from(KINDS))
    def test_any_text(self, text: str, kind: str) -> None:
        """Any Unicode text parses to a result of the right kind without raising."""
        result = parse(text, kind)
        assert result.kind == kind
        assert result.raw == text

    @settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(parts=st.lists(_CITATION_ALPHABET, max_size=600), kind=st.sampled_from(KINDS))
    def test_near_citations(self, parts: list[str], kind: str) -> None:
        """Text built from citation fragments never raises."""
        text = "".join(parts)
        assert parse(text, kind).raw == text

    @settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        unit=st.text(alphabet="0123456789 .,()-§USCFa", min_size=1, max_size=12),
        kind=st.sampled_from(KINDS),
    )
    def test_long_repetitions(self, unit: str, kind: str) -> None:
        """A 100,000-character repetition of any short fragment parses in well under a second."""
        text = (unit * (100_000 // len(unit) + 1))[:100_000]
        started = time.perf_counter()
        parse(text, kind)
        assert time.perf_counter() - started < 1.0


_HOSTILE = {
    "digits": "1 " * 50_000,
    "volumes and reporters": "410 U.S. " * 11_112,
    "citations with commas": "410 U.S. 113, " * 7_143,
    "pins": "410 U.S. 113" + ", 153" * 16_000,
    "open parentheses": "410 U.S. 113 " + "(" * 99_987,
    "nominative openings": "5 U.S. (1 " * 10_000,
    "neutral openings": "2020-Ohio-" * 10_000,
    "sections": "42 U.S.C. § " * 8_334,
    "subdivisions": "42 U.S.C. § 1983" + "(a)" * 33_328,
    "rules": "Fed. R. Civ. P. " * 6_250,
    "constitution": "U.S. Const. art. I, § " * 4_546,
    "url": "https://example.com/" + "a/" * 49_990,
}


class TestLinearTime:
    @pytest.mark.parametrize("name", sorted(_HOSTILE))
    @pytest.mark.parametrize("kind", KINDS)
    def test_hostile_100kb(self, name: str, kind: str) -> None:
        """Each 100 KB hostile string gets an answer: a guard against hangs, not a speed
        target (a quadratic parse of 100 KB would take hours; speed is in bench/)."""
        text = _HOSTILE[name]
        started = time.perf_counter()
        parse(text, kind)
        assert time.perf_counter() - started < 10.0

    @pytest.mark.parametrize("name", ["digits", "volumes and reporters", "pins"])
    def test_growth_is_linear(self, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
        """Ten times more hostile text costs about ten times more reporter probes, not a
        hundred: work is counted (the scanner's probes), not timed."""
        from citeverify.citations import case as case_module

        calls = {"at": 0}
        for method in ("at", "_reporter_cite", "token_at"):
            original = getattr(case_module._Scanner, method)

            def counting(self: case_module._Scanner, *args: Any, _original: Any = original) -> Any:
                calls["at"] += 1
                return _original(self, *args)

            monkeypatch.setattr(case_module._Scanner, method, counting)

        def probes(text: str) -> int:
            calls["at"] = 0
            parse(text, "case")
            return calls["at"]

        long_text = _HOSTILE[name]
        short_text = long_text[: len(long_text) // 10]
        assert probes(long_text) <= 12 * probes(short_text) + 10
        assert probes(long_text) <= 4 * len(long_text.split()) + 10
        if name == "pins":  # the counter is wired: a long pin list is probed pin by pin
            assert probes(long_text) > len(long_text.split())
