"""A JSON Schema of the v1.1 Response, written from the contract text (not from our model).

Optional fields are listed with their types; required fields as the contract
says; ``additionalProperties`` false exactly where the contract forbids extras
(Comparison, Identifier, QuoteLocation, DocumentPosition, the error envelope).
"""

from __future__ import annotations

from typing import Any

STATUS = {"enum": ["verified", "warning", "critical"]}
ITEM_TYPE = {"enum": ["case", "quote", "statute", "rule", "constitution", "link"]}
STR = {"type": "string"}
INT = {"type": "integer"}
BOOL = {"type": "boolean"}

RESPONSE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["results", "summary", "usage"],
    "properties": {
        "results": {"type": "array", "items": {"$ref": "#/$defs/Result"}},
        "summary": {"$ref": "#/$defs/Summary"},
        "usage": {"$ref": "#/$defs/Usage"},
    },
    "$defs": {
        "Result": {
            "type": "object",
            "required": ["id", "type", "citation", "verdict"],
            "properties": {
                "id": STR,
                "type": ITEM_TYPE,
                "citation": {"$ref": "#/$defs/Citation"},
                "verdict": {"$ref": "#/$defs/Verdict"},
                "evidence": {"$ref": "#/$defs/Evidence"},
                "opinion": {"$ref": "#/$defs/Opinion"},
                "quote": {"$ref": "#/$defs/Quote"},
                "citationId": STR,
                "position": {"$ref": "#/$defs/DocumentPosition"},
            },
        },
        "Citation": {
            "type": "object",
            "required": ["raw"],
            "properties": {
                "raw": STR,
                "normalized": STR,
                "system": STR,
                "components": {
                    "type": "object",
                    "properties": {
                        "volume": STR,
                        "reporter": STR,
                        "page": STR,
                        "pinpoint": STR,
                        "year": INT,
                    },
                },
            },
        },
        "Verdict": {
            "type": "object",
            "required": ["status"],
            "properties": {
                "status": STATUS,
                "outcome": STR,
                "message": STR,
                "method": STR,
                "asOf": {"type": "string", "format": "date-time"},
                "language": STR,
            },
        },
        "Evidence": {
            "type": "object",
            "required": ["comparisons"],
            "additionalProperties": False,
            "properties": {
                "comparisons": {"type": "array", "items": {"$ref": "#/$defs/Comparison"}}
            },
        },
        "Comparison": {
            "type": "object",
            "required": ["attribute", "cited", "found", "match"],
            "additionalProperties": False,
            "properties": {
                "attribute": {"type": "string", "not": {"const": "volume"}},
                "cited": {"type": ["string", "null"]},
                "found": {"type": ["string", "null"]},
                "match": BOOL,
            },
        },
        "Opinion": {
            "type": "object",
            "required": ["court"],
            "properties": {
                "court": {
                    "type": "object",
                    "properties": {"name": STR, "jurisdiction": STR},
                },
                "caseName": STR,
                "year": INT,
                "citations": {"type": "array", "items": STR},
                "documents": {"type": "array", "items": {"$ref": "#/$defs/Document"}},
                "reference": STR,
            },
        },
        "Document": {
            "type": "object",
            "required": ["provider", "url"],
            "properties": {
                "provider": STR,
                "url": STR,
                "format": {"enum": ["html", "pdf"]},
                "official": BOOL,
                "language": STR,
                "identifiers": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["provider", "kind", "id"],
                        "additionalProperties": False,
                        "properties": {"provider": STR, "kind": STR, "id": STR},
                    },
                },
            },
        },
        "Quote": {
            "type": "object",
            "required": ["matched"],
            "properties": {
                "matched": BOOL,
                "snippet": STR,
                "passage": STR,
                "location": {
                    "type": "object",
                    "additionalProperties": False,
                    "properties": {"page": INT, "paragraph": INT},
                },
            },
        },
        "DocumentPosition": {
            "type": "object",
            "required": ["start", "end"],
            "additionalProperties": False,
            "properties": {
                "start": {"type": "integer", "minimum": 0},
                "end": {"type": "integer", "minimum": 0},
                "text": STR,
            },
        },
        "Summary": {
            "type": "object",
            "required": [
                "verified",
                "warning",
                "critical",
                "total",
                "unique_citations",
                "billed_citations",
                "is_fully_verified",
                "is_fully_accounted",
                "overallStatus",
            ],
            "properties": {
                "verified": INT,
                "warning": INT,
                "critical": INT,
                "total": INT,
                "unique_citations": INT,
                "billed_citations": INT,
                "is_fully_verified": BOOL,
                "is_fully_accounted": BOOL,
                "overallStatus": STATUS,
            },
        },
        "Usage": {
            "type": "object",
            "required": ["used", "remaining", "limit"],
            "properties": {"used": INT, "remaining": INT, "limit": INT},
        },
    },
}

V11_RESERVED = ("citationId", "position")


def assert_no_nulls_outside_comparisons(value: Any, path: str = "$") -> None:
    """The contract allows null only in Comparison.cited and Comparison.found."""
    if isinstance(value, dict):
        for key, item in value.items():
            if item is None:
                assert path.endswith("comparisons[]"), f"{path}.{key}"
                assert key in ("cited", "found"), f"{path}.{key}"
            else:
                assert_no_nulls_outside_comparisons(item, f"{path}.{key}")
    elif isinstance(value, list):
        for item in value:
            assert_no_nulls_outside_comparisons(item, f"{path}[]")
