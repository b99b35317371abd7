"""A key served before is checked and charged in one statement, and still fails at once.

``AccountStore.key_meter`` remembers keys this process has authenticated, so a
later request of the same key skips the authentication query; its charge is one
statement that re-checks the key, the account's state and quota atomically.
These tests hold the contract to what it was: a key regenerated, revoked or
disabled from another process fails at once, 401/403 still wins over 422, and
the quota is exact.  Both engines.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from citeverify.http import AccountStore, HttpRequest, HttpResponse, Service, open_store
from tests.conftest_http import (  # noqa: F401  (fixtures)
    PROVIDER,
    FakeClock,
    body_billing,
    postgres_url,
    state_url,
)

VERIFY = "/api/v1/verify"


@pytest.fixture
def stores(state_url: str) -> Iterator[tuple[AccountStore, AccountStore]]:  # noqa: F811
    """Two stores on one database: the server's, and an administrator's elsewhere."""
    clock = FakeClock()
    with (
        open_store(state_url, clock=clock) as served,
        open_store(state_url, clock=clock) as admin,
    ):
        yield served, admin


def post(service: Service, body: bytes, key: str, content_type: str = "application/json") -> Any:
    headers = (("Authorization", f"Bearer {key}"), ("Content-Type", content_type))
    response: HttpResponse = service.handle(HttpRequest("POST", VERIFY, headers, body))
    return response.status, json.loads(response.body), response.account


class Counting:
    """Counts the statements the served store sends to its database."""

    def __init__(self, store: AccountStore) -> None:
        self.count = 0
        engine = store._engine
        original = engine.execute

        def execute(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return original(*args, **kwargs)

        engine.execute = execute  # type: ignore[method-assign]


def test_a_known_key_is_checked_and_charged_in_one_statement(
    stores: tuple[AccountStore, AccountStore],
) -> None:
    served, admin = stores
    key = admin.create("alice", 100, "day")
    service = Service(served, provider=PROVIDER)
    counter = Counting(served)
    assert post(service, body_billing(2), key)[0] == 200
    first = counter.count
    status, payload, account = post(service, body_billing(3), key)
    assert (status, account) == (200, "alice")
    assert counter.count - first == 1
    assert payload["usage"] == {"used": 5, "remaining": 95, "limit": 100}
    assert admin.status(admin.get("alice")).usage.used == 5


@pytest.mark.parametrize("change", ["regenerate", "revoke", "disable"])
def test_a_known_key_fails_at_once_when_changed_elsewhere(
    stores: tuple[AccountStore, AccountStore], change: str
) -> None:
    served, admin = stores
    key = admin.create("alice", 100, "day")
    service = Service(served, provider=PROVIDER)
    assert post(service, body_billing(1), key)[0] == 200
    getattr(admin, change)("alice")
    status, payload, account = post(service, body_billing(1), key)
    expected = (403, "forbidden") if change == "disable" else (401, "unauthorized")
    assert (status, payload["error"]["code"]) == expected
    assert account is None
    assert admin.status(admin.get("alice")).usage.used == 1  # nothing charged


@pytest.mark.parametrize("bad", ["content type", "body", "no billed citations"])
def test_a_dead_known_key_is_refused_before_any_other_error(
    stores: tuple[AccountStore, AccountStore], bad: str
) -> None:
    served, admin = stores
    key = admin.create("alice", 100, "day")
    service = Service(served, provider=PROVIDER)
    assert post(service, body_billing(1), key)[0] == 200
    admin.disable("alice")
    if bad == "content type":
        status, payload, _ = post(service, body_billing(1), key, "text/plain")
    elif bad == "body":
        status, payload, _ = post(service, b'{"items": 5}', key)
    else:
        status, payload, _ = post(service, body_billing(0), key)
    assert (status, payload["error"]["code"]) == (403, "forbidden")


def test_quota_and_limit_changes_hold_for_a_known_key(
    stores: tuple[AccountStore, AccountStore],
) -> None:
    served, admin = stores
    key = admin.create("alice", 5, "day")
    service = Service(served, provider=PROVIDER)
    assert post(service, body_billing(3), key)[0] == 200
    status, payload, _ = post(service, body_billing(3), key)  # 6 > 5: refused, not charged
    assert (status, payload["error"]["code"]) == (429, "rate_limit_exceeded")
    assert admin.status(admin.get("alice")).usage.used == 3
    admin.set_limit("alice", 6)  # raised elsewhere: the next charge sees it
    status, payload, _ = post(service, body_billing(3), key)
    assert status == 200
    assert payload["usage"] == {"used": 6, "remaining": 0, "limit": 6}
    admin.set_limit("alice", 2, "month")  # lowered, and a window of its own
    status, payload, _ = post(service, body_billing(3), key)
    assert (status, payload["error"]["code"]) == (429, "rate_limit_exceeded")
    status, payload, _ = post(service, body_billing(2), key)
    assert status == 200
    assert payload["usage"] == {"used": 2, "remaining": 0, "limit": 2}
