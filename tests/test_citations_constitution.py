"""Constitution parsing: articles, amendments, the preamble, names of amendments and clauses."""

from __future__ import annotations

import pytest

from citeverify.citations import ConstitutionCitation, NotACitation, parse


def provision(text: str) -> ConstitutionCitation:
    result = parse(text, "constitution")
    assert isinstance(result, ConstitutionCitation), result
    return result


class TestForms:
    @pytest.mark.parametrize(
        ("text", "number"),
        [
            ("First Amendment", 1),
            ("the Second Amendment", 2),
            ("Fifth Amendment", 5),
            ("Twenty-seventh Amendment", 27),
            ("Twenty Seventh Amendment", 27),
            ("1st Amendment", 1),
            ("Amend. XIV", 14),
            ("Amendment 14", 14),
        ],
    )
    def test_amendment_names(self, text: str, number: int) -> None:
        """Amendments named in words, ordinals or numerals give their number."""
        result = provision(text)
        assert (result.part, result.number) == ("amendment", number)

    def test_named_clause_place(self) -> None:
        """A named clause fills in where it sits."""
        result = provision("the Supremacy Clause")
        assert result.normalized == "U.S. Const. art. VI, cl. 2"

    def test_explicit_section_beats_named_clause(self) -> None:
        """A section written in the text wins over the named clause's section."""
        assert provision("U.S. Const. amend. XIV, § 5, Equal Protection Clause").section == "5"

    def test_named_clause_of_other_amendment(self) -> None:
        """A clause name that does not belong to the cited amendment adds nothing."""
        result = provision("the Fifth Amendment's Equal Protection Clause")
        assert (result.number, result.section) == (5, None)

    def test_preamble(self) -> None:
        """The preamble has no number, section or clause."""
        result = provision("U.S. Const. preamble")
        assert (result.part, result.number, result.section) == ("preamble", None, None)

    def test_state_named_in_full(self) -> None:
        """A state constitution named in full is that state's."""
        assert provision("Texas Constitution, art. I, § 8").jurisdiction == "us-tex"
        assert provision("West Virginia Constitution art. III").jurisdiction == "us-wva"

    def test_unknown_prefix_is_federal(self) -> None:
        """A prefix that names no state does not make the provision a state one."""
        assert provision("Federal Const. art. I").jurisdiction == "us"

    def test_key_is_normalized(self) -> None:
        """The lookup key is the normalized citation."""
        result = provision("U.S. Const. art. II, § 1, cl. 5")
        assert result.key == "U.S. Const. art. II, § 1, cl. 5"


class TestNotAProvision:
    @pytest.mark.parametrize("text", ["", "art. I, § 8", "the Constitution", "410 U.S. 113"])
    def test_rejected(self, text: str) -> None:
        """Text without an article, amendment or preamble is not a citation."""
        result = parse(text, "constitution")
        assert isinstance(result, NotACitation)
        assert "U.S. Const." in result.message
