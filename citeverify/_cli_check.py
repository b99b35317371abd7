"""``citeverify check FILE``: every citation and quotation of a brief, checked.

The brief is a ``.txt``, ``.md``, ``.pdf`` or ``.docx`` file, or text on stdin
(``-``).  ``--format table`` (the default on a terminal) prints what a person
reads: one row per citation and quotation, in document order, with the line
(or page) where it stands; ``json`` prints the Response; ``html`` writes the
self-contained report.  ``--fail-on`` turns it into a pre-filing gate.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

EXIT_OK = 0
EXIT_FAILED_CHECK = 1
EXIT_INVALID = 2
_SEVERITY = {"verified": 0, "warning": 1, "critical": 2}


def register(subparsers: Any) -> None:
    check = subparsers.add_parser(
        "check",
        help="check every citation and quotation in a brief (.txt, .md, .pdf, .docx)",
        description=(
            "Find every citation and quotation in a brief, resolve short forms (Id., supra, "
            "'410 U.S. at 153'), attribute each quotation to the citation that supports it, "
            "and verify them all. Exit 0 when the brief was read, 1 when --fail-on is met, "
            "2 when the file could not be read."
        ),
        epilog="example: citeverify check examples/sample_brief.txt --fail-on critical",
    )
    check.add_argument("file", metavar="FILE", help="the brief, or '-' to read text from stdin")
    check.add_argument(
        "--format",
        choices=("table", "json", "html"),
        default=None,
        help="output format (default: table, or what -o's extension says: .json, .html)",
    )
    check.add_argument(
        "-o", "--output", default=None, help="write the output to this file instead of stdout"
    )
    check.add_argument(
        "--fail-on",
        choices=("warning", "critical"),
        default=None,
        help="exit 1 when any result is at least this severe (for pre-filing checks)",
    )
    check.add_argument(
        "--courtlistener",
        action="store_true",
        help="also ask CourtListener (token from COURTLISTENER_TOKEN) for citations "
        "the embedded corpus does not cover",
    )
    check.add_argument(
        "--store",
        default=None,
        help="use this store file (or postgresql:// URL) instead of the embedded corpus",
    )
    check.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    from citeverify._cli_verify import _provider
    from citeverify.document import verify_document
    from citeverify.errors import ValidationError
    from citeverify.providers._config import ProviderConfigError

    try:
        provider = _provider(args)
    except ProviderConfigError as exc:
        print(f"citeverify: {exc}", file=sys.stderr)
        return EXIT_INVALID
    source: Any
    if args.file == "-":
        source = sys.stdin.buffer.read()
    else:
        from pathlib import Path

        source = Path(args.file)
        if not source.is_file():
            print(f"citeverify: cannot read {args.file}: no such file", file=sys.stderr)
            return EXIT_INVALID
    try:
        response = verify_document(source, provider=provider, progress=_progress())
    except ValidationError as exc:
        detail = "; ".join(d.get("message", "") for d in exc.details or ())
        print(
            f"citeverify: {args.file}: {exc.message}"
            + (f" ({detail})" if detail and detail != exc.message else ""),
            file=sys.stderr,
        )
        return EXIT_INVALID
    except OSError as exc:
        print(f"citeverify: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return EXIT_INVALID
    finally:
        if sys.stderr.isatty():
            sys.stderr.write("\r\033[K")
    from citeverify import _codec

    body = _codec.response_to_dict(response)
    fmt = args.format or _format_for(args.output)
    out: TextIO = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout  # noqa: SIM115
    try:
        if fmt == "json":
            json.dump(body, out, indent=2, ensure_ascii=False)
            out.write("\n")
        elif fmt == "html":
            out.write(_html(body, args.file))
        else:
            text = response.document.text if response.document else _text_of(source)
            print_table(body, text, out)
    finally:
        if args.output:
            out.close()
    worst = _SEVERITY[response.summary.overall_status.value]
    if args.fail_on is not None and worst >= _SEVERITY[args.fail_on]:
        return EXIT_FAILED_CHECK
    return EXIT_OK


def _format_for(output: str | None) -> str:
    if output and output.lower().endswith(".json"):
        return "json"
    if output and output.lower().endswith((".html", ".htm")):
        return "html"
    return "table"


def _text_of(source: Any) -> str:
    from citeverify.document._extract import extract

    text: str = extract(source).text
    return text


def _html(body: dict[str, Any], name: str) -> str:
    import importlib

    try:
        report = importlib.import_module("citeverify.report")
    except ImportError:  # pragma: no cover - a build without the report
        raise SystemExit("citeverify: --format html is not available in this build") from None
    text = (body.get("document") or {}).get("text")
    rendered: str = report.render_html(body, text, title=f"citeverify: {name}")
    return rendered


def _progress() -> Any:
    if not sys.stderr.isatty():
        return None

    def tick(done: int, total: int) -> None:
        if done == total or done % max(1, total // 50) == 0:
            sys.stderr.write(f"\rchecking {done}/{total}")
            sys.stderr.flush()

    return tick


def _line_of(text: str | None, offset: int) -> int | None:
    if text is None:
        return None
    return text.count("\n", 0, offset) + 1


def _page_of(pages: list[int], offset: int) -> int:
    import bisect

    return bisect.bisect_right(pages, offset)


def _what(result: dict[str, Any]) -> str:
    """The citation or quotation as it stands in the brief, shortened for a table."""
    text = (result.get("position") or {}).get("text") or result["citation"]["raw"]
    text = " ".join(text.split())
    return text if len(text) <= 90 else text[:87] + "..."


def print_table(body: dict[str, Any], text: str | None, out: TextIO) -> None:
    """One row per result in document order: where, what, the verdict, why."""
    pages = (body.get("document") or {}).get("pages")
    rows = []
    for r in body["results"]:
        start = (r.get("position") or {}).get("start", 0)
        where = (
            f"p.{_page_of(pages, start)}"
            if pages and len(pages) > 1
            else (f"l.{_line_of(text, start)}" if text is not None else "")
        )
        refers = f" -> {r['citationId']}" if r.get("citationId") else ""
        rows.append(
            (
                r["id"] + refers,
                where,
                r["verdict"]["status"],
                r["verdict"].get("outcome", ""),
                _what(r),
                r["verdict"].get("message", ""),
            )
        )
    s = body["summary"]
    summary = (
        f"{s['total']} found: {s['verified']} verified, {s['warning']} warning, "
        f"{s['critical']} critical; {s['billed_citations']} distinct citations checked"
    )
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:  # pragma: no cover - rich is a dependency
        for row in rows:
            out.write("\t".join(row) + "\n")
        out.write(summary + "\n")
        return
    console = Console(file=out, highlight=False, width=None if out.isatty() else 160)
    table = Table(show_lines=True)
    for column in ("id", "where", "status", "outcome", "in the brief", "why"):
        table.add_column(column, overflow="fold")
    styles = {"verified": "green", "warning": "yellow", "critical": "bold red"}
    marks = {"verified": "✓", "warning": "!", "critical": "✗"}
    for ident, where, status, outcome, what, why in rows:
        table.add_row(
            ident, where, f"[{styles[status]}]{marks[status]} {status}[/]", outcome, what, why
        )
    console.print(table)
    console.print(summary)
