"""Parser for links: URL syntax, and what well-known legal URLs point to.

Only ``http`` and ``https`` URLs with a valid host are links; anything else is
``NotACitation``.  For the hosts below the path says what the URL addresses,
as a ``target`` citation that can be compared with the item's ``rawText``:

==================================  ============================================
host                                 understood paths
==================================  ============================================
courtlistener.com                    ``/opinion/<id>/<slug>/`` (a cluster id, as
                                     CourtListener's own pages use it),
                                     ``/api/rest/v*/clusters|opinions/<id>/``,
                                     ``/c/<reporter>/<volume>/<page>/``
supreme.justia.com                   ``/cases/federal/us/<volume>/<page>/``
                                     (a docket number in place of the page is
                                     an identifier)
supremecourt.gov                     ``/opinions/<yy>pdf/<docket>_<code>.pdf``
law.cornell.edu (LII)                ``/uscode/text/<t>/<s>``, ``/cfr/text/<t>/<s>``,
                                     ``/rules/<set>/rule_<n>``,
                                     ``/constitution/amendmentxiv``, ``/articlei``
                                     (``#section8`` fragments),
                                     ``/supremecourt/text/<v>/<p>``
govinfo.gov                          ``USCODE-<yyyy>-title<t>-...-sec<s>``,
                                     ``/link/uscode/<t>/<s>``, ``CFR-...-sec<p>-<s>``,
                                     ``PLAW-<c>publ<n>``, ``STATUTE-<v>...Pg<p>``
constitution.congress.gov            ``/browse/article-1/section-8/clause-3/``,
                                     ``/browse/amendment-14/section-1/``
uscode.house.gov                     ``view.xhtml?req=granuleid:USC-prelim-title42-section1983``
==================================  ============================================

Other hosts give a ``LinkCitation`` with ``source`` and ``target`` ``None``.
``normalized`` is the URL with scheme and host in lower case, without a
default port or fragment.
"""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import parse_qs, unquote, urlsplit, urlunsplit

from citeverify._facts import RULE_SETS
from citeverify.citations._text import from_roman, to_roman
from citeverify.citations._types import (
    CaseCitation,
    ConstitutionCitation,
    LinkCitation,
    NotACitation,
    ParsedCitation,
    RuleCitation,
    StatuteCitation,
)
from citeverify.citations.rule import CANONICAL as RULE_NAMES

__all__ = ["parse"]

EXPECTED: Final = (
    "expected an http(s) URL such as 'https://supreme.justia.com/cases/federal/us/410/113/'"
)

_MAX_URL: Final = 8192
_LABEL: Final = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
_HOST: Final = re.compile(rf"{_LABEL}(?:\.{_LABEL})*\.?")
_IPV4: Final = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_BAD_CHARS: Final = re.compile(r"[\s<>\"{}|\\^`\x00-\x1f\x7f]")

_CL_OPINION: Final = re.compile(r"/opinion/(\d{1,12})(?:/([^/]{1,300}))?/?")
_CL_API: Final = re.compile(r"/api/rest/v\d/(clusters|opinions)/(\d{1,12})/?")
_CL_CITE: Final = re.compile(r"/c/([^/]{1,40})/(\d{1,5})/(\d{1,7})/?")
_JUSTIA_US: Final = re.compile(r"/cases/federal/us/(\d{1,4})/([0-9A-Za-z-]{1,20})/?")
_SCOTUS_SLIP: Final = re.compile(
    r"/opinions/(\d{2})pdf/([0-9A-Za-z-]{1,20}?)(?:_[0-9a-z]{1,8})?\.pdf"
)
_LII_USC: Final = re.compile(r"/uscode/text/(\d{1,2}[A-Za-z]?)/([0-9A-Za-z.\-]{1,30})/?")
_LII_CFR: Final = re.compile(r"/cfr/text/(\d{1,2})/([0-9A-Za-z.\-]{1,30})/?")
_LII_RULE: Final = re.compile(r"/rules/([a-z]{2,8})/rule_(\d{1,4}(?:[._]\d{1,2})?)/?")
_LII_CONST: Final = re.compile(r"/constitution/(amendment|article)([ivxlc]{1,9}|\d{1,2})/?")
_LII_PREAMBLE: Final = re.compile(r"/constitution/preamble/?")
_LII_SCOTUS: Final = re.compile(r"/supremecourt/text/(\d{1,4})/(\d{1,5})/?")
_LII_CONAN: Final = re.compile(
    r"/constitution-conan/(article|amendment)-(\d{1,2}|[ivxlc]{1,9})"
    r"(?:/section-(\d{1,2}))?(?:/clause-(\d{1,2}))?"
)
_GOVINFO_USC: Final = re.compile(
    r"USCODE-\d{4}-title(\d{1,2}[a-z]?)(?:-[A-Za-z0-9]{1,20}){0,6}?-sec([0-9A-Za-z]{1,12}(?:-[0-9A-Za-z]{1,6}){0,3}?)(?=$|[./&?])"
)
_GOVINFO_LINK: Final = re.compile(r"/link/uscode/(\d{1,2})/([0-9A-Za-z.\-]{1,30})")
_GOVINFO_CFR: Final = re.compile(
    r"CFR-\d{4}-title(\d{1,2})-vol\d{1,3}-sec(\d{1,5})-([0-9a-z]{1,8})(?=$|[./&?])"
)
_GOVINFO_PLAW: Final = re.compile(r"PLAW-(\d{1,3})publ(\d{1,4})")
_GOVINFO_STAT: Final = re.compile(r"STATUTE-(\d{1,3})(?:/[a-z]{1,5}/STATUTE-\d{1,3})?-Pg(\d{1,5})")
_CONGRESS_CONST: Final = re.compile(
    r"/(?:browse|constitution)/(article|amendment)-(\d{1,2})"
    r"(?:/section-(\d{1,2}))?(?:/clause-(\d{1,2}))?"
)
_CONGRESS_PREAMBLE: Final = re.compile(r"/(?:browse|constitution)/preamble/?")
_HOUSE_GRANULE: Final = re.compile(
    r"USC-[a-z0-9]{1,12}-title(\d{1,2}[a-z]?)-section([0-9A-Za-z\-]{1,20})"
)
_HOUSE_QUERY: Final = re.compile(r"title:\s?(\d{1,2}[a-z]?)\s{1,3}section:\s?([0-9A-Za-z\-]{1,20})")

_LII_RULESETS: Final = {ruleset.lii: ruleset.id for ruleset in RULE_SETS.values()}

Target = CaseCitation | StatuteCitation | RuleCitation | ConstitutionCitation


def _usc(raw: str, title: str, section: str) -> StatuteCitation:
    return StatuteCitation(
        raw=raw,
        normalized=f"{title} U.S.C. § {section}",
        system="usc",
        code="U.S.C.",
        title=title,
        section=section,
    )


def _cfr(raw: str, title: str, section: str) -> StatuteCitation:
    return StatuteCitation(
        raw=raw,
        normalized=f"{title} C.F.R. § {section}",
        system="cfr",
        code="C.F.R.",
        title=title,
        section=section,
    )


def _us_reports(raw: str, volume: str, page: str, reporter: str = "U.S.") -> CaseCitation:
    return CaseCitation(
        raw=raw,
        normalized=f"{volume} {reporter} {page}",
        system="us-reporter",
        volume=volume,
        reporter=reporter,
        page=page,
    )


def _constitution(
    raw: str, part: str, number: int | None, section: str | None, clause: str | None
) -> ConstitutionCitation:
    if part == "preamble":
        normalized = "U.S. Const. pmbl."
    else:
        label = "art." if part == "article" else "amend."
        normalized = f"U.S. Const. {label} {to_roman(number or 0)}"
        if section:
            normalized += f", § {section}"
        if clause:
            normalized += f", cl. {clause}"
    return ConstitutionCitation(
        raw=raw, normalized=normalized, part=part, number=number, section=section, clause=clause
    )


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() else from_roman(text)


def _slug_name(slug: str) -> str | None:
    words = [w for w in unquote(slug).split("-") if w]
    if not words:
        return None
    small = {"of", "the", "and", "for", "in", "on", "at", "to", "a", "an", "ex", "rel"}
    out = []
    for index, word in enumerate(words):
        lower = word.lower()
        if lower in ("v", "vs"):
            out.append("v.")
        elif index > 0 and lower in small:
            out.append(lower)
        else:
            out.append(word[:1].upper() + word[1:])
    return " ".join(out)


def _courtlistener(
    raw: str, path: str
) -> tuple[Target | None, str | None, tuple[tuple[str, str, str], ...]]:
    match = _CL_OPINION.match(path)
    if match:
        slug = match.group(2)
        name = _slug_name(slug) if slug and slug not in ("authorities", "visualizations") else None
        return None, name, (("courtlistener", "cluster", match.group(1)),)
    match = _CL_API.match(path)
    if match:
        kind = "cluster" if match.group(1) == "clusters" else "opinion"
        return None, None, (("courtlistener", kind, match.group(2)),)
    match = _CL_CITE.match(path)
    if match:
        from citeverify.citations import case

        parsed = case.parse(f"{match.group(2)} {unquote(match.group(1))} {match.group(3)}")
        if isinstance(parsed, CaseCitation):
            return parsed, None, ()
    return None, None, ()


def _justia(raw: str, path: str) -> tuple[Target | None, tuple[tuple[str, str, str], ...]]:
    match = _JUSTIA_US.match(path)
    if match is None:
        return None, ()
    volume, page = match.group(1), match.group(2)
    if page.isdigit():
        return _us_reports(raw, volume, page), ()
    return None, (("justia", "docket", page),)


def _lii(raw: str, path: str, fragment: str) -> Target | None:
    match = _LII_USC.match(path)
    if match:
        return _usc(raw, match.group(1), match.group(2))
    match = _LII_CFR.match(path)
    if match:
        return _cfr(raw, match.group(1), match.group(2))
    match = _LII_RULE.match(path)
    if match and match.group(1) in _LII_RULESETS:
        ruleset = _LII_RULESETS[match.group(1)]
        rule = match.group(2).replace("_", ".")
        return RuleCitation(
            raw=raw, normalized=f"{RULE_NAMES[ruleset]} {rule}", ruleset=ruleset, rule=rule
        )
    match = _LII_CONST.match(path)
    if match:
        section = None
        frag = re.fullmatch(r"section(\d{1,2})", fragment)
        if frag:
            section = frag.group(1)
        return _constitution(raw, match.group(1), _number(match.group(2)), section, None)
    if _LII_PREAMBLE.match(path):
        return _constitution(raw, "preamble", None, None, None)
    match = _LII_CONAN.match(path)
    if match:
        return _constitution(
            raw, match.group(1), _number(match.group(2)), match.group(3), match.group(4)
        )
    match = _LII_SCOTUS.match(path)
    if match:
        return _us_reports(raw, match.group(1), match.group(2))
    return None


def _govinfo(raw: str, path: str) -> Target | None:
    match = _GOVINFO_USC.search(path)
    if match:
        return _usc(raw, match.group(1), match.group(2))
    match = _GOVINFO_LINK.match(path)
    if match:
        return _usc(raw, match.group(1), match.group(2))
    match = _GOVINFO_CFR.search(path)
    if match:
        return _cfr(raw, match.group(1), f"{match.group(2)}.{match.group(3)}")
    match = _GOVINFO_PLAW.search(path)
    if match:
        number = f"{match.group(1)}-{match.group(2)}"
        return StatuteCitation(
            raw=raw,
            normalized=f"Pub. L. No. {number}",
            system="public-law",
            code="Pub. L.",
            title=None,
            section=number,
        )
    match = _GOVINFO_STAT.search(path)
    if match:
        return StatuteCitation(
            raw=raw,
            normalized=f"{match.group(1)} Stat. {match.group(2)}",
            system="statutes-at-large",
            code="Stat.",
            title=match.group(1),
            section=match.group(2),
        )
    return None


def _congress(raw: str, path: str) -> Target | None:
    match = _CONGRESS_CONST.match(path)
    if match:
        return _constitution(
            raw, match.group(1), int(match.group(2)), match.group(3), match.group(4)
        )
    if _CONGRESS_PREAMBLE.match(path):
        return _constitution(raw, "preamble", None, None, None)
    return None


def _uscode_house(raw: str, query: str) -> Target | None:
    params = parse_qs(query)
    for value in params.get("req", []):
        match = _HOUSE_GRANULE.search(value) or _HOUSE_QUERY.search(value)
        if match:
            return _usc(raw, match.group(1), match.group(2))
    return None


def _source(host: str) -> str | None:
    bare = host[4:] if host.startswith("www.") else host
    if bare == "courtlistener.com" or bare.endswith(".courtlistener.com"):
        return "courtlistener"
    if bare in ("supreme.justia.com", "law.justia.com", "justia.com"):
        return "justia"
    if bare == "supremecourt.gov" or bare.endswith(".supremecourt.gov"):
        return "supremecourt"
    if bare == "law.cornell.edu":
        return "lii"
    if bare == "govinfo.gov":
        return "govinfo"
    if bare in ("constitution.congress.gov", "congress.gov"):
        return "congress"
    if bare == "uscode.house.gov":
        return "uscode"
    return None


def _parse(text: str) -> ParsedCitation:
    url = text.strip()
    if not url or len(url) > _MAX_URL or _BAD_CHARS.search(url):
        return NotACitation(kind="link", raw=text, message=EXPECTED)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return NotACitation(kind="link", raw=text, message=f"not a valid URL; {EXPECTED}")
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        return NotACitation(
            kind="link", raw=text, message=f"only http and https links are checked; {EXPECTED}"
        )
    host = (parts.hostname or "").lower()
    if not host or not (_HOST.fullmatch(host) or _IPV4.fullmatch(host)) or len(host) > 253:
        return NotACitation(kind="link", raw=text, message=f"the URL has no valid host; {EXPECTED}")
    default = {"http": 80, "https": 443}[scheme]
    netloc = host if port in (None, default) else f"{host}:{port}"
    normalized = urlunsplit((scheme, netloc, parts.path or "/", parts.query, ""))
    source = _source(host)
    path = parts.path
    target: Target | None = None
    slug_name: str | None = None
    identifiers: tuple[tuple[str, str, str], ...] = ()
    if source == "courtlistener":
        target, slug_name, identifiers = _courtlistener(url, path)
    elif source == "justia":
        target, identifiers = _justia(url, path)
    elif source == "supremecourt":
        match = _SCOTUS_SLIP.search(path)
        if match:
            identifiers = (("supremecourt", "docket", match.group(2)),)
    elif source == "lii":
        target = _lii(url, path, parts.fragment)
    elif source == "govinfo":
        target = _govinfo(url, path)
    elif source == "congress":
        target = _congress(url, path)
    elif source == "uscode":
        target = _uscode_house(url, parts.query)
    return LinkCitation(
        raw=text,
        normalized=normalized,
        scheme=scheme,
        host=host,
        source=source,
        target=target,
        slug_name=slug_name,
        identifiers=identifiers,
    )


def parse(text: str) -> ParsedCitation:
    """Parse ``text`` as a link; never raises."""
    try:
        return _parse(text)
    except Exception as exc:  # a parser bug must not become a failed request
        return NotACitation(kind="link", raw=text, message=f"{EXPECTED} (parser error: {exc})")
