"""Statute parsing: U.S. Code forms, ranges, subdivisions, C.F.R., session laws, state codes."""

from __future__ import annotations

import pytest

from citeverify.citations import NotACitation, StatuteCitation, parse


def statute(text: str) -> StatuteCitation:
    result = parse(text, "statute")
    assert isinstance(result, StatuteCitation), result
    return result


class TestUnitedStatesCode:
    @pytest.mark.parametrize(
        "text",
        [
            "42 U.S.C. § 1983",
            "42 U.S.C. §1983",
            "42 USC 1983",
            "42 U.S.C.A. § 1983",
            "42 U.S.C.S. § 1983",
            "42 U.S.C. Sec. 1983",
            "42 U.S.C. section 1983",
            "42 U. S. C. § 1983",
        ],
    )
    def test_spellings(self, text: str) -> None:
        """Every common spelling of a Code section normalises to the Bluebook form."""
        result = statute(text)
        assert result.normalized == "42 U.S.C. § 1983"
        assert result.key == "42 U.S.C. § 1983"

    def test_dashes_become_hyphens(self) -> None:
        """En and em dashes in section numbers become ASCII hyphens."""
        assert statute("42 U.S.C. § 2000e—2").section == "2000e-2"

    def test_single_section_sign_keeps_hyphen(self) -> None:
        """With one section sign, '1331-1332' is not a range."""
        assert statute("28 U.S.C. § 1331-1332").section_end is None

    def test_range_through(self) -> None:
        """'through' marks a range too."""
        result = statute("28 U.S.C. §§ 1331 through 1332")
        assert (result.section, result.section_end) == ("1331", "1332")

    def test_subdivision_path_and_key(self) -> None:
        """The subdivision path is kept in normalized, not in the lookup key."""
        result = statute("15 U.S.C. § 78u-4(b)(2)(A)")
        assert result.subdivisions == ("b", "2", "A")
        assert result.normalized == "15 U.S.C. § 78u-4(b)(2)(A)"
        assert result.key == "15 U.S.C. § 78u-4"

    def test_parenthesized_year_is_not_a_subdivision(self) -> None:
        """'(2018)' after a space is the edition year."""
        result = statute("42 U.S.C. § 1983 (2018)")
        assert result.subdivisions == ()
        assert result.year == 2018

    def test_components(self) -> None:
        """Components carry title as volume, code as reporter and section as page."""
        components = statute("42 U.S.C. § 1983").components()
        assert (components.volume, components.reporter, components.page) == (
            "42",
            "U.S.C.",
            "1983",
        )


class TestOtherFederalSources:
    def test_first_form_wins(self) -> None:
        """A public law cited with its Statutes at Large page is the public law."""
        assert statute("Pub. L. No. 111-148, 124 Stat. 119").system == "public-law"

    def test_statutes_at_large_first(self) -> None:
        """When the Statutes at Large page comes first, it is the citation."""
        assert statute("124 Stat. 119 (Pub. L. No. 111-148)").system == "statutes-at-large"

    def test_cfr_key(self) -> None:
        """A C.F.R. section's key drops the paragraph path."""
        assert statute("29 C.F.R. § 1630.2(g)(1)").key == "29 C.F.R. § 1630.2"


class TestStateCodes:
    @pytest.mark.parametrize(
        ("text", "jurisdiction"),
        [
            ("Cal. Lab. Code § 1102.5", "us-cal"),
            ("N.Y. Penal Law § 125.25", "us-ny"),
            ("Tex. Penal Code Ann. § 19.02", "us-tex"),
            ("Fla. Stat. § 768.81", "us-fla"),
            ("735 ILCS 5/2-619", "us-ill"),
            ("42 Pa. C.S. § 5524", "us-pa"),
            ("Ohio Rev. Code § 2305.10", "us-ohio"),
            ("MCL 600.5805", "us-mich"),
            ("O.C.G.A. § 9-3-33", "us-ga"),
            ("N.J.S.A. 2A:14-2", "us-nj"),
            ("M.G.L. c. 93A, § 9", "us-mass"),
            ("Va. Code § 8.01-243", "us-va"),
            ("RCW 4.16.080", "us-wash"),
            ("Minn. Stat. § 541.05", "us-minn"),
        ],
    )
    def test_state_jurisdictions(self, text: str, jurisdiction: str) -> None:
        """Major state codes are recognised, with the state's jurisdiction."""
        result = statute(text)
        assert result.system == "state-code"
        assert result.jurisdiction == jurisdiction

    def test_ann_is_canonical_where_bluebook_uses_it(self) -> None:
        """Texas codes normalise with 'Ann.', whether or not it was written."""
        assert statute("Tex. Penal Code § 19.02").code == "Tex. Penal Code Ann."


class TestNotAStatute:
    @pytest.mark.parametrize(
        "text", ["", "section 1983", "Fed. R. Civ. P. 12", "410 U.S. 113", "U.S.C. § 1983"]
    )
    def test_rejected(self, text: str) -> None:
        """Text without a statute citation is reported with an example of one."""
        result = parse(text, "statute")
        assert isinstance(result, NotACitation)
        assert "42 U.S.C. § 1983" in result.message
