"""Whole-document checking: a brief in, every citation and quotation in it verified.

    extract (text, PDF, Word) -> find citations (with spans) -> find quotations
        -> resolve short forms, attribute quotations (``_assemble``)
        -> the same driver and verdict policy as item mode -> Response

The response is the contract's, with the v1.2 fields this mode exists for:
every result carries ``position`` (half-open code-point offsets into the
submitted text, or into ``document.text`` for extracted text), and short forms
and quotations carry ``citationId``.  Ids are ``c1, c2, ...`` for citations
and ``q1, q2, ...`` for quotations, in document order.  Billing counts
distinct full citations; short forms and quotations are free.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any, Final

from citeverify._meter import Meter
from citeverify._model import DocumentText, Response
from citeverify.errors import ValidationError
from citeverify.providers._base import Provider

__all__ = [
    "MAX_RESULTS",
    "DocumentLimits",
    "verify_document",
    "verify_document_request",
]

#: A document with more citations and quotations than this is refused: no
#: brief has so many, and the answer would be too large to read.
MAX_RESULTS: Final = 20_000

Source = str | os.PathLike[str] | bytes


def __getattr__(name: str) -> Any:
    if name == "DocumentLimits":
        from citeverify.document._extract import DocumentLimits

        return DocumentLimits
    raise AttributeError(name)


def verify_document(
    source: Source,
    *,
    provider: Provider | None = None,
    meter: Meter | None = None,
    filename: str | None = None,
    content_type: str | None = None,
    limits: Any = None,
    progress: Callable[[int, int], None] | None = None,
) -> Response:
    """Find and verify every citation and quotation in a brief; return the Response.

    ``source`` is the brief's text; or a path (``pathlib.Path``, or a one-line
    string naming an existing ``.txt``, ``.md``, ``.pdf`` or ``.docx`` file); or
    the bytes of such a file (``filename`` or ``content_type`` may say which).
    Raises ``ValidationError`` for a file that cannot be read (encrypted, no
    text layer, damaged, too large) and ``RateLimited`` when ``meter`` refuses
    the charge; every verification outcome is a result.
    """
    from citeverify.document._extract import DocumentLimits, extract

    extracted = extract(
        source,
        filename=filename,
        content_type=content_type,
        limits=limits if limits is not None else DocumentLimits(),
    )
    as_is = isinstance(source, str) and extracted.text == source
    return _check(
        extracted.text,
        None if as_is else tuple(extracted.pages),
        provider=provider,
        meter=meter,
        progress=progress,
    )


def _check(
    text: str,
    pages: tuple[int, ...] | None,
    *,
    provider: Provider | None,
    meter: Meter | None,
    progress: Callable[[int, int], None] | None,
) -> Response:
    """Find, attribute and verify; ``pages`` given means the text was extracted."""
    from citeverify._verify import run
    from citeverify.citations import find
    from citeverify.document._assemble import assemble
    from citeverify.document._quotes import find_quotations

    found = list(find(text))
    quotations = find_quotations(text)
    if len(found) + len(quotations) > MAX_RESULTS:
        raise ValidationError(
            f"the document holds more than {MAX_RESULTS:,} citations and quotations",
            [{"field": "document", "message": f"at most {MAX_RESULTS:,} results per document"}],
        )
    tasks = assemble(text, found, quotations)
    response = run(tasks, provider=provider, meter=meter, emit_reserved=True, progress=progress)
    if pages is None:
        return response
    return Response(
        results=response.results,
        summary=response.summary,
        usage=response.usage,
        document=DocumentText(text=text, pages=pages or (0,)),
    )


def verify_document_request(
    body: Mapping[str, Any] | str | bytes | bytearray,
    *,
    provider: Provider | None = None,
    meter: Meter | None = None,
    max_chars: int | None = None,
) -> dict[str, Any]:
    """Check a brief given as JSON ``{"text": ...}``; return the JSON-ready Response.

    Raises ``ValidationError`` (with ``details``) for a body that is not an
    object holding exactly a string ``text``, or text over ``max_chars``.
    """
    from citeverify import _codec
    from citeverify.document._extract import DocumentLimits

    payload: Any = body
    if isinstance(body, str | bytes | bytearray):
        payload = _codec.decode_body(body, _codec.Limits(max_body_bytes=64 * 1024 * 1024))
    problems: list[dict[str, str]] = []
    if not isinstance(payload, Mapping):
        problems.append({"field": "", "message": "the body must be a JSON object"})
    else:
        for key in payload:
            if key != "text":
                problems.append({"field": str(key), "message": "unknown field"})
        if "text" not in payload:
            problems.append({"field": "text", "message": "required"})
        elif not isinstance(payload["text"], str):
            problems.append({"field": "text", "message": "must be a string"})
    if problems:
        raise ValidationError("the request body is not a valid document request", problems)
    assert isinstance(payload, Mapping)
    text: str = payload["text"]
    limits = DocumentLimits()
    cap = max_chars if max_chars is not None else limits.max_chars
    if len(text) > cap:
        raise ValidationError(
            f"the text is longer than {cap:,} characters",
            [{"field": "text", "message": f"at most {cap:,} characters"}],
        )
    # The text itself, never a path: a server must not read its own files.
    response = _check(text, None, provider=provider, meter=meter, progress=None)
    return _codec.response_to_dict(response)
