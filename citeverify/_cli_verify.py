"""``citeverify verify`` and ``citeverify info``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, TextIO

import attrs

from citeverify._version import CONTRACT_VERSION, DISTRIBUTION, __version__

EXIT_OK = 0
EXIT_FAILED_CHECK = 1
EXIT_INVALID = 2
_SEVERITY = {"verified": 0, "warning": 1, "critical": 2}


_REQUEST_EXAMPLE = """\
what FILE holds (a VerifyRequest, the body of POST /api/v1/verify):

  {"items": [
    {"id": "roe", "type": "case", "rawText": "Roe v. Wade, 410 U.S. 113, 153 (1973)"},
    {"id": "q1", "type": "quote", "parentCaseId": "roe",
     "quoteText": "is broad enough to encompass a woman's decision"},
    {"id": "s1", "type": "statute", "rawText": "42 U.S.C. § 1983"}
  ]}

  type is one of case, statute, rule, constitution, link, quote; every item needs an id.
  A quote names its case's id in parentCaseId; a link gives its address in url.
  examples/sample_request.json in the repository is a longer example.

limits: a local file may hold any number of items, of any total size (each string keeps
its own length limit). --limits applies the HTTP service's limits as well (at most 1,000
items, a body of at most 1 MiB), to check that a file would be accepted over HTTP.
"""


def register(subparsers: Any) -> None:
    verify = subparsers.add_parser(
        "verify",
        help="verify a VerifyRequest JSON file and print the Response",
        description=(
            "Read a VerifyRequest (JSON) from FILE or stdin ('-') and print the contract "
            "Response JSON on stdout. Exit 0 when the request was valid, 2 when it was "
            "not (the problems go to stderr), 1 when --fail-on is met."
        ),
        epilog=_REQUEST_EXAMPLE,
        formatter_class=argparse.RawDescriptionHelpFormatter,
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
        "--store",
        default=None,
        help="use this store file (or postgresql:// URL) instead of the embedded corpus",
    )
    verify.add_argument(
        "--limits",
        action="store_true",
        help="apply the HTTP service's request limits (1,000 items, 1 MiB) to FILE too",
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


def _limits(args: argparse.Namespace) -> Any:
    """The HTTP limits with --limits; without it, no bound on item count or body size.

    A local file is the user's own work on the user's own machine: the HTTP service's
    bounds protect a shared server, not this process.  The per-string bounds stay, since
    they bound the work of parsing each item.
    """
    from citeverify._codec import DEFAULT_LIMITS

    if args.limits:
        return DEFAULT_LIMITS
    return attrs.evolve(DEFAULT_LIMITS, max_items=sys.maxsize, max_body_bytes=sys.maxsize)


def _over_http_limits(error: Any) -> bool:
    """Whether a validation error is about the item count or the body size."""
    return any(
        (d["field"] == "items" and "the limit is" in d["message"])
        or (d["field"] == "body" and d["message"].startswith("body exceeds"))
        for d in error.details
    )


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
    limits = _limits(args)
    try:
        items = _codec.structure_request(body, limits)
    except ValidationError as exc:
        print(json.dumps(exc.to_envelope(), indent=2), file=sys.stderr)
        if args.limits and _over_http_limits(exc):
            print(
                "citeverify: the request is over the HTTP service's limits, which --limits "
                "applies; run without --limits to verify the whole file locally",
                file=sys.stderr,
            )
        return EXIT_INVALID
    progress = _progress_bar(len(items)) if sys.stderr.isatty() and len(items) >= 50 else None
    from citeverify.providers._config import ProviderConfigError

    try:
        provider = _provider(args)
    except ProviderConfigError as exc:
        print(f"citeverify: {exc}", file=sys.stderr)
        return EXIT_INVALID
    try:
        response = verify(items, provider=provider, progress=progress, limits=limits)
    except RateLimited as exc:  # only with a user's own meter; kept for completeness
        print(json.dumps(exc.to_envelope()), file=sys.stderr)
        return EXIT_INVALID
    finally:
        if progress is not None:
            sys.stderr.write("\n")
    if args.format == "table":
        _print_table(response, sys.stdout, _quoted_words(items))
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


#: Quotations longer than this are cut in the table (the whole text is in the JSON).
_QUOTE_CHARS = 160


def _quoted_words(items: Any) -> dict[str, str]:
    """What each quotation item quotes, by id, in quotation marks (cut when long).

    A quotation's Result carries its parent's citation; the table shows the quoted
    words instead, so a reader sees which quotation a row is about.
    """
    quoted = {}
    for item in items:
        words = getattr(item, "quote_text", None)
        if getattr(item.type, "value", item.type) != "quote" or not words:
            continue
        words = " ".join(words.split())
        if len(words) > _QUOTE_CHARS:
            words = words[:_QUOTE_CHARS].rstrip() + "\u2026"
        if words[:1] not in "\"\u201c\u2018'":
            words = f"\u201c{words}\u201d"
        quoted[item.id] = words
    return quoted


def _cited(result: Any, quoted: dict[str, str]) -> str:
    """The quoted words for a quotation (with the case it quotes), else the citation."""
    words = quoted.get(result.id)
    if words is None:
        return str(result.citation.raw)
    return f"{words} (in {result.citation.raw})" if result.citation.raw else words


def _print_table(response: Any, out: TextIO, quoted: dict[str, str] | None = None) -> None:
    quoted = quoted or {}
    try:
        from rich.console import Console
        from rich.markup import escape
        from rich.table import Table
    except ImportError:
        _print_plain_table(response, out, quoted)
        return
    console = Console(file=out, highlight=False)
    table = Table(show_lines=False)
    for column in ("id", "status", "outcome", "citation", "message"):
        table.add_column(column, overflow="fold")
    styles = {"verified": "green", "warning": "yellow", "critical": "bold red"}
    for r in response.results:
        status = r.verdict.status.value
        table.add_row(
            escape(r.id),
            f"[{styles[status]}]{status}[/]",
            r.verdict.outcome or "",
            escape(_cited(r, quoted)),
            escape(r.verdict.message or ""),
        )
    console.print(table)
    s = response.summary
    console.print(
        f"{s.verified} verified, {s.warning} warning, {s.critical} critical of {s.total}: "
        f"overall {s.overall_status.value}"
    )


def _print_plain_table(response: Any, out: TextIO, quoted: dict[str, str]) -> None:
    for r in response.results:
        out.write(
            f"{r.id}\t{r.verdict.status.value}\t{r.verdict.outcome or ''}\t{_cited(r, quoted)}\t"
            f"{r.verdict.message or ''}\n"
        )
    s = response.summary
    out.write(f"{s.verified} verified, {s.warning} warning, {s.critical} critical of {s.total}\n")


def run_info(args: argparse.Namespace) -> int:
    from citeverify.providers import default_provider

    provider = default_provider()
    print(f"{DISTRIBUTION} {__version__} (contract {CONTRACT_VERSION})")
    print(f"default provider: {getattr(provider, 'name', type(provider).__name__)}")
    describe = getattr(provider, "describe", None)
    if callable(describe):
        print(describe())
        print("  anything not listed is outside coverage: answered 'unverified', never 'not_found'")
    token = os.environ.get("COURTLISTENER_TOKEN")
    print(f"CourtListener: {'enabled (COURTLISTENER_TOKEN is set)' if token else 'not enabled'}")
    return EXIT_OK
