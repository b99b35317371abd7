"""MkDocs hook: pages whose content is generated from the code, so they cannot drift.

A page marks a place with an HTML comment, and the hook replaces it when the site is built:

* ``<!-- generated: cli -->``: ``citeverify --help`` and the help of every sub-command,
  from the same ``argparse`` parser the command uses;
* ``<!-- generated: openapi -->``: the OpenAPI document the HTTP app serves at
  ``/openapi.json``, as a table of operations and responses plus the whole document;
* ``<!-- generated: changelog -->``: ``CHANGELOG.md`` from the repository root.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _importable() -> None:
    """Let a build from a checkout import the package without installing it.

    (MkDocs restores ``sys.path`` after loading a hook, so this runs per page.)
    """
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


def _cli() -> str:
    os.environ["COLUMNS"] = "96"  # argparse wraps to the terminal; fix it for the page
    from citeverify.cli import build_parser

    parser = build_parser()
    parts = ["```text", "$ citeverify --help", parser.format_help().rstrip(), "```"]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                parts += ["", f"### citeverify {name}", "", "```text"]
                parts += [f"$ citeverify {name} --help", sub.format_help().rstrip(), "```"]
                parts += _nested(sub, f"citeverify {name}")
    return "\n".join(parts)


def _nested(parser: argparse.ArgumentParser, prefix: str) -> list[str]:
    parts: list[str] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                parts += ["", f"#### {prefix} {name}", "", "```text"]
                parts += [f"$ {prefix} {name} --help", sub.format_help().rstrip(), "```"]
    return parts


def openapi_document() -> dict[str, Any] | None:
    """The OpenAPI document the HTTP app serves, or ``None`` when the adapter is absent."""
    try:
        from citeverify.http import openapi_document as build
    except ImportError:
        return None
    document: dict[str, Any] = build()
    return document


def _openapi() -> str:
    document = openapi_document()
    if document is None:
        return (
            '!!! warning "Not in this build"\n'
            "    The HTTP adapter (`citeverify.http`) is not installed in the environment "
            "that built these pages, so its OpenAPI document could not be included."
        )
    info = document.get("info", {})
    lines = [
        f"**{info.get('title', 'API')}**, version {info.get('version', '?')}, "
        f"OpenAPI {document.get('openapi', '?')}.",
        "",
        "| method | path | operation | responses |",
        "|---|---|---|---|",
    ]
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            codes = ", ".join(str(code) for code in operation["responses"])
            lines.append(
                f"| `{method.upper()}` | `{path}` | {operation.get('operationId', '')} | {codes} |"
            )
    lines += [
        "",
        '??? note "The whole document (`GET /openapi.json`)"',
        "",
        "    ```json",
        *("    " + line for line in json.dumps(document, indent=2).splitlines()),
        "    ```",
    ]
    return "\n".join(lines)


def _changelog() -> str:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    # The site already has a page title; drop the file's own top heading.
    lines = text.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return "\n".join(lines)


_GENERATORS = {"cli": _cli, "openapi": _openapi, "changelog": _changelog}


def on_page_markdown(markdown: str, **_: Any) -> str:
    _importable()
    for name, generate in _GENERATORS.items():
        marker = f"<!-- generated: {name} -->"
        if marker in markdown:
            markdown = markdown.replace(marker, generate())
    return markdown
