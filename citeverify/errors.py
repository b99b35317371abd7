"""The error tree: every failure a caller (or the HTTP adapter) can branch on.

Each error carries the contract's ``code`` and the HTTP status it maps to, so the
HTTP adapter needs no table of its own.  Verification outcomes (a mismatch, an
unresolved citation, an unlocated quotation) are never errors: they are verdicts.
"""

from __future__ import annotations

from typing import Any, ClassVar

__all__ = [
    "CiteverifyError",
    "Forbidden",
    "InternalError",
    "RateLimited",
    "Unauthorized",
    "ValidationError",
]


class CiteverifyError(Exception):
    """Base of every error citeverify raises on purpose."""

    code: ClassVar[str] = "internal_error"
    http_status: ClassVar[int] = 500

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def to_envelope(self) -> dict[str, Any]:
        """The contract's error envelope for this error."""
        return {"error": {"code": self.code, "message": self.message}}


class ValidationError(CiteverifyError, ValueError):
    """The request failed validation; ``details`` lists every problem found.

    Each detail is ``{"field": "items[0].rawText", "message": "..."}``.
    """

    code = "validation_error"
    http_status = 422

    def __init__(self, message: str, details: list[dict[str, str]] | None = None) -> None:
        super().__init__(message)
        self.details: list[dict[str, str]] = list(details or [])

    def to_envelope(self) -> dict[str, Any]:
        envelope = super().to_envelope()
        envelope["error"]["details"] = [dict(d) for d in self.details]
        return envelope

    def __str__(self) -> str:
        if not self.details:
            return self.message
        listed = "; ".join(f"{d['field']}: {d['message']}" for d in self.details[:10])
        more = f" (and {len(self.details) - 10} more)" if len(self.details) > 10 else ""
        return f"{self.message}: {listed}{more}"


class Unauthorized(CiteverifyError):
    """A missing, malformed or unknown API key."""

    code = "unauthorized"
    http_status = 401


class Forbidden(CiteverifyError):
    """A valid key that is not permitted to make this request."""

    code = "forbidden"
    http_status = 403


class RateLimited(CiteverifyError):
    """The quota or rate limit is exhausted; retry after ``retry_after`` seconds."""

    code = "rate_limit_exceeded"
    http_status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = max(0, int(retry_after))


class InternalError(CiteverifyError):
    """An unexpected failure; ``request_id`` ties the answer to the server log."""

    code = "internal_error"
    http_status = 500

    def __init__(self, message: str = "internal error", request_id: str | None = None) -> None:
        super().__init__(message)
        self.request_id = request_id

    def to_envelope(self) -> dict[str, Any]:
        envelope = super().to_envelope()
        if self.request_id is not None:
            envelope["error"]["requestId"] = self.request_id
        return envelope
