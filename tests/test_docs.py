"""The documentation is tested: every code block runs, and the site builds with warnings as errors.

Each page under ``docs/`` is one test.  Its fenced blocks run in order in one namespace:

* ```` ```python ```` blocks are executed (their ``print`` output is captured);
* ```` ```sh ```` / ```` ```console ```` blocks run each ``citeverify ...`` command (through
  ``python -m citeverify``) or ``curl ...`` command, in ``bash`` (so ``$VARIABLES`` and
  ``< file`` work as on the page), and check its exit status;
* ```` ```json ```` blocks must be valid JSON;
* a ```` ```text ```` block marked ``output`` must equal what the block before it printed.

An HTML comment just above a block changes how it runs (it is invisible on the site)::

    <!-- docs-test: skip="needs a CourtListener token and the network" -->
    <!-- docs-test: requires=parser,corpus -->
    <!-- docs-test: exit=1 -->
    <!-- docs-test: output -->
    <!-- docs-test: export=CITEVERIFY_KEY -->   (the block's last printed line, as that variable)
    <!-- docs-test: server -->                  (start the command in the background)

A ``server`` block runs its command in the background on a free port (the page shows
``127.0.0.1:8000``; that address is replaced in the blocks after it), and the server is
stopped when the page is done.

A ``skip`` block is still compiled and is reported as its own skipped test with its
reason.  A block whose ``requires`` are not installed (a part of the package that has
not landed, or an optional framework) is left out, and so is an ``output`` block right
after it; every other block of the page still runs, and the page's test then reports
itself skipped, naming the blocks left out and why.  Blocks that use what a left-out
block defined must carry the same ``requires``.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "_hooks" not in p.parts)

_FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w+-]*)[^\n]*$")
_DIRECTIVE = re.compile(r"^\s*<!--\s*docs-test:\s*(?P<body>.*?)\s*-->\s*$")
_RUN_LANGS = {"python", "sh", "bash", "console", "json", "text"}


@attrs.frozen
class Block:
    """One fenced code block of a page, with the directives written above it."""

    page: Path
    line: int
    lang: str
    code: str
    skip: str | None = None
    requires: tuple[str, ...] = ()
    exit: int = 0
    output: bool = False
    server: bool = False
    export: str | None = None

    @property
    def where(self) -> str:
        page = self.page.relative_to(ROOT) if self.page.is_relative_to(ROOT) else self.page
        return f"{page}:{self.line}"


def _directives(body: str, where: str) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for token in shlex.split(body):
        key, _, value = token.partition("=")
        if key == "skip":
            if not value.strip():
                raise ValueError(f'{where}: a skip needs a reason (skip="...")')
            found["skip"] = value
        elif key == "requires":
            found["requires"] = tuple(v for v in value.split(",") if v)
            unknown = set(found["requires"]) - set(REQUIREMENTS)
            if unknown:
                raise ValueError(f"{where}: unknown requirement(s) {sorted(unknown)}")
        elif key == "exit":
            found["exit"] = int(value)
        elif key == "output" and not value:
            found["output"] = True
        elif key == "server" and not value:
            found["server"] = True
        elif key == "export" and re.fullmatch(r"[A-Z_][A-Z0-9_]*", value):
            found["export"] = value
        else:
            raise ValueError(f"{where}: unknown docs-test directive {token!r}")
    return found


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of a page, in order, each with its directives."""
    lines = page.read_text(encoding="utf-8").splitlines()
    out: list[Block] = []
    pending: dict[str, Any] = {}
    i = 0
    while i < len(lines):
        directive = _DIRECTIVE.match(lines[i])
        if directive:
            pending.update(_directives(directive["body"], f"{page}:{i + 1}"))
            i += 1
            continue
        fence = _FENCE.match(lines[i])
        if not fence:
            if lines[i].strip():
                pending = {}  # a directive applies to the block right below it
            i += 1
            continue
        start = i + 1
        indent = fence["indent"]
        j = start
        while j < len(lines) and lines[j].strip() != "```":
            j += 1
        body = "\n".join(line.removeprefix(indent) for line in lines[start:j])
        out.append(Block(page, start, fence["lang"] or "text", textwrap.dedent(body), **pending))
        pending = {}
        i = j + 1
    return out


# --- requirements: parts of the package (or frameworks) a block needs -------------------------


def _parser_landed() -> bool:
    from citeverify.citations import NotACitation, parse

    samples = {
        "case": "410 U.S. 113",
        "statute": "42 U.S.C. § 1983",
        "rule": "Fed. R. Civ. P. 12(b)(6)",
        "constitution": "U.S. Const. amend. XIV, § 1",
        "link": "https://supreme.justia.com/cases/federal/us/410/113/",
    }
    return not any(isinstance(parse(t, k), NotACitation) for k, t in samples.items())


def _corpus_landed() -> bool:
    from citeverify.providers import default_provider

    return getattr(default_provider(), "name", None) == "local"


def _command(name: str) -> Callable[[], bool]:
    """Whether ``citeverify NAME --help`` works: a sub-command that has landed."""

    def check() -> bool:
        done = subprocess.run(
            [sys.executable, "-m", "citeverify", name, "--help"],
            capture_output=True,
            timeout=60,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        return done.returncode == 0

    return check


def _program(name: str) -> Callable[[], bool]:
    return lambda: shutil.which(name) is not None


def _module(name: str, attribute: str | None = None) -> Callable[[], bool]:
    def check() -> bool:
        try:
            module = importlib.import_module(name)
        except ImportError:
            return False
        return attribute is None or hasattr(module, attribute)

    return check


REQUIREMENTS: dict[str, tuple[Callable[[], bool], str]] = {
    "parser": (_parser_landed, "the citation parsers (citeverify.citations) are placeholders"),
    "corpus": (_corpus_landed, "the embedded corpus (LocalStore) is not installed"),
    "quotes": (_module("citeverify.quotes", "locate"), "citeverify.quotes is not installed"),
    "http": (_module("citeverify.http", "create_asgi_app"), "citeverify.http is not installed"),
    "courtlistener": (
        _module("citeverify.providers.courtlistener", "CourtListener"),
        "the CourtListener provider is not installed",
    ),
    "importer": (
        _module("citeverify.importers._cli", "register"),
        "the CourtListener bulk importer is not installed",
    ),
    "fastapi": (_module("fastapi"), "FastAPI is not installed"),
    "flask": (_module("flask"), "Flask is not installed"),
    "django": (_module("django"), "Django is not installed"),
    "check": (_command("check"), "`citeverify check` has not landed (`citeverify check --help`)"),
    "document": (
        lambda: _module("pypdf")() and _module("docx")(),
        "PDF and Word reading (the document extra: pypdf, python-docx) is not installed",
    ),
    "curl": (_program("curl"), "curl is not installed"),
}

_met: dict[str, bool] = {}


def unmet(names: tuple[str, ...]) -> list[str]:
    """The reasons of the requirements in ``names`` that are not met here."""
    reasons = []
    for name in names:
        if name not in _met:
            _met[name] = REQUIREMENTS[name][0]()
        if not _met[name]:
            reasons.append(REQUIREMENTS[name][1])
    return reasons


# --- running -------------------------------------------------------------------------------------


def _commands(code: str) -> list[str]:
    joined = code.replace("\\\n", " ")
    commands = []
    for line in joined.splitlines():
        line = line.strip()
        if line.startswith("$ "):
            line = line[2:]
        elif line.startswith("$") or not line or line.startswith("#"):
            continue
        commands.append(line)
    return commands


#: The address pages show for a server they start; the tests use a free port instead.
SHOWN_ADDRESS = "127.0.0.1:8000"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@attrs.define
class Servers:
    """Servers a page started (``server`` blocks), stopped when the page is done."""

    port: int = attrs.field(factory=_free_port)
    running: list[subprocess.Popen[bytes]] = attrs.field(factory=list)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def start(self, argv: list[str], block: Block, workdir: Path, env: dict[str, str]) -> None:
        """Start ``argv`` with the page's port; wait until it accepts connections."""
        argv = [a.replace(SHOWN_ADDRESS.split(":")[1], str(self.port)) for a in argv]
        log = (workdir / f"server-{block.line}.log").open("wb")
        process = subprocess.Popen(argv, cwd=workdir, env=env, stdout=log, stderr=log)
        self.running.append(process)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise AssertionError(
                    f"{block.where}: the server exited {process.returncode}:\n"
                    + (workdir / f"server-{block.line}.log").read_text(errors="replace")[-2000:]
                )
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2),
            ):
                return
            time.sleep(0.1)
        raise AssertionError(f"{block.where}: the server did not listen within 30 s")

    def stop(self) -> None:
        for process in self.running:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


#: The programs a shell block may run; anything else must be marked skip.
RUNNABLE = ("citeverify", "curl")


def run_shell(block: Block, workdir: Path, env: dict[str, str], servers: Servers) -> str:
    """Run a shell block's commands; return what they printed on stdout.

    Each command runs in ``bash`` as written, ``citeverify`` being this interpreter's
    ``python -m citeverify``.  In a ``server`` block the command is started in the
    background on the page's port.
    """
    printed = []
    for command in _commands(block.code):
        argv = shlex.split(command)
        if argv[0] not in RUNNABLE:
            raise AssertionError(
                f"{block.where}: only {' and '.join(RUNNABLE)} commands run in docs tests; mark "
                f'this block <!-- docs-test: skip="why" --> to show {argv[0]!r} without running it'
            )
        if block.server:
            servers.start([sys.executable, "-m", "citeverify", *argv[1:]], block, workdir, env)
            continue
        if argv[0] == "citeverify":
            command = f"{shlex.quote(sys.executable)} -m citeverify{command[len('citeverify') :]}"
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=workdir,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == block.exit, (
            f"{block.where}: `{command}` exited {done.returncode}, expected {block.exit}\n"
            f"stdout:\n{done.stdout[-2000:]}\nstderr:\n{done.stderr[-2000:]}"
        )
        printed.append(done.stdout)
    return "".join(printed)


def _same_output(expected: str, printed: str) -> bool:
    def clean(text: str) -> list[str]:
        return [line.rstrip() for line in text.strip("\n").splitlines()]

    return clean(expected) == clean(printed)


def run_page(page: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run a page's blocks in order; skip the rest of the page at the first unmet requirement."""
    paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    env["CITEVERIFY_STATE"] = str(workdir / "state.sqlite3")
    env.pop("COURTLISTENER_TOKEN", None)
    monkeypatch.setenv("CITEVERIFY_STATE", env["CITEVERIFY_STATE"])
    monkeypatch.delenv("COURTLISTENER_TOKEN", raising=False)
    monkeypatch.chdir(workdir)
    (workdir / "examples").symlink_to(ROOT / "examples")
    namespace: dict[str, Any] = {"__name__": f"docs:{page.stem}"}
    servers = Servers()
    try:
        not_run = _run_blocks(page, workdir, env, namespace, servers, monkeypatch)
    finally:
        servers.stop()
    if not_run:
        where = page.relative_to(ROOT) if page.is_relative_to(ROOT) else page
        reasons = " | ".join(f"lines {lines}: {why}" for why, lines in not_run.items())
        pytest.skip(f"{where}: the other blocks ran; not run here: {reasons}")


def _run_blocks(
    page: Path,
    workdir: Path,
    env: dict[str, str],
    namespace: dict[str, Any],
    servers: Servers,
    monkeypatch: pytest.MonkeyPatch,
) -> dict[str, list[int]]:
    printed = ""
    not_run: dict[str, list[int]] = {}
    after_skip = False
    for block in blocks(page):
        if servers.running:
            block = attrs.evolve(block, code=block.code.replace(SHOWN_ADDRESS, servers.address))
        if block.skip is not None or block.lang not in _RUN_LANGS:
            continue
        if block.output and after_skip:
            continue  # the block it shows the output of did not run
        missing = unmet(block.requires)
        after_skip = bool(missing)
        if missing:
            not_run.setdefault("; ".join(missing), []).append(block.line)
            continue
        if block.lang == "python":
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer):
                exec(compile(block.code, block.where, "exec"), namespace)
            printed = buffer.getvalue()
        elif block.lang in ("sh", "bash", "console"):
            printed = run_shell(block, workdir, env, servers)
        elif block.lang == "json":
            json.loads(block.code)
        elif block.output:
            assert _same_output(block.code, printed), (
                f"{block.where}: the page shows\n{block.code}\n"
                f"but the block above printed\n{printed}"
            )
        if block.export is not None:
            lines = printed.strip().splitlines()
            assert lines, f"{block.where}: nothing printed to export as {block.export}"
            env[block.export] = lines[-1].strip()
            monkeypatch.setenv(block.export, env[block.export])
    return not_run


class TestPages:
    """Every page's code blocks run, in order, as one test per page."""

    @pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
    def test_page(self, page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """The page's code blocks run without error and shown outputs match."""
        run_page(page, tmp_path, monkeypatch)


SKIPPED = [b for page in PAGES for b in blocks(page) if b.skip is not None]


class TestSkippedBlocks:
    """Blocks marked skip still compile, and show up as skipped tests with their reason."""

    @pytest.mark.parametrize("block", SKIPPED, ids=[b.where for b in SKIPPED])
    def test_block(self, block: Block) -> None:
        """A skipped Python block compiles; the test then skips with the block's reason."""
        if block.lang == "python":
            compile(block.code, block.where, "exec")
        pytest.skip(f"{block.where}: {block.skip}")


class TestHarness:
    """The block extractor and directives themselves."""

    def test_directives_apply_to_the_next_block_only(self, tmp_path: Path) -> None:
        """A directive marks the block right below it, not later ones."""
        page = tmp_path / "p.md"
        page.write_text(
            '<!-- docs-test: skip="because" -->\n```python\nx = 1\n```\n\n```python\ny = 2\n```\n'
        )
        found = blocks(page)
        assert [b.skip for b in found] == ["because", None]
        assert [b.code for b in found] == ["x = 1", "y = 2"]

    def test_indented_blocks_are_dedented(self, tmp_path: Path) -> None:
        """A block inside an admonition (indented) runs as if at the margin."""
        page = tmp_path / "p.md"
        page.write_text("!!! note\n    ```python\n    if True:\n        x = 1\n    ```\n")
        assert blocks(page)[0].code == "if True:\n    x = 1"

    def test_unknown_directive_is_an_error(self, tmp_path: Path) -> None:
        """A misspelt directive fails loudly instead of being ignored."""
        page = tmp_path / "p.md"
        page.write_text("<!-- docs-test: skpi -->\n```python\nx = 1\n```\n")
        with pytest.raises(ValueError, match="unknown docs-test directive"):
            blocks(page)

    def test_skip_without_reason_is_an_error(self, tmp_path: Path) -> None:
        """Skipping a block needs a reason a reader of the test report can see."""
        page = tmp_path / "p.md"
        page.write_text('<!-- docs-test: skip="" -->\n```python\nx = 1\n```\n')
        with pytest.raises(ValueError, match="needs a reason"):
            blocks(page)

    def test_output_mismatch_fails(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """A page whose shown output differs from what the code prints fails."""
        docs = tmp_path / "docs"
        docs.mkdir()
        page = docs / "p.md"
        page.write_text(
            "```python\nprint('a')\n```\n\n<!-- docs-test: output -->\n```text\nb\n```\n"
        )
        work = tmp_path / "work"
        work.mkdir()
        with pytest.raises(AssertionError, match="the page shows"):
            run_page(page, work, monkeypatch)

    def test_server_block_serves_the_blocks_after_it(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A server block starts a real server on a free port that later blocks reach."""
        if unmet(("http",)):
            pytest.skip("citeverify.http is not installed")
        docs = tmp_path / "docs"
        docs.mkdir()
        page = docs / "p.md"
        page.write_text(
            "<!-- docs-test: export=CITEVERIFY_KEY -->\n"
            "```sh\nciteverify keys create harness --limit 5\n```\n\n"
            "<!-- docs-test: server -->\n```sh\nciteverify serve --port 8000\n```\n\n"
            "```python\nimport os, httpx\n"
            "r = httpx.get('http://127.0.0.1:8000/')\n"
            "assert r.status_code == 200, r.text\n"
            "assert os.environ['CITEVERIFY_KEY']\n"
            "print('ok')\n```\n\n"
            "<!-- docs-test: output -->\n```text\nok\n```\n"
        )
        work = tmp_path / "work"
        work.mkdir()
        run_page(page, work, monkeypatch)

    def test_every_page_has_a_runnable_block_or_none_at_all(self) -> None:
        """Pages exist and the extractor finds the Python blocks of the tutorial."""
        tutorial = DOCS / "tutorial" / "first-brief.md"
        assert any(b.lang == "python" for b in blocks(tutorial))


def _have(*modules: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in modules)


class TestSite:
    """The site builds with MkDocs in strict mode (warnings are errors)."""

    @pytest.mark.skipif(
        not _have("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python"),
        reason="mkdocs, mkdocs-material and mkdocstrings[python] are the `docs` extra",
    )
    def test_mkdocs_build_strict(self, tmp_path: Path) -> None:
        """`mkdocs build --strict` succeeds: no broken links, no missing pages, API resolved."""
        done = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr[-4000:]
        assert (tmp_path / "site" / "reference" / "citeverify" / "index.html").exists()


def _hook() -> Any:
    spec = importlib.util.spec_from_file_location("docs_hook", DOCS / "_hooks" / "generated.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class TestGenerated:
    """The pages generated at build time show what the code has."""

    def test_cli_page_lists_every_command(self) -> None:
        """The command-line reference shows the help of every registered sub-command."""
        from citeverify.cli import build_parser

        page = _hook().on_page_markdown("<!-- generated: cli -->")
        for action in build_parser()._actions:
            for name in getattr(action, "choices", None) or ():
                if isinstance(name, str):
                    assert f"$ citeverify {name} --help" in page

    def test_openapi_page_is_the_served_document(self) -> None:
        """The HTTP reference embeds the document the app serves at /openapi.json."""
        if unmet(("http",)):
            pytest.skip("citeverify.http is not installed")
        import httpx

        from citeverify.http import create_wsgi_app, open_store

        app = create_wsgi_app(open_store(":memory:"))
        with httpx.Client(transport=httpx.WSGITransport(app=app), base_url="http://t") as c:
            served = c.get("/openapi.json").json()
        page = _hook().on_page_markdown("<!-- generated: openapi -->")
        embedded = page.split("```json", 1)[1].split("```", 1)[0]
        assert json.loads(textwrap.dedent(embedded)) == served
        for path in served["paths"]:
            assert f"`{path}`" in page

    def test_changelog_page_is_the_changelog(self) -> None:
        """The changelog page carries CHANGELOG.md's entries."""
        page = _hook().on_page_markdown("<!-- generated: changelog -->")
        assert "## [Unreleased]" in page
        assert page.strip() in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
