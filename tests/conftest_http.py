"""Helpers shared by the HTTP service tests: a clock to roll windows, a throwaway
PostgreSQL server, state URLs for both engines, a small provider, request bodies.

Imported explicitly by ``tests/test_http_*.py`` (not a pytest conftest, so the
rest of the suite does not pay for it).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import glob
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import uuid
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

import pytest

from citeverify import Court
from citeverify.http import AccountStore, open_store
from citeverify.providers import Memory
from citeverify.providers._base import Authority

# --- a clock tests can move --------------------------------------------------------------


class FakeClock:
    """A settable UTC clock: ``store = open_store(url, clock=clock)``."""

    def __init__(self, start: dt.datetime | None = None) -> None:
        self.now = start or dt.datetime(2025, 1, 31, 23, 0, tzinfo=dt.UTC)
        self._lock = threading.Lock()

    def __call__(self) -> dt.datetime:
        with self._lock:
            return self.now

    def advance(self, **delta: float) -> None:
        with self._lock:
            self.now += dt.timedelta(**delta)


# --- a provider and request bodies ------------------------------------------------------

ROE = Authority(
    kind="case",
    reference="t:roe",
    provider="test",
    citations=("410 U.S. 113",),
    name="Roe v. Wade",
    court=Court("Supreme Court of the United States", "us"),
    court_id="scotus",
    decided=dt.date(1973, 1, 22),
    first_page=113,
    last_page=178,
)
PROVIDER = Memory([ROE], complete=["U.S."], as_of="2024-01-01T00:00:00Z")


def body_billing(n: int, *, quotes: int = 0) -> bytes:
    """A request that bills exactly ``n`` citations (distinct U.S. Reports pages) and
    carries ``quotes`` quote items hanging from the first (free)."""
    items: list[dict[str, str]] = [
        {"id": f"c{i}", "type": "case", "rawText": f"Some v. Case, 1{i:03d} U.S. {100 + i}"}
        for i in range(n)
    ]
    if n == 0:
        items.append({"id": "s", "type": "case", "rawText": "this is not a citation"})
    items += [
        {"id": f"q{j}", "type": "quote", "quoteText": "a quote", "parentCaseId": items[0]["id"]}
        for j in range(quotes)
    ]
    return json.dumps({"items": items}).encode()


def auth(key: str) -> dict[str, str]:
    """Headers of an authenticated JSON request."""
    return {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}


# --- PostgreSQL -------------------------------------------------------------------------


def _pg_bin() -> Path | None:
    candidates = [shutil.which("initdb")]
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), reverse=True)
    for found in candidates:
        if found and Path(found).with_name("pg_ctl").exists():
            return Path(found).parent
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class PostgresServer:
    """A throwaway PostgreSQL cluster in a temp dir, on a free loopback port."""

    def __init__(self) -> None:
        self.bin = _pg_bin()
        if self.bin is None:
            raise RuntimeError("no initdb/pg_ctl on PATH or under /usr/lib/postgresql/*/bin")
        self.dir = Path(tempfile.mkdtemp(prefix="cv-pg-"))
        self.port = free_port()
        self.data = self.dir / "data"
        self.as_root = os.geteuid() == 0

    def _run(self, command: list[str]) -> None:
        if self.as_root:  # the server refuses to run as root
            import shlex

            command = ["su", "postgres", "-c", shlex.join(command)]
        subprocess.run(command, check=True, capture_output=True, timeout=60)

    def start(self) -> str:
        if self.as_root:
            shutil.chown(self.dir, "postgres")
        assert self.bin is not None
        self._run([str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "cv"])
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            [
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.data),
                "-o",
                options,
                "-l",
                str(self.dir / "log"),
                "-w",
                "start",
            ]
        )
        return f"postgresql://cv@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        assert self.bin is not None
        try:
            self._run([str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"])
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """The URL of a throwaway PostgreSQL server; skips when none can be started."""
    if os.environ.get("CITEVERIFY_TEST_POSTGRES"):  # an existing server, e.g. in CI
        yield os.environ["CITEVERIFY_TEST_POSTGRES"]
        return
    try:
        server = PostgresServer()
        url = server.start()
    except (RuntimeError, OSError, subprocess.SubprocessError, LookupError) as exc:
        pytest.skip(f"PostgreSQL not available: {exc}")
    try:
        yield url
    finally:
        server.stop()


def fresh_postgres_database(url: str) -> str:
    """A new empty database on the server at ``url``; returns its URL."""
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def state_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty state database URL on each engine."""
    if request.param == "sqlite":
        return str(tmp_path / "state.sqlite3")
    server: str = request.getfixturevalue("postgres_url")
    return fresh_postgres_database(server)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(state_url: str, clock: FakeClock) -> Iterator[AccountStore]:
    with open_store(state_url, clock=clock) as opened:
        yield opened


def charge_worker(
    url: str, account: str, sizes: list[int], fill: bool, start_at: float = 0.0
) -> list[int]:
    """In a child process: wait for ``start_at`` (a ``time.time()``, so every process
    starts together), charge ``sizes`` then (``fill``) single citations until refused;
    return the amounts that were accepted."""
    import time

    from citeverify.errors import RateLimited

    accepted: list[int] = []
    with open_store(url) as store:
        acct = store.get(account)
        time.sleep(max(0.0, start_at - time.time()))
        for n in sizes:
            try:
                store.charge(acct, n)
                accepted.append(n)
            except RateLimited:
                pass
        while fill:
            try:
                store.charge(acct, 1)
                accepted.append(1)
            except RateLimited:
                break
    return accepted


def json_of(response: Any) -> Any:
    return json.loads(response.body if hasattr(response, "body") else response.content)


def run_asgi(app: Any, scope: dict[str, Any], chunks: list[bytes]) -> tuple[list[Any], int]:
    """Call ``app`` with ``chunks`` as the body; return what it sent and chunks it read."""
    sent: list[Any] = []
    read = 0

    async def receive() -> dict[str, Any]:
        nonlocal read
        if read >= len(chunks):
            return {"type": "http.disconnect"}
        read += 1
        return {"type": "http.request", "body": chunks[read - 1], "more_body": read < len(chunks)}

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    base = {
        "type": "http",
        "method": "POST",
        "path": "/api/v1/verify",
        "headers": [],
        "root_path": "",
    }
    asyncio.run(app({**base, **scope}, receive, send))
    return sent, read
