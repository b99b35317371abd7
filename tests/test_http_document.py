"""POST /api/v1/verify-document through the pure handler: text, PDF, Word, and refusals.

The expected bodies are what the library itself answers for the same brief, so the
endpoint is held to the library, not to a copy of its output.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

import citeverify
from citeverify.http import AccountStore, HttpRequest, HttpResponse, Service, open_store
from citeverify.http._handler import MAX_DOCUMENT_BYTES, VERIFY_DOCUMENT_PATH
from tests.test_http_handler import envelope, fields

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "examples" / "sample_brief.txt"
PDF = "application/pdf"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[AccountStore]:
    with open_store(str(tmp_path / "state.sqlite3")) as s:
        yield s


@pytest.fixture
def service(store: AccountStore) -> Service:
    return Service(store)


@pytest.fixture
def key(store: AccountStore) -> str:
    return store.create("brief-writer", 100, "day")


def post(service: Service, body: bytes, key: str | None, content_type: str | None,
         *, too_large: bool = False) -> HttpResponse:  # fmt: skip
    headers: list[tuple[str, str]] = []
    if key is not None:
        headers.append(("Authorization", f"Bearer {key}"))
    if content_type is not None:
        headers.append(("Content-Type", content_type))
    return service.handle(
        HttpRequest("POST", VERIFY_DOCUMENT_PATH, tuple(headers), body, too_large)
    )


def test_json_text_gives_the_librarys_answer_and_bills_full_citations(
    service: Service, key: str, store: AccountStore
) -> None:
    text = SAMPLE.read_text(encoding="utf-8")
    response = post(service, json.dumps({"text": text}).encode(), key, "application/json")
    assert response.status == 200, response.body[:300]
    body = response.json()
    expected = citeverify.verify_document_request({"text": text})
    assert body["results"] == expected["results"]
    assert body["summary"] == expected["summary"]
    assert body["usage"]["used"] == expected["summary"]["billed_citations"] == 8
    assert "document" not in body


@pytest.mark.parametrize(
    ("name", "media"), [("sample_brief.pdf", PDF), ("sample_brief.docx", DOCX)]
)
def test_a_file_body_gives_the_extracted_text_and_its_verdicts(
    service: Service, key: str, name: str, media: str
) -> None:
    data = (ROOT / "examples" / name).read_bytes()
    response = post(service, data, key, media)
    assert response.status == 200, response.body[:300]
    body = response.json()
    text = body["document"]["text"]
    for result in body["results"]:
        position = result["position"]
        assert text[position["start"] : position["end"]] == position["text"]
    from_text = citeverify.verify_document_request({"text": SAMPLE.read_text(encoding="utf-8")})
    assert [(r["id"], r["verdict"]["status"]) for r in body["results"]] == [
        (r["id"], r["verdict"]["status"]) for r in from_text["results"]
    ]


def test_no_key_is_401(service: Service) -> None:
    envelope(post(service, b'{"text": "x"}', None, "application/json"), 401, "unauthorized")


@pytest.mark.parametrize(
    ("body", "media", "field"),
    [
        (b'{"text": 5}', "application/json", "text"),
        (b'{"text": "x", "more": 1}', "application/json", "more"),
        (b"not json", "application/json", "body"),
        (b"%PDF-1.7 truncated", PDF, "document"),
        (b"PK\x03\x04 not a zip", DOCX, "document"),
        (b"x", "image/png", "Content-Type"),
        (b"\x00\x01\x02\xff" * 100, "text/plain", "document"),
    ],
)
def test_bad_bodies_are_422_with_the_field(
    service: Service, key: str, store: AccountStore, body: bytes, media: str, field: str
) -> None:
    error = envelope(post(service, body, key, media), 422, "validation_error")
    assert field in fields(error), error


def test_a_body_over_the_document_limit_is_422_unread(service: Service, key: str) -> None:
    error = envelope(post(service, b"", key, PDF, too_large=True), 422, "validation_error")
    assert "body" in fields(error)
    assert service.max_body_bytes_for(VERIFY_DOCUMENT_PATH) == MAX_DOCUMENT_BYTES
    assert service.max_body_bytes_for("/api/v1/verify") == service.limits.max_body_bytes


def test_quota_is_charged_once_for_distinct_full_citations(
    service: Service, store: AccountStore
) -> None:
    small = store.create("small", 7, "day")  # the sample brief bills 8
    text = SAMPLE.read_text(encoding="utf-8")
    response = post(service, json.dumps({"text": text}).encode(), small, "application/json")
    envelope(response, 429, "rate_limit_exceeded")
    assert response.header("retry-after") is not None
