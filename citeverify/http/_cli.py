"""``citeverify serve`` and ``citeverify keys``: run the service, manage its accounts.

Heavy imports (uvicorn, psycopg) happen inside the handlers, so ``citeverify
--help`` stays cheap.  ``keys create`` and ``keys regenerate`` print the new
key alone on the last line of stdout (everything else goes to stderr), so
``KEY=$(citeverify keys create NAME --limit 1000)`` captures just the key; it
is shown once and never stored.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from collections.abc import Callable
from typing import Any

EXIT_OK = 0
EXIT_ERROR = 1


def register(subparsers: Any) -> None:
    """Add ``serve`` and ``keys`` to the ``citeverify`` command."""
    state = argparse.ArgumentParser(add_help=False)
    state.add_argument(
        "--state",
        default=None,
        metavar="URL",
        help="state database: a SQLite path or sqlite:/// URL, or a postgresql:// URL "
        "(default $CITEVERIFY_STATE, else state.sqlite3 in the user data directory)",
    )

    serve = subparsers.add_parser(
        "serve",
        parents=[state],
        help="serve POST /api/v1/verify over HTTP (uvicorn)",
        description="Run the HTTP service on uvicorn (the `server` extra). Ctrl-C or SIGTERM "
        "stops it gracefully: in-flight requests finish first.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="interface (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    serve.add_argument(
        "--offload",
        action="store_true",
        help="run every request in a thread pool. By default small requests run on the "
        "event loop (faster for the local, CPU-bound corpus) and those that can take long "
        "(quotations, bodies over 4 KiB) in the pool, so none stalls the others; "
        "offloading all pays when requests wait on slow I/O",
    )
    serve.add_argument(
        "--store",
        default=None,
        help="serve this store file (or postgresql:// URL) instead of the embedded corpus",
    )
    serve.add_argument(
        "--courtlistener",
        action="store_true",
        help="also ask CourtListener for what the local store does not cover (token from "
        "COURTLISTENER_TOKEN, which enables it by itself too); implies --offload, since its "
        "lookups wait on the network",
    )
    serve.add_argument(
        "--courtlistener-cache",
        default=None,
        metavar="FILE",
        help="cache CourtListener lookups and texts in this SQLite file",
    )
    serve.add_argument(
        "--local",
        action="store_true",
        help="local mode for one person on this machine: the page at / and the API ask for "
        "no key and bill nothing. Refused unless --host is a loopback address",
    )
    serve.add_argument(
        "--no-access-log", action="store_true", help="do not log one line per request"
    )
    limits = serve.add_argument_group(
        "limits (per worker; every refusal is the error envelope where one can be written)"
    )
    defaults = _limit_defaults()
    limits.add_argument(
        "--max-header-bytes",
        type=int,
        default=defaults.max_header_bytes,
        metavar="N",
        help="largest request line plus headers, counted before parsing; past it: 431 "
        "(default %(default)s)",
    )
    limits.add_argument(
        "--max-headers",
        type=int,
        default=defaults.max_headers,
        metavar="N",
        help="most header lines in a request; past it: 431 (default %(default)s)",
    )
    limits.add_argument(
        "--timeout-idle",
        type=float,
        default=defaults.timeout_idle,
        metavar="S",
        help="close a new connection that sends nothing for S seconds (default %(default)s)",
    )
    limits.add_argument(
        "--timeout-header",
        type=float,
        default=defaults.timeout_header,
        metavar="S",
        help="a request's line and headers must arrive within S seconds of its first byte; "
        "else 408 (default %(default)s)",
    )
    limits.add_argument(
        "--timeout-body",
        type=float,
        default=defaults.timeout_body,
        metavar="S",
        help="its body must arrive within S seconds after the headers; else 408 "
        "(default %(default)s)",
    )
    limits.add_argument(
        "--timeout-keep-alive",
        type=int,
        default=defaults.timeout_keep_alive,
        metavar="S",
        help="close a kept-alive connection silent for S seconds between requests "
        "(default %(default)s)",
    )
    limits.add_argument(
        "--limit-concurrency",
        type=int,
        default=defaults.max_in_flight,
        metavar="N",
        help="requests in flight per worker; past it: 503 with Retry-After (default "
        "%(default)s)",
    )
    limits.add_argument(
        "--limit-connections",
        type=int,
        default=defaults.max_connections,
        metavar="N",
        help="open connections per worker; past it an idle connection is dropped, else the "
        "new one is closed, so file descriptors never run out (default %(default)s, and at "
        "most the descriptor limit less a reserve)",
    )
    serve.add_argument(
        "--log-level", default="info", choices=("critical", "error", "warning", "info", "debug")
    )
    serve.set_defaults(func=run_serve)

    keys = subparsers.add_parser(
        "keys",
        help="manage accounts, API keys and quotas",
        description="Accounts, their API keys and quotas in the state database.",
    )
    actions = keys.add_subparsers(dest="keys_command", metavar="ACTION", required=True)

    create = actions.add_parser(
        "create", parents=[state], help="create an account; print its key (shown once)"
    )
    create.add_argument("name", metavar="NAME")
    create.add_argument("--limit", type=int, required=True, help="billed citations per window")
    create.add_argument("--window", choices=("day", "month"), default="month")
    create.set_defaults(func=_database_errors(run_create))

    regenerate = actions.add_parser(
        "regenerate", parents=[state], help="replace the key (the old one dies at once)"
    )
    regenerate.add_argument("name", metavar="NAME")
    regenerate.set_defaults(func=_database_errors(run_regenerate))

    listing = actions.add_parser("list", parents=[state], help="list accounts and usage")
    listing.add_argument("--json", action="store_true", help="JSON lines instead of a table")
    listing.set_defaults(func=_database_errors(run_list))

    for action, text in (
        ("revoke", "remove the account's key (regenerate issues a new one)"),
        ("disable", "refuse the account's requests with 403 (the key is kept)"),
        ("enable", "undo disable"),
    ):
        sub = actions.add_parser(action, parents=[state], help=text)
        sub.add_argument("name", metavar="NAME")
        sub.set_defaults(func=_database_errors(run_simple), action=action)

    limit = actions.add_parser("set-limit", parents=[state], help="change an account's quota")
    limit.add_argument("name", metavar="NAME")
    limit.add_argument("--limit", type=int, required=True)
    limit.add_argument("--window", choices=("day", "month"), default=None)
    limit.set_defaults(func=_database_errors(run_set_limit))


def _fail(message: str) -> int:
    print(f"citeverify: {message}", file=sys.stderr)
    return EXIT_ERROR


def _one_line(exc: BaseException) -> str:
    """An exception as one line: its type and the first line of its message."""
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


def _database_errors(command: Callable[[argparse.Namespace], int]) -> Callable[..., int]:
    """``command`` answering a database failure in one line on stderr, never a traceback."""

    @functools.wraps(command)
    def guarded(args: argparse.Namespace) -> int:
        import sqlite3

        errors: tuple[type[BaseException], ...] = (sqlite3.Error, OSError)
        try:
            import psycopg

            errors += (psycopg.Error,)
        except ImportError:
            pass
        try:
            return command(args)
        except errors as exc:
            return _fail(f"the state database failed: {_one_line(exc)}")

    return guarded


def _open(args: argparse.Namespace) -> Any:
    from citeverify.http._accounts import open_store

    return open_store(args.state)


def run_create(args: argparse.Namespace) -> int:
    from citeverify.http._accounts import AccountExists

    try:
        with _open(args) as store:
            key = store.create(args.name, args.limit, args.window)
    except (AccountExists, ValueError) as exc:
        return _fail(str(exc))
    print(
        f"created account {args.name!r}: {args.limit} citations per {args.window}. "
        "The key follows; it is shown only now.",
        file=sys.stderr,
    )
    print(key)
    return EXIT_OK


def run_regenerate(args: argparse.Namespace) -> int:
    from citeverify.http._accounts import NoSuchAccount

    try:
        with _open(args) as store:
            key = store.regenerate(args.name)
    except NoSuchAccount as exc:
        return _fail(str(exc))
    print(
        f"new key for {args.name!r}; the previous key no longer works. It is shown only now.",
        file=sys.stderr,
    )
    print(key)
    return EXIT_OK


def run_simple(args: argparse.Namespace) -> int:
    from citeverify.http._accounts import NoSuchAccount

    try:
        with _open(args) as store:
            getattr(store, args.action)(args.name)
    except NoSuchAccount as exc:
        return _fail(str(exc))
    done = {"revoke": "revoked the key of", "disable": "disabled", "enable": "enabled"}
    print(f"{done[args.action]} {args.name!r}", file=sys.stderr)
    return EXIT_OK


def run_set_limit(args: argparse.Namespace) -> int:
    from citeverify.http._accounts import NoSuchAccount

    try:
        with _open(args) as store:
            store.set_limit(args.name, args.limit, args.window)
    except (NoSuchAccount, ValueError) as exc:
        return _fail(str(exc))
    print(f"set the quota of {args.name!r}", file=sys.stderr)
    return EXIT_OK


def run_list(args: argparse.Namespace) -> int:
    with _open(args) as store:
        rows = store.list()
    records = [
        {
            "name": row.account.name,
            "state": "disabled"
            if row.account.disabled
            else ("active" if row.account.key_hint else "no key"),
            "key": row.account.key_hint or "-",
            "limit": row.account.limit,
            "window": row.account.window,
            "window_start": row.window_start,
            "used": row.usage.used,
            "remaining": row.usage.remaining,
        }
        for row in rows
    ]
    if args.json:
        for record in records:
            print(json.dumps(record))
        return EXIT_OK
    columns = ("name", "state", "key", "limit", "window", "window_start", "used", "remaining")
    table = [columns, *[tuple(str(r[c]) for c in columns) for r in records]]
    widths = [max(len(line[i]) for line in table) for i in range(len(columns))]
    for line in table:
        print("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip())
    return EXIT_OK


def _limit_defaults() -> Any:
    from citeverify.http._limits import ServerLimits

    return ServerLimits()


def _raise_descriptor_limit() -> int:
    """Raise this process's soft limit of open files to its hard limit; return it."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Windows
        return 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft == resource.RLIM_INFINITY:
        return 65536
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return int(soft)


def _server_limits(args: argparse.Namespace) -> Any:
    from citeverify.http._limits import ServerLimits

    for name in ("max_header_bytes", "max_headers", "limit_concurrency", "limit_connections"):
        if getattr(args, name) < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 1")
    for name in ("timeout_idle", "timeout_header", "timeout_body", "timeout_keep_alive"):
        if not getattr(args, name) > 0:
            raise ValueError(f"--{name.replace('_', '-')} must be more than 0")
    # Descriptors go to listening sockets, the databases and the thread pool too:
    # keep a reserve so that a flood of connections cannot exhaust them.
    connections = min(args.limit_connections, max(16, _raise_descriptor_limit() - 64))
    return ServerLimits(
        max_header_bytes=args.max_header_bytes,
        max_headers=args.max_headers,
        timeout_idle=args.timeout_idle,
        timeout_header=args.timeout_header,
        timeout_body=args.timeout_body,
        timeout_keep_alive=args.timeout_keep_alive,
        max_in_flight=args.limit_concurrency,
        max_connections=connections,
    )


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from citeverify.http._protocol import GuardedProtocol
    except ImportError:
        return _fail("serve needs uvicorn and httptools: pip install 'citeverify-legal[server]'")
    from citeverify.http._accounts import default_state_url, open_store
    from citeverify.http._asgi import ENV_ACCESS_LOG, ENV_LOCAL, ENV_LOG_LEVEL, ENV_OFFLOAD
    from citeverify.http._limits import ENV_LIMITS

    if args.workers < 1:
        return _fail("--workers must be at least 1")
    if args.local and not is_loopback(args.host):
        return _fail(
            f"--local serves without keys, so it binds only to a loopback address "
            f"(127.0.0.1, ::1 or localhost), not {args.host!r}"
        )
    try:
        limits = _server_limits(args)
    except ValueError as exc:
        return _fail(str(exc))
    state = args.state or default_state_url()
    try:
        open_store(state).close()  # create the schema once, and fail early on a bad URL
    except Exception as exc:
        return _fail(f"cannot open the state database: {_one_line(exc)}")
    from citeverify.providers._config import ENV, ProviderConfigError, provider_from_env

    if args.store:
        os.environ[ENV["store"]] = args.store
    if args.courtlistener:
        os.environ[ENV["courtlistener"]] = "1"
    if args.courtlistener_cache:
        os.environ[ENV["cache"]] = args.courtlistener_cache
    try:
        # Open and check the store before listening: never serve a missing or corrupt one.
        provider = provider_from_env(check=True)
    except ProviderConfigError as exc:
        return _fail(str(exc))
    remote = type(provider).__name__ == "Chain"
    # Workers are started from an import string; the settings travel in the environment.
    os.environ["CITEVERIFY_STATE"] = state
    os.environ[ENV_OFFLOAD] = "1" if args.offload or remote else "auto"
    os.environ[ENV_ACCESS_LOG] = "0" if args.no_access_log else "1"
    os.environ[ENV_LOG_LEVEL] = args.log_level
    os.environ[ENV_LIMITS] = limits.to_env()
    os.environ[ENV_LOCAL] = "1" if args.local else "0"
    print(
        f"citeverify serving on http://{args.host}:{args.port} "
        f"({args.workers} worker(s), state: {_safe_url(state)}, "
        f"provider: {getattr(provider, 'name', type(provider).__name__)})"
        + ("; local mode: no keys, nothing billed" if args.local else ""),
        file=sys.stderr,
        flush=True,
    )
    uvicorn.run(
        "citeverify.http._asgi:app_from_env",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        http=GuardedProtocol,
        log_level=args.log_level,
        access_log=False,  # ours (citeverify.http.access) never logs query strings or keys
        proxy_headers=False,
        server_header=False,
        timeout_keep_alive=limits.timeout_keep_alive,
        timeout_graceful_shutdown=30,
        lifespan="on",
    )
    return EXIT_OK


def is_loopback(host: str) -> bool:
    """Whether ``host`` names only this machine (``localhost``, 127.0.0.0/8, ``::1``)."""
    import ipaddress

    if host.strip().lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip().strip("[]")).is_loopback
    except ValueError:
        return False


def _safe_url(url: str) -> str:
    """The state URL without a password."""
    if "://" in url and "@" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}"
    return url
