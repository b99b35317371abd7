"""The pure handler: routing, keys, content types, sizes, hostile bodies, quota, failures."""

# ruff: noqa: F811  (pytest fixtures imported from tests.conftest_http)

from __future__ import annotations

import datetime as dt
import json
import logging
import shutil
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from citeverify._codec import Limits
from citeverify.errors import Forbidden, Unauthorized
from citeverify.http import (
    AccountExists,
    AccountStore,
    HttpRequest,
    HttpResponse,
    NoSuchAccount,
    Service,
    open_store,
)
from citeverify.http._accounts import new_key, seconds_until, window_bounds
from tests.conftest_http import (  # noqa: F401  (postgres_url is a fixture)
    PROVIDER,
    FakeClock,
    body_billing,
    fresh_postgres_database,
    postgres_url,
)

VERIFY = "/api/v1/verify"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def store(tmp_path: Path, clock: FakeClock) -> Iterator[AccountStore]:
    with open_store(str(tmp_path / "state.sqlite3"), clock=clock) as s:
        yield s


@pytest.fixture
def service(store: AccountStore) -> Service:
    return Service(store, provider=PROVIDER)


@pytest.fixture
def key(store: AccountStore) -> str:
    return store.create("alice", 100, "day")


def post(
    service: Service,
    body: bytes,
    key: str | None = None,
    *,
    content_type: str | None = "application/json",
    extra: tuple[tuple[str, str], ...] = (),
    too_large: bool = False,
) -> HttpResponse:
    headers: list[tuple[str, str]] = list(extra)
    if key is not None:
        headers.append(("Authorization", f"Bearer {key}"))
    if content_type is not None:
        headers.append(("Content-Type", content_type))
    return service.handle(HttpRequest("POST", VERIFY, tuple(headers), body, too_large))


def envelope(response: HttpResponse, status: int, code: str) -> dict[str, Any]:
    """Assert ``response`` is the contract's error envelope; return the inner error."""
    assert response.status == status, response.body[:500]
    assert response.header("content-type") == "application/json"
    assert response.header("content-length") == str(len(response.body))
    payload = json.loads(response.body)
    assert set(payload) == {"error"}
    error: dict[str, Any] = payload["error"]
    assert error["code"] == code
    assert isinstance(error["message"], str)
    assert error["message"]
    assert b"Traceback" not in response.body
    assert b"<html" not in response.body.lower()
    return error


def fields(error: dict[str, Any]) -> set[str]:
    return {d["field"] for d in error.get("details", [])}


class TestRouting:
    def test_root_describes_the_service(self, service: Service) -> None:
        """GET / answers the service name, package version and contract version."""
        from citeverify._version import CONTRACT_VERSION, __version__

        response = service.handle(HttpRequest("GET", "/"))
        assert response.status == 200
        assert response.json()["contract"] == CONTRACT_VERSION
        assert response.json()["version"] == __version__
        assert response.json()["endpoints"]["verify"] == VERIFY

    def test_head_has_headers_but_no_body(self, service: Service) -> None:
        """HEAD / answers GET's headers, including its length, with an empty body."""
        got = service.handle(HttpRequest("GET", "/"))
        head = service.handle(HttpRequest("HEAD", "/"))
        assert head.status == 200
        assert head.body == b""
        assert head.header("content-length") == str(len(got.body))

    def test_openapi_document_is_valid_openapi_31(self, service: Service) -> None:
        """GET /openapi.json serves a document that validates as OpenAPI 3.1."""
        from openapi_spec_validator import validate

        document = service.handle(HttpRequest("GET", "/openapi.json")).json()
        assert document["openapi"].startswith("3.1")
        validate(document)
        operation = document["paths"][VERIFY]["post"]
        assert operation["operationId"] == "verifyCitations"
        assert operation["security"] == [{"bearerAuth": []}]
        assert {"200", "401", "403", "422", "429", "500"} <= set(operation["responses"])

    def test_openapi_carries_the_service_limits(self, store: AccountStore) -> None:
        """The request schema's bounds are the service's own limits."""
        service = Service(store, provider=PROVIDER, limits=Limits(max_items=7, max_id_length=9))
        schemas = service.handle(HttpRequest("GET", "/openapi.json")).json()["components"]
        assert schemas["schemas"]["VerifyRequest"]["properties"]["items"]["maxItems"] == 7
        assert schemas["schemas"]["VerifyItem"]["properties"]["id"]["maxLength"] == 9

    @pytest.mark.parametrize(
        "path", ["/nope", "/api/v1/verify/", "/api/v2/verify", "", "/API/V1/VERIFY"]
    )
    def test_unknown_paths_are_404(self, service: Service, path: str) -> None:
        """Any path the service does not serve is 404 not_found in the envelope."""
        envelope(service.handle(HttpRequest("GET", path)), 404, "not_found")

    @pytest.mark.parametrize(
        ("method", "path", "allow"),
        [
            ("GET", VERIFY, "POST"),
            ("PUT", VERIFY, "POST"),
            ("DELETE", VERIFY, "POST"),
            ("POST", "/", "GET, HEAD"),
            ("PATCH", "/openapi.json", "GET, HEAD"),
            ("OPTIONS", "/", "GET, HEAD"),
        ],
    )
    def test_wrong_method_is_405_with_allow(
        self, service: Service, method: str, path: str, allow: str
    ) -> None:
        """A served path with another method is 405 method_not_allowed naming the allowed ones."""
        response = service.handle(HttpRequest(method, path))
        envelope(response, 405, "method_not_allowed")
        assert response.header("allow") == allow

    def test_every_response_has_a_request_id(self, service: Service) -> None:
        """Each response carries a distinct X-Request-Id header."""
        ids = {service.handle(HttpRequest("GET", "/")).header("x-request-id") for _ in range(5)}
        assert len(ids) == 5
        assert None not in ids


class TestAuthentication:
    @pytest.mark.parametrize(
        "value",
        [None, "", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Token cv_live_x", "bearer nope"],
    )
    def test_missing_or_malformed_header_is_401(
        self, service: Service, key: str, value: str | None
    ) -> None:
        """No usable bearer token: 401 unauthorized, with a Bearer challenge."""
        headers: tuple[tuple[str, str], ...] = (("Content-Type", "application/json"),)
        if value is not None:
            headers += (("Authorization", value),)
        response = service.handle(HttpRequest("POST", VERIFY, headers, body_billing(1)))
        envelope(response, 401, "unauthorized")
        assert (response.header("www-authenticate") or "").startswith("Bearer")

    def test_unknown_key_is_401(self, service: Service, key: str) -> None:
        """A well-formed key nobody owns is 401."""
        envelope(post(service, body_billing(1), new_key()), 401, "unauthorized")

    def test_two_authorization_headers_are_401(self, service: Service, key: str) -> None:
        """Two Authorization headers are ambiguous and refused, even if one is valid."""
        response = post(service, body_billing(1), key, extra=(("authorization", f"Bearer {key}"),))
        envelope(response, 401, "unauthorized")

    def test_scheme_is_case_insensitive(self, service: Service, key: str) -> None:
        """'bearer' and 'BEARER' are the same scheme as 'Bearer'."""
        headers = (("authorization", f"BEARER {key}"), ("content-type", "application/json"))
        assert service.handle(HttpRequest("POST", VERIFY, headers, body_billing(1))).status == 200

    def test_disabled_account_is_403(self, service: Service, store: AccountStore, key: str) -> None:
        """A disabled account's valid key is 403 forbidden."""
        store.disable("alice")
        envelope(post(service, body_billing(1), key), 403, "forbidden")

    def test_key_never_appears_in_errors(
        self, service: Service, store: AccountStore, key: str
    ) -> None:
        """No error answer echoes the key, valid or not."""
        store.disable("alice")
        other = new_key()
        for k in (key, other, key[:-1]):
            response = post(service, body_billing(1), k)
            assert k.encode() not in response.body

    def test_authentication_comes_before_the_body(self, service: Service) -> None:
        """An invalid body without a key is 401, not 422: strangers learn nothing of it."""
        envelope(post(service, b"not json", None, content_type="text/plain"), 401, "unauthorized")


class TestContentType:
    @pytest.mark.parametrize(
        "value",
        [
            "application/json",
            "Application/JSON",
            "application/json; charset=UTF-8",
            'application/json;charset="utf-8"',
        ],
    )
    def test_json_is_accepted(self, service: Service, key: str, value: str) -> None:
        """application/json in any case, with or without a UTF-8 charset, is accepted."""
        assert post(service, body_billing(1), key, content_type=value).status == 200

    @pytest.mark.parametrize(
        "value",
        [
            None,
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data",
            "application/json; charset=latin-1",
            "application/jsonx",
        ],
    )
    def test_other_types_are_422_on_content_type(
        self, service: Service, key: str, value: str | None
    ) -> None:
        """Another or a missing media type is 422 validation_error naming Content-Type."""
        error = envelope(
            post(service, body_billing(1), key, content_type=value), 422, "validation_error"
        )
        assert fields(error) == {"Content-Type"}


class TestHostileBodies:
    @pytest.mark.parametrize(
        ("body", "field"),
        [
            (b"", "body"),
            (b"not json", "body"),
            (b'{"items": [', "body"),
            (b'{"items": NaN}', "body"),
            (b'{"items": [{"id": "a", "type": "case", "rawText": Infinity}]}', "body"),
            (b"\xff\xfe{}", "body"),
            (b'{"items": [{"id": "\xc3\x28", "type": "case", "rawText": "x"}]}', "body"),
            (b"[" * 100_000 + b"]" * 100_000, "body"),
            (b'{"a":' * 100_000 + b"1" + b"}" * 100_000, "body"),
            (b"[]", "body"),
            (b"null", "body"),
            (b'"items"', "body"),
            (b'{"items": []}', "items"),
            (b'{"items": {}}', "items"),
            (b'{"items": [1]}', "items[0]"),
            (b'{"items": [{"id": "\\ud800", "type": "case", "rawText": "x"}]}', "items[0].id"),
            (b'{"items": [{"id": "a", "type": "case", "rawText": "x"}], "extra": 1}', "extra"),
            (
                b'{"items": [{"id": "a", "type": "case", "rawText": "1' + b"0" * 5000 + b'"}]}',
                "items[0].rawText",
            ),
        ],
    )
    def test_each_gets_the_422_envelope(
        self, service: Service, key: str, body: bytes, field: str
    ) -> None:
        """Malformed, non-JSON, NaN, deeply nested, invalid UTF-8 or wrongly shaped bodies
        are 422 validation_error with a detail naming the field, and charge nothing."""
        error = envelope(post(service, body, key), 422, "validation_error")
        assert field in fields(error)
        assert post(service, body_billing(0), key).json()["usage"]["used"] == 0

    def test_eight_megabytes_is_refused_on_body(self, service: Service, key: str) -> None:
        """An 8 MB body is 422 naming body, whether the adapter read it or stopped early."""
        big = b'{"items": [{"id": "a", "type": "case", "rawText": "' + b"x" * 8_000_000 + b'"}]}'
        for response in (post(service, big, key), post(service, b"", key, too_large=True)):
            error = envelope(response, 422, "validation_error")
            assert fields(error) == {"body"}
            assert "1048576" in error["details"][0]["message"]

    def test_size_limit_is_configurable(self, store: AccountStore, key: str) -> None:
        """A service built with a smaller max_body_bytes refuses bodies past it."""
        service = Service(store, provider=PROVIDER, limits=Limits(max_body_bytes=100))
        body = body_billing(3)
        assert len(body) > 100
        assert fields(envelope(post(service, body, key), 422, "validation_error")) == {"body"}


class TestVerify:
    def test_success_reports_usage_after_the_request(self, service: Service, key: str) -> None:
        """A 200 carries one result per item and the usage of the window after this request."""
        first = post(service, body_billing(3), key)
        assert first.status == 200
        assert first.header("cache-control") == "no-store"
        payload = first.json()
        assert len(payload["results"]) == 3
        assert payload["usage"] == {"used": 3, "remaining": 97, "limit": 100}
        second = post(service, body_billing(2), key).json()
        assert second["usage"] == {"used": 5, "remaining": 95, "limit": 100}

    def test_quotes_ride_free(self, service: Service, key: str) -> None:
        """Quote items add results but nothing to the bill."""
        payload = post(service, body_billing(2, quotes=3), key).json()
        assert payload["summary"]["billed_citations"] == 2
        assert payload["usage"]["used"] == 2
        assert len(payload["results"]) == 5

    def test_real_citation_verifies(self, service: Service, key: str) -> None:
        """A citation the provider knows comes back verified with its opinion."""
        body = json.dumps(
            {"items": [{"id": "r", "type": "case", "rawText": "Roe v. Wade, 410 U.S. 113 (1973)"}]}
        ).encode()
        [result] = post(service, body, key).json()["results"]
        assert result["verdict"]["status"] == "verified"
        assert result["opinion"]["caseName"] == "Roe v. Wade"

    def test_over_quota_is_429_with_retry_after_and_charges_nothing(
        self, service: Service, store: AccountStore, clock: FakeClock
    ) -> None:
        """A request past the quota is 429 with Retry-After to the window's end; usage unchanged."""
        key = store.create("bob", 5, "day")
        assert post(service, body_billing(4), key).status == 200
        response = post(service, body_billing(2), key)
        envelope(response, 429, "rate_limit_exceeded")
        _, end = window_bounds("day", clock())
        assert response.header("retry-after") == str(seconds_until(end, clock()))
        assert post(service, body_billing(1), key).json()["usage"]["used"] == 5

    def test_over_quota_does_no_lookup(self, store: AccountStore) -> None:
        """A refused request never reaches the provider."""
        calls: list[int] = []

        class Counting:
            name = "counting"

            def lookup(self, requests: Any) -> Any:
                calls.append(len(requests))
                return PROVIDER.lookup(requests)

        service = Service(store, provider=Counting())
        key = store.create("bob", 1, "day")
        assert post(service, body_billing(2), key).status == 429
        assert calls == []

    def test_unexpected_exception_is_500_with_request_id(
        self,
        service: Service,
        store: AccountStore,
        key: str,
        monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture,
    ) -> None:
        """A bug inside the handler is logged with a request id and answered 500 with that id."""

        def explode(*args: Any) -> Any:
            raise RuntimeError("secret internal detail")

        monkeypatch.setattr(store, "charge", explode)
        with caplog.at_level(logging.ERROR, logger="citeverify.http"):
            response = post(service, body_billing(1), key)
        error = envelope(response, 500, "internal_error")
        assert set(error) == {"code", "message", "requestId"}
        assert error["requestId"] == response.header("x-request-id")
        assert b"secret internal detail" not in response.body
        assert error["requestId"] in caplog.text
        assert "secret internal detail" in caplog.text
        assert key not in caplog.text

    def test_the_handler_never_raises(self, service: Service) -> None:
        """Even a request the adapters would never build is answered, not raised."""
        response = service.handle(HttpRequest("POST", VERIFY, (("authorization", "Bearer \x00"),)))
        envelope(response, 401, "unauthorized")


# --- the key lifecycle and the quota, as a state machine --------------------------------

NAMES = ("alice", "bob", "carol")


class KeyLifecycle(RuleBasedStateMachine):
    """Create, use, regenerate, revoke, disable, enable, roll windows; the model predicts
    every status code and every usage figure."""

    #: Set to a function returning a fresh PostgreSQL URL to run on PostgreSQL instead.
    postgres: Any = None

    def __init__(self) -> None:
        super().__init__()
        self.dir = tempfile.mkdtemp(prefix="cv-sm-")
        self.clock = FakeClock(dt.datetime(2024, 12, 31, 20, 0, tzinfo=dt.UTC))
        url = self.postgres() if self.postgres else str(Path(self.dir) / "s.sqlite3")
        self.store = open_store(url, clock=self.clock)
        self.service = Service(self.store, provider=PROVIDER)
        self.accounts: dict[str, dict[str, Any]] = {}
        self.used: dict[tuple[str, str], int] = {}
        self.dead_keys: list[str] = []

    def teardown(self) -> None:
        self.store.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def _window(self, name: str) -> tuple[str, dt.datetime]:
        start, end = window_bounds(self.accounts[name]["window"], self.clock())
        return start.date().isoformat(), end

    @rule(
        name=st.sampled_from(NAMES),
        limit=st.integers(0, 12),
        window=st.sampled_from(["day", "month"]),
    )
    def create(self, name: str, limit: int, window: str) -> None:
        if name in self.accounts:
            with pytest.raises(AccountExists):
                self.store.create(name, limit, window)  # type: ignore[arg-type]
            return
        key = self.store.create(name, limit, window)  # type: ignore[arg-type]
        self.accounts[name] = {"key": key, "limit": limit, "window": window, "disabled": False}

    @rule(name=st.sampled_from(NAMES))
    def regenerate(self, name: str) -> None:
        if name not in self.accounts:
            with pytest.raises(NoSuchAccount):
                self.store.regenerate(name)
            return
        old = self.accounts[name]["key"]
        if old is not None:
            self.dead_keys.append(old)
        self.accounts[name]["key"] = self.store.regenerate(name)

    @rule(name=st.sampled_from(NAMES))
    def revoke(self, name: str) -> None:
        if name not in self.accounts:
            with pytest.raises(NoSuchAccount):
                self.store.revoke(name)
            return
        self.store.revoke(name)
        if self.accounts[name]["key"] is not None:
            self.dead_keys.append(self.accounts[name]["key"])
        self.accounts[name]["key"] = None

    @rule(name=st.sampled_from(NAMES), disabled=st.booleans())
    def toggle(self, name: str, disabled: bool) -> None:
        action = self.store.disable if disabled else self.store.enable
        if name not in self.accounts:
            with pytest.raises(NoSuchAccount):
                action(name)
            return
        action(name)
        self.accounts[name]["disabled"] = disabled

    @rule(hours=st.floats(0, 24 * 40))
    def time_passes(self, hours: float) -> None:
        self.clock.advance(hours=hours)

    @precondition(lambda self: any(a["key"] for a in self.accounts.values()))
    @rule(data=st.data(), billed=st.integers(0, 6), quotes=st.integers(0, 2))
    def use_live_key(self, data: st.DataObject, billed: int, quotes: int) -> None:
        live = sorted(n for n, a in self.accounts.items() if a["key"])
        name = data.draw(st.sampled_from(live))
        account = self.accounts[name]
        response = post(self.service, body_billing(billed, quotes=quotes), account["key"])
        if account["disabled"]:
            envelope(response, 403, "forbidden")
            return
        window, end = self._window(name)
        used = self.used.get((name, window), 0)
        if billed > 0 and used + billed > account["limit"]:
            envelope(response, 429, "rate_limit_exceeded")
            assert response.header("retry-after") == str(seconds_until(end, self.clock()))
            return
        assert response.status == 200, response.body
        self.used[(name, window)] = used + billed
        payload = response.json()
        assert payload["summary"]["billed_citations"] == billed
        assert payload["usage"] == {
            "used": used + billed,
            "remaining": account["limit"] - used - billed,
            "limit": account["limit"],
        }

    @precondition(lambda self: bool(self.dead_keys))
    @rule(data=st.data())
    def use_dead_key(self, data: st.DataObject) -> None:
        key = data.draw(st.sampled_from(self.dead_keys))
        envelope(post(self.service, body_billing(1), key), 401, "unauthorized")

    @rule()
    def use_unknown_key(self) -> None:
        envelope(post(self.service, body_billing(1), new_key()), 401, "unauthorized")

    @invariant()
    def usage_matches_the_model(self) -> None:
        for status in self.store.list():
            name = status.account.name
            assert status.account.disabled == self.accounts[name]["disabled"]
            window, _ = self._window(name)
            assert status.usage.used == self.used.get((name, window), 0)
            assert status.usage.limit == self.accounts[name]["limit"]

    @invariant()
    def live_keys_authenticate_to_their_account(self) -> None:
        for name, account in self.accounts.items():
            if account["key"] is None:
                continue
            if account["disabled"]:
                with pytest.raises(Forbidden):
                    self.store.authenticate(account["key"])
            else:
                assert self.store.authenticate(account["key"]).name == name
        for key in self.dead_keys[-3:]:
            with pytest.raises(Unauthorized):
                self.store.authenticate(key)


KeyLifecycle.TestCase.settings = settings(
    max_examples=100,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


class TestKeyLifecycle(KeyLifecycle.TestCase):  # type: ignore[misc,valid-type]
    """The state machine above, run by pytest."""


@pytest.mark.postgres
def test_key_lifecycle_on_postgres(postgres_url: str) -> None:
    """The same state machine, fewer runs, against a real PostgreSQL server."""

    class OnPostgres(KeyLifecycle):
        postgres = staticmethod(lambda: fresh_postgres_database(postgres_url))

    run_state_machine_as_test(
        OnPostgres,
        settings=settings(
            max_examples=15,
            stateful_step_count=25,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        ),
    )


class TestConcurrentRequests:
    def test_threads_through_the_handler_bill_exactly(self, store: AccountStore) -> None:
        """Eight threads posting until refused bill exactly the limit, each 200 counted once."""
        service = Service(store, provider=PROVIDER)
        key = store.create("racer", 200, "day")
        successes: list[int] = []
        lock = threading.Lock()

        def work() -> None:
            mine = 0
            while True:
                response = post(service, body_billing(3), key)
                if response.status == 429:
                    break
                assert response.status == 200
                mine += 1
            with lock:
                successes.append(mine)

        threads = [threading.Thread(target=work) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        used = store.charge(store.get("racer"), 0).used
        assert used == 3 * sum(successes) == 198  # 66 requests of 3; a 67th would pass 200


class TestEncoding:
    def test_bodies_are_utf8_even_with_a_lone_surrogate(self) -> None:
        """Non-ASCII text is sent as UTF-8; a lone surrogate falls back to escapes."""
        from citeverify.http._handler import _encode

        assert _encode({"a": "§ 1983"}) == '{"a":"§ 1983"}'.encode()
        escaped = _encode({"a": "\ud800x"})
        assert escaped == b'{"a":"\\ud800x"}'
        escaped.decode("utf-8")
