"""The error tree."""

from __future__ import annotations

import pytest

from citeverify import errors


class TestErrors:
    @pytest.mark.parametrize(
        ("cls", "code", "status"),
        [
            (errors.ValidationError, "validation_error", 422),
            (errors.Unauthorized, "unauthorized", 401),
            (errors.Forbidden, "forbidden", 403),
            (errors.InternalError, "internal_error", 500),
        ],
    )
    def test_codes_and_statuses(
        self, cls: type[errors.CiteverifyError], code: str, status: int
    ) -> None:
        """Each error carries the contract's code and HTTP status."""
        err = cls("boom")
        assert (err.code, err.http_status) == (code, status)
        assert err.to_envelope() == {"error": {"code": code, "message": "boom"}} or cls in (
            errors.ValidationError,
        )

    def test_validation_error_is_a_value_error_with_details(self) -> None:
        """ValidationError is caught as ValueError and its envelope carries details."""
        err = errors.ValidationError("bad", [{"field": "items", "message": "is required"}])
        assert isinstance(err, ValueError)
        assert err.to_envelope()["error"]["details"] == [
            {"field": "items", "message": "is required"}
        ]
        assert "items: is required" in str(err)

    def test_rate_limited_carries_retry_after(self) -> None:
        """RateLimited says when to retry, never negative."""
        err = errors.RateLimited("slow down", retry_after=-5)
        assert (err.code, err.http_status, err.retry_after) == ("rate_limit_exceeded", 429, 0)

    def test_internal_error_carries_request_id(self) -> None:
        """InternalError's envelope names the request id and nothing else extra."""
        err = errors.InternalError(request_id="r-1")
        assert err.to_envelope() == {
            "error": {"code": "internal_error", "message": "internal error", "requestId": "r-1"}
        }
