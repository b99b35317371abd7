"""Cited-versus-found comparisons, each a deterministic rule over legal attributes.

Every function returns a ``Comparison`` (or ``None`` when the attribute cannot
be compared deterministically: absent from the citation or unknown in the
authority).  Absence means "not compared", never "mismatch".
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Final

from citeverify._model import Comparison
from citeverify.citations._types import CaseCitation, Pinpoint
from citeverify.providers._base import Authority

__all__ = [
    "compare_case_name",
    "compare_court",
    "compare_pinpoint",
    "compare_year",
    "name_matches",
    "normalize_party",
    "split_parties",
]

# Bluebook T6/T10 abbreviations and their long forms, folded to one spelling.
_ABBREVIATIONS: Final = {
    "ass'n": "association",
    "assn": "association",
    "assoc": "association",
    "co": "company",
    "corp": "corporation",
    "inc": "incorporated",
    "ltd": "limited",
    "dep't": "department",
    "dept": "department",
    "nat'l": "national",
    "natl": "national",
    "int'l": "international",
    "intl": "international",
    "comm'n": "commission",
    "commn": "commission",
    "comm'r": "commissioner",
    "commr": "commissioner",
    "bd": "board",
    "educ": "education",
    "gov't": "government",
    "govt": "government",
    "univ": "university",
    "ry": "railway",
    "r.r": "railroad",
    "rr": "railroad",
    "fed": "federal",
    "am": "american",
    "atl": "atlantic",
    "s": "southern",
    "n": "northern",
    "e": "eastern",
    "w": "western",
    "sec": "securities",
    "sec'y": "secretary",
    "secy": "secretary",
    "admin": "administration",
    "adm'r": "administrator",
    "bros": "brothers",
    "cnty": "county",
    "cty": "county",
    "ctr": "center",
    "dist": "district",
    "div": "division",
    "envtl": "environmental",
    "fin": "financial",
    "hosp": "hospital",
    "ins": "insurance",
    "indus": "industries",
    "mfg": "manufacturing",
    "mut": "mutual",
    "mun": "municipal",
    "prods": "products",
    "sch": "school",
    "serv": "service",
    "servs": "services",
    "soc'y": "society",
    "sys": "system",
    "tel": "telephone",
    "transp": "transportation",
    "twp": "township",
    "u.s": "united states",
    "us": "united states",
    "u.s.a": "united states",
    "usa": "united states",
    "st": "state",
    "pub": "public",
    "prof'l": "professional",
    "elec": "electric",
    "auth": "authority",
    "cal": "california",
    "tex": "texas",
    "fla": "florida",
    "pa": "pennsylvania",
    "mass": "massachusetts",
    "mich": "michigan",
    "ill": "illinois",
    "n.y": "new york",
    "ny": "new york",
    "ohio": "ohio",
    "va": "virginia",
    "wash": "washington",
    "ga": "georgia",
    "n.j": "new jersey",
    "nj": "new jersey",
    "ala": "alabama",
    "ariz": "arizona",
    "ark": "arkansas",
    "colo": "colorado",
    "conn": "connecticut",
    "del": "delaware",
    "ind": "indiana",
    "kan": "kansas",
    "ky": "kentucky",
    "la": "louisiana",
    "md": "maryland",
    "minn": "minnesota",
    "miss": "mississippi",
    "mo": "missouri",
    "mont": "montana",
    "neb": "nebraska",
    "nev": "nevada",
    "okla": "oklahoma",
    "or": "oregon",
    "tenn": "tennessee",
    "wis": "wisconsin",
    "wyo": "wyoming",
}
# Words that carry no identity: dropped before comparing party names.
_NOISE: Final = frozenset(
    {
        "the",
        "of",
        "and",
        "a",
        "an",
        "for",
        "in",
        "on",
        "at",
        "to",
        "by",
        "et",
        "al",
        "&",
        "company",
        "corporation",
        "incorporated",
        "limited",
        "llc",
        "lp",
        "llp",
        "plc",
        "na",
        "co",
        "corp",
        "inc",
        "ltd",
    }
)
_VERSUS: Final = re.compile(r"\s+(?:v\.?|vs\.?|versus)\s+", re.IGNORECASE)
_ET_AL: Final = re.compile(r",?\s*\bet\.?\s+al\.?,?", re.IGNORECASE)
_WORD: Final = re.compile(r"[a-z0-9]+(?:'[a-z]+)?(?:\.[a-z]+)*")
_PREFIX: Final = re.compile(
    r"^(?:in\s+re|ex\s+parte|in\s+the\s+matter\s+of|matter\s+of|petition\s+of|application\s+of)\s+",
    re.IGNORECASE,
)
_EX_REL: Final = re.compile(r"\bex\s+rel\.?\s+", re.IGNORECASE)


def _fold(text: str) -> str:
    if text.isascii():
        return text.casefold()
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.replace("\u2019", "'").replace("\u2018", "'").casefold()


def split_parties(name: str) -> tuple[str, ...]:
    """The parties of a case name: ``("roe", "wade")``; one element for ``In re X``."""
    cleaned = _ET_AL.sub(" ", name)
    parts = _VERSUS.split(cleaned, maxsplit=1)
    return tuple(p.strip(" ,;") for p in parts if p.strip(" ,;"))


@lru_cache(maxsize=65536)
def normalize_party(party: str) -> tuple[str, ...]:
    """A party's identifying words: folded, abbreviations expanded, noise and descriptors dropped.

    ``"WADE, DISTRICT ATTORNEY OF DALLAS COUNTY"`` gives ``("wade",)``: what
    follows the first comma describes the party (an office, a capacity).
    """
    text = _fold(party)
    text = _PREFIX.sub("", text)
    text = _EX_REL.sub(" ", text)
    text = text.split(",", 1)[0]
    words: list[str] = []
    for raw in _WORD.findall(text):
        word = raw.rstrip(".")
        word = _ABBREVIATIONS.get(word, word)
        for piece in word.split():
            if piece not in _NOISE:
                words.append(piece.replace("'", ""))
    return tuple(words)


def _is_initialism(word: str, found: tuple[str, ...]) -> bool:
    """Whether ``word`` spells the initials of consecutive found words (NLRB, FCC)."""
    # A run of consecutive words spells ``word`` exactly when ``word`` is a
    # substring of the string of all the words' first letters.
    return len(word) >= 2 and word in "".join(f[0] for f in found)


def _party_matches(cited: tuple[str, ...], found: tuple[str, ...]) -> bool:
    if not cited:
        return False
    found_set = set(found)
    if all(word in found_set or _is_initialism(word, found) for word in cited):
        return True
    # Short forms: a cited party may abbreviate the found one word by word
    # (Twombly's "Bell Atl. Corp." for "Bell Atlantic Corp.") or be its start.
    return len(cited) <= len(found) and all(
        f.startswith(c) for c, f in zip(cited, found, strict=False)
    )


@lru_cache(maxsize=65536)
def name_matches(cited: str, found: str) -> bool:
    """Whether a cited case name names the found authority.

    Each cited party must match the found party in the same position, on
    normalised words (a short form is fine: "Roe v. Wade" names
    "ROE et al. v. WADE, DISTRICT ATTORNEY OF DALLAS COUNTY"); a cited name
    with one party ("Miranda") matches the found first party.  Another case's
    name does not match.
    """
    cited_parties = [normalize_party(p) for p in split_parties(cited)]
    found_parties = [normalize_party(p) for p in split_parties(found)]
    cited_parties = [p for p in cited_parties if p]
    found_parties = [p for p in found_parties if p]
    if not cited_parties or not found_parties:
        return False
    if len(cited_parties) > len(found_parties):
        # "In re Gault" cited as "Gault v. Arizona"? Not the same name.
        return False
    if len(cited_parties) == 1 and len(found_parties) == 2:
        # One cited party: the short name of the case, which courts take from
        # the first party not a government ("Miranda", but "Lopez" for
        # United States v. Lopez).
        return any(_party_matches(cited_parties[0], p) for p in found_parties)
    return all(_party_matches(c, f) for c, f in zip(cited_parties, found_parties, strict=False))


def compare_case_name(citation: CaseCitation, authority: Authority) -> Comparison | None:
    if not citation.case_name or not authority.name:
        return None
    return Comparison(
        attribute="caseName",
        cited=citation.case_name,
        found=authority.name,
        match=name_matches(citation.case_name, authority.name),
    )


def compare_year(
    citation: CaseCitation, authority: Authority
) -> tuple[Comparison | None, str | None]:
    """The year comparison and, when a filing date was given one year's slack, a note."""
    if citation.year is None or authority.decided is None:
        return None, None
    found = authority.decided.year
    note = None
    match = citation.year == found
    if not match and authority.date_is_filing and citation.year == found + 1:
        match = True
        note = (
            f"the source records only a filing date in {found}; the decision may be from "
            f"{citation.year}"
        )
    return Comparison("year", str(citation.year), str(found), match), note


def compare_court(citation: CaseCitation, authority: Authority) -> Comparison | None:
    if citation.court is None or authority.court_id is None:
        return None
    found_name = authority.court.name or authority.court_id
    return Comparison(
        attribute="court",
        cited=citation.court.cited or citation.court.name,
        found=found_name,
        match=citation.court.id == authority.court_id,
    )


def page_range_text(authority: Authority) -> str | None:
    if authority.first_page is None:
        return None
    if authority.last_page is None or authority.last_page == authority.first_page:
        return (
            str(authority.first_page)
            if authority.last_page is not None
            else f"{authority.first_page}-?"
        )
    return f"{authority.first_page}-{authority.last_page}"


def compare_pinpoint(pin: Pinpoint | None, authority: Authority) -> Comparison | None:
    """Whether the pin falls inside the authority's page range.

    Compared only when the pin is numeric and the range is known at both ends,
    or when the pin precedes the first page (wrong whatever the last page is).
    """
    if pin is None or pin.first is None or authority.first_page is None:
        return None
    first = pin.first
    last = pin.last if pin.last is not None else first
    if first < authority.first_page:
        return Comparison("pinpoint", pin.text, page_range_text(authority), False)
    if authority.last_page is None:
        return None
    match = last <= authority.last_page and first <= last
    return Comparison("pinpoint", pin.text, page_range_text(authority), match)
