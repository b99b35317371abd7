"""The server's own limits, over real ``citeverify serve`` processes on loopback.

Each test reproduces a finding of the security review: an oversized or overcounted
head, a connection that sends nothing or sends slowly, a flood of idle connections,
a CR/LF smuggled into the access log, a request the parser rejects, requests over
the in-flight cap.  Nothing here is timed as a benchmark: the timeouts are set to a
second and the assertions are on what the server answers.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st

from citeverify.http import open_store
from citeverify.http._handler import loggable_path
from tests.conftest_http import auth, free_port

ROOT = Path(__file__).resolve().parents[1]


class Serve:
    """``citeverify serve`` with the given options, until ``stop``."""

    def __init__(
        self, folder: Path, *options: str, nofile: int | None = None, key: bool = False
    ) -> None:
        self.state = str(folder / "state.sqlite3")
        self.key = ""
        if key:
            with open_store(self.state) as store:
                self.key = store.create("alice", 10_000, "day")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"serve-{self.port}.log"
        path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": path}

        def limit_files() -> None:
            if nofile is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        command = [sys.executable, "-m", "citeverify", "serve", "--port", str(self.port)]
        self.process = subprocess.Popen(
            [*command, "--state", self.state, *options],
            stdout=subprocess.DEVNULL,
            stderr=self.log.open("wb"),
            env=env,
            cwd=ROOT,
            preexec_fn=limit_files,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve exited: {self.log.read_text()}")
            try:
                httpx.get(self.url + "/", timeout=1)
                return
            except httpx.TransportError:
                time.sleep(0.1)
        self.process.kill()
        raise RuntimeError("serve did not start in 60 s")

    def connect(self) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        return sock

    def stop(self) -> str:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.log.read_text()


def read_all(sock: socket.socket, timeout: float = 10) -> bytes:
    """Everything the server sends until it closes (or ``timeout`` passes)."""
    sock.settimeout(timeout)
    out = b""
    try:
        while chunk := sock.recv(65536):
            out += chunk
    except (TimeoutError, ConnectionResetError):
        pass
    return out


def envelope(raw: bytes) -> tuple[int, dict[str, str]]:
    """The status and the error object of a raw HTTP response."""
    head, _, body = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    assert b"content-type: application/json" in head.lower()
    error = json.loads(body)["error"]
    assert set(error) >= {"code", "message"}
    return status, error


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Serve]:
    """One server with short timeouts and small head limits for most tests."""
    serve = Serve(
        tmp_path_factory.mktemp("limits"),
        "--timeout-idle",
        "1",
        "--timeout-header",
        "1",
        "--timeout-body",
        "1",
        "--timeout-keep-alive",
        "1",
        "--max-header-bytes",
        "8192",
        "--max-headers",
        "20",
        key=True,
    )
    yield serve
    log = serve.stop()
    assert "Traceback" not in log


class TestHead:
    def test_oversized_header_is_refused_before_it_is_parsed(self, server: Serve) -> None:
        """A 64 MB header gets the 431 envelope after the first 8 KiB: the server answers
        while the client has sent a small part of it (it never read the rest)."""
        sock = server.connect()
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: ")
        sent = 0
        chunk = b"a" * 65536
        answer = b""
        sock.setblocking(False)
        while sent < 64 * 1024 * 1024 and not answer:
            try:
                sent += sock.send(chunk)
            except BlockingIOError:
                time.sleep(0.01)
            except (BrokenPipeError, ConnectionResetError):
                break
            with contextlib.suppress(BlockingIOError):
                answer = sock.recv(65536)
        sock.setblocking(True)
        answer += read_all(sock)
        sock.close()
        assert sent < 64 * 1024 * 1024  # answered long before the header was all sent
        status, error = envelope(answer)
        assert (status, error["code"]) == (431, "request_header_fields_too_large")

    def test_head_just_under_the_limit_is_served(self, server: Serve) -> None:
        """A head that fits (headers of ~6 KiB) is answered normally."""
        response = httpx.get(server.url + "/", headers={"X-Pad": "a" * 6000})
        assert response.status_code == 200

    def test_head_and_body_in_one_read_are_not_miscounted(self, server: Serve) -> None:
        """A small head followed by a 64 KiB body in the same write is a normal request
        (only the head counts against the header limit)."""
        items = [{"id": "1", "type": "case", "rawText": "Roe v. Wade, 410 U.S. 113 (1973)"}]
        body = json.dumps({"items": items}).encode() + b" " * 60_000  # JSON whitespace
        sock = server.connect()
        head = (
            f"POST /api/v1/verify HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {server.key}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            "Connection: close\r\n\r\n"
        ).encode()
        sock.sendall(head + body)
        answer = read_all(sock)
        sock.close()
        assert answer.startswith(b"HTTP/1.1 200")

    def test_too_many_headers(self, server: Serve) -> None:
        """More header lines than allowed: the 431 envelope."""
        sock = server.connect()
        lines = b"".join(b"X-%d: y\r\n" % i for i in range(40))
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n" + lines + b"\r\n")
        status, error = envelope(read_all(sock))
        sock.close()
        assert (status, error["code"]) == (431, "request_header_fields_too_large")

    def test_parser_rejection_is_the_envelope(self, server: Serve) -> None:
        """What the HTTP parser rejects is answered with the 400 envelope, not plain text."""
        sock = server.connect()
        sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        status, error = envelope(read_all(sock))
        sock.close()
        assert (status, error["code"]) == (400, "bad_request")


class TestTimeouts:
    def test_idle_connection_is_closed(self, server: Serve) -> None:
        """A connection that never sends a byte is closed after the idle timeout."""
        sock = server.connect()
        started = time.monotonic()
        assert read_all(sock, timeout=20) == b""
        sock.close()
        assert time.monotonic() - started < 15  # closed by the server, not by our timeout

    def test_slow_head_gets_408(self, server: Serve) -> None:
        """A head that stops half-way is answered 408 after the header timeout."""
        sock = server.connect()
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow")
        status, error = envelope(read_all(sock, timeout=20))
        sock.close()
        assert (status, error["code"]) == (408, "request_timeout")

    def test_slow_body_gets_408(self, server: Serve) -> None:
        """A body that stops short of its Content-Length is answered 408."""
        sock = server.connect()
        sock.sendall(
            b"POST /api/v1/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n{\"items\": ["
        )
        status, error = envelope(read_all(sock, timeout=20))
        sock.close()
        assert (status, error["code"]) == (408, "request_timeout")

    def test_keep_alive_still_serves_a_second_request(self, server: Serve) -> None:
        """Two requests on one connection, the second sent at once, are both answered."""
        with httpx.Client(base_url=server.url) as client:
            assert client.get("/").status_code == 200
            assert client.get("/openapi.json").status_code == 200


def test_access_log_is_never_split(server: Serve, tmp_path: Path) -> None:
    """A percent-encoded CR/LF (and other controls) in the path stay on one log line,
    escaped: no forged entry appears."""
    sock = server.connect()
    forged = "/x%0d%0a2026-01-01 00:00:00,000 access %22GET /admin%22 200%0bq%c2%85"
    forged = forged.replace(" ", "%20")
    sock.sendall(f"GET {forged} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    assert read_all(sock).startswith(b"HTTP/1.1 404")
    sock.close()
    time.sleep(0.5)
    lines = server.log.read_text(encoding="utf-8", errors="replace").splitlines()
    mine = [line for line in lines if "GET /admin" in line]
    assert len(mine) == 1
    assert "access \"GET /x\\x0d\\x0a2026-01-01" in mine[0]
    assert not any(line.startswith("2026-01-01 00:00:00,000") for line in lines)


def test_connection_flood_leaves_room_for_real_clients(tmp_path: Path) -> None:
    """With 256 descriptors, 400 idle connections do not lock real clients out: past the
    connection cap idle ones are dropped, and a new client is served."""
    serve = Serve(tmp_path, "--timeout-idle", "60", nofile=256, key=True)
    idle: list[socket.socket] = []
    try:
        for _ in range(400):
            try:
                idle.append(serve.connect())
            except OSError:  # the client's own descriptors, not the server's
                break
        assert len(idle) >= 300
        response = httpx.get(serve.url + "/", timeout=10)
        assert response.status_code == 200
    finally:
        for sock in idle:
            sock.close()
        log = serve.stop()
    assert "Too many open files" not in log
    assert "Traceback" not in log


def test_in_flight_cap_answers_503_envelope(tmp_path: Path) -> None:
    """Past --limit-concurrency requests in flight, a request gets the 503 envelope with
    Retry-After; the requests in flight are still answered."""
    serve = Serve(tmp_path, "--limit-concurrency", "1", "--timeout-body", "30", key=True)
    try:
        # One request in flight: its head is complete, its body is not yet sent.
        holder = serve.connect()
        holder.sendall(
            f"POST /api/v1/verify HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {serve.key}\r\n"
            "Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n"
            .encode()
        )
        time.sleep(0.5)
        refused = httpx.get(serve.url + "/", timeout=10)
        assert refused.status_code == 503
        assert refused.headers["retry-after"] == "1"
        assert refused.json()["error"]["code"] == "service_unavailable"
        holder.sendall(b"{}")
        answered = read_all(holder)
        holder.close()
        assert answered.startswith(b"HTTP/1.1 422")
        assert httpx.get(serve.url + "/", timeout=10).status_code == 200
    finally:
        serve.stop()


def test_help_documents_the_limits() -> None:
    """``serve --help`` names every limit with its default."""
    out = subprocess.run(
        [sys.executable, "-m", "citeverify", "serve", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    ).stdout
    for option in (
        "--max-header-bytes",
        "--max-headers",
        "--timeout-idle",
        "--timeout-header",
        "--timeout-body",
        "--timeout-keep-alive",
        "--limit-concurrency",
        "--limit-connections",
    ):
        assert option in out


def test_request_with_auth_key_works(server: Serve) -> None:
    """The guarded protocol serves a real verification end to end."""
    body = {"items": [{"id": "r", "type": "case", "rawText": "Roe v. Wade, 410 U.S. 113 (1973)"}]}
    response = httpx.post(
        server.url + "/api/v1/verify", content=json.dumps(body), headers=auth(server.key)
    )
    assert response.status_code == 200
    assert response.json()["results"][0]["verdict"]["status"] == "verified"


@given(st.text(max_size=300))
def test_loggable_path_is_one_line_of_printable_text(path: str) -> None:
    """Whatever the path, its loggable form has no control character or line break, and
    keeps every printable character of the first 200 that is not part of a key."""
    shown = loggable_path(path)
    assert len(shown.splitlines()) <= 1
    assert not any(unicodedata.category(c) == "Cc" for c in shown)
    assert "\u2028" not in shown
    assert "\u2029" not in shown
    head = path[:200]
    escaped = "\\\u2028\u2029"
    if "cv_live_" not in head and not any(
        unicodedata.category(c) == "Cc" or c in escaped for c in head
    ):
        assert shown == head  # nothing to escape: shown as it is
    else:
        assert shown != head or head == ""


@pytest.mark.parametrize(
    ("body", "offload", "expected"),
    [
        (b'{"items":[{"id":"1","type":"case","rawText":"410 U.S. 113"}]}', "auto", False),
        (b'{"items":[{"id":"q","type":"quote","quoteText":"x"}]}', "auto", True),
        (b'{"items":[]}' + b" " * 5000, "auto", True),
        (b'{"items":[]}', True, True),
        (b'{"items":[{"id":"q","type":"quote","quoteText":"x"}]}', False, False),
    ],
)
def test_long_requests_leave_the_event_loop(body: bytes, offload: object, expected: bool) -> None:
    """With offload="auto", a request with quotations or a large body is handled on a
    worker thread, a small one on the event loop's own thread."""
    import asyncio
    import threading

    from citeverify.http._asgi import AsgiApp
    from citeverify.http._handler import HttpResponse, Service

    threads: list[threading.Thread] = []

    class Recording(Service):
        def handle(self, request: object) -> HttpResponse:  # type: ignore[override]
            threads.append(threading.current_thread())
            return HttpResponse(200, (), b"")

    app = AsgiApp(Recording(open_store(":memory:")), offload=offload)  # type: ignore[arg-type]
    sent: list[dict[str, object]] = []

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/v1/verify", "headers": []}
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 200
    assert (threads[0] is not threading.main_thread()) is expected
