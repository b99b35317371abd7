"""Test helpers shipped with the package: the provider contract suite and fakes.

Any provider, ours or a user's, can be checked against the provider protocol
by subclassing ``ProviderContract`` in a pytest test module::

    from citeverify.testing import ProviderContract

    class TestMyProvider(ProviderContract):
        def make_provider(self):
            return MyProvider(...)

        known_citations = ["410 U.S. 113"]      # citations the provider must find
        unknown_citations = ["410 U.S. 999"]    # citations it must not find

The suite checks the promises the pipeline relies on: one answer per request,
in order, of the four answer types, never an exception, authorities that carry
what a result needs, and answers that do not depend on batch composition.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from citeverify.citations import parse
from citeverify.citations._types import NotACitation
from citeverify.providers._base import (
    Authority,
    Found,
    Lookupable,
    LookupRequest,
    NotFound,
    OutsideCoverage,
    Provider,
    Unavailable,
)

__all__ = ["FailingProvider", "ProviderContract", "request_for"]


def request_for(text: str, kind: str = "case") -> LookupRequest:
    """A lookup request for citation text (which must parse)."""
    parsed = parse(text, kind)
    if isinstance(parsed, NotACitation):
        raise ValueError(f"not a {kind} citation: {text!r} ({parsed.message})")
    citation: Lookupable = parsed  # type: ignore[assignment]
    return LookupRequest(citation)


class FailingProvider:
    """A provider that fails in a chosen way: raise, answer too few, or answer garbage."""

    def __init__(self, mode: str = "raise", name: str = "failing") -> None:
        if mode not in ("raise", "short", "garbage", "empty-found"):
            raise ValueError(f"unknown mode {mode!r}")
        self.mode = mode
        self.name = name
        self.calls = 0

    def lookup(self, requests: Sequence[LookupRequest]) -> Sequence[Any]:
        self.calls += 1
        if self.mode == "raise":
            raise RuntimeError("source exploded")
        if self.mode == "short":
            return [OutsideCoverage()] * max(0, len(requests) - 1)
        if self.mode == "empty-found":
            return [Found(())] * len(requests)
        return ["verified"] * len(requests)


_ANSWERS = (Found, NotFound, OutsideCoverage, Unavailable)


class ProviderContract:
    """Inherit in a pytest class and define ``make_provider``; the tests below run on it."""

    known_citations: ClassVar[Sequence[str]] = ()
    unknown_citations: ClassVar[Sequence[str]] = ()
    kind: ClassVar[str] = "case"

    def make_provider(self) -> Provider:  # pragma: no cover - overridden
        raise NotImplementedError

    def _requests(self, texts: Sequence[str]) -> list[LookupRequest]:
        return [request_for(text, self.kind) for text in texts]

    def test_satisfies_protocol(self) -> None:
        """The provider has a name and a lookup method."""
        provider = self.make_provider()
        assert isinstance(provider, Provider)
        assert isinstance(provider.name, str)
        assert provider.name

    def test_empty_batch(self) -> None:
        """An empty batch gets an empty answer."""
        assert list(self.make_provider().lookup([])) == []

    def test_one_answer_per_request_in_order(self) -> None:
        """Each request gets exactly one answer of the four answer types, in order."""
        texts = [*self.known_citations, *self.unknown_citations]
        answers = list(self.make_provider().lookup(self._requests(texts)))
        assert len(answers) == len(texts)
        assert all(isinstance(a, _ANSWERS) for a in answers)

    def test_known_citations_are_found(self) -> None:
        """Every citation the provider is said to know is Found, with a usable authority."""
        if not self.known_citations:
            return
        answers = self.make_provider().lookup(self._requests(self.known_citations))
        for text, answer in zip(self.known_citations, answers, strict=True):
            assert isinstance(answer, Found), (text, answer)
            assert answer.authorities
            for authority in answer.authorities:
                self.check_authority(authority)

    def test_unknown_citations_are_not_found(self) -> None:
        """A citation the provider is said not to know is never Found."""
        if not self.unknown_citations:
            return
        answers = self.make_provider().lookup(self._requests(self.unknown_citations))
        for text, answer in zip(self.unknown_citations, answers, strict=True):
            assert not isinstance(answer, Found), (text, answer)

    def test_answers_do_not_depend_on_the_batch(self) -> None:
        """A citation gets the same answer alone as in a batch (duplicates included)."""
        texts = [*self.known_citations, *self.unknown_citations]
        if not texts:
            return
        provider = self.make_provider()
        together = list(provider.lookup(self._requests(texts + texts[:1])))
        alone = [provider.lookup(self._requests([t]))[0] for t in texts]
        assert _kinds(together[: len(texts)]) == _kinds(alone)
        assert _kinds([together[-1]]) == _kinds([together[0]])

    @staticmethod
    def check_authority(authority: Authority) -> None:
        """An authority carries what a Result's opinion needs."""
        assert authority.reference
        assert authority.provider
        assert authority.citations
        assert all(isinstance(c, str) and c for c in authority.citations)
        assert authority.court is not None
        for document in authority.documents:
            assert document.provider
            assert document.url.startswith(("http://", "https://"))


def _kinds(answers: Sequence[Any]) -> list[tuple[str, tuple[str, ...]]]:
    out = []
    for answer in answers:
        refs: tuple[str, ...] = ()
        if isinstance(answer, Found):
            refs = tuple(a.reference for a in answer.authorities)
        out.append((type(answer).__name__, refs))
    return out
