"""Link parsing: URL validity, normalisation, and what each known legal host's URLs point to."""

from __future__ import annotations

import pytest

from citeverify.citations import (
    CaseCitation,
    LinkCitation,
    NotACitation,
    RuleCitation,
    StatuteCitation,
    parse,
)


def link(text: str) -> LinkCitation:
    result = parse(text, "link")
    assert isinstance(result, LinkCitation), result
    return result


class TestSyntax:
    @pytest.mark.parametrize(
        "text",
        [
            "mailto:clerk@example.com",
            "file:///etc/passwd",
            "data:text/html,hi",
            "https://",
            "https:///path",
            "http://exa_mple.com/",
            "https://example.com/a b",
            "https://" + "a" * 70 + ".com/",
        ],
    )
    def test_invalid(self, text: str) -> None:
        """Non-http(s) schemes, missing or invalid hosts and raw spaces are not links."""
        assert isinstance(parse(text, "link"), NotACitation)

    def test_surrounding_whitespace(self) -> None:
        """Whitespace around a URL is ignored, and raw keeps the text as submitted."""
        result = link("  https://example.com/x  ")
        assert result.raw == "  https://example.com/x  "
        assert result.normalized == "https://example.com/x"

    def test_non_default_port_kept(self) -> None:
        """A non-default port stays in the normalized URL."""
        assert link("http://example.com:8080/x").normalized == "http://example.com:8080/x"

    def test_ip_host(self) -> None:
        """An IPv4 host is a valid host of an unknown source."""
        assert link("http://127.0.0.1/x").source is None


class TestKnownHosts:
    def test_justia_components(self) -> None:
        """A Justia U.S. Reports URL addresses a case whose components are volume and page."""
        result = link("https://supreme.justia.com/cases/federal/us/347/483/")
        assert isinstance(result.target, CaseCitation)
        components = result.components()
        assert (components.volume, components.reporter, components.page) == ("347", "U.S.", "483")

    def test_lii_supreme_court_page(self) -> None:
        """LII's Supreme Court pages address U.S. Reports volume and page."""
        target = link("https://www.law.cornell.edu/supremecourt/text/410/113").target
        assert target is not None
        assert target.normalized == "410 U.S. 113"

    def test_lii_supreme_court_rules(self) -> None:
        """LII's Supreme Court rules map to the scotus rule set."""
        target = link("https://www.law.cornell.edu/rules/supct/rule_10").target
        assert isinstance(target, RuleCitation)
        assert target.ruleset == "scotus"

    def test_lii_cfr(self) -> None:
        """LII's C.F.R. pages address a C.F.R. section."""
        target = link("https://www.law.cornell.edu/cfr/text/29/1630.2").target
        assert isinstance(target, StatuteCitation)
        assert target.normalized == "29 C.F.R. § 1630.2"

    def test_govinfo_link_service(self) -> None:
        """govinfo's link service URLs address a Code section."""
        target = link("https://www.govinfo.gov/link/uscode/42/1983").target
        assert target is not None
        assert target.normalized == "42 U.S.C. § 1983"

    def test_courtlistener_slug_name(self) -> None:
        """A CourtListener slug becomes a readable case name."""
        result = link("https://www.courtlistener.com/opinion/2812209/obergefell-v-hodges/")
        assert result.slug_name == "Obergefell v. Hodges"
        assert result.identifiers == (("courtlistener", "cluster", "2812209"),)

    def test_known_host_unknown_path(self) -> None:
        """A known host with a path we cannot read names its source but no target."""
        result = link("https://www.law.cornell.edu/wex/due_process")
        assert (result.source, result.target) == ("lii", None)

    def test_unknown_host_components(self) -> None:
        """An unknown host's link has empty components."""
        assert link("https://example.com/").components().volume is None
