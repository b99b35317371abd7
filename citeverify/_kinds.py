"""The item kinds of the contract, each described once.

An item kind (``case``, ``quote``, ``statute``, ``rule``, ``constitution``,
``link``) touches the request checker, the parsers, document mode, the report
and the OpenAPI document.  Each of those used to spell out its own list of
kinds, and the lists drifted; now each reads the facts it needs from
``KINDS``, and ``tests/test_kinds.py`` checks that the pieces which must exist
per kind (a parser module, a parse-result class, a finder) agree with it.

What a new kind still needs beyond its row here, because it is behaviour and not
a fact: a parse-result class in ``citations/_types.py``; a module
``citations/<parser>.py`` with ``parse(text)``; if it is found in documents, a
finder in ``citations/_find.py``; if it is looked up, its key in each provider
(``providers/local.py``, ``providers/_memory.py``) and its rows in the store
build; and a row of the verdict table in ``_policy.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import attrs

from citeverify._model import ItemType

__all__ = ["KINDS", "Kind", "kind_names", "quotable_kinds"]


@attrs.frozen(slots=True)
class Kind:
    """One item kind and the facts the rest of citeverify reads about it.

    ``required``: the request fields an item of this kind must carry besides
    ``id`` and ``type``, in the order a request's problems name them.
    ``parser``: the module under ``citeverify.citations`` whose ``parse(text)``
    reads its ``rawText`` (``None`` for a quotation, which has no citation).
    ``label``: what the report calls a parse result of this kind.
    ``in_documents``: found by whole-document mode (links are not: a URL in a
    brief is not a citation we check).  ``quotable``: a quotation may name an
    item of this kind as its parent (an authority with text).
    """

    type: ItemType
    required: tuple[str, ...]
    parser: str | None
    label: str
    in_documents: bool
    quotable: bool

    @property
    def name(self) -> str:
        return self.type.value


_CITATION: Final = ("rawText",)

#: In the contract's order (``ItemType``), which the OpenAPI document keeps.
KINDS: Final[Mapping[str, Kind]] = {
    k.name: k
    for k in (
        Kind(ItemType.CASE, _CITATION, "case", "case citation", True, True),
        Kind(ItemType.QUOTE, ("quoteText", "parentCaseId"), None, "quotation", False, False),
        Kind(ItemType.STATUTE, _CITATION, "statute", "statute citation", True, True),
        Kind(ItemType.RULE, _CITATION, "rule", "rule citation", True, True),
        Kind(
            ItemType.CONSTITUTION, _CITATION, "constitution", "constitution citation", True, True
        ),
        Kind(ItemType.LINK, ("url",), "link", "link", False, False),
    )
}


def kind_names(*, parsed: bool = False, in_documents: bool = False) -> tuple[str, ...]:
    """Names of the kinds that have a parser, or are found in documents, in contract order."""
    return tuple(
        k.name
        for k in KINDS.values()
        if (not parsed or k.parser is not None) and (not in_documents or k.in_documents)
    )


def quotable_kinds() -> str:
    """The kinds a quotation may name as its parent, as prose: "case, statute, rule or …"."""
    *rest, last = (k.name for k in KINDS.values() if k.quotable)
    return f"{', '.join(rest)} or {last}" if rest else last
