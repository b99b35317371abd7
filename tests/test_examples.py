"""The framework examples in ``examples/`` run: FastAPI (ASGI), Flask and Django (WSGI).

Each example serves the contract's ``POST /api/v1/verify`` through citeverify's own app
(API keys, quota, error envelope) and calls the library from a route of its own.  The
tests drive them in-process through httpx transports, with a throwaway state database
and a key made by ``citeverify keys create``, exactly as a user would.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

FABRICATED = "Smith v. Jones, 410 U.S. 999 (1973)"
REAL = "Miranda v. Arizona, 384 U.S. 436 (1966)"


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


def _http_landed() -> bool:
    if not _installed("citeverify.http"):
        return False
    import citeverify.http

    return hasattr(citeverify.http, "create_asgi_app") and hasattr(
        citeverify.http, "create_wsgi_app"
    )


needs_http = pytest.mark.skipif(
    not _http_landed(), reason="citeverify.http (create_asgi_app/create_wsgi_app) is not installed"
)


def _corpus_landed() -> bool:
    from citeverify.citations import CaseCitation, parse
    from citeverify.providers import default_provider

    parsed = parse(FABRICATED)
    return isinstance(parsed, CaseCitation) and default_provider().name == "local"


def load_example(name: str) -> ModuleType:
    """Import ``examples/<name>.py`` as a fresh module."""
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # as an import would: pydantic resolves annotations there
    spec.loader.exec_module(module)
    return module


class ASGIClient:
    """A synchronous face on httpx's async ASGI transport, for tests written like the WSGI ones.

    (Starlette's TestClient would do, but it is deprecated over httpx.)
    """

    def __init__(self, app: Any) -> None:
        self.app = app

    def request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        async def send() -> httpx.Response:
            transport = httpx.ASGITransport(app=self.app)
            async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
                return await c.request(method, url, **kwargs)

        return asyncio.run(send())

    def get(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", url, **kwargs)


def create_key(state: Path, name: str = "example") -> str:
    """Make an account and key with the documented command; the key is its last stdout line."""
    env = {**os.environ, "CITEVERIFY_STATE": str(state), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "citeverify", "keys", "create", name, "--limit", "1000"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return done.stdout.strip().splitlines()[-1].strip()


@pytest.fixture(scope="module")
def state(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A throwaway state database, named by CITEVERIFY_STATE while the module's tests run."""
    path = tmp_path_factory.mktemp("state") / "state.sqlite3"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CITEVERIFY_STATE", str(path))
        yield path


@pytest.fixture(scope="module")
def key(state: Path) -> str:
    return create_key(state)


@pytest.fixture(scope="module")
def fastapi_client(state: Path) -> ASGIClient:
    """examples/fastapi_app.py's app, loaded once with the module's state database."""
    return ASGIClient(load_example("fastapi_app").app)


def _wsgi_client(application: Any) -> httpx.Client:
    return httpx.Client(
        transport=httpx.WSGITransport(app=application), base_url="http://testserver"
    )


@pytest.fixture(scope="module")
def flask_client(state: Path) -> Iterator[httpx.Client]:
    """examples/flask_app.py's app, loaded once with the module's state database."""
    with _wsgi_client(load_example("flask_app").app) as client:
        yield client


@pytest.fixture(scope="module")
def django_client(state: Path) -> Iterator[httpx.Client]:
    """examples/django_site.py's WSGI entry point (Django is configured once per process)."""
    with _wsgi_client(load_example("django_site").application) as client:
        yield client


def _request(*texts: str) -> dict[str, Any]:
    return {"items": [{"id": str(i), "type": "case", "rawText": t} for i, t in enumerate(texts)]}


class _ContractChecks:
    """The same checks of the mounted contract API, for every framework."""

    def check_contract_api(self, client: httpx.Client | ASGIClient, key: str) -> None:
        no_key = client.post("/api/v1/verify", json=_request(REAL))
        assert no_key.status_code == 401
        assert no_key.json()["error"]["code"] == "unauthorized"

        answer = client.post(
            "/api/v1/verify",
            json=_request(REAL, FABRICATED),
            headers={"Authorization": f"Bearer {key}"},
        )
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert [r["id"] for r in body["results"]] == ["0", "1"]
        assert body["summary"]["total"] == 2
        assert body["usage"]["limit"] == 1000
        if _corpus_landed():
            assert [r["verdict"]["status"] for r in body["results"]] == ["verified", "critical"]

        invalid = client.post(
            "/api/v1/verify", json={"items": []}, headers={"Authorization": f"Bearer {key}"}
        )
        assert invalid.status_code == 422
        assert invalid.json()["error"]["code"] == "validation_error"


@needs_http
@pytest.mark.skipif(not _installed("fastapi"), reason="FastAPI is not installed")
class TestFastAPI(_ContractChecks):
    """examples/fastapi_app.py: the ASGI app mounted in FastAPI, and a route calling verify."""

    @pytest.fixture
    def client(self, fastapi_client: ASGIClient) -> ASGIClient:
        return fastapi_client

    def test_contract_api_is_mounted(self, client: ASGIClient, key: str) -> None:
        """POST /api/v1/verify answers as the contract says: 401 without key, 200, 422."""
        self.check_contract_api(client, key)

    def test_own_route_calls_verify(self, client: ASGIClient) -> None:
        """The application's /check route verifies with the library and lists problems."""
        answer = client.post("/check", json={"citations": [REAL, FABRICATED]})
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["overall_status"] in ("verified", "warning", "critical")
        if _corpus_landed():
            assert body["overall_status"] == "critical"
            assert [p["citation"] for p in body["problems"]] == [FABRICATED]
            assert body["problems"][0]["outcome"] == "not_found"

    def test_own_route_validates_with_fastapi(self, client: ASGIClient) -> None:
        """The application's own route keeps FastAPI's validation (it is the app's route)."""
        assert client.post("/check", json={"cites": []}).status_code == 422


@needs_http
@pytest.mark.skipif(not _installed("flask"), reason="Flask is not installed")
class TestFlask(_ContractChecks):
    """examples/flask_app.py: the WSGI app beside Flask routes."""

    @pytest.fixture
    def client(self, flask_client: httpx.Client) -> httpx.Client:
        return flask_client

    def test_contract_api_is_routed(self, client: httpx.Client, key: str) -> None:
        """POST /api/v1/verify reaches citeverify's WSGI app: 401 without key, 200, 422."""
        self.check_contract_api(client, key)

    def test_own_route_calls_verify(self, client: httpx.Client) -> None:
        """Flask's /check route verifies with the library."""
        answer = client.post("/check", json={"citations": [REAL, FABRICATED]})
        assert answer.status_code == 200, answer.text
        statuses = answer.json()["statuses"]
        assert set(statuses) == {REAL, FABRICATED}
        if _corpus_landed():
            assert statuses == {REAL: "verified", FABRICATED: "critical"}

    def test_other_paths_stay_flask(self, client: httpx.Client) -> None:
        """A path outside /api/v1/ is Flask's (its 404 page, not the contract's envelope)."""
        answer = client.get("/nowhere")
        assert answer.status_code == 404
        assert "text/html" in answer.headers["content-type"]


@needs_http
@pytest.mark.skipif(not _installed("django"), reason="Django is not installed")
class TestDjango(_ContractChecks):
    """examples/django_site.py: a one-file Django project with the WSGI app routed in."""

    @pytest.fixture
    def client(self, django_client: httpx.Client) -> httpx.Client:
        return django_client

    def test_contract_api_is_routed(self, client: httpx.Client, key: str) -> None:
        """POST /api/v1/verify reaches citeverify's WSGI app: 401 without key, 200, 422."""
        self.check_contract_api(client, key)

    def test_view_calls_verify(self, client: httpx.Client) -> None:
        """The Django view verifies its ?cite= parameters with the library."""
        answer = client.get("/check/", params=[("cite", REAL), ("cite", FABRICATED)])
        assert answer.status_code == 200, answer.text
        results = answer.json()["results"]
        assert [r["citation"] for r in results] == [REAL, FABRICATED]
        if _corpus_landed():
            assert [r["status"] for r in results] == ["verified", "critical"]

    def test_view_without_citations(self, client: httpx.Client) -> None:
        """The view answers 400 when no citation is given."""
        assert client.get("/check/").status_code == 400


class TestExamplesCompile:
    """Every example file is valid Python, whatever is installed."""

    @pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")), ids=lambda p: p.name)
    def test_compiles(self, path: Path) -> None:
        """The example compiles."""
        compile(path.read_text(encoding="utf-8"), str(path), "exec")


_SERVED = {
    "fastapi_app": ("fastapi", "uvicorn"),
    "flask_app": ("flask",),
    "django_site": ("django",),
}


@needs_http
@pytest.mark.slow
class TestStartedAsTheDocstringSays:
    """Each framework example, started by its docstring's command, answers a real request."""

    @pytest.mark.parametrize("name", sorted(_SERVED))
    def test_contract_api_over_http(self, name: str, tmp_path: Path) -> None:
        """The docstring's command serves POST /api/v1/verify over HTTP with a real key."""
        from tests.servers import docstring_commands, post_json, serving

        missing = [m for m in _SERVED[name] if not _installed(m)]
        if missing:
            pytest.skip(f"{', '.join(missing)} not installed")
        commands = docstring_commands(EXAMPLES / f"{name}.py")
        assert commands, f"examples/{name}.py's docstring shows no command to run it"
        state = tmp_path / "state.sqlite3"
        key = create_key(state)
        env = {**os.environ, "CITEVERIFY_STATE": str(state), "PYTHONPATH": str(ROOT)}
        bindir = Path(sys.executable).parent
        (tmp_path / "examples").symlink_to(EXAMPLES)
        with serving(commands[0], tmp_path, env, bindir) as base:
            status, body = post_json(f"{base}/api/v1/verify", _request(REAL, FABRICATED), key)
        assert status == 200, body
        assert body["summary"]["total"] == 2
        assert body["usage"]["used"] == body["summary"]["billed_citations"]
