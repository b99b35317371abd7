"""What a parsed citation is: one immutable value per item kind.

``citeverify.parse`` returns one of these and never raises.  Each carries the
contract's ``raw``/``normalized``/``system`` and can produce the contract's
``CitationComponents``; beyond the contract it carries what the comparisons
need (case name and court as cited, pins, parallels, subdivision paths).
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from citeverify._model import CitationComponents

__all__ = [
    "CaseCitation",
    "ConstitutionCitation",
    "CourtRef",
    "LinkCitation",
    "NotACitation",
    "ParsedCitation",
    "Pinpoint",
    "RuleCitation",
    "StatuteCitation",
]


class _Displayable:
    """Gives parse results a notebook rendering (``_repr_html_``); adds no state."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        from citeverify._display import parsed_html

        return parsed_html(self)


@attrs.frozen(slots=True)
class Pinpoint:
    """A pin cite as written (``153``, ``153-54``, ``153 n.5``), with its pages as numbers.

    ``first``/``last`` are the first and last page the pin covers, with
    abbreviated ranges expanded (``153-54`` gives 153 and 154); ``None`` when the
    pin is not numeric (e.g. a star page of a Westlaw number).
    """

    text: str
    first: int | None = None
    last: int | None = None
    footnote: str | None = None


@attrs.frozen(slots=True)
class CourtRef:
    """The court as cited in a parenthetical, resolved with courts-db."""

    id: str  # courts-db id: "scotus", "ca11", "nysd", "cal"
    name: str
    jurisdiction: str  # "us" for the Supreme Court, otherwise "us-" + id
    cited: str  # the parenthetical text as written, e.g. "11th Cir."


@attrs.frozen(slots=True)
class CaseCitation(_Displayable):
    """A case: reporter (``410 U.S. 113``), neutral, Westlaw/Lexis number or ECLI.

    ``reporter`` is the canonical abbreviation (``U.S.``, ``F.3d``, ``WL``,
    ``U.S. Dist. LEXIS``, ``Ohio``...).  ``normalized`` is the canonical
    citation without pin (``410 U.S. 113``).  ``parallels`` are the other
    citations of the same authority given in the same text, each a
    ``CaseCitation`` of its own (without name or court).  A nominative form
    (``5 U.S. (1 Cranch) 137``, ``1 Cranch 137``) keeps the nominative text in
    ``nominative`` and is mapped to U.S. Reports where reporters-db knows how.
    """

    kind: ClassVar[str] = "case"

    raw: str
    normalized: str
    system: str  # "us-reporter", "neutral", "westlaw", "lexis", "tax-court", "slip-opinion", "ecli"
    volume: str | None
    reporter: str
    page: str | None
    pin: Pinpoint | None = None
    year: int | None = None
    case_name: str | None = None
    court: CourtRef | None = None
    parallels: tuple[CaseCitation, ...] = ()
    nominative: str | None = None
    docket: str | None = None  # a slip opinion's docket number ("21-1234")

    def components(self) -> CitationComponents:
        return CitationComponents(
            volume=self.volume,
            reporter=self.reporter,
            page=self.page,
            pinpoint=self.pin.text if self.pin else None,
            year=self.year,
        )


@attrs.frozen(slots=True)
class StatuteCitation(_Displayable):
    """A statute: U.S. Code, C.F.R., public law, Statutes at Large, state code.

    ``normalized`` is canonical with the subdivision path
    (``15 U.S.C. § 78j(b)``); ``key`` is the section without it
    (``15 U.S.C. § 78j``), what a store looks up.
    """

    kind: ClassVar[str] = "statute"

    raw: str
    normalized: str
    system: str  # "usc", "cfr", "public-law", "statutes-at-large", "state-code"
    code: str  # "U.S.C.", "C.F.R.", "Pub. L.", "Stat.", "Cal. Penal Code", ...
    title: str | None
    section: str
    section_end: str | None = None  # ranges: 28 U.S.C. §§ 1331-1332
    subdivisions: tuple[str, ...] = ()  # ("b",) for § 78j(b)
    year: int | None = None
    jurisdiction: str = "us"

    @property
    def key(self) -> str:
        title = f"{self.title} " if self.title else ""
        sign = "§ " if self.system in ("usc", "cfr", "state-code") else ""
        return f"{title}{self.code} {sign}{self.section}"

    def components(self) -> CitationComponents:
        return CitationComponents(
            volume=self.title,
            reporter=self.code,
            page=self.section,
            year=self.year,
        )


@attrs.frozen(slots=True)
class RuleCitation(_Displayable):
    """A court rule: ``Fed. R. Civ. P. 12(b)(6)``.

    ``ruleset`` is one of ``frcp``, ``frcrmp``, ``frap``, ``frbp``, ``fre``,
    ``scotus``; ``subdivisions`` the path below the rule (``("b", "6")``).
    """

    kind: ClassVar[str] = "rule"

    raw: str
    normalized: str
    ruleset: str
    rule: str
    subdivisions: tuple[str, ...] = ()
    system: str = "federal-rule"
    jurisdiction: str = "us"

    @property
    def key(self) -> str:
        return self.normalized

    def components(self) -> CitationComponents:
        return CitationComponents(page=self.rule)


@attrs.frozen(slots=True)
class ConstitutionCitation(_Displayable):
    """A constitutional provision: ``U.S. Const. art. I, § 8, cl. 3``.

    ``part`` is ``article``, ``amendment`` or ``preamble``; ``number`` the
    article or amendment number as an integer (a Roman numeral that names no
    real article, such as ``art. VIII``, still parses: existence is the
    store's question).  ``jurisdiction`` is ``us`` or ``us-<state>``.
    """

    kind: ClassVar[str] = "constitution"

    raw: str
    normalized: str
    part: str
    number: int | None = None
    section: str | None = None
    clause: str | None = None
    system: str = "constitution"
    jurisdiction: str = "us"

    @property
    def key(self) -> str:
        return self.normalized

    def components(self) -> CitationComponents:
        return CitationComponents()


Target = CaseCitation | StatuteCitation | RuleCitation | ConstitutionCitation


@attrs.frozen(slots=True)
class LinkCitation(_Displayable):
    """A URL and, for hosts we know, what it points to.

    ``source`` names the host family (``courtlistener``, ``justia``,
    ``supremecourt``, ``lii``, ``govinfo``, ``congress``, ``uscode``) or is
    ``None`` for hosts we cannot interpret.  ``target`` is the authority the
    URL addresses when the URL says (a volume and page, a section, a rule);
    ``slug_name`` the case name read from the URL's slug; ``identifiers``
    provider-scoped ids (``("courtlistener", "opinion", "12345")``).
    """

    kind: ClassVar[str] = "link"

    raw: str
    normalized: str
    scheme: str
    host: str
    source: str | None = None
    target: Target | None = None
    slug_name: str | None = None
    identifiers: tuple[tuple[str, str, str], ...] = ()
    system: str = "url"

    def components(self) -> CitationComponents:
        if self.target is not None:
            return self.target.components()
        return CitationComponents()


@attrs.frozen(slots=True)
class NotACitation(_Displayable):
    """Text that is not a citation of the item's kind; ``message`` says what was expected."""

    kind: str
    raw: str
    message: str
    normalized: None = None
    system: None = None

    def components(self) -> CitationComponents | None:
        return None


ParsedCitation = (
    CaseCitation
    | StatuteCitation
    | RuleCitation
    | ConstitutionCitation
    | LinkCitation
    | NotACitation
)
