"""``citeverify verify`` and ``citeverify info``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO

from citeverify._version import CONTRACT_VERSION, __version__

EXIT_OK = 0
EXIT_FAILED_CHECK = 1
EXIT_INVALID = 2
_SEVERITY = {"verified": 0, "warning": 1, "critical": 2}


def register(subparsers: Any) -> None:
    verify = subparsers.add_parser(
        "verify",
        help="verify a VerifyRequest JSON file and print the Response",
        description=(
            "Read a VerifyRequest (JSON) from FILE or stdin ('-') and print the contract "
            "Response JSON on stdout. Exit 0 when the request was valid, 2 when it was "
            "not (the problems go to stderr), 1 when --fail-on is met."
        ),
    )
    verify.add_argument("file", metavar="FILE", help="request file, or '-' for stdin")
    verify.add_argument(
        "--format", choices=("json", "table"), default="json", help="output format (default json)"
    )
    verify.add_argument(
        "--fail-on",
        choices=("warning", "critical"),
        default=None,
        help="exit 1 when any result is at least this severe (for pre-filing checks)",
    )
    verify.add_argument(
        "--courtlistener",
        action="store_true",
        help="also ask CourtListener (token from COURTLISTENER_TOKEN) for citations "
        "the embedded corpus does not cover",
    )
    verify.add_argument(
        "--store", default=None, help="use this LocalStore file instead of the embedded corpus"
    )
    verify.set_defaults(func=run_verify)
    info = subparsers.add_parser("info", help="say which corpus and providers are active")
    info.set_defaults(func=run_info)


def _provider(args: argparse.Namespace) -> Any:
    """The local store, chained with CourtListener when --courtlistener or the env says so."""
    from citeverify.providers._config import ENV, provider_from_env

    environ = dict(os.environ)
    if args.store:
        environ[ENV["store"]] = args.store
    if args.courtlistener:
        environ[ENV["courtlistener"]] = "1"
    return provider_from_env(environ)


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    with open(path, "rb") as handle:
        return handle.read()


def run_verify(args: argparse.Namespace) -> int:
    from citeverify import _codec
    from citeverify._verify import verify
    from citeverify.errors import RateLimited, ValidationError

    try:
        body = _read(args.file)
    except OSError as exc:
        print(f"citeverify: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return EXIT_INVALID
    try:
        items = _codec.structure_request(body)
    except ValidationError as exc:
        print(json.dumps(exc.to_envelope(), indent=2), file=sys.stderr)
        return EXIT_INVALID
    progress = _progress_bar(len(items)) if sys.stderr.isatty() and len(items) >= 50 else None
    from citeverify.providers._config import ProviderConfigError

    try:
        provider = _provider(args)
    except ProviderConfigError as exc:
        print(f"citeverify: {exc}", file=sys.stderr)
        return EXIT_INVALID
    try:
        response = verify(items, provider=provider, progress=progress)
    except RateLimited as exc:  # only with a user's own meter; kept for completeness
        print(json.dumps(exc.to_envelope()), file=sys.stderr)
        return EXIT_INVALID
    finally:
        if progress is not None:
            sys.stderr.write("\n")
    if args.format == "table":
        _print_table(response, sys.stdout)
    else:
        json.dump(_codec.response_to_dict(response), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    if args.fail_on is not None:
        threshold = _SEVERITY[args.fail_on]
        if _SEVERITY[response.summary.overall_status.value] >= threshold:
            return EXIT_FAILED_CHECK
    return EXIT_OK


def _progress_bar(total: int) -> Any:
    def tick(done: int, total_: int) -> None:
        if done == total_ or done % max(1, total_ // 100) == 0:
            width = 30
            filled = width * done // total_
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total_}")
            sys.stderr.flush()

    return tick


def _print_table(response: Any, out: TextIO) -> None:
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        _print_plain_table(response, out)
        return
    console = Console(file=out, highlight=False)
    table = Table(show_lines=False)
    for column in ("id", "status", "outcome", "citation", "message"):
        table.add_column(column, overflow="fold")
    styles = {"verified": "green", "warning": "yellow", "critical": "bold red"}
    for r in response.results:
        status = r.verdict.status.value
        table.add_row(
            r.id,
            f"[{styles[status]}]{status}[/]",
            r.verdict.outcome or "",
            r.citation.raw,
            r.verdict.message or "",
        )
    console.print(table)
    s = response.summary
    console.print(
        f"{s.verified} verified, {s.warning} warning, {s.critical} critical of {s.total}: "
        f"overall {s.overall_status.value}"
    )


def _print_plain_table(response: Any, out: TextIO) -> None:
    for r in response.results:
        out.write(
            f"{r.id}\t{r.verdict.status.value}\t{r.verdict.outcome or ''}\t{r.citation.raw}\t"
            f"{r.verdict.message or ''}\n"
        )
    s = response.summary
    out.write(f"{s.verified} verified, {s.warning} warning, {s.critical} critical of {s.total}\n")


def run_info(args: argparse.Namespace) -> int:
    from citeverify.providers import default_provider

    provider = default_provider()
    print(f"citeverify {__version__} (contract {CONTRACT_VERSION})")
    print(f"default provider: {getattr(provider, 'name', type(provider).__name__)}")
    describe = getattr(provider, "describe", None)
    if callable(describe):
        print(describe())
        print("  anything not listed is outside coverage: answered 'unverified', never 'not_found'")
    token = os.environ.get("COURTLISTENER_TOKEN")
    print(f"CourtListener: {'enabled (COURTLISTENER_TOKEN is set)' if token else 'not enabled'}")
    return EXIT_OK
