"""The OpenAPI 3.1 document of the service, written from the v1.1 contract.

Request schemas carry the service's own limits (item count, string lengths) so
a client or fuzzer generating from the document stays inside them; response
schemas follow the contract: extra properties allowed except where it forbids
them (Comparison, Identifier, QuoteLocation, DocumentPosition, the outer error
envelope).  Cross-item rules (unique ids, a quote's parent present in the same
request) cannot be stated in JSON Schema; the 422 ``details`` name them.
"""

from __future__ import annotations

import copy
from typing import Any

from citeverify._codec import DEFAULT_LIMITS, Limits
from citeverify._kinds import KINDS, quotable_kinds
from citeverify._version import CONTRACT_VERSION, __version__
from citeverify.http._limits import DOCUMENT_TYPES, MAX_DOCUMENT_BYTES

__all__ = ["openapi_document"]

_STR: dict[str, Any] = {"type": "string"}
_INT: dict[str, Any] = {"type": "integer"}
_BOOL: dict[str, Any] = {"type": "boolean"}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _request_schemas(limits: Limits) -> dict[str, Any]:
    def text(max_length: int, description: str) -> dict[str, Any]:
        return {"type": "string", "maxLength": max_length, "description": description}

    return {
        "VerifyRequest": {
            "type": "object",
            "additionalProperties": False,
            "required": ["items"],
            "properties": {
                "items": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": limits.max_items,
                    "items": _ref("VerifyItem"),
                    "description": "Citations and quotations, in document order.",
                }
            },
        },
        "VerifyItem": {
            "type": "object",
            "additionalProperties": False,
            "required": ["id", "type"],
            "properties": {
                "id": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": limits.max_id_length,
                    "description": "Client-supplied; echoed on the result; unique in the request.",
                },
                "type": {"type": "string", "enum": list(KINDS)},
                "rawText": text(limits.max_raw_text_length, "The citation text."),
                "quoteText": text(limits.max_quote_length, "The quotation (quote items)."),
                "parentCaseId": text(
                    limits.max_id_length,
                    f"For a quote: the id of a {quotable_kinds()} item of the same request.",
                ),
                "context": text(limits.max_context_length, "Surrounding text."),
                "url": text(limits.max_url_length, "The URL to verify (link items)."),
            },
            "allOf": [
                {
                    "if": {"properties": {"type": {"const": k.name}}, "required": ["type"]},
                    "then": {"required": list(k.required)},
                }
                # the citation kinds first, as this document has always listed them
                for k in sorted(KINDS.values(), key=lambda k: not k.quotable)
            ],
        },
    }


def _response_schemas() -> dict[str, Any]:
    status = {"type": "string", "enum": ["verified", "warning", "critical"]}
    return {
        "Response": {
            "type": "object",
            "required": ["results", "summary", "usage"],
            "properties": {
                "results": {"type": "array", "items": _ref("Result")},
                "summary": _ref("Summary"),
                "usage": _ref("Usage"),
                "document": _ref("DocumentText"),
            },
        },
        "DocumentText": {
            "type": "object",
            "description": (
                "Whole-document mode, for PDF and Word input: the extracted text that the "
                "results' positions index, and the offset where each page begins."
            ),
            "required": ["text", "pages"],
            "properties": {
                "text": _STR,
                "pages": {"type": "array", "items": {"type": "integer", "minimum": 0}},
            },
        },
        "DocumentRequest": {
            "type": "object",
            "additionalProperties": False,
            "required": ["text"],
            "properties": {
                "text": {
                    "type": "string",
                    "maxLength": 10_000_000,
                    "description": "The brief's text; positions index it as sent.",
                }
            },
        },
        "Result": {
            "type": "object",
            "required": ["id", "type", "citation", "verdict"],
            "properties": {
                "id": _STR,
                "type": {"type": "string", "enum": list(KINDS)},
                "citation": _ref("Citation"),
                "verdict": _ref("Verdict"),
                "evidence": _ref("Evidence"),
                "opinion": _ref("Opinion"),
                "quote": _ref("Quote"),
                "citationId": _STR,
                "position": _ref("DocumentPosition"),
            },
        },
        "Citation": {
            "type": "object",
            "required": ["raw"],
            "properties": {
                "raw": _STR,
                "normalized": _STR,
                "system": _STR,
                "components": _ref("CitationComponents"),
            },
        },
        "CitationComponents": {
            "type": "object",
            "properties": {
                "volume": _STR,
                "reporter": _STR,
                "page": _STR,
                "pinpoint": _STR,
                "year": _INT,
            },
        },
        "Verdict": {
            "type": "object",
            "required": ["status"],
            "properties": {
                "status": status,
                "outcome": _STR,
                "message": _STR,
                "method": _STR,
                "asOf": {"type": "string", "format": "date-time"},
                "language": _STR,
            },
        },
        "Evidence": {
            "type": "object",
            "required": ["comparisons"],
            "additionalProperties": False,
            "properties": {"comparisons": {"type": "array", "items": _ref("Comparison")}},
        },
        "Comparison": {
            "type": "object",
            "additionalProperties": False,
            "required": ["attribute", "cited", "found", "match"],
            "properties": {
                "attribute": _STR,
                "cited": {"type": ["string", "null"]},
                "found": {"type": ["string", "null"]},
                "match": _BOOL,
            },
        },
        "Opinion": {
            "type": "object",
            "required": ["court"],
            "properties": {
                "court": _ref("Court"),
                "caseName": _STR,
                "year": _INT,
                "citations": {"type": "array", "items": _STR},
                "documents": {"type": "array", "items": _ref("Document")},
                "reference": _STR,
            },
        },
        "Court": {"type": "object", "properties": {"name": _STR, "jurisdiction": _STR}},
        "Document": {
            "type": "object",
            "required": ["provider", "url"],
            "properties": {
                "provider": _STR,
                "url": _STR,
                "format": _STR,
                "official": _BOOL,
                "language": _STR,
                "identifiers": {"type": "array", "items": _ref("Identifier")},
            },
        },
        "Identifier": {
            "type": "object",
            "additionalProperties": False,
            "required": ["provider", "kind", "id"],
            "properties": {"provider": _STR, "kind": _STR, "id": _STR},
        },
        "Quote": {
            "type": "object",
            "required": ["matched"],
            "properties": {
                "matched": _BOOL,
                "snippet": _STR,
                "passage": _STR,
                "location": _ref("QuoteLocation"),
            },
        },
        "QuoteLocation": {
            "type": "object",
            "additionalProperties": False,
            "properties": {"page": _INT, "paragraph": _INT},
        },
        "DocumentPosition": {
            "type": "object",
            "additionalProperties": False,
            "required": ["start", "end"],
            "properties": {
                "start": {"type": "integer", "minimum": 0},
                "end": {"type": "integer", "minimum": 0},
                "text": _STR,
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
                "verified": _INT,
                "warning": _INT,
                "critical": _INT,
                "total": _INT,
                "unique_citations": _INT,
                "billed_citations": _INT,
                "is_fully_verified": _BOOL,
                "is_fully_accounted": _BOOL,
                "overallStatus": status,
            },
        },
        "Usage": {
            "type": "object",
            "required": ["used", "remaining", "limit"],
            "properties": {"used": _INT, "remaining": _INT, "limit": _INT},
        },
        "ErrorEnvelope": {
            "type": "object",
            "additionalProperties": False,
            "required": ["error"],
            "properties": {"error": _ref("Error")},
        },
        "Error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": _STR,
                "message": _STR,
                "details": {"type": "array", "items": _ref("ErrorDetail")},
                "requestId": {
                    "type": "string",
                    "description": "On 500 only: the id under which the server logged the failure.",
                },
            },
        },
        "ErrorDetail": {
            "type": "object",
            "required": ["field", "message"],
            "properties": {"field": _STR, "message": _STR},
        },
        "ServiceInfo": {
            "type": "object",
            "required": ["service", "version", "contract"],
            "properties": {
                "service": _STR,
                "version": _STR,
                "contract": _STR,
                "endpoints": {"type": "object", "additionalProperties": _STR},
            },
        },
    }


def _error(description: str, code: str, **extra: Any) -> dict[str, Any]:
    response: dict[str, Any] = {
        "description": f"{description} (error.code `{code}`).",
        "content": {"application/json": {"schema": _ref("ErrorEnvelope")}},
    }
    response.update(extra)
    return response


def _quota_and_failure() -> dict[str, Any]:
    """The 429 and 500 answers every verifying endpoint shares."""
    return {
        "429": _error(
            "The request would pass the quota; nothing was charged",
            "rate_limit_exceeded",
            headers={
                "Retry-After": {
                    "required": True,
                    "description": "Whole seconds to the quota window's end.",
                    "schema": {"type": "integer", "minimum": 0},
                }
            },
        ),
        "500": _error(
            "Unexpected failure; `requestId` ties it to the server log", "internal_error"
        ),
    }


def _json(description: str, schema: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ref(schema)}}}


def _build(limits: Limits) -> dict[str, Any]:
    method_not_allowed = _error(
        "Method not allowed on this path; `Allow` lists the methods that are",
        "method_not_allowed",
        headers={"Allow": {"required": True, "schema": _STR}},
    )
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "citeverify: citation and quotation verification",
            "version": CONTRACT_VERSION,
            "summary": "Deterministic verification of legal citations and quotations.",
            "description": (
                f"Contract v{CONTRACT_VERSION}, served by citeverify {__version__}. "
                "Request bodies are JSON (`Content-Type: application/json`, UTF-8) of at most "
                f"{limits.max_body_bytes} bytes; a body over that size, of another content "
                "type, or not valid JSON is answered 422 `validation_error` with a detail on "
                "`body` or `Content-Type` (the contract's error codes are closed, so no 413 "
                "or 415)."
            ),
        },
        "paths": {
            "/api/v1/verify": {
                "post": {
                    "operationId": "verifyCitations",
                    "summary": "Verify citations and quotations",
                    "security": [{"bearerAuth": []}],
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": _ref("VerifyRequest")}},
                    },
                    "responses": {
                        "200": _json(
                            "One result per item, in order, with the summary and the usage "
                            "of the caller's quota window after this request.",
                            "Response",
                        ),
                        "401": _error("Missing, malformed or unknown API key", "unauthorized"),
                        "403": _error("Valid key, but the account is disabled", "forbidden"),
                        "405": method_not_allowed,
                        "422": _error(
                            "The body is not a valid VerifyRequest; `details` name each field",
                            "validation_error",
                        ),
                        **_quota_and_failure(),
                    },
                }
            },
            "/api/v1/verify-document": {
                "post": {
                    "operationId": "verifyDocument",
                    "summary": "Find and verify every citation and quotation of a brief",
                    "description": (
                        'The body is JSON `{"text": ...}`, or the bytes of a PDF, Word '
                        "(.docx), plain-text or Markdown file with its content type. Bodies "
                        f"of at most {MAX_DOCUMENT_BYTES} bytes; text of at most 10,000,000 "
                        "characters; PDFs of at most 2,000 pages; at most 20,000 citations "
                        "and quotations. Results come in document order with ids `c1`, "
                        "`c2`... and `q1`..., each with `position`; short forms and "
                        "quotations carry `citationId`. Distinct full citations are billed; "
                        "short forms and quotations are free. A PDF with no text layer, an "
                        "encrypted or damaged file is answered 422 with a detail on "
                        "`document`."
                    ),
                    "security": [{"bearerAuth": []}],
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {"schema": _ref("DocumentRequest")},
                            **{
                                media: {"schema": {"type": "string", "format": "binary"}}
                                for media in DOCUMENT_TYPES
                            },
                        },
                    },
                    "responses": {
                        "200": _json(
                            "One result per citation and quotation found, in document order.",
                            "Response",
                        ),
                        "401": _error("Missing, malformed or unknown API key", "unauthorized"),
                        "403": _error("Valid key, but the account is disabled", "forbidden"),
                        "405": method_not_allowed,
                        "422": _error(
                            "The body is not a document that can be read; `details` say why",
                            "validation_error",
                        ),
                        **_quota_and_failure(),
                    },
                }
            },
            "/": {
                "get": {
                    "operationId": "serviceInfo",
                    "summary": "Service name, version and contract version",
                    "security": [],
                    "responses": {
                        "200": _json("A short description of the service.", "ServiceInfo"),
                        "405": method_not_allowed,
                    },
                }
            },
            "/openapi.json": {
                "get": {
                    "operationId": "openapiDocument",
                    "summary": "This document",
                    "security": [],
                    "responses": {
                        "200": {
                            "description": "The OpenAPI 3.1 document of the service.",
                            "content": {"application/json": {"schema": {"type": "object"}}},
                        },
                        "405": method_not_allowed,
                    },
                }
            },
        },
        "components": {
            "securitySchemes": {
                "bearerAuth": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "An API key from `citeverify keys create` (`cv_live_...`).",
                }
            },
            "schemas": {**_request_schemas(limits), **_response_schemas()},
        },
    }


_CACHE: dict[Limits, dict[str, Any]] = {}


def openapi_document(limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """The OpenAPI 3.1 document for a service with these request limits (a fresh copy)."""
    if limits not in _CACHE:
        _CACHE[limits] = _build(limits)
    return copy.deepcopy(_CACHE[limits])
