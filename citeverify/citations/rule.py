"""Parser for federal court rules: Civil, Criminal, Appellate, Bankruptcy, Evidence, Supreme Court.

Accepts the Bluebook form (``Fed. R. Civ. P. 12(b)(6)``), its unspaced and
unpunctuated variants (``Fed.R.Civ.P. 12``, ``FRCP 12(b)(6)``, ``F.R.E. 403``),
the spelled-out names (``Federal Rule of Evidence 403``) and the inverted
form (``Rule 12(b)(6) of the Federal Rules of Civil Procedure``).
``normalized`` is the Bluebook form; ``subdivisions`` the path below the rule.
A bare ``Rule 12(b)(6)`` names no rule set and is not a citation.
"""

from __future__ import annotations

import re
from typing import Final

from citeverify._facts import RULE_SETS
from citeverify.citations._text import MAX_SCAN, clean
from citeverify.citations._types import NotACitation, ParsedCitation, RuleCitation

__all__ = ["CANONICAL", "parse"]

EXPECTED: Final = (
    "expected a court rule citation such as 'Fed. R. Civ. P. 12(b)(6)', 'Fed. R. Evid. 403' "
    "or 'Sup. Ct. R. 10'"
)

CANONICAL: Final = {ruleset.id: ruleset.abbreviation for ruleset in RULE_SETS.values()}

_D: Final = r"\.?\s{0,2}"  # an optional period and optional spaces between parts
_FED: Final = rf"(?:Fed(?:eral)?{_D}|F{_D})"
_R: Final = rf"R(?:ules?)?{_D}"
_P: Final = rf"P(?:ro(?:c(?:edure)?)?)?{_D}"

# Short names: each part abbreviated, with or without periods and spaces.
_SHORT: Final = {
    "frcp": rf"{_FED}{_R}Civ(?:il)?{_D}{_P}|F{_D}R{_D}C{_D}P{_D}|FRCP\b",
    "frcrmp": rf"{_FED}{_R}Crim(?:inal)?{_D}{_P}|F{_D}R{_D}Cr(?:im)?{_D}P{_D}|FRCrP\b|FRCRP\b",
    "frap": rf"{_FED}{_R}App(?:ellate)?{_D}{_P}|F{_D}R{_D}A{_D}P{_D}|FRAP\b",
    "frbp": (
        rf"{_FED}{_R}Bankr(?:uptcy)?{_D}{_P}|F{_D}R{_D}B{_D}P{_D}|FRBP\b"
        r"|Bankruptcy\s{1,2}Rule"
    ),
    "fre": rf"{_FED}{_R}Evid(?:ence)?{_D}|F{_D}R{_D}E{_D}|FRE\b",
    "scotus": rf"Sup(?:reme)?{_D}Ct{_D}{_R}|S{_D}Ct{_D}R{_D}|Supreme\s{{1,2}}Court\s{{1,2}}Rule",
}

# Spelled-out names, used in both word orders.
_LONG: Final = {
    "frcp": r"Civil\s{1,2}Procedure",
    "frcrmp": r"Criminal\s{1,2}Procedure",
    "frap": r"Appellate\s{1,2}Procedure",
    "frbp": r"Bankruptcy\s{1,2}Procedure",
    "fre": r"Evidence",
}

_NUMBER: Final = (
    r"(?P<rule>\d{1,4}(?:\.\d{1,2})?)(?P<subs>(?:\([A-Za-z0-9]{1,6}\)){0,8})(?![\w.]\d)"
)

_FORWARD: Final = tuple(
    (
        ruleset,
        re.compile(
            r"(?<![\w])(?:" + short + r")\s{0,2}(?:Rule\s{0,2}|R\.\s{0,2})?" + _NUMBER,
            re.IGNORECASE if ruleset != "scotus" else 0,
        ),
    )
    for ruleset, short in _SHORT.items()
) + tuple(
    (
        ruleset,
        re.compile(
            r"(?<![\w])Federal\s{1,2}Rules?\s{1,2}of\s{1,2}"
            + long
            + r"\s{0,2}(?:Rule\s{0,2})?"
            + _NUMBER,
            re.IGNORECASE,
        ),
    )
    for ruleset, long in _LONG.items()
)

_INVERTED: Final = re.compile(
    r"(?<![\w])Rule\s{1,2}" + _NUMBER + r",?\s{1,3}of\s{1,2}the\s{1,2}"
    r"(?:(?P<federal>Federal\s{1,2}Rules?\s{1,2}of\s{1,2}(?P<long>Civil\s{1,2}Procedure|"
    r"Criminal\s{1,2}Procedure|Appellate\s{1,2}Procedure|Bankruptcy\s{1,2}Procedure|Evidence))"
    r"|(?P<supreme>Rules\s{1,2}of\s{1,2}(?:the\s{1,2})?Supreme\s{1,2}Court))",
    re.IGNORECASE,
)


def _ruleset_of_long(name: str) -> str:
    folded = " ".join(name.lower().split())
    for ruleset, pattern in _LONG.items():
        if re.fullmatch(pattern, folded, re.IGNORECASE):
            return ruleset
    return "frcp"


def _citation(raw: str, ruleset: str, match: re.Match[str]) -> RuleCitation:
    rule = match.group("rule")
    subs = tuple(re.findall(r"\(([A-Za-z0-9]{1,6})\)", match.group("subs") or ""))
    path = "".join(f"({s})" for s in subs)
    return RuleCitation(
        raw=raw,
        normalized=f"{CANONICAL[ruleset]} {rule}{path}",
        ruleset=ruleset,
        rule=rule,
        subdivisions=subs,
    )


def _parse(text: str) -> ParsedCitation:
    cleaned = clean(text[:MAX_SCAN])
    best: tuple[int, str, re.Match[str]] | None = None
    for ruleset, pattern in _FORWARD:
        match = pattern.search(cleaned)
        if match is not None and (best is None or match.start() < best[0]):
            best = (match.start(), ruleset, match)
    inverted = _INVERTED.search(cleaned)
    if inverted is not None and (best is None or inverted.start() < best[0]):
        if inverted.group("supreme"):
            ruleset = "scotus"
        else:
            ruleset = _ruleset_of_long(inverted.group("long"))
        best = (inverted.start(), ruleset, inverted)
    if best is None:
        if re.search(r"\bRule\s{1,2}\d", cleaned):
            return NotACitation(
                kind="rule",
                raw=text,
                message="the rule set is not named ('Rule 12' of which rules?); " + EXPECTED,
            )
        return NotACitation(kind="rule", raw=text, message=EXPECTED)
    return _citation(text, best[1], best[2])


def parse(text: str) -> ParsedCitation:
    """Parse ``text`` as a federal court rule citation; never raises."""
    try:
        return _parse(text)
    except Exception as exc:  # a parser bug must not become a failed request
        return NotACitation(kind="rule", raw=text, message=f"{EXPECTED} (parser error: {exc})")


def patterns() -> tuple[re.Pattern[str], ...]:
    """Every form this parser reads, for ``find`` to run over a whole document."""
    return (*(pattern for _ruleset, pattern in _FORWARD), _INVERTED)
