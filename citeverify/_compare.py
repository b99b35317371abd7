"""Cited-versus-found comparisons, each a deterministic rule over legal attributes.

Every function returns a ``Comparison`` (or ``None`` when the attribute cannot
be compared deterministically: absent from the citation or unknown in the
authority).  Absence means "not compared", never "mismatch".
"""

from __future__ import annotations

import importlib.util
import json
import re
import unicodedata
from collections import defaultdict
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Final, NamedTuple

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

# Abbreviations the U.S. Reports and briefs use that the Bluebook's T6 table (shipped by
# reporters-db as ``case_name_abbreviations.json``) lacks or spells otherwise: the Court's
# own style ("Assn.", "Comm.", "Ed.", "R. Co."), plurals, and apostrophe-less spellings.
_EXTRA_ABBREVIATIONS: Final = {
    "assn": "association",
    "assns": "associations",
    "assoc": "association",
    "cos": "companies",
    "corps": "corporations",
    "dept": "department",
    "ed": "education",
    "no": "number",
    "r": "railroad",
    "rr": "railroad",
    "ry": "railway",
    "u.s": "united states",
    "u.s.a": "united states america",
    "usa": "united states america",
    "us": "united states",
    "mfrs": "manufacturers",
    "nat": "national",
    "servs": "services",
    "bros": "brothers",
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
        "sa",
        "co",
        "corp",
        "inc",
        "ltd",
        "america",
    }
)
# Words of a place's or government's title a brief may drop ("Republic of Philippines"
# for PHILIPPINES, "City of Los Angeles" for LOS ANGELES): a cited one need not be found.
_GENERIC: Final = frozenset(
    {
        "republic",
        "city",
        "county",
        "town",
        "village",
        "borough",
        "township",
        "parish",
        "commonwealth",
        "state",
        "people",
        "municipality",
    }
)
# A party that is only the prosecuting sovereign's title; it names the same party as the
# state's name ("State v. Smith" in the state's own reports, OHIO v. SMITH elsewhere).
_SOVEREIGN: Final = frozenset({("state",), ("people",), ("commonwealth",)})
# First segments of union captions ("INTERNATIONAL UNION, UNITED MINE WORKERS OF AMERICA")
# that the Court's short names skip ("Mine Workers v. Bagwell"): the whole caption is read.
_UNION_HEADS: Final = frozenset(
    {"international", "union", "united", "brotherhood", "local", "national", "amalgamated"}
)
_MAX_NAME = 1000  # characters of a case name read; longer input is cut (bounded work)
_MAX_WORDS = 40  # words of one party compared
_VERSUS: Final = re.compile(r"\s+(?:v\.?|vs\.?|versus)\s+", re.IGNORECASE)
_LOWER_VERSUS: Final = re.compile(r"\s+(?:v\.?|vs\.?|versus)\s+")
# The core of an "et al."/"et ux."/"etc." (``_drop_et_al`` extends it left over ",?\s*").
_ET_AL_CORE: Final = re.compile(r"\bet(?:\.?\s+(?:al|ux|vir)\b\.?,?|c\.,?)", re.IGNORECASE)
_WORD: Final = re.compile(r"[a-z0-9]+(?:'[a-z]+)?(?:\.[a-z0-9]+)*")
_INITIALS: Final = re.compile(r"\b([a-z])\.\s+(?=[a-z]\.)")
_PREFIX: Final = re.compile(
    r"^(?:in\s+re|ex\s+parte|in\s+the\s+matter\s+of|matter\s+of|petition\s+of|application\s+of)\s+",
    re.IGNORECASE,
)
_EX_REL: Final = re.compile(r"\bex\s+rel\.?\s+", re.IGNORECASE)


def _key(abbreviation: str) -> str:
    """An abbreviation as ``_WORD`` reads it: folded, final period and apostrophes dropped."""
    return _fold(abbreviation).rstrip(".").replace("'", "")


def _reporters_db_json(name: str) -> Any:
    """A data file of reporters-db, read without importing the package (which loads 1.4 MB)."""
    spec = importlib.util.find_spec("reporters_db")
    if spec is None or not spec.submodule_search_locations:  # pragma: no cover - a dependency
        return {}
    folder = Path(next(iter(spec.submodule_search_locations)))
    return json.loads((folder / "data" / name).read_text(encoding="utf-8"))


@cache
def _tables() -> tuple[dict[str, tuple[str, ...]], frozenset[tuple[str, ...]]]:
    """Every abbreviation and long form -> its canonical words; the states' names as words.

    Abbreviations with several long forms (``Sec.``: Security, Securities) and the
    long forms themselves are joined into one group, so any spelling of the group
    compares equal to any other.
    """
    table: dict[str, list[str]] = defaultdict(list)
    for abbreviation, longs in _reporters_db_json("case_name_abbreviations.json").items():
        table[_key(abbreviation)] += [_fold(x) for x in longs]
    states: set[tuple[str, ...]] = set()
    for abbreviation, long in _reporters_db_json("state_abbreviations.json").items():
        if _key(abbreviation) != _fold(long):
            table[_key(abbreviation)].append(_fold(long))
        states.add(tuple(_fold(long).split()))
    for abbreviation, long in _EXTRA_ABBREVIATIONS.items():
        table[abbreviation].append(long)
    # Union-find over single words: an abbreviation and its one-word long forms.
    parent: dict[str, str] = {}

    def find(word: str) -> str:
        while parent.get(word, word) != word:
            word = parent[word]
        return word

    for abbreviation, longs in table.items():
        for long in longs:
            if " " in long or abbreviation in _NOISE:
                continue
            a, b = find(abbreviation), find(long)
            if a != b:
                parent[max(a, b)] = min(a, b)
    canonical: dict[str, tuple[str, ...]] = {}
    for abbreviation, longs in table.items():
        multi = [x for x in longs if " " in x]
        if multi:
            canonical[abbreviation] = tuple(_stem(w) for w in multi[0].split())
    words = set(table) | {w for longs in table.values() for x in longs for w in x.split()}
    groups: dict[str, list[str]] = defaultdict(list)
    for word in sorted(words):
        groups[find(word)].append(word)
    for members in groups.values():
        # The group's name: its longest member (a long form, not an abbreviation).
        name = (_stem(max(members, key=lambda w: (len(w), w))),)
        for word in members:
            canonical.setdefault(word, name)
    return canonical, frozenset(states)


def _stem(word: str) -> str:
    """A crude plural fold: "companies" -> "company", "associations" -> "association"."""
    if word[-1:] != "s":  # most words; both rules below need a final "s"
        return word
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _fold(text: str) -> str:
    if text.isascii():
        return text.casefold()
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.replace("\u2019", "'").replace("\u2018", "'").casefold()


def _drop_et_al(name: str) -> str:
    """``name`` with each ``,?\\s*\\bet\\.?\\s+(?:al|ux|vir)\\b\\.?,?|,?\\s*\\betc\\.,?``
    (case-insensitive) replaced by a space.

    Why not that pattern's ``sub``: its optional head made the engine try both
    alternatives at every position of every name (a fifth of a comparison's cost).
    Its matches are exactly the cores ``_ET_AL_CORE`` finds, each extended left
    over the whitespace before it and then one comma, never into the previous
    match; a test compares the two on every pinned name and generated text.
    """
    pieces: list[str] = []
    last = 0
    for core in _ET_AL_CORE.finditer(name):
        start = core.start()
        while start > last and name[start - 1].isspace():
            start -= 1
        if start > last and name[start - 1] == ",":
            start -= 1
        pieces += (name[last:start], " ")
        last = core.end()
    if not pieces:
        return name
    pieces.append(name[last:])
    return "".join(pieces)


def split_parties(name: str) -> tuple[str, ...]:
    """The parties of a case name: ``("roe", "wade")``; one element for ``In re X``."""
    cleaned = name[:_MAX_NAME]
    # Every "et al."/"etc." holds "et": a name without it skips the search.  Only for
    # ASCII, where case-insensitive matching is plain lower-casing.
    if not cleaned.isascii() or "et" in cleaned.lower():
        cleaned = _drop_et_al(cleaned)
    # A lower-case "v." first: "R. A. V. v. St. Paul" and "Verlinden B. V. v. Central Bank"
    # hold a "V." that is an initial.  The first match is where ``split(maxsplit=1)`` cuts.
    versus = _LOWER_VERSUS.search(cleaned)
    if versus is not None:
        parts: list[str] = [cleaned[: versus.start()], cleaned[versus.end() :]]
    else:
        parts = _VERSUS.split(cleaned, maxsplit=1)
    return tuple(filter(None, [p.strip(" ,;") for p in parts]))


class _Party(NamedTuple):
    """A party's identifying words (canonical) and their raw spellings (for initialisms).

    A named tuple, not an attrs class: one is built per party compared, and a
    tuple is built several times faster.
    """

    words: tuple[str, ...]
    raw: tuple[str, ...]
    whole: tuple[str, ...]  # the words of the whole caption, past the first comma
    whole_raw: tuple[str, ...]


def _dropped_words() -> frozenset[str]:
    """Every word ``w`` with ``w in _NOISE or _stem(w) in _NOISE``, listed once.

    A word stems to a noise word ``n`` only as ``n`` itself, ``n + "s"`` or, for
    ``n`` ending in "y", ``n[:-1] + "ies"``: those candidates, checked by the rule.
    """
    candidates = {x for n in _NOISE for x in (n, n + "s", n[:-1] + "ies")}
    return frozenset(w for w in candidates if w in _NOISE or _stem(w) in _NOISE)


_DROPPED: Final = _dropped_words()


def _expand(token: str) -> tuple[str, ...]:
    """A word's canonical pieces that carry identity (none for noise): the general rule.

    ``token`` is a word as ``_WORD`` reads it, final period and apostrophes dropped.
    """
    canonical, _ = _tables()
    if token in _NOISE and token not in canonical:
        return ()
    expanded = canonical.get(token)
    if expanded is None:
        plain = token.replace(".", "")
        expanded = canonical.get(plain)
        if not expanded:
            stem = _stem(plain)
            expanded = canonical.get(stem, (stem,))
    if len(expanded) == 1:  # most words: one piece, kept or not (no generator)
        return () if expanded[0] in _DROPPED else expanded
    return tuple(p for p in expanded if p not in _DROPPED)


def _expand_with_raw(token: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``_expand(token)`` and, for each piece, the spelling the initialism checks read."""
    pieces = _expand(token)
    return pieces, (token.replace(".", ""),) * len(pieces)


@cache
def _known() -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """``_expand_with_raw`` of every word the tables and the noise list name, computed once.

    Most words of a case name are names (Roe, Wade) that ``_expand`` reads in a
    few steps; the table words (abbreviations, their long forms, noise) are the
    ones whose expansion takes many, so those are answered from this table.
    """
    canonical, _ = _tables()
    return {token: _expand_with_raw(token) for token in (*canonical, *_NOISE)}


def _words(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    known = _known()
    words: list[str] = []
    raw_words: list[str] = []
    # Initials with spaces ("r. a. v.") hold a period; a search first, as ``sub`` with a
    # template costs several times a search even where nothing matches.
    if "." in text and _INITIALS.search(text):
        text = _INITIALS.sub(r"\1.", text)
    # ``_WORD`` never ends a word with a period or an apostrophe.
    for raw in _WORD.findall(text):
        token = raw.replace("'", "")
        entry = known.get(token)
        if entry is None:
            if token[-1] != "s" and "." not in token:
                # Fast path, most names (Roe, Wade): a word no table names, with no
                # period and no plural ending, is its own single piece; ``_expand``
                # gives the same (tested over every pinned word).
                entry = (token,), (token,)
            else:
                entry = _expand_with_raw(token)
        pieces, raws = entry
        if pieces:
            words += pieces
            raw_words += raws
            if len(words) >= _MAX_WORDS:
                break
    return tuple(words), tuple(raw_words)


# First words of the texts ``_PREFIX`` removes: a party opening with none skips it.
_PREFIX_HEADS: Final = ("in", "ex", "matter", "petition", "application")


@lru_cache(maxsize=65536)
def _party(party: str) -> _Party:
    text = _fold(party)
    # The prefix and "ex rel." substitutions run only where they can match (for
    # ASCII, where the folded text is what their case-insensitive patterns see).
    ascii_text = text.isascii()
    if not ascii_text or text.startswith(_PREFIX_HEADS):
        text = _PREFIX.sub("", text)
    if not ascii_text or "rel" in text:
        text = _EX_REL.sub(" ", text)
    head = text.split(",", 1)[0]
    words, raw = _words(head)
    whole, whole_raw = words, raw
    if "," in text and set(words) <= _UNION_HEADS:
        whole, whole_raw = _words(text.replace(",", " "))
    # ``tuple.__new__`` skips the named tuple's Python-level ``__new__`` (one per party).
    return tuple.__new__(_Party, (words, raw, whole, whole_raw))


def normalize_party(party: str) -> tuple[str, ...]:
    """A party's identifying words: folded, abbreviations expanded, noise and descriptors dropped.

    ``"WADE, DISTRICT ATTORNEY OF DALLAS COUNTY"`` gives ``("wade",)``: what
    follows the first comma describes the party (an office, a capacity).
    """
    return _party(party).words


def _initials(found: tuple[str, ...]) -> str:
    return "".join(f[0] for f in found)


def _near(a: str, b: str) -> bool:
    """One typo apart (a letter changed, added, dropped or two swapped), in a long word.

    The Database misspells a few parties (GONZALES for Gonzalez, SHINESKI for Shinseki).
    Only words of eight letters or more: Johnson and Johnston are different parties.
    """
    if min(len(a), len(b)) < 8 or abs(len(a) - len(b)) > 1 or a[0] != b[0] or len(a) > 40:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2
            and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]]
            and a[diff[1]] == b[diff[0]]
        )
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _word_in(word: str, raw: str, found: tuple[str, ...], found_raw: tuple[str, ...]) -> bool:
    if word in found:
        return True
    # NLRB, NAACP, INS, EPA: the initials of a run of the found words (three letters at
    # least: a two-letter surname, Ng, could otherwise pass as initials).
    if len(raw) >= 3 and raw in _initials(found):
        return True
    return any(_near(raw, f) for f in found_raw)


def _words_match(cited: _Party, found_words: tuple[str, ...], found_raw: tuple[str, ...]) -> bool:
    wanted = [
        (w, r) for w, r in zip(cited.words, cited.raw, strict=True) if w not in _GENERIC
    ] or list(zip(cited.words, cited.raw, strict=True))
    for w, r in wanted:
        # ``w in found_words`` first, inline: most cited words are found as they are.
        if w not in found_words and not _word_in(w, r, found_words, found_raw):
            break
    else:
        return True
    # The found party as an initialism of the cited one ("NRDC" found, the full name cited).
    if len(found_raw) == 1 and len(found_raw[0]) >= 2 and _initials(cited.words) == found_raw[0]:
        return True
    # Short forms: a cited party may abbreviate the found one word by word
    # (Twombly's "Bell Atl. Corp." for "Bell Atlantic Corp.") or be its start.
    return len(cited.words) <= len(found_words) and all(
        f.startswith(c) for c, f in zip(cited.words, found_words, strict=False)
    )


def _party_matches(cited: _Party, found: _Party) -> bool:
    if not cited.words or not found.words:
        return False
    if _words_match(cited, found.words, found.raw):
        return True
    if found.whole != found.words and _words_match(cited, found.whole, found.whole_raw):
        return True
    _, states = _tables()
    return (cited.words in _SOVEREIGN and found.words in states) or (
        found.words in _SOVEREIGN and cited.words in states
    )


@lru_cache(maxsize=65536)
def name_matches(cited: str, found: str) -> bool:
    """Whether a cited case name names the found authority.

    Each cited party must match the found party in the same position, on
    normalised words (a short form is fine: "Roe v. Wade" names
    "ROE et al. v. WADE, DISTRICT ATTORNEY OF DALLAS COUNTY"); a cited name
    with one party ("Miranda") matches either found party, and a cited
    ``In re X`` or ``Ex parte X`` the found first party.  Initialisms
    ("NRDC"), Bluebook abbreviations, corporate suffixes, descriptors after a
    comma, plurals and one typo in a long word are tolerated; another party's
    name is not.
    """
    cited_parties = [p for p in map(_party, split_parties(cited)) if p.words]
    found_parties = [p for p in map(_party, split_parties(found)) if p.words]
    if not cited_parties or not found_parties:
        return False
    if len(cited_parties) > len(found_parties):
        # "In re Gault" cited as "Gault v. Arizona"? Not the same name.
        return False
    if len(cited_parties) == 1 and len(found_parties) == 2:
        if _PREFIX.match(_fold(cited.strip())):
            # "Ex parte Gordon" is not "Canal Co. v. Gordon"; "In re Smith" may be
            # the bankrupt's own appeal, "Smith v. Jones".
            return _party_matches(cited_parties[0], found_parties[0])
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


def cache_clear() -> None:
    """Forget cached name comparisons (for benchmarks: a cold figure must not be answered
    by comparisons a warm-up made)."""
    name_matches.cache_clear()
    _party.cache_clear()
