"""citeverify: deterministic verification of legal citations and quotations.

    >>> import citeverify
    >>> item = {"id": "1", "type": "case", "rawText": "Roe v. Wade, 410 U.S. 113 (1973)"}
    >>> response = citeverify.verify([item])

The public verbs are ``verify_document`` (a whole brief: text, PDF or Word),
``verify`` (typed items), ``verify_request`` and ``verify_document_request``
(JSON in, JSON out, exactly as the contract shapes it) and ``parse``.  Heavy parts load
on first use, so ``import citeverify`` stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from citeverify._version import CONTRACT_VERSION, __version__

if TYPE_CHECKING:
    from citeverify._codec import Limits
    from citeverify._meter import InMemoryMeter, Meter
    from citeverify._model import (
        Citation,
        CitationComponents,
        Comparison,
        Court,
        Document,
        DocumentPosition,
        DocumentText,
        Evidence,
        Identifier,
        ItemType,
        Opinion,
        Outcome,
        Quote,
        QuoteLocation,
        Response,
        Result,
        Status,
        Summary,
        Usage,
        Verdict,
        VerifyItem,
    )
    from citeverify._verify import verify, verify_request
    from citeverify.citations import parse
    from citeverify.document import verify_document, verify_document_request
    from citeverify.errors import (
        CiteverifyError,
        Forbidden,
        InternalError,
        RateLimited,
        Unauthorized,
        ValidationError,
    )

__all__ = [
    "CONTRACT_VERSION",
    "Citation",
    "CitationComponents",
    "CiteverifyError",
    "Comparison",
    "Court",
    "Document",
    "DocumentPosition",
    "DocumentText",
    "Evidence",
    "Forbidden",
    "Identifier",
    "InMemoryMeter",
    "InternalError",
    "ItemType",
    "Limits",
    "Meter",
    "Opinion",
    "Outcome",
    "Quote",
    "QuoteLocation",
    "RateLimited",
    "Response",
    "Result",
    "Status",
    "Summary",
    "Unauthorized",
    "Usage",
    "ValidationError",
    "Verdict",
    "VerifyItem",
    "__version__",
    "parse",
    "verify",
    "verify_document",
    "verify_document_request",
    "verify_request",
]

_WHERE = {
    "Limits": "citeverify._codec",
    "InMemoryMeter": "citeverify._meter",
    "Meter": "citeverify._meter",
    "verify": "citeverify._verify",
    "verify_request": "citeverify._verify",
    "verify_document": "citeverify.document",
    "verify_document_request": "citeverify.document",
    "parse": "citeverify.citations",
    **dict.fromkeys(
        (
            "CiteverifyError",
            "Forbidden",
            "InternalError",
            "RateLimited",
            "Unauthorized",
            "ValidationError",
        ),
        "citeverify.errors",
    ),
    **dict.fromkeys(
        (
            "Citation",
            "CitationComponents",
            "Comparison",
            "Court",
            "Document",
            "DocumentPosition",
            "DocumentText",
            "Evidence",
            "Identifier",
            "ItemType",
            "Opinion",
            "Outcome",
            "Quote",
            "QuoteLocation",
            "Response",
            "Result",
            "Status",
            "Summary",
            "Usage",
            "Verdict",
            "VerifyItem",
        ),
        "citeverify._model",
    ),
}


def __getattr__(name: str) -> Any:
    module_name = _WHERE.get(name)
    if module_name is None:
        raise AttributeError(f"module 'citeverify' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module_name), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
