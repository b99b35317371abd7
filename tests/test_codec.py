"""The contract codec: strict request validation and contract-shaped responses."""

from __future__ import annotations

import contextlib
import json
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citeverify import _codec
from citeverify import _model as m
from citeverify.errors import ValidationError


def fields(exc: pytest.ExceptionInfo[ValidationError]) -> list[str]:
    return [d["field"] for d in exc.value.details]


def case(ident: str = "1", **extra: object) -> dict[str, object]:
    return {"id": ident, "type": "case", "rawText": "410 U.S. 113", **extra}


class TestStructureRequest:
    def test_valid_request_structures_every_field(self) -> None:
        """Every item field reaches the model under its Python name."""
        body = {
            "items": [
                case("a", context="see"),
                {"id": "q", "type": "quote", "quoteText": "x y", "parentCaseId": "a"},
                {"id": "l", "type": "link", "url": "https://example.com", "rawText": "y"},
            ]
        }
        items = _codec.structure_request(body)
        assert items[0] == m.VerifyItem(
            id="a", type=m.ItemType.CASE, raw_text="410 U.S. 113", context="see"
        )
        assert items[1].quote_text == "x y"
        assert items[1].parent_case_id == "a"
        assert items[2].url == "https://example.com"

    def test_json_text_and_bytes_are_accepted(self) -> None:
        """A body may be JSON text or bytes as well as a dict."""
        body = {"items": [case()]}
        assert _codec.structure_request(json.dumps(body)) == _codec.structure_request(body)
        assert _codec.structure_request(json.dumps(body).encode()) == _codec.structure_request(body)

    def test_all_problems_are_reported_at_once(self) -> None:
        """One ValidationError lists every problem with its field path."""
        body = {
            "items": [
                {"id": 1, "type": "case", "extra": True},
                {"id": "b", "type": "nope"},
                {"id": "c", "type": "quote"},
            ],
            "other": 1,
        }
        with pytest.raises(ValidationError) as exc:
            _codec.structure_request(body)
        assert set(fields(exc)) >= {
            "other",
            "items[0].extra",
            "items[0].id",
            "items[0].rawText",
            "items[1].type",
            "items[2].quoteText",
            "items[2].parentCaseId",
        }

    @pytest.mark.parametrize("value", [1, None, True, 1.5, [], {}])
    def test_non_strings_are_never_coerced(self, value: object) -> None:
        """1, null, true, arrays and objects are not strings."""
        with pytest.raises(ValidationError) as exc:
            _codec.structure_request({"items": [case(rawText=value)]})
        assert fields(exc) == ["items[0].rawText"]

    @pytest.mark.parametrize(
        ("body", "field"),
        [
            ({}, "items"),
            ({"items": []}, "items"),
            ({"items": "x"}, "items"),
            ({"items": [1]}, "items[0]"),
            ([], "body"),
            ("x", "body"),
        ],
    )
    def test_shape_errors_name_the_field(self, body: object, field: str) -> None:
        """A body of the wrong shape names where it is wrong."""
        with pytest.raises(ValidationError) as exc:
            _codec.validate_request(body)
        assert fields(exc) == [field]

    @pytest.mark.parametrize(
        ("item", "field"),
        [
            ({"id": "1", "type": "case"}, "rawText"),
            ({"id": "1", "type": "statute"}, "rawText"),
            ({"id": "1", "type": "rule"}, "rawText"),
            ({"id": "1", "type": "constitution"}, "rawText"),
            ({"id": "1", "type": "link", "rawText": "x"}, "url"),
            ({"id": "1", "type": "case", "rawText": "x", "id2": "y"}, "id2"),
            ({"id": "", "type": "case", "rawText": "x"}, "id"),
        ],
    )
    def test_per_type_requirements(self, item: dict[str, str], field: str) -> None:
        """Each item type requires the fields it is checked with."""
        with pytest.raises(ValidationError) as exc:
            _codec.structure_request({"items": [item]})
        assert f"items[0].{field}" in fields(exc)

    def test_duplicate_ids_are_rejected(self) -> None:
        """Ids are unique within a request."""
        with pytest.raises(ValidationError) as exc:
            _codec.structure_request({"items": [case("a"), case("a")]})
        assert fields(exc) == ["items[1].id"]

    @pytest.mark.parametrize(
        ("parent", "message"),
        [("zzz", "no item"), ("q0", "quote"), ("l", "link")],
    )
    def test_quote_parent_must_be_a_citation_item(self, parent: str, message: str) -> None:
        """A quote's parent is a case, statute, rule or constitution item of the request."""
        body = {
            "items": [
                {"id": "q0", "type": "quote", "quoteText": "a", "parentCaseId": "c"},
                case("c"),
                {"id": "l", "type": "link", "url": "https://x.org"},
                {"id": "q", "type": "quote", "quoteText": "a", "parentCaseId": parent},
            ]
        }
        with pytest.raises(ValidationError) as exc:
            _codec.structure_request(body)
        assert fields(exc) == ["items[3].parentCaseId"]
        assert message in exc.value.details[0]["message"]

    def test_limits_are_enforced_and_named(self) -> None:
        """Item count and string length limits answer ValidationError naming the field."""
        limits = _codec.Limits(max_items=2, max_raw_text_length=10)
        with pytest.raises(ValidationError) as exc:
            _codec.structure_request({"items": [case("a"), case("b"), case("c")]}, limits)
        assert fields(exc) == ["items"]
        with pytest.raises(ValidationError) as exc:
            _codec.structure_request({"items": [case(rawText="x" * 11)]}, limits)
        assert fields(exc) == ["items[0].rawText"]

    def test_problem_list_is_bounded(self) -> None:
        """A request with thousands of problems reports a bounded list."""
        body = {"items": [{"bad": 1}] * 900}
        with pytest.raises(ValidationError) as exc:
            _codec.structure_request(body)
        assert 0 < len(exc.value.details) <= _codec.DEFAULT_LIMITS.max_problems


class TestHostileBodies:
    @pytest.mark.parametrize(
        "body",
        [
            b"not json",
            b"",
            b'{"items": [NaN]}',
            b'{"items": Infinity}',
            b'{"items": -Infinity}',
            b"[" * 100_000 + b"]" * 100_000,
            b'{"items": [' * 50_000,
            b"1" + b"0" * 10_000,
            b'{"items": [{"id": "1", "type": "case", "rawText": "'
            + b"9" * 10_000
            + b'"}], "n": '
            + b"9" * 10_000
            + b"}",
            b'"\\ud800"',
            b'{"items": [{"id": "\\ud800", "type": "case", "rawText": "x"}]}',
            b"\xff\xfe\x00",
            b"[]",
            b"null",
        ],
    )
    def test_hostile_body_is_a_validation_error_in_bounded_time(self, body: bytes) -> None:
        """Malformed, deep, huge-number and surrogate bodies raise ValidationError only."""
        started = time.perf_counter()
        with pytest.raises(ValidationError):
            _codec.structure_request(body)
        assert time.perf_counter() - started < 2.0

    def test_body_size_limit(self) -> None:
        """A body over the byte limit is refused before it is parsed."""
        limits = _codec.Limits(max_body_bytes=100)
        with pytest.raises(ValidationError) as exc:
            _codec.structure_request(b" " * 101, limits)
        assert fields(exc) == ["body"]

    @settings(max_examples=200, deadline=None)
    @given(st.binary(max_size=200))
    def test_any_bytes_give_items_or_validation_error(self, body: bytes) -> None:
        """Arbitrary bytes never raise anything but ValidationError."""
        with contextlib.suppress(ValidationError):
            _codec.structure_request(body)


class TestUnstructure:
    def test_absent_optionals_are_omitted_and_names_are_the_contracts(self) -> None:
        """Optional fields that are absent are left out; JSON names come from the contract."""
        result = m.Result(
            id="1",
            type=m.ItemType.CASE,
            citation=m.Citation(raw="x"),
            verdict=m.Verdict(status=m.Status.VERIFIED, as_of="2023-01-01T00:00:00Z"),
            evidence=m.Evidence((m.Comparison("year", None, "1973", False),)),
            opinion=m.Opinion(court=m.Court(name="S"), case_name="A v. B"),
        )
        assert _codec.to_dict(result) == {
            "id": "1",
            "type": "case",
            "citation": {"raw": "x"},
            "verdict": {"status": "verified", "asOf": "2023-01-01T00:00:00Z"},
            "evidence": {
                "comparisons": [
                    {"attribute": "year", "cited": None, "found": "1973", "match": False}
                ]
            },
            "opinion": {"court": {"name": "S"}, "caseName": "A v. B"},
        }

    def test_summary_uses_contract_names(self) -> None:
        """Summary keeps its snake_case fields and camel-case overallStatus."""
        summary = m.Summary(1, 0, 0, 1, 1, 1, True, True, m.Status.VERIFIED)
        out = _codec.to_dict(summary)
        assert out["overallStatus"] == "verified"
        assert out["unique_citations"] == 1
        assert out["is_fully_accounted"] is True


class TestPlainJsonValues:
    def test_enums_become_plain_strings(self) -> None:
        """Unstructured enums are plain str values, not enum objects."""
        out = _codec.to_dict(m.Verdict(status=m.Status.WARNING))
        assert type(out["status"]) is str
        item = _codec.to_dict(m.VerifyItem(id="1", type=m.ItemType.CASE, raw_text="x"))
        assert type(item["type"]) is str
