"""Provider configuration shared by the CLI and the HTTP service (CourtListener on demand)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from citeverify.cli import main
from citeverify.providers import Chain, default_provider
from citeverify.providers._config import provider_from_env
from citeverify.providers.courtlistener import CourtListener
from citeverify.providers.local import LocalStore
from tests.cl_standin import StandIn, running

TOKEN = StandIn.token
assert TOKEN is not None
CL_CASE = "Zeran v. America Online, Inc., 129 F.3d 327 (4th Cir. 1997)"
SCOTUS_CASE = "Roe v. Wade, 410 U.S. 113 (1973)"


@pytest.fixture
def standin() -> Iterator[StandIn]:
    with running(StandIn()) as state:
        yield state


class TestProviderFromEnv:
    def test_default_is_the_embedded_corpus(self) -> None:
        """With nothing set, the provider is the embedded corpus alone."""
        assert provider_from_env({}) is default_provider()

    def test_token_enables_courtlistener_after_the_local_store(self) -> None:
        """A CourtListener token chains CourtListener after the local store."""
        provider = provider_from_env({"COURTLISTENER_TOKEN": "t0k3n-value-123456"})
        assert isinstance(provider, Chain)
        assert provider.providers[0] is default_provider()
        assert isinstance(provider.providers[1], CourtListener)
        assert "t0k3n-value-123456" not in repr(provider)

    def test_switch_overrides_the_token(self) -> None:
        """CITEVERIFY_COURTLISTENER=0 disables it even with a token; =1 enables it without."""
        off = provider_from_env({"COURTLISTENER_TOKEN": "x", "CITEVERIFY_COURTLISTENER": "0"})
        assert not isinstance(off, Chain)
        assert isinstance(provider_from_env({"CITEVERIFY_COURTLISTENER": "1"}), Chain)

    def test_store_file(self, tmp_path: Path) -> None:
        """CITEVERIFY_STORE names the LocalStore file used instead of the embedded corpus."""
        provider = provider_from_env({"CITEVERIFY_STORE": str(tmp_path / "mine.sqlite3")})
        assert isinstance(provider, LocalStore)
        assert provider.path == tmp_path / "mine.sqlite3"


class TestCliWithCourtListener:
    def test_verify_reaches_courtlistener_for_lower_courts(
        self,
        standin: StandIn,
        tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str],
    ) -> None:
        """--courtlistener verifies an F.3d citation remotely and a U.S. one locally."""
        monkeypatch.setenv("COURTLISTENER_TOKEN", TOKEN)
        monkeypatch.setenv("CITEVERIFY_COURTLISTENER_URL", standin.base_url)
        request = tmp_path / "r.json"
        request.write_text(
            json.dumps(
                {
                    "items": [
                        {"id": "a", "type": "case", "rawText": CL_CASE},
                        {"id": "b", "type": "case", "rawText": SCOTUS_CASE},
                    ]
                }
            )
        )
        assert main(["verify", "--courtlistener", str(request)]) == 0
        out = json.loads(capsys.readouterr().out)
        a, b = out["results"]
        assert a["verdict"]["status"] == "verified"
        assert a["opinion"]["documents"][0]["provider"] == "courtlistener"
        assert b["verdict"]["status"] == "verified"
        assert standin.counts()["citation-lookup"] == 1  # only the F.3d citation went out


class TestServeWithCourtListener:
    def test_served_app_uses_the_configured_provider(
        self, standin: StandIn, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The app `citeverify serve` runs takes its provider from the environment."""
        from citeverify.http import open_store
        from citeverify.http._asgi import app_from_env

        state = str(tmp_path / "state.sqlite3")
        with open_store(state) as store:
            key = store.create("firm", 100)
        monkeypatch.setenv("CITEVERIFY_STATE", state)
        monkeypatch.setenv("COURTLISTENER_TOKEN", TOKEN)
        monkeypatch.setenv("CITEVERIFY_COURTLISTENER_URL", standin.base_url)
        app = app_from_env()

        async def call() -> httpx.Response:
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
                return await client.post(
                    "/api/v1/verify",
                    json={"items": [{"id": "a", "type": "case", "rawText": CL_CASE}]},
                    headers={"Authorization": f"Bearer {key}"},
                )

        response = asyncio.run(call())
        assert response.status_code == 200
        [result] = response.json()["results"]
        assert result["verdict"]["status"] == "verified"
        assert TOKEN not in response.text
