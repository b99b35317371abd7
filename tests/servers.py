"""Start the framework examples the way their docstrings say, and talk to them over HTTP.

Shared by ``tests/test_examples.py`` (in this environment) and
``tests/test_fresh_install.py`` (in a fresh venv made from the wheel).
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import shlex
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: The port the docstrings show; the tests use a free one instead.
SHOWN_PORT = "8000"


def docstring_commands(path: Path) -> list[str]:
    """The commands in a module docstring's ``::`` literal blocks (indented lines after ``::``)."""
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    commands: list[str] = []
    literal = False
    for line in docstring.splitlines():
        if line.rstrip().endswith("::"):
            literal = True
            continue
        if literal and line.startswith("    ") and line.strip():
            commands.append(line.strip())
        elif literal and line.strip():
            literal = False
    return commands


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def serving(
    command: str, cwd: Path, env: dict[str, str], bindir: Path | None = None
) -> Iterator[str]:
    """Run a docstring's server command on a free port; yield its base URL; stop it.

    ``python``, ``uvicorn`` and ``flask`` are taken from ``bindir`` (a venv's ``bin``)
    when given.  The server runs in its own process group, so a reloader's child stops too.
    """
    port = free_port()
    argv = [a.replace(SHOWN_PORT, str(port)) for a in shlex.split(command)]
    if bindir is not None and (bindir / argv[0]).exists():
        argv[0] = str(bindir / argv[0])
    log = cwd / f"server-{port}.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            argv, cwd=cwd, env=env, stdout=out, stderr=out, start_new_session=True
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise AssertionError(f"`{command}` exited {process.returncode}:\n{_tail(log)}")
            with contextlib.suppress(OSError):
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"`{command}` did not listen within 60 s:\n{_tail(log)}")
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _tail(log: Path) -> str:
    return log.read_text(errors="replace")[-3000:]


def post_json(url: str, body: Any, key: str | None = None) -> tuple[int, Any]:
    """POST JSON over real HTTP; the status and the decoded JSON answer (errors included)."""
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")
