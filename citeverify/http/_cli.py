"""``citeverify serve`` and ``citeverify keys``: run the service, manage its accounts.

Heavy imports (uvicorn, psycopg) happen inside the handlers, so ``citeverify
--help`` stays cheap.  ``keys create`` and ``keys regenerate`` print the new
key alone on the last line of stdout (everything else goes to stderr), so
``KEY=$(citeverify keys create NAME --limit 1000)`` captures just the key; it
is shown once and never stored.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
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
        help="run each request in a thread pool instead of on the event loop. The served "
        "provider is the embedded corpus (local and CPU-bound), where the event loop is "
        "about twice as fast; offloading pays only when requests wait on slow I/O",
    )
    serve.add_argument(
        "--store", default=None, help="serve this LocalStore file instead of the embedded corpus"
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
    create.set_defaults(func=run_create)

    regenerate = actions.add_parser(
        "regenerate", parents=[state], help="replace the key (the old one dies at once)"
    )
    regenerate.add_argument("name", metavar="NAME")
    regenerate.set_defaults(func=run_regenerate)

    listing = actions.add_parser("list", parents=[state], help="list accounts and usage")
    listing.add_argument("--json", action="store_true", help="JSON lines instead of a table")
    listing.set_defaults(func=run_list)

    for action, text in (
        ("revoke", "remove the account's key (regenerate issues a new one)"),
        ("disable", "refuse the account's requests with 403 (the key is kept)"),
        ("enable", "undo disable"),
    ):
        sub = actions.add_parser(action, parents=[state], help=text)
        sub.add_argument("name", metavar="NAME")
        sub.set_defaults(func=run_simple, action=action)

    limit = actions.add_parser("set-limit", parents=[state], help="change an account's quota")
    limit.add_argument("name", metavar="NAME")
    limit.add_argument("--limit", type=int, required=True)
    limit.add_argument("--window", choices=("day", "month"), default=None)
    limit.set_defaults(func=run_set_limit)


def _fail(message: str) -> int:
    print(f"citeverify: {message}", file=sys.stderr)
    return EXIT_ERROR


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


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        return _fail("serve needs uvicorn: pip install 'citeverify[server]'")
    from citeverify.http._accounts import default_state_url, open_store
    from citeverify.http._asgi import ENV_ACCESS_LOG, ENV_LOCAL, ENV_LOG_LEVEL, ENV_OFFLOAD

    if args.workers < 1:
        return _fail("--workers must be at least 1")
    if args.local and not is_loopback(args.host):
        return _fail(
            f"--local serves without keys, so it binds only to a loopback address "
            f"(127.0.0.1, ::1 or localhost), not {args.host!r}"
        )
    state = args.state or default_state_url()
    try:
        open_store(state).close()  # create the schema once, and fail early on a bad URL
    except Exception as exc:
        return _fail(f"cannot open the state database: {type(exc).__name__}: {exc}")
    from citeverify.providers._config import ENV, ProviderConfigError, provider_from_env

    if args.store:
        os.environ[ENV["store"]] = args.store
    if args.courtlistener:
        os.environ[ENV["courtlistener"]] = "1"
    if args.courtlistener_cache:
        os.environ[ENV["cache"]] = args.courtlistener_cache
    try:
        provider = provider_from_env()  # fail early on a missing extra or store
    except ProviderConfigError as exc:
        return _fail(str(exc))
    remote = type(provider).__name__ == "Chain"
    # Workers are started from an import string; the settings travel in the environment.
    os.environ["CITEVERIFY_STATE"] = state
    os.environ[ENV_OFFLOAD] = "1" if args.offload or remote else "0"
    os.environ[ENV_ACCESS_LOG] = "0" if args.no_access_log else "1"
    os.environ[ENV_LOG_LEVEL] = args.log_level
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
        log_level=args.log_level,
        access_log=False,  # ours (citeverify.http.access) never logs query strings or keys
        proxy_headers=False,
        server_header=False,
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
