"""The pure request handler: method, path, headers and body in; status, headers, body out.

No framework and no I/O beyond the account store and the provider, so it is
tested without a server and shared by the ASGI and WSGI adapters.  Every
failure is the contract's error envelope; nothing else (no traceback, no HTML)
ever reaches a client.

Decisions where the contract is silent (its error codes are closed for its
statuses, so we add no 413 or 415):

- a body over the size limit, a ``Content-Type`` other than
  ``application/json`` (UTF-8), or a body that is not JSON: 422
  ``validation_error`` with a detail on ``body`` or ``Content-Type``;
- an unknown path: 404 ``not_found``; a known path with another method: 405
  ``method_not_allowed`` with ``Allow``;
- checks run in the order route, method, key, content type, size, body, so a
  caller without a valid key learns nothing about its body.
"""

from __future__ import annotations

import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from citeverify._codec import DEFAULT_LIMITS, Limits
from citeverify._meter import InMemoryMeter, Meter
from citeverify._version import CONTRACT_VERSION, __version__
from citeverify.errors import (
    CiteverifyError,
    Forbidden,
    InternalError,
    RateLimited,
    Unauthorized,
)
from citeverify.http._accounts import AccountMeter, AccountStore
from citeverify.http._limits import DOCUMENT_TYPES, MAX_DOCUMENT_BYTES
from citeverify.http._openapi import openapi_document
from citeverify.providers._base import Provider

__all__ = ["VERIFY_PATH", "HttpRequest", "HttpResponse", "Service", "loggable_path"]

VERIFY_PATH = "/api/v1/verify"
VERIFY_DOCUMENT_PATH = "/api/v1/verify-document"
_GET = ("GET", "HEAD")
#: The page's assets, served from ``citeverify/http/_page`` (package data).
_STATIC = {
    "/static/page.css": ("page.css", "text/css; charset=utf-8"),
    "/static/page.js": ("page.js", "text/javascript; charset=utf-8"),
}
_ROUTES: dict[str, tuple[str, ...]] = {
    "/": _GET,
    "/openapi.json": _GET,
    VERIFY_PATH: ("POST",),
    VERIFY_DOCUMENT_PATH: ("POST",),
    **dict.fromkeys(_STATIC, _GET),
}

logger = logging.getLogger("citeverify.http")

Headers = tuple[tuple[str, str], ...]

_KEYISH = re.compile(r"cv_live_[A-Za-z0-9]*")


# C0 and C1 controls, DEL, and the Unicode line and paragraph separators: any of them
# (a percent-encoded CR/LF arrives decoded in the path) could split or forge a log line.
# A backslash is escaped too, so that an escape in the log is never the client's own text.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\\]")


def _escape_control(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def loggable_path(path: str) -> str:
    """``path`` as logs may show it: at most 200 characters, anything shaped like one of
    our keys redacted (a client may paste a key into a URL; logs must never hold one),
    control characters escaped as ``\\xNN`` so one request is always one log line."""
    return _CONTROL.sub(_escape_control, _KEYISH.sub("cv_live_[redacted]", path[:200]))


def _lower_headers(headers: Iterable[tuple[str, str]] | Mapping[str, str]) -> Headers:
    pairs = headers.items() if isinstance(headers, Mapping) else headers
    return tuple((name.lower(), value) for name, value in pairs)


@attrs.frozen
class HttpRequest:
    """One HTTP request as the handler sees it.

    ``headers`` names are lower-cased on construction.  ``body_too_large`` is set
    by an adapter that stopped reading a body past the size limit (``body`` is
    then empty): the handler answers 422 once routing and the key have passed.
    """

    method: str
    path: str
    headers: Headers = attrs.field(default=(), converter=_lower_headers)
    body: bytes = b""
    body_too_large: bool = False

    def header_values(self, name: str) -> list[str]:
        """Every value of header ``name`` (case-insensitive), in order."""
        name = name.lower()
        return [value for key, value in self.headers if key == name]


@attrs.frozen
class HttpResponse:
    """One HTTP response; ``request_id`` and ``account`` are for logs, never sent as data."""

    status: int
    headers: Headers
    body: bytes
    request_id: str = ""
    account: str | None = None

    def header(self, name: str) -> str | None:
        """The first value of header ``name`` (case-insensitive), if any."""
        name = name.lower()
        return next((value for key, value in self.headers if key.lower() == name), None)

    def json(self) -> Any:
        """The body decoded as JSON."""
        return json.loads(self.body)


def _encode_stdlib(payload: Any) -> bytes:
    """Compact UTF-8 JSON with the standard library.  Payloads are trees of plain values
    (no cycle check needed); a lone surrogate that slipped into a string falls back to
    ASCII escapes, so the body is always valid UTF-8."""
    try:
        text = json.dumps(
            payload,
            separators=(",", ":"),
            allow_nan=False,
            ensure_ascii=False,
            check_circular=False,
        )
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(payload, separators=(",", ":"), allow_nan=False).encode("ascii")


_orjson: Any
try:  # the `server` extra: same bytes, several times faster
    import orjson as _orjson
except ImportError:  # pragma: no cover - the standard library does the same, slower
    _orjson = None


def _encode(payload: Any) -> bytes:
    """Compact UTF-8 JSON: orjson when installed, else the standard library.

    Both give the same bytes for our payloads (strings, ints, bools, None, lists,
    dicts with string keys; no floats): the same compact separators, non-ASCII
    written as UTF-8, the same escapes.  What orjson refuses (a lone surrogate, an
    integer past 64 bits, a non-string key) goes to the standard library, which
    decides as before.
    """
    if _orjson is not None:
        try:
            encoded: bytes = _orjson.dumps(payload)
            return encoded
        except TypeError:  # orjson.JSONEncodeError
            pass
    return _encode_stdlib(payload)


# A version-4 UUID is 122 random bits with the version nibble set to 4 and the variant
# bits to 10: exactly what ``uuid.uuid4().hex`` gives, without building a UUID object.
_UUID4_CLEAR = ~((0xC000 << 48) | (0xF000 << 64))
_UUID4_SET = (0x8000 << 48) | (4 << 76)


def _new_request_id() -> str:
    """A random request id, the hex of a version-4 UUID (``uuid.uuid4().hex``, at a
    quarter of its cost: this runs on every request)."""
    return "%032x" % (int.from_bytes(os.urandom(16)) & _UUID4_CLEAR | _UUID4_SET)


class Service:
    """The HTTP face of the contract over an account store and a provider.

    ``provider`` defaults to the embedded corpus (created on first use);
    ``limits`` bound each request (``limits.max_body_bytes`` is also the size
    at which the adapters stop reading a body).
    """

    def __init__(
        self,
        store: AccountStore,
        *,
        provider: Provider | None = None,
        limits: Limits | None = None,
        request_id: Callable[[], str] = _new_request_id,
        local: bool = False,
    ) -> None:
        self.store = store
        #: Local mode (``citeverify serve --local``, loopback only): no key is asked for
        #: and requests are charged to one unlimited in-memory meter.
        self.local = local
        self._local_meter = InMemoryMeter() if local else None
        self.limits = limits or DEFAULT_LIMITS
        self._provider = provider
        self._provider_lock = threading.Lock()
        self._new_id = request_id
        self._info = _encode(
            {
                "service": "citeverify",
                "version": __version__,
                "contract": CONTRACT_VERSION,
                "endpoints": {
                    "verify": VERIFY_PATH,
                    "verifyDocument": VERIFY_DOCUMENT_PATH,
                    "openapi": "/openapi.json",
                },
            }
        )
        self._openapi: bytes | None = None

    @property
    def max_body_bytes(self) -> int:
        """Bodies longer than this are refused before they are parsed (item requests)."""
        return self.limits.max_body_bytes

    def max_body_bytes_for(self, path: str) -> int:
        """Where the adapters stop reading a body to ``path``: a brief may be larger."""
        return MAX_DOCUMENT_BYTES if path == VERIFY_DOCUMENT_PATH else self.limits.max_body_bytes

    @property
    def provider(self) -> Provider:
        """The provider verify requests use (the embedded corpus unless given)."""
        if self._provider is None:
            with self._provider_lock:
                if self._provider is None:
                    from citeverify.providers import default_provider

                    self._provider = default_provider()
        return self._provider

    def openapi_bytes(self) -> bytes:
        """The encoded OpenAPI document (built once)."""
        if self._openapi is None:
            self._openapi = _encode(openapi_document(self.limits))
        return self._openapi

    def handle(self, request: HttpRequest) -> HttpResponse:
        """Answer one request; never raises."""
        request_id = self._new_id()
        try:
            return self._route(request, request_id)
        except Exception:
            logger.exception(
                "request %s failed: %s %s",
                request_id,
                request.method[:16],
                loggable_path(request.path),
            )
            return _error(InternalError("internal error", request_id=request_id), request_id)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.handle(request)

    # -- routing ----------------------------------------------------------------------

    def _route(self, request: HttpRequest, request_id: str) -> HttpResponse:
        methods = _ROUTES.get(request.path)
        if methods is None:
            return _envelope(404, "not_found", f"no such path: {request.path[:200]}", request_id)
        method = request.method.upper()
        if method not in methods:
            response = _envelope(
                405,
                "method_not_allowed",
                f"{request.path} accepts {', '.join(methods)}",
                request_id,
            )
            return attrs.evolve(
                response, headers=(*response.headers, ("allow", ", ".join(methods)))
            )
        if request.path == VERIFY_PATH:
            return self._verify(request, request_id)
        if request.path == VERIFY_DOCUMENT_PATH:
            return self._verify_document(request, request_id)
        if request.path in _STATIC or (request.path == "/" and _wants_html(request)):
            return _page_response(request.path, method, request_id, self.local)
        body = self._info if request.path == "/" else self.openapi_bytes()
        headers = _json_headers(request_id, len(body))
        if request.path == "/":  # the page is served at / too, to browsers
            headers = (*headers, ("vary", "Accept"))
        return HttpResponse(200, headers, b"" if method == "HEAD" else body, request_id)

    def account_meter(self, request: HttpRequest) -> tuple[str, Meter]:
        """The account name and meter a verify request is charged to: the bearer key's
        account, or in local mode the local meter with no key asked for.  Raises the
        contract's 401/403 errors for a missing, unknown or disabled key."""
        if self._local_meter is not None:
            return "local", self._local_meter
        meter = self.store.key_meter(_bearer(request))
        return meter.account.name, meter

    def _account_first(self, request: HttpRequest, meter: Meter | None) -> None:
        """Raise the key's 401/403 if it no longer holds, before another error is answered.

        A key remembered from an earlier request was not re-checked before the
        request was read; a 401 or 403 must still win over a 422, as it did.
        """
        if isinstance(meter, AccountMeter) and meter.digest is not None:
            self.store.authenticate(_bearer(request))

    def _refused(
        self,
        request: HttpRequest,
        request_id: str,
        error: CiteverifyError,
        account_name: str | None,
        meter: Meter | None,
    ) -> HttpResponse:
        """The error response; a key that no longer holds is answered first (401/403)."""
        if not isinstance(error, Unauthorized | Forbidden):
            try:
                self._account_first(request, meter)
            except (Unauthorized, Forbidden) as account_error:
                error = account_error
        if isinstance(error, Unauthorized | Forbidden):
            account_name = None  # no account was served
        return attrs.evolve(_error(error, request_id), account=account_name)

    def _verify(self, request: HttpRequest, request_id: str) -> HttpResponse:
        from citeverify._verify import verify_request

        account_name: str | None = None
        meter: Meter | None = None
        try:
            account_name, meter = self.account_meter(request)
            _check_content_type(request)
            limit = self.limits.max_body_bytes
            if request.body_too_large or len(request.body) > limit:
                raise _validation("body", f"body exceeds {limit} bytes")
            response = verify_request(
                request.body,
                provider=self.provider,
                meter=meter,
                limits=self.limits,
            )
        except CiteverifyError as error:
            return self._refused(request, request_id, error, account_name, meter)
        body = _encode(response)
        headers = (*_json_headers(request_id, len(body)), ("cache-control", "no-store"))
        return HttpResponse(200, headers, body, request_id, account_name)

    def _verify_document(self, request: HttpRequest, request_id: str) -> HttpResponse:
        """A whole brief: JSON ``{"text": ...}``, or a PDF, Word or text file by its type."""
        from citeverify import _codec
        from citeverify.document import verify_document, verify_document_request

        account_name: str | None = None
        meter: Meter | None = None
        try:
            account_name, meter = self.account_meter(request)
            media = _media_type(request)
            if request.body_too_large or len(request.body) > MAX_DOCUMENT_BYTES:
                raise _validation("body", f"body exceeds {MAX_DOCUMENT_BYTES} bytes")
            if media == "application/json":
                response = verify_document_request(
                    request.body, provider=self.provider, meter=meter
                )
            elif media in DOCUMENT_TYPES:
                typed = verify_document(
                    bytes(request.body), content_type=media, provider=self.provider, meter=meter
                )
                response = _codec.response_to_dict(typed)
            else:
                accepted = ", ".join(("application/json", *DOCUMENT_TYPES))
                raise _validation("Content-Type", f"must be one of {accepted}")
        except CiteverifyError as error:
            return self._refused(request, request_id, error, account_name, meter)
        body = _encode(response)
        headers = (*_json_headers(request_id, len(body)), ("cache-control", "no-store"))
        return HttpResponse(200, headers, body, request_id, account_name)


def _media_type(request: HttpRequest) -> str:
    values = request.header_values("content-type")
    if not values:
        raise _validation("Content-Type", "missing; send application/json or the file's type")
    return values[0].split(";")[0].strip().lower()


# --- the page -------------------------------------------------------------------------

#: The page loads only its own script and style sheet and talks only to this server;
#: nothing inline runs, so text from a brief cannot become script even if it reached HTML.
PAGE_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
_PAGE_CACHE: dict[str, bytes] = {}


def page_asset(name: str) -> bytes:
    """One file of the page (``index.html``, ``page.css``, ``page.js``), read once from
    the package, so the page works from a wheel with no network and no build step."""
    data = _PAGE_CACHE.get(name)
    if data is None:
        from importlib.resources import files

        data = files("citeverify.http").joinpath("_page", name).read_bytes()
        _PAGE_CACHE[name] = data
    return data


def _wants_html(request: HttpRequest) -> bool:
    """Whether ``Accept`` prefers ``text/html`` to ``application/json``: browsers ask for
    HTML by name, while API clients send ``application/json`` or ``*/*`` and keep the JSON
    description of the service."""
    quality = {"text/html": 0.0, "application/json": 0.0}
    for value in request.header_values("accept"):
        for item in value.split(","):
            media, *params = (part.strip() for part in item.split(";"))
            media = media.lower()
            if media not in quality:
                continue
            q = 1.0
            for param in params:
                name, _, number = param.partition("=")
                if name.strip().lower() == "q":
                    try:
                        q = float(number)
                    except ValueError:
                        q = 0.0
            quality[media] = max(quality[media], q)
    return quality["text/html"] > quality["application/json"]


def _page_response(path: str, method: str, request_id: str, local: bool) -> HttpResponse:
    if path == "/":
        body = (
            page_asset("index.html")
            .replace(b"{{version}}", __version__.encode())
            .replace(b"{{mode}}", b"local" if local else b"key")
        )
        headers: Headers = (
            ("content-type", "text/html; charset=utf-8"),
            ("cache-control", "no-cache"),
            ("vary", "Accept"),
        )
    else:
        name, content_type = _STATIC[path]
        body = page_asset(name)
        # The page asks for each asset with ?v=<version>, so a new release is a new URL.
        headers = (("content-type", content_type), ("cache-control", "public, max-age=86400"))
    headers = (
        *headers,
        ("content-length", str(len(body))),
        ("content-security-policy", PAGE_CSP),
        ("x-content-type-options", "nosniff"),
        ("referrer-policy", "no-referrer"),
        ("x-frame-options", "DENY"),
        ("x-request-id", request_id),
    )
    return HttpResponse(200, headers, b"" if method == "HEAD" else body, request_id)


# --- pieces -----------------------------------------------------------------------------


def _json_headers(request_id: str, length: int) -> Headers:
    return (
        ("content-type", "application/json"),
        ("content-length", str(length)),
        ("x-request-id", request_id),
    )


def _envelope(status: int, code: str, message: str, request_id: str) -> HttpResponse:
    body = _encode({"error": {"code": code, "message": message}})
    return HttpResponse(status, _json_headers(request_id, len(body)), body, request_id)


def _error(error: CiteverifyError, request_id: str) -> HttpResponse:
    body = _encode(error.to_envelope())
    headers = _json_headers(request_id, len(body))
    if isinstance(error, RateLimited):
        headers = (*headers, ("retry-after", str(error.retry_after)))
    elif isinstance(error, Unauthorized):
        headers = (*headers, ("www-authenticate", 'Bearer realm="citeverify"'))
    return HttpResponse(error.http_status, headers, body, request_id)


def _validation(field: str, message: str) -> CiteverifyError:
    from citeverify.errors import ValidationError

    return ValidationError(
        "request is not a valid VerifyRequest", [{"field": field, "message": message}]
    )


def _bearer(request: HttpRequest) -> str:
    values = request.header_values("authorization")
    if not values:
        raise Unauthorized("missing Authorization header (expected 'Bearer <API key>')")
    if len(values) > 1:
        raise Unauthorized("more than one Authorization header")
    scheme, _, key = values[0].strip().partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        raise Unauthorized("malformed Authorization header (expected 'Bearer <API key>')")
    return key.strip()


def _check_content_type(request: HttpRequest) -> None:
    values = request.header_values("content-type")
    if not values:
        raise _validation("Content-Type", "missing; send application/json")
    media, *params = (part.strip() for part in values[0].split(";"))
    if media.lower() != "application/json":
        raise _validation("Content-Type", f"must be application/json, not {media[:60]!r}")
    for param in params:
        name, _, value = param.partition("=")
        if name.strip().lower() == "charset" and value.strip().strip('"').lower() not in (
            "utf-8",
            "utf8",
        ):
            raise _validation("Content-Type", "the only charset accepted is utf-8")


access_logger = logging.getLogger("citeverify.http.access")


def log_access(request: HttpRequest, response: HttpResponse, started: float) -> None:
    """One access-log line: never headers, bodies or keys (the path is redacted)."""
    if access_logger.isEnabledFor(logging.INFO):
        access_logger.info(
            '"%s %s" %d %.1fms id=%s account=%s',
            loggable_path(request.method[:16]),
            loggable_path(request.path),
            response.status,
            (time.perf_counter() - started) * 1000,
            response.request_id,
            response.account or "-",
        )
