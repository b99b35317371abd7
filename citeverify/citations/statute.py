"""Parser for statute citations: U.S. Code, C.F.R., public laws, Statutes at Large, state codes.

Each form is one anchored regular expression with bounded repetition; the
earliest match in the text wins, so ``Pub. L. No. 111-148, 124 Stat. 119``
is the public law.  Conventions:

* Any dash becomes an ASCII hyphen; a hyphen inside a section number stays
  (``2000e-2``).  ``§§ 1331-1332`` (or ``sections``, ``to``, ``through``) is a
  range: ``section`` 1331, ``section_end`` 1332.  ``§§ 2000e-2`` is one
  hyphenated section (its first part has letters).
* ``normalized`` is the Bluebook form with the subdivision path
  (``15 U.S.C. § 78j(b)``); ``U.S.C.A.``, ``USC``, ``Sec.`` and a missing
  ``§`` are accepted.
* A public law has no title: ``section`` is ``111-148``
  (``Pub. L. No. 111-148``).  A Statutes at Large cite uses the volume as its
  ``title`` and the page as its ``section`` (``124 Stat. 119``).
* State codes are read in Bluebook form for California, New York, Texas,
  Florida, Illinois, Pennsylvania, Ohio, Michigan, Georgia, New Jersey,
  Massachusetts, Virginia and Washington (plus common local forms such as
  ``RCW``, ``ILCS``, ``O.C.G.A.``), and generically for any state as
  ``<State> [Rev.|Gen.|Comp.] Stat.|Code|Laws [Ann.] § N``; ``jurisdiction`` is
  ``us-`` and the courts-db id of the state (``us-cal``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from citeverify._facts import jurisdiction_of
from citeverify.citations._tables import tables
from citeverify.citations._text import MAX_SCAN, clean
from citeverify.citations._types import NotACitation, ParsedCitation, StatuteCitation

__all__ = ["parse"]

EXPECTED: Final = (
    "expected a statute citation such as '42 U.S.C. § 1983', '29 C.F.R. § 1630.2(g)', "
    "'Pub. L. No. 111-148' or 'Cal. Penal Code § 187'"
)

_SECTION: Final = r"\d{1,6}[A-Za-z]{0,4}(?:-\d{1,5}[A-Za-z]{0,4}){0,3}"
_SUBS: Final = r"(?P<subs>(?:\([A-Za-z0-9]{1,6}\)){0,8})"
_SIGN: Final = r"(?:(?P<sign>§§|§|[Ss]ec(?:tions?|s)?\.?|[Ss]ections?|[Ss]s?\.)\s{0,3})?"
_RANGE: Final = rf"(?:\s{{0,3}}(?:-|to|through|thru)\s{{0,3}}(?P<end>{_SECTION}))?"

_USC: Final = re.compile(
    r"(?<![\w.])(?P<title>\d{1,2})\s{0,3}U\.?\s{0,2}S\.?\s{0,2}C\.?(?:\s{0,2}[AS]\.?)?"
    r"(?![A-Za-z])\s{0,3}" + _SIGN + rf"(?P<section>{_SECTION}){_SUBS}{_RANGE}"
)
_CFR: Final = re.compile(
    r"(?<![\w.])(?P<title>\d{1,2})\s{0,3}C\.?\s{0,2}F\.?\s{0,2}R\.?(?![A-Za-z])\s{0,3}"
    + _SIGN
    + r"(?P<section>\d{1,5}(?:\.\d{1,6}[a-z]{0,2})?(?:-\d{1,4})?)"
    + _SUBS
)
_PUBLIC_LAW: Final = re.compile(
    r"(?<![\w])(?:Pub(?:\.|lic)\s{0,2}L(?:\.|aw)|P\.\s?L\.)\s{0,3}(?:No\.?\s{0,3})?"
    r"(?P<congress>\d{1,3})\s{0,2}-\s{0,2}(?P<number>\d{1,4})(?!\d)"
)
_STATUTES_AT_LARGE: Final = re.compile(
    r"(?<![\w.])(?P<volume>\d{1,3})\s{1,3}Stat\.?\s{1,3}(?P<page>\d{1,5})(?!\d)"
)
_YEAR: Final = re.compile(r"\s{0,3}(?:,\s{0,3}[^()]{0,80}?)?\((?:[^()]{0,40}?\s)?(\d{4})\)")

# State codes.  Every repetition is bounded; each pattern is anchored by a
# state abbreviation, so a failed attempt costs a few steps.
_WORDS: Final = r"(?P<subject>(?:(?:[A-Z][A-Za-z.']{0,15}|&)\s{1,2}){1,6}?)"
_STATE_SECTION: Final = r"(?P<section>\d[0-9A-Za-z.:/\-]{0,24}?)(?=$|[\s,;()]|\.(?:\s|$))"
_SS: Final = r"\s{0,3}(?:§§?|[Ss]ec(?:tion)?\.?)?\s{0,3}"
_ANN: Final = r"(?:\s{1,2}Ann\.)?"


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w.])" + pattern + _SS + _STATE_SECTION + _SUBS)


_StateForm = tuple[re.Pattern[str], str, Callable[[re.Match[str]], tuple[str, str | None]]]


def _fixed(code: str) -> Callable[[re.Match[str]], tuple[str, str | None]]:
    return lambda m: (code, m.groupdict().get("title"))


def _subject(template: str) -> Callable[[re.Match[str]], tuple[str, str | None]]:
    def name(match: re.Match[str]) -> tuple[str, str | None]:
        subject = " ".join(match.group("subject").split())
        return template.format(subject=subject), None

    return name


_STATE_FORMS: Final[tuple[_StateForm, ...]] = (
    (_compile(rf"Cal\.\s{{0,2}}{_WORDS}Code{_ANN}"), "cal", _subject("Cal. {subject} Code")),
    (
        _compile(rf"Cal\.\s{{0,2}}Code\s{{1,2}}{_WORDS}?(?=§)"),
        "cal",
        _subject("Cal. {subject} Code"),
    ),
    (_compile(r"N\.\s?Y\.\s{0,2}C\.\s?P\.\s?L\.\s?R\.?"), "ny", _fixed("N.Y. C.P.L.R.")),
    (_compile(rf"N\.\s?Y\.\s{{0,2}}{_WORDS}Law{_ANN}"), "ny", _subject("N.Y. {subject} Law")),
    (_compile(rf"Tex\.\s{{0,2}}{_WORDS}Code{_ANN}"), "tex", _subject("Tex. {subject} Code Ann.")),
    (_compile(r"Fla\.\s{0,2}Stat(?:\.|utes)" + _ANN), "fla", _fixed("Fla. Stat.")),
    (
        _compile(r"(?P<title>\d{1,3})\s{1,2}(?:Ill\.\s{0,2}Comp\.\s{0,2}Stat\." + _ANN + r"|ILCS)"),
        "ill",
        _fixed("Ill. Comp. Stat."),
    ),
    (
        _compile(
            r"(?P<title>\d{1,2})\s{1,2}(?:Pa\.\s{0,2}Cons\.\s{0,2}Stat\."
            + _ANN
            + r"|Pa\.\s{0,2}C\.\s{0,2}S\.(?:\s{0,2}A\.)?)"
        ),
        "pa",
        _fixed("Pa. Cons. Stat."),
    ),
    (_compile(r"Ohio\s{1,2}Rev\.\s{0,2}Code" + _ANN), "ohio", _fixed("Ohio Rev. Code Ann.")),
    (
        _compile(r"(?:Mich\.\s{0,2}Comp\.\s{0,2}Laws" + _ANN + r"|MCL)"),
        "mich",
        _fixed("Mich. Comp. Laws"),
    ),
    (_compile(r"(?:Ga\.\s{0,2}Code" + _ANN + r"|O\.C\.G\.A\.)"), "ga", _fixed("Ga. Code Ann.")),
    (
        _compile(r"(?:N\.\s?J\.\s{0,2}Stat\." + _ANN + r"|N\.J\.S\.A\.)"),
        "nj",
        _fixed("N.J. Stat. Ann."),
    ),
    (
        _compile(
            r"(?:Mass\.\s{0,2}Gen\.\s{0,2}Laws" + _ANN + r"|M\.\s?G\.\s?L\.(?:\s{0,2}A\.)?)"
            r"\s{1,2}(?:ch\.|c\.)\s{0,2}(?P<title>\d{1,3}[A-Z]{0,2}),?"
        ),
        "mass",
        _fixed("Mass. Gen. Laws"),
    ),
    (_compile(r"Va\.\s{0,2}Code" + _ANN), "va", _fixed("Va. Code Ann.")),
    (
        _compile(r"(?:Wash\.\s{0,2}Rev\.\s{0,2}Code" + _ANN + r"|RCW)"),
        "wash",
        _fixed("Wash. Rev. Code"),
    ),
)

_GENERIC_STATE: Final = re.compile(
    r"(?<![\w.])(?P<state>(?:[A-Z][a-z]{0,10}\.?\s?){1,2}?)\s{0,2}"
    r"(?P<kind>(?:(?:Rev|Gen|Comp|Consol|Cons|Ann)\.\s{1,2}){0,2}(?:Stat\.|Code|Laws)(?:\s{1,2}Ann\.)?)"
    r"\s{0,3}§§?\s{0,3}" + _STATE_SECTION + _SUBS
)


def _subdivisions(text: str | None) -> tuple[str, ...]:
    return tuple(re.findall(r"\(([A-Za-z0-9]{1,6})\)", text or ""))


def _subs_text(subs: tuple[str, ...]) -> str:
    return "".join(f"({s})" for s in subs)


def _year_after(text: str, end: int) -> int | None:
    match = _YEAR.match(text, end)
    if match is None:
        return None
    year = int(match.group(1))
    return year if 1700 <= year <= 2100 else None


def _split_range(section: str, end: str | None, plural: bool) -> tuple[str, str | None]:
    """``1331-1332`` under ``§§`` is a range; ``2000e-2`` is one section."""
    if end is not None:
        return section, end
    if plural and "-" in section:
        first, _, last = section.partition("-")
        if first.isdigit() and last.isdigit() and "-" not in last:
            return first, last
    return section, None


def _usc(text: str, match: re.Match[str]) -> StatuteCitation:
    sign = match.group("sign") or ""
    plural = sign in ("§§", "Sections", "sections", "Secs.", "secs.", "ss.", "Ss.") or (
        sign.lower().startswith("sections")
    )
    section, end = _split_range(match.group("section"), match.group("end"), plural)
    if end is not None and not plural and match.group("end") is not None:
        plural = True
    subs = _subdivisions(match.group("subs"))
    title = match.group("title")
    if end is not None:
        dash = " to " if "-" in section or "-" in end else "-"
        normalized = f"{title} U.S.C. §§ {section}{_subs_text(subs)}{dash}{end}"
    else:
        normalized = f"{title} U.S.C. § {section}{_subs_text(subs)}"
    return StatuteCitation(
        raw=text,
        normalized=normalized,
        system="usc",
        code="U.S.C.",
        title=title,
        section=section,
        section_end=end,
        subdivisions=subs,
        year=_year_after(text, match.end()),
    )


def _cfr(text: str, match: re.Match[str]) -> StatuteCitation:
    subs = _subdivisions(match.group("subs"))
    title, section = match.group("title"), match.group("section")
    return StatuteCitation(
        raw=text,
        normalized=f"{title} C.F.R. § {section}{_subs_text(subs)}",
        system="cfr",
        code="C.F.R.",
        title=title,
        section=section,
        subdivisions=subs,
        year=_year_after(text, match.end()),
    )


def _public_law(text: str, match: re.Match[str]) -> StatuteCitation:
    number = f"{match.group('congress')}-{match.group('number')}"
    return StatuteCitation(
        raw=text,
        normalized=f"Pub. L. No. {number}",
        system="public-law",
        code="Pub. L.",
        title=None,
        section=number,
        year=_year_after(text, match.end()),
    )


def _statutes_at_large(text: str, match: re.Match[str]) -> StatuteCitation:
    volume, page = match.group("volume"), match.group("page")
    return StatuteCitation(
        raw=text,
        normalized=f"{volume} Stat. {page}",
        system="statutes-at-large",
        code="Stat.",
        title=volume,
        section=page,
        year=_year_after(text, match.end()),
    )


def _state(
    text: str,
    match: re.Match[str],
    state_id: str,
    code: str,
    title: str | None,
) -> StatuteCitation:
    subs = _subdivisions(match.group("subs"))
    section = match.group("section").rstrip(".")
    if code == "Mass. Gen. Laws":
        normalized = f"Mass. Gen. Laws ch. {title}, § {section}{_subs_text(subs)}"
    elif title is not None:
        normalized = f"{title} {code} {section}{_subs_text(subs)}"
        if code == "Pa. Cons. Stat.":
            normalized = f"{title} {code} § {section}{_subs_text(subs)}"
    elif code == "N.Y. C.P.L.R.":
        normalized = f"{code} {section}{_subs_text(subs)}"
    else:
        normalized = f"{code} § {section}{_subs_text(subs)}"
    return StatuteCitation(
        raw=text,
        normalized=normalized,
        system="state-code",
        code=code,
        title=title,
        section=section,
        subdivisions=subs,
        year=_year_after(text, match.end()),
        jurisdiction=jurisdiction_of(state_id),
    )


def _generic_state(text: str, match: re.Match[str]) -> StatuteCitation | None:
    state = " ".join(match.group("state").split())
    state_id = tables().states.get(state)
    if state_id is None:
        return None
    code = f"{state} {' '.join(match.group('kind').split())}"
    return _state(text, match, state_id, code, None)


def _parse(text: str) -> ParsedCitation:
    cleaned = clean(text[:MAX_SCAN])
    found: list[tuple[int, StatuteCitation]] = []
    for pattern, build in (
        (_USC, _usc),
        (_CFR, _cfr),
        (_PUBLIC_LAW, _public_law),
        (_STATUTES_AT_LARGE, _statutes_at_large),
    ):
        match = pattern.search(cleaned)
        if match is not None:
            citation = build(cleaned, match)
            found.append((match.start(), citation))
    for pattern, state_id, name in _STATE_FORMS:
        match = pattern.search(cleaned)
        if match is not None:
            code, title = name(match)
            found.append((match.start(), _state(cleaned, match, state_id, code, title)))
            break
    else:
        match = _GENERIC_STATE.search(cleaned)
        if match is not None:
            generic = _generic_state(cleaned, match)
            if generic is not None:
                found.append((match.start(), generic))
    if not found:
        return NotACitation(kind="statute", raw=text, message=EXPECTED)
    found.sort(key=lambda pair: pair[0])
    return _with_raw(found[0][1], text)


def _with_raw(citation: StatuteCitation, raw: str) -> StatuteCitation:
    import attrs

    return attrs.evolve(citation, raw=raw)


def parse(text: str) -> ParsedCitation:
    """Parse ``text`` as a statute citation; never raises.

    Only the first ``MAX_SCAN`` characters are read: a statute citation is
    short, and the bound keeps hostile input cheap.
    """
    try:
        return _parse(text)
    except Exception as exc:  # a parser bug must not become a failed request
        return NotACitation(kind="statute", raw=text, message=f"{EXPECTED} (parser error: {exc})")


# A year parenthetical right after a statute (``42 U.S.C. § 1983 (2018)``),
# which ``find`` keeps in the citation's span.
YEAR_SUFFIX: Final = re.compile(r"\s{0,3}\((?:[^()]{0,40}?\s)?\d{4}\)")


def patterns() -> tuple[re.Pattern[str], ...]:
    """Every form this parser reads, for ``find`` to run over a whole document."""
    return (
        _USC,
        _CFR,
        _PUBLIC_LAW,
        _STATUTES_AT_LARGE,
        *(form[0] for form in _STATE_FORMS),
        _GENERIC_STATE,
    )
