"""Which provider a command or a server uses: one place for the CLI and the HTTP service.

The embedded corpus (or a ``LocalStore`` file) answers first; CourtListener, when
enabled, answers what it does not cover.  Settings come from arguments or from the
environment, so server workers started by uvicorn get the same provider:

``CITEVERIFY_STORE``
    a LocalStore file to use instead of the embedded corpus, or a
    ``postgresql://`` URL of a store in PostgreSQL (``PostgresStore``; needs
    the ``postgres`` extra);
``COURTLISTENER_TOKEN``
    a CourtListener API token; setting it enables CourtListener;
``CITEVERIFY_COURTLISTENER``
    ``1`` enables CourtListener even without a token, ``0`` disables it even with one;
``CITEVERIFY_COURTLISTENER_URL``
    another base URL for the CourtListener API (a mirror, or a stand-in in tests);
``CITEVERIFY_COURTLISTENER_CACHE``
    a SQLite file caching CourtListener lookups and texts.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from citeverify.providers._base import Provider
from citeverify.providers._memory import Chain

__all__ = [
    "ENV",
    "ProviderConfigError",
    "check_store",
    "configured_provider",
    "open_store_provider",
    "provider_from_env",
]

ENV = {
    "store": "CITEVERIFY_STORE",
    "token": "COURTLISTENER_TOKEN",
    "courtlistener": "CITEVERIFY_COURTLISTENER",
    "url": "CITEVERIFY_COURTLISTENER_URL",
    "cache": "CITEVERIFY_COURTLISTENER_CACHE",
}


class ProviderConfigError(RuntimeError):
    """The configuration asks for a provider that cannot be had (a missing extra, or a
    store file that is missing or unreadable)."""


#: Below this size a store gets SQLite's full ``quick_check`` before serving; a larger
#: (imported) store only has its tables probed, so that start-up stays quick.
_QUICK_CHECK_MAX_BYTES = 256 * 1024 * 1024


def check_store(store: Provider) -> None:
    """Open ``store`` (a ``LocalStore``) now and read it enough to know it is a store.

    A server must not start on a missing or corrupt file: the ``LocalStore`` would
    answer every lookup ``Unavailable`` and bill each citation as ``unverified``.
    Raises ``ProviderConfigError`` with a one-line reason (for the operator; it names
    the file).
    """
    import sqlite3

    check = getattr(store, "check", None)
    if check is not None:  # a PostgresStore: connect and probe
        _check_postgres(store, check)
        return
    path = getattr(store, "path", None)
    if path is None:
        return
    where = f"the store file {path}"
    if not path.is_file():
        raise ProviderConfigError(f"{where} does not exist")
    try:
        store.describe()  # type: ignore[attr-defined]  # schema version, coverage tables
        connection = sqlite3.connect(f"file:{path.as_posix()}?mode=ro", uri=True)
        try:
            for table in ("citations", "authorities"):
                connection.execute(f"SELECT * FROM {table} LIMIT 1").fetchall()
            if path.stat().st_size <= _QUICK_CHECK_MAX_BYTES:
                (result,) = connection.execute("PRAGMA quick_check(1)").fetchone()
                if result != "ok":
                    raise sqlite3.DatabaseError(f"integrity check: {result}")
        finally:
            connection.close()
    except (sqlite3.Error, OSError, ValueError) as exc:
        reason = " ".join(str(exc).replace(str(path), "it").split())
        raise ProviderConfigError(f"{where} cannot be served: {reason}") from exc


def _check_postgres(store: Provider, check: Any) -> None:
    import psycopg

    try:
        check()
    except (psycopg.Error, OSError, ValueError) as exc:
        reason = " ".join(str(exc).split())
        url = str(getattr(store, "_url", ""))
        if url:
            reason = reason.replace(url, "it")
        raise ProviderConfigError(
            f"the PostgreSQL store {getattr(store, 'url', '')} cannot be served: {reason}"
        ) from exc


def open_store_provider(store: str) -> Provider:
    """The provider for a ``--store``/``CITEVERIFY_STORE`` value: a file or a URL.

    A ``postgresql://`` URL is a ``PostgresStore``; any other URL is refused rather
    than read as a file name.
    """
    from citeverify.store._writer import StoreLocationError, check_location, is_postgres_url

    try:
        check_location(store)
    except StoreLocationError as exc:
        raise ProviderConfigError(str(exc)) from None
    if is_postgres_url(store):
        try:
            from citeverify.providers.postgres import PostgresStore
        except ImportError as exc:
            raise ProviderConfigError(
                "a PostgreSQL store needs its extra: pip install 'citeverify-legal[postgres]'"
            ) from exc
        return PostgresStore(store)
    from citeverify.providers.local import LocalStore

    return LocalStore(store)


def configured_provider(
    *,
    store: str | None = None,
    courtlistener: bool | None = None,
    token: str | None = None,
    base_url: str | None = None,
    cache: str | None = None,
    check: bool = False,
) -> Provider:
    """The local store, chained with CourtListener when it is enabled.

    ``courtlistener=None`` means "enabled when a token is given"; ``check`` opens
    and checks the local store now (see ``check_store``) instead of on first use.
    """
    from citeverify.providers import default_provider

    local = open_store_provider(store) if store else default_provider()
    if check:
        check_store(local)
    if courtlistener is None:
        courtlistener = bool(token)
    if not courtlistener:
        return local
    try:
        from citeverify.providers.courtlistener import CourtListener
    except ImportError as exc:
        raise ProviderConfigError(
            "CourtListener needs its extra: pip install 'citeverify-legal[courtlistener]'"
        ) from exc
    remote = (
        CourtListener(token, base_url=base_url, cache=cache)
        if base_url
        else CourtListener(token, cache=cache)
    )
    return Chain(local, remote)


def provider_from_env(
    environ: Mapping[str, str] | None = None, *, check: bool = False
) -> Provider:
    """``configured_provider`` with the settings of the environment (see the module doc)."""
    env = os.environ if environ is None else environ
    switch = env.get(ENV["courtlistener"])
    enabled = None if switch in (None, "") else switch not in ("0", "false", "no")
    return configured_provider(
        store=env.get(ENV["store"]) or None,
        courtlistener=enabled,
        token=env.get(ENV["token"]) or None,
        base_url=env.get(ENV["url"]) or None,
        cache=env.get(ENV["cache"]) or None,
        check=check,
    )
