"""The WSGI app over the pure handler: no framework, mounts in any WSGI server.

Routing uses ``PATH_INFO`` (the path below the mount point).  The body is read
in chunks up to ``CONTENT_LENGTH`` and reading stops past the size limit; a
declared length over the limit is refused without reading.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from citeverify.http._handler import HttpRequest, Service, log_access

__all__ = ["WsgiApp", "create_wsgi_app"]

StartResponse = Callable[..., Any]

_STATUS_TEXT = {
    200: "OK",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    422: "Unprocessable Content",
    429: "Too Many Requests",
    500: "Internal Server Error",
}
_CHUNK = 64 * 1024


class WsgiApp:
    """A WSGI application serving ``service``."""

    def __init__(self, service: Service) -> None:
        self.service = service

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        started = time.perf_counter()
        headers: list[tuple[str, str]] = []
        for key, value in environ.items():
            if key.startswith("HTTP_"):
                headers.append((key[5:].replace("_", "-").lower(), value))
            elif key in ("CONTENT_TYPE", "CONTENT_LENGTH") and value:
                headers.append((key.replace("_", "-").lower(), value))
        body, too_large = self._read(environ)
        request = HttpRequest(
            environ.get("REQUEST_METHOD", "GET"),
            environ.get("PATH_INFO") or "/",
            tuple(headers),
            body,
            too_large,
        )
        response = self.service.handle(request)
        reason = _STATUS_TEXT.get(response.status, "Error")
        start_response(f"{response.status} {reason}", list(response.headers))
        log_access(request, response, started)
        return [response.body]

    def _read(self, environ: dict[str, Any]) -> tuple[bytes, bool]:
        limit = self.service.max_body_bytes_for(environ.get("PATH_INFO") or "/")
        stream = environ.get("wsgi.input")
        try:
            declared = int(environ.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        if stream is None:
            return b"", False
        if declared > limit:
            return b"", True
        if declared <= 0 and not environ.get("wsgi.input_terminated"):
            return b"", False
        # Read at most limit + 1 bytes: one byte past the limit proves it too large.
        want = declared if declared > 0 else limit + 1
        chunks: list[bytes] = []
        size = 0
        while size < want:
            chunk = stream.read(min(_CHUNK, want - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            return b"", True
        return b"".join(chunks), False


def create_wsgi_app(
    store: Any = None,
    *,
    provider: Any = None,
    limits: Any = None,
    state: str | None = None,
) -> WsgiApp:
    """A WSGI app for the contract; arguments as for ``create_asgi_app``."""
    from citeverify.http._accounts import open_store

    service = Service(store or open_store(state), provider=provider, limits=limits)
    return WsgiApp(service)
