"""Court rule parsing: the six federal rule sets in Bluebook, compact and spelled-out forms."""

from __future__ import annotations

import pytest

from citeverify.citations import NotACitation, RuleCitation, parse


def rule(text: str) -> RuleCitation:
    result = parse(text, "rule")
    assert isinstance(result, RuleCitation), result
    return result


class TestRuleSets:
    @pytest.mark.parametrize(
        ("text", "ruleset"),
        [
            ("Fed. R. Civ. P. 56", "frcp"),
            ("F.R.C.P. 56", "frcp"),
            ("Fed. R. Crim. P. 11", "frcrmp"),
            ("F.R.Crim.P. 11", "frcrmp"),
            ("Fed. R. App. P. 28", "frap"),
            ("F.R.A.P. 28", "frap"),
            ("Fed. R. Bankr. P. 9011", "frbp"),
            ("Fed. R. Evid. 702", "fre"),
            ("FRE 702", "fre"),
            ("Sup. Ct. R. 14", "scotus"),
            ("S. Ct. R. 14", "scotus"),
            ("Rule 702 of the Federal Rules of Evidence", "fre"),
            ("Rule 11 of the Federal Rules of Criminal Procedure", "frcrmp"),
            ("Rule 14 of the Rules of the Supreme Court", "scotus"),
        ],
    )
    def test_ruleset(self, text: str, ruleset: str) -> None:
        """Each rule set is recognised in its common forms."""
        assert rule(text).ruleset == ruleset

    def test_normalized_and_key(self) -> None:
        """normalized is the Bluebook form with the path, and the key is the same."""
        result = rule("frcp 12(b)(6)")
        assert result.normalized == "Fed. R. Civ. P. 12(b)(6)"
        assert result.key == result.normalized

    def test_components(self) -> None:
        """The rule number is the components' page."""
        assert rule("Fed. R. Evid. 403").components().page == "403"

    def test_signal_before_rule(self) -> None:
        """A leading signal does not hide the rule."""
        assert rule("See Fed. R. Civ. P. 12(b)(6)").rule == "12"


class TestNotARule:
    @pytest.mark.parametrize("text", ["", "Rule 12", "Local Rule 7.1", "42 U.S.C. § 1983"])
    def test_rejected(self, text: str) -> None:
        """A rule without a rule set, or no rule at all, is not a citation."""
        result = parse(text, "rule")
        assert isinstance(result, NotACitation)
        assert "Fed. R. Civ. P. 12(b)(6)" in result.message
