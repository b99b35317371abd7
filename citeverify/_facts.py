"""Facts several parts of citeverify need, each written once.

The parsers, the embedded store's build, the link reader and the providers all
speak of the same rule sets and the same jurisdiction ids; a fact that lives in
two places drifts, so they read it from here.
"""

from __future__ import annotations

from typing import Final

import attrs

__all__ = ["RULE_SETS", "RuleSet", "jurisdiction_of"]


@attrs.frozen(slots=True)
class RuleSet:
    """A set of court rules: its id, how it is cited, its name, and where it is published.

    ``uscourts`` is the slug of its page on uscourts.gov (``None`` for the Supreme
    Court's own rules, which are not published there); ``lii`` the slug Cornell's
    Legal Information Institute uses in its URLs.
    """

    id: str
    abbreviation: str
    name: str
    uscourts: str | None
    lii: str


# In the order the corpus build writes them (its output must stay byte-identical).
RULE_SETS: Final[dict[str, RuleSet]] = {
    r.id: r
    for r in (
        RuleSet("frcp", "Fed. R. Civ. P.", "Federal Rules of Civil Procedure",
                "civil-procedure", "frcp"),
        RuleSet("frcrmp", "Fed. R. Crim. P.", "Federal Rules of Criminal Procedure",
                "criminal-procedure", "frcrmp"),
        RuleSet("frbp", "Fed. R. Bankr. P.", "Federal Rules of Bankruptcy Procedure",
                "bankruptcy-procedure", "frbp"),
        RuleSet("fre", "Fed. R. Evid.", "Federal Rules of Evidence", "evidence", "fre"),
        RuleSet("frap", "Fed. R. App. P.", "Federal Rules of Appellate Procedure",
                "appellate-procedure", "frap"),
        RuleSet("scotus", "Sup. Ct. R.", "Rules of the Supreme Court of the United States",
                None, "supct"),
    )
}  # fmt: skip


def jurisdiction_of(court_id: str) -> str:
    """The contract's ``Court.jurisdiction`` for a courts-db id (DESIGN.md).

    ``us`` for the Supreme Court, otherwise ``us-`` and the id (``us-ca9``).
    """
    return "us" if court_id == "scotus" else f"us-{court_id}"
