"""``citeverify keys`` in-process, and one real ``citeverify serve`` on loopback."""

# ruff: noqa: F811  (pytest fixtures imported from tests.conftest_http)

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from citeverify.cli import main
from citeverify.errors import Forbidden, Unauthorized
from citeverify.http import open_store
from citeverify.http._accounts import looks_like_key
from citeverify.http._cli import _safe_url
from tests.conftest_http import (  # noqa: F401  (fixtures)
    auth,
    body_billing,
    free_port,
    postgres_url,
    state_url,
)


@pytest.fixture
def state(tmp_path: Path) -> str:
    return str(tmp_path / "state.sqlite3")


def keys(capsys: pytest.CaptureFixture[str], state: str, *args: str) -> tuple[int, str, str]:
    code = main(["keys", *args, "--state", state])
    out, err = capsys.readouterr()
    return code, out, err


class TestKeysCommand:
    def test_create_prints_the_key_alone_on_the_last_line(
        self, capsys: pytest.CaptureFixture[str], state: str
    ) -> None:
        """keys create prints the new key alone on stdout's last line; it authenticates."""
        code, out, err = keys(capsys, state, "create", "alice", "--limit", "50", "--window", "day")
        assert code == 0
        key = out.splitlines()[-1]
        assert out == key + "\n"
        assert looks_like_key(key)
        assert "shown only now" in err
        with open_store(state) as store:
            account = store.authenticate(key)
        assert (account.limit, account.window) == (50, "day")

    def test_create_duplicate_fails(self, capsys: pytest.CaptureFixture[str], state: str) -> None:
        """Creating an existing account exits 1 with the reason on stderr and no key."""
        keys(capsys, state, "create", "alice", "--limit", "5")
        code, out, err = keys(capsys, state, "create", "alice", "--limit", "5")
        assert (code, out) == (1, "")
        assert "already exists" in err

    def test_limit_is_required(self, capsys: pytest.CaptureFixture[str], state: str) -> None:
        """keys create without --limit is a usage error."""
        with pytest.raises(SystemExit) as caught:
            main(["keys", "create", "alice", "--state", state])
        assert caught.value.code == 2

    def test_regenerate_replaces_the_key(
        self, capsys: pytest.CaptureFixture[str], state: str
    ) -> None:
        """keys regenerate prints a new key; the old one is refused at once."""
        _, old, _ = keys(capsys, state, "create", "alice", "--limit", "5")
        code, new, _ = keys(capsys, state, "regenerate", "alice")
        assert code == 0
        with open_store(state) as store:
            assert store.authenticate(new.strip()).name == "alice"
            with pytest.raises(Unauthorized):
                store.authenticate(old.strip())

    def test_revoke_disable_enable(self, capsys: pytest.CaptureFixture[str], state: str) -> None:
        """disable forbids, enable restores, revoke removes the key."""
        _, out, _ = keys(capsys, state, "create", "alice", "--limit", "5")
        key = out.strip()
        assert keys(capsys, state, "disable", "alice")[0] == 0
        with open_store(state) as store, pytest.raises(Forbidden):
            store.authenticate(key)
        assert keys(capsys, state, "enable", "alice")[0] == 0
        assert keys(capsys, state, "revoke", "alice")[0] == 0
        with open_store(state) as store, pytest.raises(Unauthorized):
            store.authenticate(key)

    @pytest.mark.parametrize("action", ["regenerate", "revoke", "disable", "enable"])
    def test_unknown_account_fails(
        self, capsys: pytest.CaptureFixture[str], state: str, action: str
    ) -> None:
        """Every action on a missing account exits 1 naming it."""
        code, out, err = keys(capsys, state, action, "nobody")
        assert (code, out) == (1, "")
        assert "nobody" in err

    def test_list_shows_hints_never_keys(
        self, capsys: pytest.CaptureFixture[str], state: str
    ) -> None:
        """keys list shows each account's state, quota and usage, and only a key hint."""
        _, out, _ = keys(capsys, state, "create", "bob", "--limit", "9", "--window", "day")
        key = out.strip()
        keys(capsys, state, "create", "alice", "--limit", "5")
        keys(capsys, state, "disable", "alice")
        code, table, _ = keys(capsys, state, "list")
        assert code == 0
        assert key not in table
        lines = table.splitlines()
        assert lines[0].split()[:3] == ["name", "state", "key"]
        assert lines[1].split()[:2] == ["alice", "disabled"]
        assert lines[2].split()[:2] == ["bob", "active"]
        _, as_json, _ = keys(capsys, state, "list", "--json")
        records = [json.loads(line) for line in as_json.splitlines()]
        assert records[1]["key"] == key[:12] + "..."
        assert (records[1]["limit"], records[1]["used"], records[1]["window"]) == (9, 0, "day")

    def test_set_limit(self, capsys: pytest.CaptureFixture[str], state: str) -> None:
        """keys set-limit changes the quota and window."""
        keys(capsys, state, "create", "alice", "--limit", "5")
        assert keys(capsys, state, "set-limit", "alice", "--limit", "7", "--window", "day")[0] == 0
        with open_store(state) as store:
            account = store.get("alice")
        assert (account.limit, account.window) == (7, "day")

    def test_state_from_the_environment(
        self, capsys: pytest.CaptureFixture[str], state: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Without --state, $CITEVERIFY_STATE names the database."""
        monkeypatch.setenv("CITEVERIFY_STATE", state)
        assert main(["keys", "create", "alice", "--limit", "1"]) == 0
        capsys.readouterr()
        with open_store(state) as store:
            assert store.get("alice").limit == 1

    def test_passwords_are_hidden_in_urls(self) -> None:
        """The state URL printed at start-up never shows a password."""
        assert _safe_url("postgresql://cv:s3cret@db:5432/x") == "postgresql://cv:***@db:5432/x"
        assert _safe_url("/tmp/state.sqlite3") == "/tmp/state.sqlite3"


# --- one real server ---------------------------------------------------------------------


class Server:
    def __init__(self, state: str, log: Path, workers: int = 1) -> None:
        self.port = free_port()
        self.log = log
        self.url = f"http://127.0.0.1:{self.port}"
        root = str(Path(__file__).resolve().parents[1])
        path = os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": path}
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "citeverify",
                "serve",
                "--port",
                str(self.port),
                "--state",
                state,
            ],
            stdout=subprocess.DEVNULL,
            stderr=log.open("wb"),
            env=env,
            cwd=root,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve exited: {log.read_text()}")
            try:
                httpx.get(self.url + "/", timeout=1)
                return
            except httpx.TransportError:
                time.sleep(0.1)
        self.process.kill()
        raise RuntimeError("serve did not start in 30 s")

    def stop(self) -> int:
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, str]]:
    folder = tmp_path_factory.mktemp("serve")
    state = str(folder / "state.sqlite3")
    with open_store(state) as store:
        key = store.create("alice", 1000, "day")
    server = Server(state, folder / "serve.log")
    try:
        yield server, key
    finally:
        if server.process.poll() is None:
            server.process.kill()


class TestServe:
    def test_verifies_over_loopback(self, served: tuple[Server, str]) -> None:
        """A real request to the real server verifies against the embedded corpus."""
        server, key = served
        body = json.dumps(
            {"items": [{"id": "r", "type": "case", "rawText": "Roe v. Wade, 410 U.S. 113 (1973)"}]}
        )
        response = httpx.post(server.url + "/api/v1/verify", content=body, headers=auth(key))
        assert response.status_code == 200
        assert response.json()["results"][0]["verdict"]["status"] == "verified"
        assert response.json()["usage"]["used"] == 1

    def test_hostile_bodies_over_loopback(self, served: tuple[Server, str]) -> None:
        """Over a real socket, 8 MB, deep nesting and bad UTF-8 all get the 422 envelope."""
        server, key = served
        with httpx.Client(base_url=server.url, timeout=30) as client:
            for body in (b"x" * 8_000_000, b"[" * 100_000, b"\xff\xfe\xfd"):
                response = client.post("/api/v1/verify", content=body, headers=auth(key))
                assert response.status_code == 422
                assert response.json()["error"]["details"][0]["field"] == "body"

    def test_errors_are_envelopes_over_loopback(self, served: tuple[Server, str]) -> None:
        """404, 405 and 401 through uvicorn are the JSON envelope, never HTML."""
        server, _ = served
        assert httpx.get(server.url + "/nope").json()["error"]["code"] == "not_found"
        assert httpx.get(server.url + "/api/v1/verify").headers["allow"] == "POST"
        response = httpx.post(server.url + "/api/v1/verify", content=body_billing(1))
        assert response.json()["error"]["code"] == "unauthorized"
        head = httpx.head(server.url + "/")
        assert head.status_code == 200
        assert head.content == b""

    def test_zz_shutdown_is_graceful_and_the_log_is_clean(self, served: tuple[Server, str]) -> None:
        """SIGTERM shuts the server down cleanly (uvicorn re-raises the signal after its
        graceful shutdown); the log never holds a key, a query string or a body."""
        server, key = served
        secret_body = json.dumps(
            {"items": [{"id": "s", "type": "case", "rawText": "Secret v. Body, 1 U.S. 1"}]}
        )
        httpx.post(
            server.url + "/api/v1/verify?api_key=" + key,
            content=secret_body,
            headers=auth(key),
        )
        httpx.get(server.url + "/keys/" + key)  # a key pasted into a path
        assert server.stop() in (0, -signal.SIGTERM)
        log = server.log.read_text()
        assert "Application shutdown complete" in log
        assert "Finished server process" in log
        assert "access" in log
        assert "/api/v1/verify" in log
        assert key not in log
        assert key[:16] not in log
        assert "Secret v. Body" not in log
        assert "api_key" not in log
        assert "Traceback" not in log


@pytest.mark.slow
def test_two_workers_share_the_quota_exactly(state_url: str, tmp_path: Path) -> None:
    """Two uvicorn worker processes over one state database bill a quota exactly."""
    with open_store(state_url) as store:
        key = store.create("racer", 300, "day")
    server = Server(state_url, tmp_path / "serve.log", workers=2)
    statuses: list[int] = []
    lock = threading.Lock()

    def work() -> None:
        mine: list[int] = []
        with httpx.Client(base_url=server.url, timeout=30) as client:
            while True:
                response = client.post("/api/v1/verify", content=body_billing(4), headers=auth(key))
                mine.append(response.status_code)
                if response.status_code != 200:
                    break
        with lock:
            statuses.extend(mine)

    try:
        threads = [threading.Thread(target=work) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        server.stop()
    assert set(statuses) == {200, 429}
    with open_store(state_url) as store:
        used = store.charge(store.get("racer"), 0).used
    assert used == 4 * statuses.count(200) == 300


# --- failures answered in one line ---------------------------------------------------------


def _broken_states(tmp_path: Path) -> list[str]:
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is not a database, " * 200)
    folder = tmp_path / "a-folder.sqlite3"
    folder.mkdir()
    return [str(garbage), str(folder), "postgresql://cv@127.0.0.1:1/nothing-listens-here"]


@pytest.mark.parametrize("command", [["list"], ["create", "x", "--limit", "1"], ["revoke", "x"]])
def test_keys_on_a_broken_database_print_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    """A state database that cannot be opened or read: exit 1 and one line on stderr,
    never a traceback."""
    for broken in _broken_states(tmp_path):
        code = main(["keys", *command, "--state", broken])
        out, err = capsys.readouterr()
        assert (code, out) == (1, ""), broken
        assert len(err.strip().splitlines()) == 1, err
        assert err.startswith("citeverify: the state database failed: "), err
        assert "Traceback" not in err


def _serve_until_exit(tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([root, os.environ.get("PYTHONPATH", "")])}
    env.pop("CITEVERIFY_STORE", None)
    command = [sys.executable, "-m", "citeverify", "serve", "--port", str(free_port())]
    return subprocess.run(
        [*command, "--state", str(tmp_path / "state.sqlite3"), *options],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=root,
    )


def _corrupt_stores(tmp_path: Path) -> dict[str, Path]:
    from citeverify.providers.local import EMBEDDED_CORPUS

    corpus = Path(__file__).resolve().parents[1] / "citeverify" / "data" / EMBEDDED_CORPUS
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(os.urandom(64 * 1024))
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    truncated = tmp_path / "truncated.sqlite3"
    truncated.write_bytes(corpus.read_bytes()[: corpus.stat().st_size // 2])
    return {
        "missing": tmp_path / "missing.sqlite3",
        "garbage": garbage,
        "empty": empty,
        "truncated": truncated,
    }


@pytest.mark.parametrize("kind", ["missing", "garbage", "empty", "truncated"])
@pytest.mark.parametrize("how", ["option", "environment"])
def test_serve_refuses_a_missing_or_corrupt_store(tmp_path: Path, kind: str, how: str) -> None:
    """serve --store (or CITEVERIFY_STORE) naming a missing or corrupt file exits 1 with
    one line before it listens, instead of billing every citation as unverified."""
    store = _corrupt_stores(tmp_path)[kind]
    if how == "option":
        done = _serve_until_exit(tmp_path, "--store", str(store))
    else:
        os.environ["CITEVERIFY_STORE"] = str(store)
        try:
            done = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "citeverify",
                    "serve",
                    "--port",
                    str(free_port()),
                    "--state",
                    str(tmp_path / "state.sqlite3"),
                ],
                capture_output=True,
                text=True,
                timeout=120,
                cwd=str(Path(__file__).resolve().parents[1]),
            )
        finally:
            del os.environ["CITEVERIFY_STORE"]
    assert done.returncode == 1, done.stderr
    assert "Uvicorn running" not in done.stderr
    assert "serving on" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("citeverify: the store file ")
    assert str(store) in lines[0]  # the operator is told which file


def test_unreadable_store_never_shows_its_path_to_clients(tmp_path: Path) -> None:
    """A store that fails while serving answers 'unavailable' without the server's path."""
    from citeverify.providers.local import LocalStore

    secret = tmp_path / "secret-folder" / "store.sqlite3"
    response = citeverify_verify(LocalStore(secret))
    [result] = response["results"]
    assert result["verdict"]["outcome"] == "unverified"
    assert "secret-folder" not in json.dumps(response)
    assert str(tmp_path) not in json.dumps(response)


def citeverify_verify(provider: object) -> dict[str, object]:
    import citeverify

    items = [{"id": "r", "type": "case", "rawText": "Roe v. Wade, 410 U.S. 113 (1973)"}]
    out: dict[str, object] = citeverify.verify_request({"items": items}, provider=provider)
    return out


@pytest.mark.parametrize(
    "option",
    [
        ["--max-header-bytes", "0"],
        ["--timeout-header", "0"],
        ["--limit-concurrency", "-1"],
    ],
)
def test_serve_refuses_bad_limits(tmp_path: Path, option: list[str]) -> None:
    """A limit that makes no sense is a one-line error before listening."""
    done = _serve_until_exit(tmp_path, *option)
    assert done.returncode == 1
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert option[0] in done.stderr
