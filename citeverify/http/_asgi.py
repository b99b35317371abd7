"""The ASGI app over the pure handler: no framework, mounts anywhere.

Bodies are counted while they stream and reading stops past the size limit (a
``Content-Length`` over it is refused without reading at all), so a hostile
client cannot make the server buffer more than the limit.  The handler runs in
a worker thread by default, because a verify request may wait on a remote
provider or the state database; ``offload=False`` runs it on the event loop
(faster for a purely local, CPU-bound provider); ``offload="auto"`` runs small
requests on the loop and in a thread those that can take long (a body over
``INLINE_MAX_BYTES``, or one with quotations to search), so that one long request
never stalls the other clients of the worker.

The access log (logger ``citeverify.http.access``) records method, path
without its query string, status, duration, request id and account name:
never a header, a key or a body.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Literal

from citeverify.http._handler import HttpRequest, Service, access_logger, log_access

__all__ = ["AsgiApp", "create_asgi_app"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


def _content_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    for name, value in headers:
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


#: The encoded names of the headers the handler sends, so a response encodes only values.
_HEADER_NAMES = {
    name: name.encode("latin-1")
    for name in (
        "content-type",
        "content-length",
        "x-request-id",
        "cache-control",
        "retry-after",
        "www-authenticate",
        "allow",
        "vary",
    )
}


def _header_name(name: str) -> bytes:
    encoded = _HEADER_NAMES.get(name)
    return encoded if encoded is not None else name.encode("latin-1")


#: With ``offload="auto"``, bodies up to this size without quotations run on the loop.
INLINE_MAX_BYTES = 4096

Offload = bool | Literal["auto"]


def _long_running(request: HttpRequest) -> bool:
    """Whether a request may take long enough to stall the event loop: a large body, or
    quotations (each one is a text search).  A cheap byte test, not a parse: a false
    positive only costs a thread hop."""
    return len(request.body) > INLINE_MAX_BYTES or b"quote" in request.body


class AsgiApp:
    """An ASGI 3 application serving ``service``; closes its store on lifespan shutdown."""

    def __init__(self, service: Service, *, offload: Offload = True, close_store: bool = True):
        self.service = service
        self.offload = offload
        self.close_store = close_store

    def offloads(self, request: HttpRequest) -> bool:
        """Whether ``request`` is handled in the thread pool rather than on the loop."""
        if self.offload == "auto":
            return _long_running(request)
        return bool(self.offload)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "lifespan":
            await self._lifespan(receive, send)
            return
        if kind != "http":  # websockets: not served
            if kind == "websocket":
                await send({"type": "websocket.close", "code": 1003})
            return
        # The access log's clock runs only when the log is on: off, it costs one check.
        logged = access_logger.isEnabledFor(logging.INFO)
        started = time.perf_counter() if logged else 0.0
        request = await self._read(scope, receive)
        if request is None:  # the client went away
            return
        if self.offloads(request):
            loop = asyncio.get_running_loop()
            response = await loop.run_in_executor(
                None, functools.partial(self.service.handle, request)
            )
        else:
            response = self.service.handle(request)
        await send(
            {
                "type": "http.response.start",
                "status": response.status,
                "headers": [
                    (_header_name(name), value.encode("latin-1"))
                    for name, value in response.headers
                ],
            }
        )
        await send({"type": "http.response.body", "body": response.body})
        if logged:
            log_access(request, response, started)

    async def _read(self, scope: Scope, receive: Receive) -> HttpRequest | None:
        raw_headers: list[tuple[bytes, bytes]] = list(scope.get("headers") or ())
        headers = tuple(
            (name.decode("latin-1"), value.decode("latin-1")) for name, value in raw_headers
        )
        path: str = scope.get("path") or "/"
        root: str = scope.get("root_path") or ""
        if root and path.startswith(root):
            path = path[len(root) :] or "/"
        method: str = scope.get("method", "GET")
        limit = self.service.max_body_bytes_for(path)
        declared = _content_length(raw_headers)
        if declared is not None and declared > limit:
            # refuse without reading a byte of it
            return HttpRequest(method, path, headers, b"", True)
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        body = message.get("body", b"")
        if not message.get("more_body", False) and len(body) <= limit:
            # The usual case, the whole body in one message: taken as it is (as bytes), the
            # loop below being for bodies that stream in several.
            return HttpRequest(method, path, headers, body if type(body) is bytes else bytes(body))
        too_large = False
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk: bytes = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                too_large = True
                chunks.clear()
                break
            if chunk:
                chunks.append(chunk)
            if not message.get("more_body", False):
                break
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
        return HttpRequest(method, path, headers, b"".join(chunks), too_large)

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if self.close_store:
                    self.service.store.close()
                await send({"type": "lifespan.shutdown.complete"})
                return


def create_asgi_app(
    store: Any = None,
    *,
    provider: Any = None,
    limits: Any = None,
    offload: Offload = True,
    state: str | None = None,
    local: bool = False,
) -> AsgiApp:
    """An ASGI app for the contract.

    Give an ``AccountStore`` (``store``) or a state URL (``state``; default
    ``$CITEVERIFY_STATE`` or the user data directory).  ``provider`` defaults
    to the embedded corpus, ``limits`` to ``citeverify.Limits()``.
    """
    from citeverify.http._accounts import open_store

    owned = store is None
    service = Service(store or open_store(state), provider=provider, limits=limits, local=local)
    return AsgiApp(service, offload=offload, close_store=owned)


#: Environment the ``serve`` command hands to its workers (uvicorn starts each
#: worker from an import string, possibly in a fresh process, so settings travel
#: through the environment).
ENV_OFFLOAD = "CITEVERIFY_SERVE_OFFLOAD"
ENV_ACCESS_LOG = "CITEVERIFY_SERVE_ACCESS_LOG"
ENV_LOG_LEVEL = "CITEVERIFY_SERVE_LOG_LEVEL"
ENV_LOCAL = "CITEVERIFY_SERVE_LOCAL"


def configure_logging(access_log: bool = True, level: str = "info") -> None:
    """Send the service's logs (and the access log, if wanted) to stderr."""
    import sys

    access = logging.getLogger("citeverify.http.access")
    access.propagate = False
    access.handlers.clear()
    if access_log:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s access %(message)s"))
        access.addHandler(handler)
        access.setLevel(logging.INFO)
    else:
        access.setLevel(logging.WARNING)
    app = logging.getLogger("citeverify.http")
    if not app.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
        app.addHandler(handler)
    app.setLevel(level.upper())


def app_from_env() -> AsgiApp:
    """The app ``citeverify serve`` runs in each worker (an ASGI app factory).

    The state database comes from ``$CITEVERIFY_STATE``; ``$CITEVERIFY_SERVE_OFFLOAD``
    set to ``1`` runs the handler in a thread pool, ``0`` on the event loop, and
    ``auto`` (the default) on the loop for small requests and in the pool for those
    that can take long; the access log is on unless
    ``$CITEVERIFY_SERVE_ACCESS_LOG`` is ``0``.
    """
    import os

    configure_logging(
        os.environ.get(ENV_ACCESS_LOG, "1") != "0", os.environ.get(ENV_LOG_LEVEL, "info")
    )
    from citeverify.providers._config import provider_from_env

    setting = os.environ.get(ENV_OFFLOAD, "auto")
    offload: Offload = "auto" if setting not in ("0", "1") else setting == "1"
    return create_asgi_app(
        provider=provider_from_env(),
        offload=offload,
        local=os.environ.get(ENV_LOCAL, "0") == "1",
    )
