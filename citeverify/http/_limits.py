"""The limits ``citeverify serve`` enforces per worker and per document, and the refusal it writes.

Kept apart from ``_protocol`` (which subclasses uvicorn's protocol) so that
``citeverify serve --help`` can show the defaults without importing uvicorn.
"""

from __future__ import annotations

import json
import os

import attrs

__all__ = [
    "DOCUMENT_TYPES",
    "ENV_LIMITS",
    "MAX_DOCUMENT_BYTES",
    "ServerLimits",
    "envelope_response",
]

ENV_LIMITS = "CITEVERIFY_SERVE_LIMITS"

#: A brief sent to the document endpoint (JSON text, PDF or Word) may be this large.
MAX_DOCUMENT_BYTES = 20 * 1024 * 1024
#: Content types the document endpoint reads, besides JSON ``{"text": ...}``.
DOCUMENT_TYPES = (
    "application/pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "text/plain",
    "text/markdown",
)


@attrs.frozen
class ServerLimits:
    """What one worker accepts; ``serve`` sets them from its options (see ``--help``)."""

    max_header_bytes: int = 32 * 1024
    max_headers: int = 100
    timeout_idle: float = 10.0
    timeout_header: float = 10.0
    timeout_body: float = 30.0
    timeout_keep_alive: int = 5
    max_in_flight: int = 64
    max_connections: int = 1000

    def to_env(self) -> str:
        return json.dumps(attrs.asdict(self))

    @classmethod
    def from_env(cls) -> ServerLimits:
        raw = os.environ.get(ENV_LIMITS)
        return cls(**json.loads(raw)) if raw else cls()


def envelope_response(
    status: int, code: str, message: str, extra: tuple[tuple[str, str], ...] = ()
) -> bytes:
    """A complete HTTP/1.1 response carrying the error envelope; it closes the connection."""
    reason = {
        400: "Bad Request",
        408: "Request Timeout",
        431: "Request Header Fields Too Large",
        503: "Service Unavailable",
    }.get(status, "")
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    head = [
        f"HTTP/1.1 {status} {reason}",
        "content-type: application/json",
        f"content-length: {len(body)}",
        "connection: close",
    ]
    head += [f"{name}: {value}" for name, value in extra]
    return ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body
