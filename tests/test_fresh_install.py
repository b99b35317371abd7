"""A new user's path, end to end: the wheel in a fresh venv, in an empty folder.

The wheel is built from this checkout and installed into a new venv in a temporary folder
with no checkout and no ``../shared`` in reach (only ``examples/`` and the docs pages are
copied there, as a reader would have them).  Then, in the order a reader meets them: the
README's first command and its Python block, ``citeverify --version`` and ``keys list`` on
the base install, the Flask and Django examples started as their docstrings say (base
install plus the framework), the tutorial page run by the docs harness after installing
the ``server`` extra, and the FastAPI example.  Each example answers one real request over
HTTP with a key made by ``citeverify keys create``.

Package versions are pinned to this environment's (``pip freeze``) so the resolver does
not wander; the package itself comes only from the built wheel.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.servers import docstring_commands, post_json, serving

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def _run(argv: list[str] | str, cwd: Path, env: dict[str, str], timeout: int = 900) -> str:
    done = subprocess.run(
        argv,
        cwd=cwd,
        env=env,
        shell=isinstance(argv, str),
        executable="bash" if isinstance(argv, str) else None,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, (
        f"{argv} exited {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    )
    return done.stdout


def _readme_blocks(lang: str) -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(rf"```{lang}\n(.*?)```", text, flags=re.S)


def test_new_user_path(tmp_path: Path) -> None:
    """Every README and tutorial step, and every framework example, works from the wheel."""
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed (the tutorial runs it)")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["CITEVERIFY_STATE"] = str(tmp_path / "reader" / "state.sqlite3")
    dist = tmp_path / "dist"
    _run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(ROOT)],
        ROOT,
        env,
    )
    (wheel,) = dist.glob("citeverify_legal-*.whl")
    pins = tmp_path / "pins.txt"
    frozen = _run([sys.executable, "-m", "pip", "freeze"], ROOT, env)
    pins.write_text(
        "\n".join(
            line for line in frozen.splitlines() if not line.startswith(("-e", "#", "citeverify"))
        )
    )
    env["PIP_CONSTRAINT"] = str(pins)

    reader = tmp_path / "reader"
    reader.mkdir()
    shutil.copytree(ROOT / "examples", reader / "examples")

    # README: the first command, with the checkout's "." replaced by the built wheel.
    first = _readme_blocks("sh")[0].strip()
    assert " install -q '.[document]' " in first
    table = _run(
        first.replace(" install -q '.[document]' ", f" install -q '{wheel}[document]' "),
        reader,
        env,
    )
    # the sample brief's fabricated case, its misquotation and its resolved short forms
    assert "critical" in table
    assert "not_found" in table
    assert "mismatch" in table
    assert "Id. at 360" in table
    venv = reader / ".venv" / "bin"
    python = str(venv / "python")
    env["PATH"] = f"{venv}{os.pathsep}{env['PATH']}"
    for block in _readme_blocks("python"):
        assert _run([python, "-c", block], reader, env).strip()
    assert _run(["citeverify", "--version"], reader, env).startswith("citeverify-legal ")
    _run(["citeverify", "keys", "list"], reader, env)  # base install: no traceback
    key = _run(["citeverify", "keys", "create", "reader", "--limit", "1000"], reader, env)
    key = key.strip().splitlines()[-1].strip()

    def serves(example: str) -> None:
        command = docstring_commands(reader / "examples" / f"{example}.py")[0]
        with serving(command, reader, env, venv) as base:
            status, body = post_json(
                f"{base}/api/v1/verify",
                {"items": [{"id": "1", "type": "case", "rawText": "410 U.S. 113"}]},
                key,
            )
        assert status == 200, (example, body)
        assert body["results"][0]["verdict"]["status"] == "verified"

    _run([python, "-m", "pip", "install", "-q", "flask", "django"], reader, env)
    serves("flask_app")
    serves("django_site")

    # The tutorial, after `pip install '.[server]'` (here: the wheel with its extra).
    _run(
        [python, "-m", "pip", "install", "-q", f"{wheel}[server]", "fastapi", "pytest"], reader, env
    )
    (reader / "tests").mkdir()
    shutil.copy(ROOT / "tests" / "test_docs.py", reader / "tests" / "test_docs.py")
    shutil.copytree(ROOT / "docs", reader / "docs")
    out = _run(
        [
            python,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_docs.py",
            "-k",
            "first-brief",
        ],
        reader,
        env,
    )
    assert "1 passed" in out, out
    serves("fastapi_app")
