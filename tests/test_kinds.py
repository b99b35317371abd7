"""The kind registry agrees with the pieces each kind needs, and every reader follows it.

``citeverify._kinds.KINDS`` is the one list of item kinds; the parsers, the
document finders, the request checker, the report and the OpenAPI document read
it.  These tests fail when a kind is added to one place and not the others.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from citeverify import _codec
from citeverify._display import _PARSED_LABELS
from citeverify._kinds import KINDS, kind_names, quotable_kinds
from citeverify._model import ItemType
from citeverify.citations import KINDS as PARSED_KINDS
from citeverify.citations import _types, parse
from citeverify.citations._find import _FINDERS, DEFAULT_KINDS, ShortCitation
from citeverify.errors import ValidationError
from citeverify.http._openapi import openapi_document

# One item of each kind with every field it needs, as a client would send it.
_COMPLETE: dict[str, dict[str, str]] = {
    "case": {"rawText": "Roe v. Wade, 410 U.S. 113 (1973)"},
    "statute": {"rawText": "42 U.S.C. § 1983"},
    "rule": {"rawText": "Fed. R. Civ. P. 12(b)(6)"},
    "constitution": {"rawText": "U.S. Const. amend. I"},
    "quote": {"quoteText": "a quotation", "parentCaseId": "p"},
    "link": {"url": "https://www.courtlistener.com/opinion/108713/roe-v-wade/"},
}


def test_registry_is_the_contract_item_types_in_order() -> None:
    assert list(KINDS) == [t.value for t in ItemType]
    assert all(k.type is ItemType(name) for name, k in KINDS.items())
    assert set(_COMPLETE) == set(KINDS)


def test_every_parsed_kind_has_a_parser_module_and_a_result_class() -> None:
    classes = {
        cls.kind
        for cls in vars(_types).values()
        if isinstance(cls, type) and isinstance(getattr(cls, "kind", None), str)
    }
    assert set(PARSED_KINDS) == classes
    for name in PARSED_KINDS:
        module = importlib.import_module(f"citeverify.citations.{KINDS[name].parser}")
        assert callable(module.parse)
        # parse of the kind's own example reads as that kind, and nonsense says which kind
        # it expected
        assert parse(_COMPLETE[name]["rawText" if name != "link" else "url"], name).kind == name
        assert parse("no citation here", name).kind == name


def test_document_finders_are_the_kinds_found_in_documents_and_short_forms() -> None:
    finders = [kind for kind, _finder in _FINDERS]
    assert set(finders) == set(DEFAULT_KINDS)
    # links and quotations are not citations a document is searched for
    assert ("case", "statute", "rule", "constitution", ShortCitation.kind) == DEFAULT_KINDS
    assert set(kind_names(in_documents=True)) == set(DEFAULT_KINDS) - {ShortCitation.kind}


def test_report_labels_every_parsed_kind() -> None:
    assert set(_PARSED_LABELS) == set(PARSED_KINDS)
    assert len(set(_PARSED_LABELS.values())) == len(_PARSED_LABELS)


def test_openapi_lists_every_kind_and_its_required_fields() -> None:
    schemas = openapi_document()["components"]["schemas"]
    item = schemas["VerifyItem"]
    assert item["properties"]["type"]["enum"] == list(KINDS)
    assert schemas["Result"]["properties"]["type"]["enum"] == list(KINDS)
    required = {rule["if"]["properties"]["type"]["const"]: rule["then"]["required"]
                for rule in item["allOf"]}  # fmt: skip
    assert required == {name: list(k.required) for name, k in KINDS.items()}
    assert quotable_kinds() in item["properties"]["parentCaseId"]["description"]


def _problems(items: list[dict[str, Any]]) -> list[tuple[str, str]]:
    try:
        _codec.validate_request({"items": items})
    except ValidationError as error:
        return [(d["field"], d["message"]) for d in error.details]
    return []


@pytest.mark.parametrize("name", list(KINDS))
def test_request_checker_requires_exactly_the_registry_fields(name: str) -> None:
    parent = {"id": "p", "type": "case", "rawText": "410 U.S. 113"}
    complete = {"id": "x", "type": name, **_COMPLETE[name]}
    assert _problems([parent, complete]) == []
    for field in KINDS[name].required:
        partial = {k: v for k, v in complete.items() if k != field}
        assert (f"items[1].{field}", f"is required for a {name} item") in _problems(
            [parent, partial]
        )


@pytest.mark.parametrize("name", list(KINDS))
def test_a_quotation_may_hang_only_from_a_quotable_kind(name: str) -> None:
    parent = {"id": "p", "type": name, **_COMPLETE[name]}
    if name == "quote":
        parent["parentCaseId"] = "c"
    quote = {"id": "q", "type": "quote", "quoteText": "words", "parentCaseId": "p"}
    case = {"id": "c", "type": "case", "rawText": "410 U.S. 113"}
    problems = [p for p in _problems([case, parent, quote]) if p[0] == "items[2].parentCaseId"]
    if KINDS[name].quotable:
        assert problems == []
    else:
        assert problems == [
            ("items[2].parentCaseId", f"must name a {quotable_kinds()} item, not a {name} item")
        ]
