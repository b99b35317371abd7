"""The ASGI and WSGI apps in-process (httpx transports), body streaming limits, mounting,
and schemathesis against the OpenAPI document."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import positive_data_acceptance

from citeverify._codec import Limits
from citeverify.http import (
    AccountStore,
    AsgiApp,
    Service,
    WsgiApp,
    create_asgi_app,
    create_wsgi_app,
    open_store,
)
from tests.conftest_http import PROVIDER, auth, body_billing, run_asgi

VERIFY = "/api/v1/verify"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[AccountStore]:
    with open_store(str(tmp_path / "state.sqlite3")) as s:
        yield s


@pytest.fixture
def key(store: AccountStore) -> str:
    return store.create("alice", 1000, "day")


@pytest.fixture(params=["asgi", "asgi-inline", "wsgi"])
def client(request: pytest.FixtureRequest, store: AccountStore) -> Iterator[httpx.Client]:
    """A client of one app kind; the ASGI ones through a thin sync bridge."""
    if request.param == "wsgi":
        app = create_wsgi_app(store, provider=PROVIDER)
        with httpx.Client(transport=httpx.WSGITransport(app=app), base_url="http://t") as c:
            yield c
        return
    asgi = create_asgi_app(store, provider=PROVIDER, offload=request.param == "asgi")
    with httpx.Client(transport=_SyncAsgi(asgi), base_url="http://t") as c:
        yield c


class _SyncAsgi(httpx.BaseTransport):
    """Drive httpx.ASGITransport from sync tests, one event loop per request."""

    def __init__(self, app: Any) -> None:
        self.transport = httpx.ASGITransport(app=app)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        async def go() -> httpx.Response:
            async with httpx.AsyncClient(transport=self.transport, base_url="http://t") as c:
                response = await c.send(
                    httpx.Request(
                        request.method, request.url, headers=request.headers, content=request.read()
                    )
                )
                await response.aread()
                return response

        response = asyncio.run(go())
        return httpx.Response(
            response.status_code, headers=response.headers, content=response.content
        )


def error_of(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text[:300]
    assert response.headers["content-type"] == "application/json"
    payload = response.json()
    assert set(payload) == {"error"}
    assert payload["error"]["code"] == code
    return dict(payload["error"])


class TestApps:
    def test_verify_round_trip(self, client: httpx.Client, key: str) -> None:
        """A valid request is answered 200 with results and usage through each app."""
        response = client.post(VERIFY, content=body_billing(3), headers=auth(key))
        assert response.status_code == 200
        assert response.json()["usage"] == {"used": 3, "remaining": 997, "limit": 1000}

    def test_errors_are_envelopes(self, client: httpx.Client, key: str) -> None:
        """404, 405, 401 and 422 come through each app as the envelope."""
        error_of(client.get("/missing"), 404, "not_found")
        assert error_of_with(client.get(VERIFY), 405).headers["allow"] == "POST"
        error_of(client.post(VERIFY, content=body_billing(1)), 401, "unauthorized")
        error_of(client.post(VERIFY, content=b"{", headers=auth(key)), 422, "validation_error")

    def test_query_string_is_ignored_for_routing(self, client: httpx.Client) -> None:
        """GET /?x=1 is GET /: routing uses the path only."""
        assert client.get("/?x=1").json()["service"] == "citeverify"

    @pytest.mark.parametrize(
        "body",
        [
            b"not json",
            b'{"items": NaN}',
            b"[" * 100_000 + b"]" * 100_000,
            b"\xc3\x28\xa0\xa1",
            b"x" * 8_000_000,
        ],
        ids=["not-json", "nan", "deep", "bad-utf8", "8mb"],
    )
    def test_hostile_bodies_get_the_envelope(
        self, client: httpx.Client, key: str, body: bytes
    ) -> None:
        """Hostile bodies through each app are 422 validation_error naming body."""
        error = error_of(
            client.post(VERIFY, content=body, headers=auth(key)), 422, "validation_error"
        )
        assert [d["field"] for d in error["details"]] == ["body"]

    def test_wrong_content_type(self, client: httpx.Client, key: str) -> None:
        """A form-encoded body is 422 naming Content-Type through each app."""
        headers = {**auth(key), "Content-Type": "application/x-www-form-urlencoded"}
        error = error_of(
            client.post(VERIFY, content=body_billing(1), headers=headers), 422, "validation_error"
        )
        assert error["details"][0]["field"] == "Content-Type"

    def test_chunked_body_over_the_limit(self, client: httpx.Client, key: str) -> None:
        """A body streamed without Content-Length is counted and refused past the limit."""

        def chunks() -> Iterator[bytes]:
            for _ in range(40):
                yield b" " * 65_536

        response = client.post(VERIFY, content=chunks(), headers=auth(key))
        error = error_of(response, 422, "validation_error")
        assert error["details"][0]["field"] == "body"


def error_of_with(response: httpx.Response, status: int) -> httpx.Response:
    assert response.status_code == status
    return response


# --- the ASGI adapter, message by message ------------------------------------------------


class TestAsgiAdapter:
    def _app(self, store: AccountStore, limit: int = 1000) -> AsgiApp:
        service = Service(store, provider=PROVIDER, limits=Limits(max_body_bytes=limit))
        return AsgiApp(service, offload=False, close_store=False)

    def test_stops_reading_past_the_limit(self, store: AccountStore, key: str) -> None:
        """Reading stops at the first chunk that passes the limit; the rest is never pulled."""
        headers = [
            (b"authorization", f"Bearer {key}".encode()),
            (b"content-type", b"application/json"),
        ]
        sent, read = run_asgi(self._app(store), {"headers": headers}, [b"x" * 400] * 100)
        assert read == 3
        assert sent[0]["status"] == 422
        assert json.loads(sent[1]["body"])["error"]["details"][0]["field"] == "body"

    def test_declared_length_over_the_limit_reads_nothing(
        self, store: AccountStore, key: str
    ) -> None:
        """A Content-Length over the limit is refused without reading the body."""
        headers = [
            (b"authorization", f"Bearer {key}".encode()),
            (b"content-type", b"application/json"),
            (b"content-length", b"999999"),
        ]
        sent, read = run_asgi(self._app(store), {"headers": headers}, [b"x" * 400] * 100)
        assert read == 0
        assert sent[0]["status"] == 422

    def test_disconnect_sends_nothing(self, store: AccountStore) -> None:
        """A client that disconnects mid-body gets no response and raises nothing."""
        sent, _ = run_asgi(self._app(store), {}, [])
        assert sent == []

    def test_root_path_is_stripped_when_mounted(self, store: AccountStore) -> None:
        """Mounted under /cv (root_path), /cv/openapi.json routes to /openapi.json."""
        scope = {"method": "GET", "path": "/cv/openapi.json", "root_path": "/cv"}
        sent, _ = run_asgi(self._app(store), scope, [b""])
        assert sent[0]["status"] == 200
        assert json.loads(sent[1]["body"])["openapi"].startswith("3.1")

    def test_lifespan_closes_an_owned_store(self, tmp_path: Path) -> None:
        """An app that opened its own store closes it on lifespan shutdown."""
        app = create_asgi_app(state=str(tmp_path / "s.sqlite3"), provider=PROVIDER)
        closed: list[bool] = []
        app.service.store.close = lambda: closed.append(True)  # type: ignore[method-assign]
        messages = iter([{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}])
        sent: list[Any] = []

        async def receive() -> Any:
            return next(messages)

        async def send(message: Any) -> None:
            sent.append(message["type"])

        asyncio.run(app({"type": "lifespan"}, receive, send))
        assert sent == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
        assert closed == [True]


class TestWsgiAdapter:
    def _environ(
        self, key: str, body: io.BytesIO, length: int | None, **extra: Any
    ) -> dict[str, Any]:
        environ = {
            "REQUEST_METHOD": "POST",
            "PATH_INFO": VERIFY,
            "SCRIPT_NAME": "/mounted",
            "CONTENT_TYPE": "application/json",
            "HTTP_AUTHORIZATION": f"Bearer {key}",
            "wsgi.input": body,
            **extra,
        }
        if length is not None:
            environ["CONTENT_LENGTH"] = str(length)
        return environ

    def _call(self, app: WsgiApp, environ: dict[str, Any]) -> tuple[str, bytes]:
        status: list[str] = []
        body = b"".join(app(environ, lambda s, h: status.append(s)))
        return status[0], body

    def test_mounted_under_script_name(self, store: AccountStore, key: str) -> None:
        """PATH_INFO routes below the mount point (SCRIPT_NAME)."""
        app = WsgiApp(Service(store, provider=PROVIDER))
        data = body_billing(1)
        status, body = self._call(app, self._environ(key, io.BytesIO(data), len(data)))
        assert status == "200 OK"
        assert json.loads(body)["usage"]["used"] == 1

    def test_declared_length_over_the_limit_reads_nothing(
        self, store: AccountStore, key: str
    ) -> None:
        """A CONTENT_LENGTH over the limit is refused without reading wsgi.input."""
        app = WsgiApp(Service(store, provider=PROVIDER, limits=Limits(max_body_bytes=100)))
        stream = io.BytesIO(b"x" * 1000)
        status, _body = self._call(app, self._environ(key, stream, 1000))
        assert status.startswith("422")
        assert stream.tell() == 0

    def test_terminated_input_is_read_only_to_the_limit(
        self, store: AccountStore, key: str
    ) -> None:
        """Without CONTENT_LENGTH, a terminated input is read to one byte past the limit at most."""
        app = WsgiApp(Service(store, provider=PROVIDER, limits=Limits(max_body_bytes=100)))
        stream = io.BytesIO(b"x" * 100_000)
        status, _ = self._call(
            app, self._environ(key, stream, None, **{"wsgi.input_terminated": True})
        )
        assert status.startswith("422")
        assert stream.tell() == 101


# --- schemathesis over the OpenAPI document ----------------------------------------------


@pytest.fixture
def api_store(tmp_path: Path) -> Iterator[AccountStore]:
    with open_store(str(tmp_path / "state.sqlite3")) as s:
        yield s


@pytest.fixture
def api_key(api_store: AccountStore) -> str:
    return api_store.create("fuzz", 10**12, "month")


@pytest.fixture(params=["asgi", "wsgi"])
def api_schema(request: pytest.FixtureRequest, api_store: AccountStore) -> Any:
    limits = Limits(max_items=20)
    if request.param == "wsgi":
        wsgi = create_wsgi_app(api_store, provider=PROVIDER, limits=limits)
        return schemathesis.openapi.from_wsgi("/openapi.json", wsgi)
    asgi = create_asgi_app(api_store, provider=PROVIDER, limits=limits)
    return schemathesis.openapi.from_asgi("/openapi.json", asgi)


class TestSchemathesis:
    @pytest.mark.parametrize("operation", ["POST /api/v1/verify", "GET /", "GET /openapi.json"])
    def test_operation(self, api_schema: Any, api_key: str, operation: str) -> None:
        """Every generated request gets a documented status, content type, headers and body.

        ``positive_data_acceptance`` is left out on purpose: a schema-valid body can break
        the cross-item rules JSON Schema cannot state (unique ids, a quote's parent in the
        same request), and those get 422 by design.
        """
        method, path = operation.split(" ")
        found = api_schema[path][method]

        @given(case=found.as_strategy())
        @settings(
            max_examples=80,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def run(case: Any) -> None:
            case.call_and_validate(
                headers={"Authorization": f"Bearer {api_key}"},
                excluded_checks=[positive_data_acceptance],
            )

        run()
