"""Memory, Chain, Nothing and the safety net around every provider call."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import pytest

from citeverify._model import Court
from citeverify.citations._types import CaseCitation, StatuteCitation
from citeverify.providers import (
    Authority,
    Chain,
    Found,
    LookupAnswer,
    LookupRequest,
    Memory,
    NotFound,
    Nothing,
    OutsideCoverage,
    Unavailable,
)
from citeverify.providers._memory import safe_lookup
from citeverify.testing import FailingProvider, ProviderContract


def case(volume: str, reporter: str, page: str) -> LookupRequest:
    return LookupRequest(
        CaseCitation(
            raw=f"{volume} {reporter} {page}",
            normalized=f"{volume} {reporter} {page}",
            system="us-reporter",
            volume=volume,
            reporter=reporter,
            page=page,
        )
    )


ROE = Authority(
    kind="case",
    reference="t:roe",
    provider="t",
    citations=("410 U.S. 113", "93 S. Ct. 705"),
    name="ROE et al. v. WADE",
    court=Court("Supreme Court of the United States", "us"),
    court_id="scotus",
    decided=dt.date(1973, 1, 22),
    first_page=113,
    last_page=178,
)
USC = Authority(
    kind="statute",
    reference="t:42-1983",
    provider="t",
    citations=("42 U.S.C. § 1983",),
    name="42 U.S.C. § 1983. Civil action for deprivation of rights",
)


class Recording:
    """A provider that records each batch it is asked and answers from a table."""

    def __init__(self, name: str, answers: dict[str, LookupAnswer]) -> None:
        self.name = name
        self.answers = answers
        self.batches: list[list[str]] = []

    def lookup(self, requests: Sequence[LookupRequest]) -> list[LookupAnswer]:
        self.batches.append([r.key for r in requests])
        return [self.answers.get(r.key, OutsideCoverage()) for r in requests]


class TestMemory:
    def test_finds_every_citation_of_an_authority(self) -> None:
        """Each parallel citation is an index key."""
        memory = Memory([ROE], complete=["U.S."])
        answers = memory.lookup([case("410", "U.S.", "113"), case("93", "S. Ct.", "705")])
        assert all(isinstance(a, Found) and a.authorities == (ROE,) for a in answers)

    def test_miss_in_complete_reporter_is_not_found(self) -> None:
        """A miss where coverage is complete is NotFound."""
        [answer] = Memory([ROE], complete=["U.S."]).lookup([case("410", "U.S.", "999")])
        assert isinstance(answer, NotFound)
        assert answer.within is None

    def test_page_inside_a_case_names_it(self) -> None:
        """A cited page inside a case's range is NotFound with that case as `within`."""
        [answer] = Memory([ROE], complete=["U.S."]).lookup([case("410", "U.S.", "150")])
        assert isinstance(answer, NotFound)
        assert answer.within == ROE

    def test_miss_elsewhere_is_outside_coverage(self) -> None:
        """A miss in a reporter the provider does not hold completely is OutsideCoverage."""
        [answer] = Memory([ROE], complete=["U.S."]).lookup([case("925", "F.3d", "1339")])
        assert isinstance(answer, OutsideCoverage)

    def test_statute_subdivision_falls_back_to_section(self) -> None:
        """A statute cited with a subdivision finds its section."""
        cite = StatuteCitation(
            raw="42 U.S.C. § 1983(a)",
            normalized="42 U.S.C. § 1983(a)",
            system="usc",
            code="U.S.C.",
            title="42",
            section="1983",
            subdivisions=("a",),
        )
        [answer] = Memory([USC]).lookup([LookupRequest(cite)])
        assert isinstance(answer, Found)


class TestSafeLookup:
    @pytest.mark.parametrize("mode", ["raise", "short", "garbage", "empty-found"])
    def test_misbehaving_provider_becomes_unavailable(self, mode: str) -> None:
        """A provider that raises, answers too few or answers garbage gives Unavailable."""
        answers = safe_lookup(FailingProvider(mode), [case("410", "U.S.", "113")] * 2)
        assert len(answers) == 2
        assert all(isinstance(a, Unavailable) for a in answers)

    def test_empty_batch_does_not_call_the_provider(self) -> None:
        """Nothing to look up means no call at all."""
        provider = FailingProvider("raise")
        assert safe_lookup(provider, []) == []
        assert provider.calls == 0


class TestChain:
    def test_first_provider_that_covers_answers(self) -> None:
        """Requests outside the first provider's coverage go to the next, in one batch."""
        local = Recording("local", {"410 U.S. 113": Found((ROE,))})
        remote = Recording("remote", {"925 F.3d 1339": NotFound()})
        chain = Chain(local, remote)
        answers = chain.lookup(
            [case("410", "U.S.", "113"), case("925", "F.3d", "1339"), case("1", "F.4th", "1")]
        )
        assert isinstance(answers[0], Found)
        assert isinstance(answers[1], NotFound)
        assert isinstance(answers[2], OutsideCoverage)
        assert remote.batches == [["925 F.3d 1339", "1 F.4th 1"]]

    def test_unavailable_is_kept_when_no_one_else_covers(self) -> None:
        """A failed source's answer is reported rather than a bare 'not covered'."""
        chain = Chain(FailingProvider("raise"), Nothing())
        [answer] = chain.lookup([case("410", "U.S.", "113")])
        assert isinstance(answer, Unavailable)

    def test_later_provider_answers_after_a_failure(self) -> None:
        """When one source fails, the next one that covers the citation answers."""
        chain = Chain(FailingProvider("raise"), Memory([ROE]))
        [answer] = chain.lookup([case("410", "U.S.", "113")])
        assert isinstance(answer, Found)

    def test_needs_a_provider(self) -> None:
        """An empty chain is a programming error."""
        with pytest.raises(ValueError, match="at least one"):
            Chain()


class TestNothing:
    def test_everything_is_outside_coverage(self) -> None:
        """Nothing covers nothing and says so."""
        [answer] = Nothing().lookup([case("410", "U.S.", "113")])
        assert isinstance(answer, OutsideCoverage)


class TestMemoryContract(ProviderContract):
    """The shipped provider contract suite, run over Memory."""

    known_citations = ("410 U.S. 113", "93 S. Ct. 705")
    unknown_citations = ("410 U.S. 999", "925 F.3d 1339")

    def make_provider(self) -> Memory:
        return Memory([ROE], complete=["U.S."])


class TestChainContract(ProviderContract):
    """The contract suite over a Chain whose first member covers nothing."""

    known_citations = ("410 U.S. 113",)
    unknown_citations = ("410 U.S. 999",)

    def make_provider(self) -> Chain:
        return Chain(Nothing(), Memory([ROE], complete=["U.S."]))
