"""Accounts, API keys and quotas in a state database (SQLite or PostgreSQL).

An account has a name, a quota (``limit`` citations per calendar window, a UTC
day or month), an enabled/disabled flag and at most one live key.  Keys are
random (256 bits) with a visible prefix, and only their SHA-256 digests are
stored: the plaintext exists once, in the return value of ``create`` or
``regenerate``.  Usage belongs to the account, not the key, so regenerating a
key keeps the window's usage.

The quota charge is one conditional upsert, atomic on both engines::

    INSERT ... ON CONFLICT (account, window_start)
        DO UPDATE SET used = used + n WHERE used + n <= limit RETURNING used

No row back means the charge would pass the limit: nothing was written.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import math
import os
import re
import secrets
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar

import attrs

from citeverify._model import Usage
from citeverify._private import create_private_file
from citeverify.errors import Forbidden, RateLimited, Unauthorized

__all__ = [
    "KEY_PREFIX",
    "Account",
    "AccountExists",
    "AccountMeter",
    "AccountStore",
    "Clock",
    "NoSuchAccount",
    "Window",
    "default_state_url",
    "digest_key",
    "looks_like_key",
    "open_store",
    "window_bounds",
]

_T = TypeVar("_T")
Window = Literal["day", "month"]
WINDOWS: tuple[Window, ...] = ("day", "month")
Clock = Callable[[], dt.datetime]

#: Every key starts with this, so a leaked key is recognisable (secret scanners,
#: log reviews) and a pasted key of another service is refused without a lookup.
KEY_PREFIX = "cv_live_"
_KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_KEY_BODY_LENGTH = 43  # 43 base-62 characters carry 256 bits
_KEY_RE = re.compile(rf"{re.escape(KEY_PREFIX)}[A-Za-z0-9]{{{_KEY_BODY_LENGTH}}}\Z")
_HINT_CHARS = 4
_ENV_STATE = "CITEVERIFY_STATE"
SCHEMA_VERSION = 1


class AccountExists(ValueError):
    """An account with that name already exists."""


class NoSuchAccount(LookupError):
    """No account has that name."""


def utc_now() -> dt.datetime:
    """The current time, timezone-aware in UTC (the default clock)."""
    return dt.datetime.now(dt.UTC)


def new_key() -> str:
    """A fresh random API key: the prefix and 43 base-62 characters (256 bits)."""
    return KEY_PREFIX + "".join(secrets.choice(_KEY_ALPHABET) for _ in range(_KEY_BODY_LENGTH))


def looks_like_key(text: str) -> bool:
    """Whether ``text`` has the shape of one of our keys (prefix, length, alphabet)."""
    return _KEY_RE.match(text) is not None


def digest_key(key: str) -> str:
    """The stored form of a key: its SHA-256 digest in hex."""
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def _hint(key: str) -> str:
    return key[: len(KEY_PREFIX) + _HINT_CHARS] + "..."


def window_bounds(window: Window, now: dt.datetime) -> tuple[dt.datetime, dt.datetime]:
    """The calendar window (UTC) that contains ``now``: ``[start, end)``."""
    now = now.astimezone(dt.UTC)
    start = dt.datetime(now.year, now.month, 1 if window == "month" else now.day, tzinfo=dt.UTC)
    if window == "day":
        end = start + dt.timedelta(days=1)
    elif now.month == 12:
        end = dt.datetime(now.year + 1, 1, 1, tzinfo=dt.UTC)
    else:
        end = dt.datetime(now.year, now.month + 1, 1, tzinfo=dt.UTC)
    return start, end


def seconds_until(end: dt.datetime, now: dt.datetime) -> int:
    """Whole seconds from ``now`` to ``end``, rounded up, at least 1."""
    return max(1, math.ceil((end - now).total_seconds()))


@attrs.frozen
class Account:
    """An account as stored: never holds a key, only a short hint of it."""

    name: str
    limit: int
    window: Window
    disabled: bool
    key_hint: str | None
    created_at: str


@attrs.frozen
class AccountStatus:
    """An account with the usage of its current window, for listings."""

    account: Account
    usage: Usage
    window_start: str


def default_state_url() -> str:
    """``$CITEVERIFY_STATE`` if set, else a SQLite file in the user data directory."""
    env = os.environ.get(_ENV_STATE)
    if env:
        return env
    import platformdirs

    return str(Path(platformdirs.user_data_dir("citeverify")) / "state.sqlite3")


# --- engines ------------------------------------------------------------------------


class _Engine(Protocol):
    """The few things the store needs from a database: run one statement."""

    name: str

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]: ...

    def script(self, statements: Sequence[str]) -> None: ...

    def close(self) -> None: ...


class _PerThread:
    """One connection per thread and per process, all closed by ``close``.

    The shared mechanics of both engines: after a fork the parent's connections
    are not the child's, so the pool starts afresh in a new process.
    """

    def __init__(self) -> None:
        self._local = threading.local()
        self._all: list[Any] = []
        self._lock = threading.Lock()
        self._pid = os.getpid()

    def _connect(self) -> Any:  # pragma: no cover - each engine defines it
        raise NotImplementedError

    def _is_usable(self, conn: Any) -> bool:
        return True

    def _conn(self) -> Any:
        if os.getpid() != self._pid:  # forked: the parent's connections are not ours
            self._pid = os.getpid()
            self._local = threading.local()
            self._all = []
        conn = getattr(self._local, "conn", None)
        if conn is None or not self._is_usable(conn):
            conn = self._connect()
            self._local.conn = conn
            with self._lock:
                self._all.append(conn)
        return conn

    def close(self) -> None:
        with self._lock:
            for conn in self._all:
                conn.close()
            self._all.clear()
        self._local = threading.local()


class _SQLite(_PerThread):
    """One autocommit connection per thread (and per process) to a WAL-mode file."""

    name = "sqlite"

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            create_private_file(path)  # key digests and usage: owner-only (0600)
        self._shared: sqlite3.Connection | None = None
        if path == ":memory:":
            # One connection for every thread: a private in-memory database.
            self._shared = self._connect()
            self._all.append(self._shared)
            self._shared_lock = threading.Lock()

    def _connect(self) -> sqlite3.Connection:
        # Used by one thread only, but closed by whichever thread closes the store.
        conn = sqlite3.connect(
            self.path, isolation_level=None, timeout=30.0, check_same_thread=False
        )
        conn.execute("PRAGMA busy_timeout = 30000")
        if self.path != ":memory:":
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
        return conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        if self._shared is not None:
            with self._shared_lock:
                return self._shared.execute(sql, tuple(params)).fetchall()
        rows: list[tuple[Any, ...]] = self._conn().execute(sql, tuple(params)).fetchall()
        return rows

    def script(self, statements: Sequence[str]) -> None:
        for statement in statements:
            self.execute(statement)


class _Postgres(_PerThread):
    """One autocommit psycopg connection per thread (and per process)."""

    name = "postgresql"

    def __init__(self, url: str) -> None:
        import psycopg  # the `postgres` extra

        super().__init__()
        self._psycopg = psycopg
        self.url = url

    def _connect(self) -> Any:
        return self._psycopg.connect(self.url, autocommit=True)

    def _is_usable(self, conn: Any) -> bool:
        return not conn.closed

    def _once_more(self, run: Callable[[Any], _T]) -> _T:
        """``run(connection)``, and once more on a fresh connection if the first one
        turns out dead (the server restarted, or terminated this backend): a pooled
        connection only learns that it is gone when it is next used.

        The retry is safe for a statement that never reached a live server, which is
        this case; one lost in flight after the server committed it (the connection
        dying in the instant between commit and answer) would run twice.
        """
        conn = self._conn()
        try:
            return run(conn)
        except self._psycopg.OperationalError:
            if not (conn.closed or conn.broken):
                raise
        self._local.conn = None  # the next _conn() connects afresh
        return run(self._conn())

    def execute(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        def run(conn: Any) -> list[tuple[Any, ...]]:
            with conn.cursor() as cur:
                cur.execute(sql.replace("?", "%s"), tuple(params))
                if cur.description is None:
                    return []
                rows: list[tuple[Any, ...]] = cur.fetchall()
                return rows

        return self._once_more(run)

    def script(self, statements: Sequence[str]) -> None:
        # Several processes may create the schema at once; CREATE ... IF NOT EXISTS
        # races in PostgreSQL, so serialise it on an advisory lock.
        def run(conn: Any) -> None:
            with conn.transaction(), conn.cursor() as cur:
                cur.execute("SELECT pg_advisory_xact_lock(7461727)")
                for statement in statements:
                    cur.execute(statement)

        self._once_more(run)


_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS cv_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS cv_accounts (
        name TEXT PRIMARY KEY,
        key_digest TEXT UNIQUE,
        key_hint TEXT,
        quota_limit BIGINT NOT NULL CHECK (quota_limit >= 0),
        quota_window TEXT NOT NULL CHECK (quota_window IN ('day', 'month')),
        disabled INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS cv_usage (
        account TEXT NOT NULL,
        window_start TEXT NOT NULL,
        used BIGINT NOT NULL,
        PRIMARY KEY (account, window_start))""",
    f"""INSERT INTO cv_meta (key, value) VALUES ('schema_version', '{SCHEMA_VERSION}')
        ON CONFLICT (key) DO NOTHING""",
)

#: The charge of a key authenticated earlier in this process: one statement that
#: also re-checks, atomically, that the key is still the account's, the account
#: enabled and its quota as cached; no row back means one of those changed or the
#: quota would be passed, and the caller decides which with fresh reads.
_CHARGE_KEY = """
INSERT INTO cv_usage (account, window_start, used)
SELECT name, ?, ? FROM cv_accounts
WHERE name = ? AND key_digest = ? AND disabled = 0 AND quota_limit = ? AND quota_window = ?
ON CONFLICT (account, window_start)
DO UPDATE SET used = cv_usage.used + excluded.used
WHERE cv_usage.used + excluded.used <= ?
RETURNING used
"""

#: Keys authenticated in this process, remembered to save a query per request.
_KNOWN_KEYS = 1024

_CHARGE = """
INSERT INTO cv_usage (account, window_start, used) VALUES (?, ?, ?)
ON CONFLICT (account, window_start)
DO UPDATE SET used = cv_usage.used + excluded.used
WHERE cv_usage.used + excluded.used <= ?
RETURNING used
"""

_ACCOUNT_COLUMNS = "name, quota_limit, quota_window, disabled, key_hint, created_at"


def _account(row: Sequence[Any]) -> Account:
    return Account(
        name=row[0],
        limit=int(row[1]),
        window=row[2],
        disabled=bool(row[3]),
        key_hint=row[4],
        created_at=row[5],
    )


# --- the store ----------------------------------------------------------------------


class AccountStore:
    """Accounts, keys and quota windows over one state database.

    Thread-safe (a connection per thread) and safe across processes (the
    database serialises the charge).  ``clock`` returns the current time as an
    aware datetime; tests inject one to roll windows over.
    """

    def __init__(self, engine: _Engine, clock: Clock = utc_now) -> None:
        self._engine = engine
        self.clock = clock
        self._engine.script(_SCHEMA)
        self._known: dict[str, Account] = {}
        self._known_lock = threading.Lock()
        #: Per window kind, the bounds of the last window charged and its start as text.
        self._windows: dict[str, tuple[dt.datetime, dt.datetime, str]] = {}

    @property
    def engine(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._engine.name

    def close(self) -> None:
        """Close every connection this store opened."""
        self._engine.close()

    def __enter__(self) -> AccountStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- administration ---------------------------------------------------------------

    def create(self, name: str, limit: int, window: Window = "month") -> str:
        """Create an account with a fresh key; return the key (its only copy)."""
        _check_name(name)
        _check_quota(limit, window)
        key = new_key()
        rows = self._engine.execute(
            "INSERT INTO cv_accounts (name, key_digest, key_hint, quota_limit, quota_window,"
            " disabled, created_at) VALUES (?, ?, ?, ?, ?, 0, ?)"
            " ON CONFLICT (name) DO NOTHING RETURNING name",
            (name, digest_key(key), _hint(key), limit, window, self.clock().isoformat()),
        )
        if not rows:
            raise AccountExists(f"account {name!r} already exists")
        return key

    def regenerate(self, name: str) -> str:
        """Replace the account's key; the old one stops working at once."""
        key = new_key()
        self._update(name, "key_digest = ?, key_hint = ?", (digest_key(key), _hint(key)))
        return key

    def revoke(self, name: str) -> None:
        """Remove the account's key (it has none until ``regenerate``)."""
        self._update(name, "key_digest = NULL, key_hint = NULL", ())

    def disable(self, name: str) -> None:
        """Keep the key but refuse its requests with 403 ``forbidden``."""
        self._update(name, "disabled = 1", ())

    def enable(self, name: str) -> None:
        """Undo ``disable``."""
        self._update(name, "disabled = 0", ())

    def set_limit(self, name: str, limit: int, window: Window | None = None) -> None:
        """Change the account's quota (the current window's usage is kept)."""
        account = self.get(name)
        window = window or account.window
        _check_quota(limit, window)
        self._update(name, "quota_limit = ?, quota_window = ?", (limit, window))

    def _update(self, name: str, assignments: str, params: Sequence[Any]) -> None:
        rows = self._engine.execute(
            f"UPDATE cv_accounts SET {assignments} WHERE name = ? RETURNING name",
            (*params, name),
        )
        if not rows:
            raise NoSuchAccount(f"no account named {name!r}")

    def get(self, name: str) -> Account:
        """The account called ``name``."""
        rows = self._engine.execute(
            f"SELECT {_ACCOUNT_COLUMNS} FROM cv_accounts WHERE name = ?", (name,)
        )
        if not rows:
            raise NoSuchAccount(f"no account named {name!r}")
        return _account(rows[0])

    def list(self) -> list[AccountStatus]:
        """Every account, by name, with the usage of its current window."""
        rows = self._engine.execute(f"SELECT {_ACCOUNT_COLUMNS} FROM cv_accounts ORDER BY name", ())
        return [self.status(_account(row)) for row in rows]

    def status(self, account: Account) -> AccountStatus:
        """The account with its current window's usage."""
        start, _ = window_bounds(account.window, self.clock())
        used = self._used(account.name, start)
        return AccountStatus(account, _usage(used, account.limit), start.date().isoformat())

    # -- serving ----------------------------------------------------------------------

    def authenticate(self, key: str) -> Account:
        """The enabled account that owns ``key``.

        Raises ``Unauthorized`` for a malformed or unknown key and ``Forbidden``
        for the key of a disabled account.
        """
        if not looks_like_key(key):
            raise Unauthorized("the API key is malformed")
        return self._by_digest(digest_key(key))

    def _by_digest(self, digest: str) -> Account:
        rows = self._engine.execute(
            f"SELECT {_ACCOUNT_COLUMNS}, key_digest FROM cv_accounts WHERE key_digest = ?",
            (digest,),
        )
        # The lookup is by digest (an attacker cannot steer a SHA-256 preimage), and
        # the final check is constant-time anyway.
        if not rows or not hmac.compare_digest(str(rows[0][6]), digest):
            raise Unauthorized("the API key is not valid")
        account = _account(rows[0])
        if account.disabled:
            raise Forbidden("this account is disabled")
        return account

    def meter(self, account: Account) -> AccountMeter:
        """A meter that charges ``account``'s current window."""
        return AccountMeter(self, account)

    def key_meter(self, key: str) -> AccountMeter:
        """The meter of the account that owns ``key``, for serving a request.

        The first request of a key authenticates it as ``authenticate`` does (and
        raises as it does).  Later ones in this process skip that query: their charge
        is one statement that re-checks the key, the account's state and its quota
        atomically, so a key regenerated, revoked or disabled (in any process) stops
        working at once; see ``AccountMeter.charge``.
        """
        if not looks_like_key(key):
            raise Unauthorized("the API key is malformed")
        digest = digest_key(key)
        with self._known_lock:
            known = self._known.get(digest)
        if known is None:
            account = self._by_digest(digest)
            self._remember(digest, account)
            return AccountMeter(self, account)
        return AccountMeter(self, known, digest)

    def _remember(self, digest: str, account: Account) -> None:
        with self._known_lock:
            if len(self._known) >= _KNOWN_KEYS:
                self._known.clear()
            self._known[digest] = account

    def _forget(self, digest: str) -> None:
        with self._known_lock:
            self._known.pop(digest, None)

    def _window_start(self, window: Window, now: dt.datetime) -> str:
        """The ISO date that starts the ``window`` holding ``now``: ``window_bounds``, worked
        out once per window rather than on every charge (the bounds of the last window
        seen are kept, and used while ``now`` is inside them)."""
        known = self._windows.get(window)
        if known is not None and now.tzinfo is not None and known[0] <= now < known[1]:
            return known[2]
        start, end = window_bounds(window, now)
        text = start.date().isoformat()
        self._windows[window] = (start, end, text)
        return text

    def _charge_key(self, account: Account, digest: str, billed: int) -> Usage | None:
        """Charge ``billed`` (> 0) if the key, account and quota are still as cached."""
        if billed > account.limit:
            return None
        rows = self._engine.execute(
            _CHARGE_KEY,
            (
                self._window_start(account.window, self.clock()),
                billed,
                account.name,
                digest,
                account.limit,
                account.window,
                account.limit,
            ),
        )
        return _usage(int(rows[0][0]), account.limit) if rows else None

    def charge(self, account: Account, billed: int) -> Usage:
        """Add ``billed`` to the account's window atomically; see ``AccountMeter``."""
        if billed < 0:
            raise ValueError("billed must be >= 0")
        now = self.clock()
        start, end = window_bounds(account.window, now)
        window_start = start.date().isoformat()
        if billed == 0:
            return _usage(self._used(account.name, start), account.limit)
        rows = (
            self._engine.execute(_CHARGE, (account.name, window_start, billed, account.limit))
            if billed <= account.limit
            else []
        )
        if not rows:
            used = self._used(account.name, start)
            raise RateLimited(
                f"quota exceeded: this request bills {billed} citation(s) and "
                f"{max(0, account.limit - used)} of {account.limit} remain this {account.window}",
                retry_after=seconds_until(end, now),
            )
        return _usage(int(rows[0][0]), account.limit)

    def _used(self, name: str, start: dt.datetime) -> int:
        rows = self._engine.execute(
            "SELECT used FROM cv_usage WHERE account = ? AND window_start = ?",
            (name, start.date().isoformat()),
        )
        return int(rows[0][0]) if rows else 0


class AccountMeter:
    """The ``Meter`` of one authenticated account (see ``citeverify._meter``)."""

    def __init__(self, store: AccountStore, account: Account, digest: str | None = None) -> None:
        self.store = store
        self.account = account
        self.last: Usage | None = None
        #: Set when the key was authenticated by an earlier request (``key_meter``):
        #: the charge then re-checks it.
        self.digest = digest

    def charge(self, billed: int) -> Usage:
        """Charge the account's current window; ``RateLimited`` charges nothing.

        For a remembered key, one statement checks and charges; when it charges
        nothing, the key is authenticated afresh (``Unauthorized``/``Forbidden``
        when it no longer holds) and charged as for a new one.
        """
        digest = self.digest
        if digest is not None:
            if billed > 0:
                usage = self.store._charge_key(self.account, digest, billed)
                if usage is not None:
                    self.last = usage
                    return usage
            self.store._forget(digest)
            self.account = self.store._by_digest(digest)
            self.store._remember(digest, self.account)
            self.digest = None
        self.last = self.store.charge(self.account, billed)
        return self.last


def _usage(used: int, limit: int) -> Usage:
    return Usage(used=used, remaining=max(0, limit - used), limit=limit)


_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._@-]{0,127}\Z")


def _check_name(name: str) -> None:
    if not _NAME_RE.match(name):
        raise ValueError(
            "an account name is 1-128 characters of letters, digits, '.', '_', '@' or '-',"
            " starting with a letter or digit"
        )


def _check_quota(limit: int, window: str) -> None:
    if not isinstance(limit, int) or isinstance(limit, bool) or not 0 <= limit <= 2**62:
        raise ValueError("limit must be an integer between 0 and 2**62")
    if window not in WINDOWS:
        raise ValueError("window must be 'day' or 'month'")


def open_store(url: str | None = None, *, clock: Clock = utc_now) -> AccountStore:
    """Open (creating if needed) the state database at ``url``.

    ``url`` is a ``postgresql://`` (or ``postgres://``) URL, a ``sqlite:///path``
    URL, a plain file path, or ``:memory:``; by default ``$CITEVERIFY_STATE`` or
    ``state.sqlite3`` in the platformdirs user data directory.
    """
    url = url or default_state_url()
    if url.startswith(("postgresql://", "postgres://")):
        return AccountStore(_Postgres(url), clock)
    if url.startswith("sqlite:///"):
        url = url.removeprefix("sqlite:///")  # sqlite:///rel.db, sqlite:////abs/path.db
    return AccountStore(_SQLite(url), clock)


@contextmanager
def opened(url: str | None = None, *, clock: Clock = utc_now) -> Iterator[AccountStore]:
    """``open_store`` as a context manager that closes the store."""
    store = open_store(url, clock=clock)
    try:
        yield store
    finally:
        store.close()
