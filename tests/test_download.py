"""Tests for ``citeverify download courtlistener`` against a loopback S3 stand-in.

The stand-in is a real HTTP server (stdlib ``http.server`` in a thread on
127.0.0.1) answering S3's ListObjectsV2 (XML, paginated with continuation
tokens) and serving objects with ``Range`` support; it can be told, per
object and per request, to answer 503, drop the connection after some bytes,
ignore ``Range``, or hold a shorter file than its listing says.  The objects
are small bz2-compressed CSV dumps written by the importer tests' writer, so
a download can be imported and a citation verified from it.
"""

from __future__ import annotations

import bz2
import hashlib
import json
import random
import threading
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("httpx")

import citeverify
from citeverify.cli import main
from citeverify.importers import _download
from citeverify.importers._download import (
    DownloadError,
    RemoteFile,
    choose_set,
    download_courtlistener,
    parse_listing,
)
from citeverify.importers.courtlistener import DumpError, find_dump
from citeverify.providers.local import LocalStore
from tests.test_import_courtlistener import CITATIONS, DATE, write_dump, write_table

NEW = "2024-12-31"
OLD = "2024-09-30"
TABLES = ("courts", "dockets", "opinion-clusters", "citations")


# -- the stand-in ------------------------------------------------------------------


@dataclass
class Bucket:
    """What the stand-in serves and how it misbehaves; ``seen`` records every file request."""

    objects: dict[str, bytes] = field(default_factory=dict)
    page_size: int = 3
    listed_size: dict[str, int] = field(default_factory=dict)  # a listing that disagrees
    etag: dict[str, str] = field(default_factory=dict)
    faults: dict[str, list[Any]] = field(default_factory=dict)  # per key, one per request
    ignore_range: set[str] = field(default_factory=set)
    missing: set[str] = field(default_factory=set)  # listed, but answered 404
    seen: list[tuple[str, str | None]] = field(default_factory=list)
    listings: list[str | None] = field(default_factory=list)
    listing_faults: list[int] = field(default_factory=list)  # statuses for the next listings
    base_url: str = ""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def requests_for(self, key: str) -> list[str | None]:
        return [rng for k, rng in self.seen if k == key]

    def listing(self, prefix: str, token: str | None) -> bytes:
        keys = sorted(k for k in self.objects if k.startswith(prefix))
        start = int(token.removeprefix("page-")) if token else 0
        page = keys[start : start + self.page_size]
        more = start + self.page_size < len(keys)
        contents = "".join(
            f"<Contents><Key>{escape(k)}</Key><LastModified>2025-01-02T00:00:00.000Z"
            f"</LastModified><ETag>{escape(self.etag_of(k))}</ETag>"
            f"<Size>{self.listed_size.get(k, len(self.objects[k]))}</Size>"
            f"<StorageClass>STANDARD</StorageClass></Contents>"
            for k in page
        )
        nxt = f"<NextContinuationToken>page-{start + self.page_size}</NextContinuationToken>"
        return (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">'
            f"<Name>bucket</Name><Prefix>{escape(prefix)}</Prefix><KeyCount>{len(page)}</KeyCount>"
            f"<MaxKeys>{self.page_size}</MaxKeys><IsTruncated>{'true' if more else 'false'}"
            f"</IsTruncated>{contents}{nxt if more else ''}</ListBucketResult>"
        ).encode()

    def etag_of(self, key: str) -> str:
        return self.etag.get(key, '"' + hashlib.md5(self.objects[key]).hexdigest() + '"')


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        bucket = self.server.bucket
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/" and query.get("list-type") == ["2"]:
            token = query.get("continuation-token", [None])[0]
            with bucket.lock:
                bucket.listings.append(token)
                status = bucket.listing_faults.pop(0) if bucket.listing_faults else 200
            if status != 200:
                self._send(status, b"<Error><Code>SlowDown</Code></Error>", {"Retry-After": "0"})
                return
            self._send(200, bucket.listing(query.get("prefix", [""])[0], token),
                       {"Content-Type": "application/xml"})  # fmt: skip
            return
        key = urllib.parse.unquote(url.path.lstrip("/"))
        rng = self.headers.get("Range")
        with bucket.lock:
            bucket.seen.append((key, rng))
            fault = bucket.faults.get(key, [None]).pop(0) if bucket.faults.get(key) else None
        body = None if key in bucket.missing else bucket.objects.get(key)
        if body is None:
            self._send(404, b"<Error><Code>NoSuchKey</Code></Error>", {})
            return
        if fault == 503:
            self._send(503, b"<Error><Code>SlowDown</Code></Error>", {"Retry-After": "0"})
            return
        start = 0
        if rng and key not in bucket.ignore_range:
            start = int(rng.removeprefix("bytes=").split("-")[0])
            if start >= len(body):
                self._send(416, b"", {"Content-Range": f"bytes */{len(body)}"})
                return
        part = body[start:]
        headers = {"Content-Type": "application/x-bzip2", "Accept-Ranges": "bytes"}
        if start:
            headers["Content-Range"] = f"bytes {start}-{len(body) - 1}/{len(body)}"
        if isinstance(fault, tuple) and fault[0] == "drop":
            # Promise the whole body, send part of it, then close the socket.
            self.send_response(206 if start else 200)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(part)))
            self.end_headers()
            self.wfile.write(part[: fault[1]])
            self.wfile.flush()
            self.close_connection = True
            return
        self._send(206 if start else 200, part, headers)

    def _send(self, status: int, body: bytes, headers: dict[str, str]) -> None:
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, bucket: Bucket) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.bucket = bucket


@contextmanager
def serving(bucket: Bucket) -> Iterator[Bucket]:
    server = _Server(bucket)
    host, port = server.server_address[:2]
    bucket.base_url = f"http://{host!s}:{port}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield bucket
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def dump_objects(tmp: Path, date: str, *, tables: tuple[str, ...] = TABLES) -> dict[str, bytes]:
    """The bz2 files of a small real dump of ``date`` (the importer tests' cases), as S3 keys.

    The citations file gets a few hundred extra rows (random numbers, so it stays a few
    kilobytes compressed) so that a download can be cut in the middle.
    """
    folder = write_dump(tmp / f"src-{date}", compress=True)
    rng = random.Random(date)
    extra = [
        (1000 + i, rng.randrange(1, 999), "F. Supp.", str(rng.randrange(1, 9999)), 1, 145730)
        for i in range(400)
    ]
    write_table(folder, "citations", ["id", "volume", "reporter", "page", "type", "cluster_id"],
                CITATIONS + extra, compress=True)  # fmt: skip
    out: dict[str, bytes] = {}
    for path in folder.iterdir():
        table = path.name.removesuffix(f"-{DATE}.csv.bz2")
        if table in tables:
            out[key(table, date)] = path.read_bytes()
    return out


@pytest.fixture
def bucket(tmp_path: Path) -> Iterator[Bucket]:
    state = Bucket(objects=dump_objects(tmp_path, NEW))
    state.objects["bulk-data/people-db-schools-2024-12-31.csv.bz2"] = b"not a table we need"
    state.objects["bulk-data/list.html"] = b"<html></html>"
    with serving(state) as served:
        yield served


def key(table: str, date: str = NEW) -> str:
    return f"bulk-data/{table}-{date}.csv.bz2"


def fetch(bucket: Bucket, folder: Path, **kwargs: Any) -> _download.DownloadReport:
    delays: list[float] = kwargs.pop("delays", [])
    return download_courtlistener(
        folder, listing_url=bucket.base_url, sleep=delays.append, backoff=0.01, **kwargs
    )


def assert_whole(bucket: Bucket, folder: Path, date: str = NEW) -> None:
    for table in TABLES:
        name = f"{table}-{date}.csv.bz2"
        assert (folder / name).read_bytes() == bucket.objects[key(table, date)]
        assert not (folder / (name + ".part")).exists()


# -- the listing and the choice (no I/O) ---------------------------------------------


class TestListing:
    def test_pages_and_unrelated_keys(self, bucket: Bucket) -> None:
        """Pages are followed to the end; keys that are not needed tables are ignored."""
        bucket.page_size = 2
        body = bucket.listing("bulk-data/", None)
        files, token = parse_listing(body)
        assert token == "page-2"
        assert all(isinstance(f, RemoteFile) for f in files)
        everything: list[RemoteFile] = []
        token = None
        while True:
            page, token = parse_listing(bucket.listing("bulk-data/", token))
            everything.extend(page)
            if token is None:
                break
        assert sorted(f.table for f in everything) == sorted(TABLES)
        cites = next(f for f in everything if f.table == "citations")
        assert cites.size == len(bucket.objects[key("citations")])
        assert cites.md5 == hashlib.md5(bucket.objects[key("citations")]).hexdigest()

    def test_other_folders_and_tables_are_ignored(self, bucket: Bucket) -> None:
        """Only ``bulk-data/<table>-<date>.csv.bz2`` of the importer's tables is listed."""
        for extra in ("bulk-data/old/citations-2025-03-31.csv.bz2",
                      "bulk-data/citation-map-2025-03-31.csv.bz2",
                      "elsewhere/citations-2025-03-31.csv.bz2",
                      "bulk-data/citations-2025-03-31.csv"):  # fmt: skip
            bucket.objects[extra] = b"x"
        bucket.page_size = 100
        files, _ = parse_listing(bucket.listing("", None))
        assert {f.date for f in files} == {NEW}
        assert sorted(f.table for f in files) == sorted(TABLES)

    def test_listing_is_retried_on_503(self, bucket: Bucket, tmp_path: Path) -> None:
        """A listing answered 503 is asked again; one that keeps failing is an error."""
        bucket.listing_faults = [503, 503]
        fetch(bucket, tmp_path / "a")
        assert bucket.listings[:3] == [None, None, None]
        bucket.listing_faults = [503] * 5
        with pytest.raises(DownloadError, match="503"):
            fetch(bucket, tmp_path / "b", retries=2)

    def test_multipart_etag_is_not_an_md5(self) -> None:
        """An ETag with a part count is not the file's MD5, so there is none to check."""
        tag = '"' + "a" * 32 + '-12"'
        assert RemoteFile("bulk-data/citations-2024-12-31.csv.bz2", "citations", NEW, 1,
                          tag).md5 is None  # fmt: skip
        assert RemoteFile("k", "citations", NEW, 1, '"' + "A" * 32 + '"').md5 == "a" * 32

    @pytest.mark.parametrize(
        "body",
        [
            b"not xml",
            b"<Error><Code>AccessDenied</Code></Error>",
            b'<!DOCTYPE x [<!ENTITY a "aaaa">]><ListBucketResult>&a;</ListBucketResult>',
            b"<ListBucketResult><IsTruncated>true</IsTruncated></ListBucketResult>",
            b"<ListBucketResult><Contents><Key>bulk-data/courts-2024-12-31.csv.bz2</Key>"
            b"<Size>lots</Size></Contents></ListBucketResult>",
        ],
    )
    def test_bad_listings_are_errors(self, body: bytes) -> None:
        """Whatever the body, a listing that is not usable is a DownloadError."""
        with pytest.raises(DownloadError):
            parse_listing(body)


def remote(table: str, date: str) -> RemoteFile:
    return RemoteFile(key(table, date), table, date, 10)


class TestChooseSet:
    @given(
        st.lists(
            st.tuples(st.sampled_from((*TABLES, "opinions")),
                      st.sampled_from(("2023-12-31", OLD, NEW, "2025-03-31"))),
            max_size=20,
        )
    )  # fmt: skip
    def test_choice_is_the_newest_complete_date(self, pairs: list[tuple[str, str]]) -> None:
        """Whatever is listed, the set chosen is the newest date holding every table."""
        files = [remote(t, d) for t, d in pairs]
        complete = sorted(d for d in {d for _, d in pairs}
                          if all((t, d) in pairs for t in TABLES))  # fmt: skip
        if not complete:
            with pytest.raises(DownloadError):
                choose_set(files)
            return
        chosen = choose_set(files)
        assert chosen.date == complete[-1]
        assert sorted(f.table for f in chosen.files) == sorted(TABLES)
        assert all(f.date == chosen.date for f in chosen.files)
        assert all(d > chosen.date for d, _ in chosen.passed_over)

    def test_newest_complete_set(self) -> None:
        """The newest date with every table wins; a newer incomplete one is named."""
        files = [remote(t, OLD) for t in TABLES] + [remote(t, NEW) for t in TABLES[:3]]
        chosen = choose_set(files)
        assert chosen.date == OLD
        assert [f.table for f in chosen.files] == list(TABLES)
        assert chosen.passed_over == ((NEW, ("citations",)),)

    def test_no_complete_set(self) -> None:
        """When no date has every table, the error names what is missing."""
        files = [remote("courts", NEW), remote("citations", OLD)]
        with pytest.raises(DownloadError, match="no complete set") as info:
            choose_set(files)
        assert "dockets" in str(info.value)

    def test_explicit_date(self) -> None:
        """A date asked for is chosen even when a newer set exists, refused when incomplete."""
        files = [remote(t, OLD) for t in TABLES] + [remote(t, NEW) for t in TABLES]
        assert choose_set(files, date=OLD).date == OLD
        with pytest.raises(DownloadError, match="incomplete"):
            choose_set(files[:-1], date=NEW)
        with pytest.raises(DownloadError, match="no 2020-01-01 set"):
            choose_set(files, date="2020-01-01")


# -- downloading ---------------------------------------------------------------------


class TestDownload:
    def test_normal_download_writes_files_and_manifest(
        self, bucket: Bucket, tmp_path: Path
    ) -> None:
        """Every file arrives whole under its name; the manifest records the set."""
        bucket.page_size = 2  # the listing takes several pages
        folder = tmp_path / "cl"
        report = fetch(bucket, folder)
        assert_whole(bucket, folder)
        assert len(bucket.listings) > 2
        assert bucket.listings[0] is None
        assert report.dump.date == NEW
        manifest = json.loads((folder / "manifest.json").read_text())
        assert manifest["date"] == NEW
        assert manifest["complete"] is True
        assert {t: e["size"] for t, e in manifest["files"].items()} == {
            t: len(bucket.objects[key(t)]) for t in TABLES
        }
        assert "people-db-schools-2024-12-31.csv.bz2" not in {p.name for p in folder.iterdir()}
        found = find_dump(folder)
        assert found.date == NEW
        assert set(found.files) == set(TABLES)

    def test_second_run_fetches_nothing(self, bucket: Bucket, tmp_path: Path) -> None:
        """Running again over a finished download keeps the files and requests none."""
        fetch(bucket, tmp_path)
        before = len(bucket.seen)
        report = fetch(bucket, tmp_path)
        assert len(bucket.seen) == before
        assert sorted(report.present) == sorted(f"{t}-{NEW}.csv.bz2" for t in TABLES)
        assert report.downloaded == []

    def test_an_unfinished_set_is_continued_before_a_newer_one(
        self, tmp_path: Path, bucket: Bucket
    ) -> None:
        """A set begun and interrupted is finished next run even if a newer set has appeared."""
        newer = dict(bucket.objects)
        bucket.objects = dump_objects(tmp_path, OLD)
        bucket.faults[key("citations", OLD)] = [("drop", 400)] + [("drop", 0)] * 2
        folder = tmp_path / "cl"
        with pytest.raises(DownloadError):
            fetch(bucket, folder, retries=1)
        bucket.objects.update(newer)
        notes: list[str] = []
        report = fetch(bucket, folder, notify=notes.append)
        assert report.dump.date == OLD
        assert report.resumed == [f"citations-{OLD}.csv.bz2"]
        assert len(report.present) == 3
        assert any("continuing the 2024-09-30 set" in n for n in notes)
        assert_whole(bucket, folder, OLD)
        assert fetch(bucket, folder).dump.date == NEW  # once finished, the newest is taken

    def test_dropped_connection_resumes_with_range(self, bucket: Bucket, tmp_path: Path) -> None:
        """A connection closed mid-file is resumed from the bytes already on disk."""
        cut = 700
        body = bucket.objects[key("citations")]
        assert len(body) > 2 * cut
        bucket.faults[key("citations")] = [("drop", cut)]
        report = fetch(bucket, tmp_path)
        assert_whole(bucket, tmp_path)
        assert bucket.requests_for(key("citations")) == [None, f"bytes={cut}-"]
        assert report.resumed == [f"citations-{NEW}.csv.bz2"]

    def test_interrupted_run_resumes_from_the_part_file(
        self, bucket: Bucket, tmp_path: Path
    ) -> None:
        """After a run gives up mid-file, the next run continues the .part file."""
        cut = 500
        bucket.faults[key("citations")] = [("drop", cut)] + [("drop", 0)] * 3
        with pytest.raises(DownloadError, match="run again to resume"):
            fetch(bucket, tmp_path, retries=2)
        name = f"citations-{NEW}.csv.bz2"
        assert not (tmp_path / name).exists()
        assert (tmp_path / (name + ".part")).stat().st_size == cut
        assert json.loads((tmp_path / "manifest.json").read_text())["complete"] is False
        with pytest.raises(DumpError, match="not finished"):
            find_dump(tmp_path)
        fetch(bucket, tmp_path)
        assert_whole(bucket, tmp_path)
        assert bucket.requests_for(key("citations"))[-1] == f"bytes={cut}-"

    def test_503_then_success(self, bucket: Bucket, tmp_path: Path) -> None:
        """503 answers are retried, honouring Retry-After, until the file comes."""
        bucket.faults[key("dockets")] = [503, 503]
        delays: list[float] = []
        fetch(bucket, tmp_path, delays=delays)
        assert_whole(bucket, tmp_path)
        assert len(bucket.requests_for(key("dockets"))) == 3
        assert delays == [0.0, 0.0]

    def test_503_forever_gives_up(self, bucket: Bucket, tmp_path: Path) -> None:
        """Retries are bounded: a server that keeps answering 503 ends in an error."""
        bucket.faults[key("dockets")] = [503] * 10
        with pytest.raises(DownloadError, match="503"):
            fetch(bucket, tmp_path, retries=3)
        assert len(bucket.requests_for(key("dockets"))) == 4
        assert not (tmp_path / f"dockets-{NEW}.csv.bz2").exists()

    def test_truncated_file_is_refused(self, bucket: Bucket, tmp_path: Path) -> None:
        """A file shorter than its listing is an error and never appears under its name."""
        k = key("opinion-clusters")
        bucket.listed_size[k] = len(bucket.objects[k]) + 100
        with pytest.raises(DownloadError, match="listing says"):
            fetch(bucket, tmp_path)
        name = f"opinion-clusters-{NEW}.csv.bz2"
        assert not (tmp_path / name).exists()
        assert not (tmp_path / (name + ".part")).exists()

    def test_longer_file_is_refused(self, bucket: Bucket, tmp_path: Path) -> None:
        """A file longer than its listing is an error; no more than the listed size is kept."""
        k = key("courts")
        bucket.listed_size[k] = len(bucket.objects[k]) - 10
        with pytest.raises(DownloadError, match="listing says"):
            fetch(bucket, tmp_path)
        assert not (tmp_path / f"courts-{NEW}.csv.bz2").exists()

    def test_server_ignoring_range_restarts_the_file(
        self, bucket: Bucket, tmp_path: Path
    ) -> None:
        """A 200 to a Range request restarts the file from zero, and it still ends whole."""
        k = key("citations")
        bucket.ignore_range.add(k)
        bucket.faults[k] = [("drop", 600)]
        fetch(bucket, tmp_path)
        assert_whole(bucket, tmp_path)
        assert bucket.requests_for(k) == [None, "bytes=600-"]

    def test_part_longer_than_the_file_is_discarded(self, bucket: Bucket, tmp_path: Path) -> None:
        """A .part longer than the listed file cannot be its prefix: it is fetched anew."""
        name = f"courts-{NEW}.csv.bz2"
        (tmp_path / (name + ".part")).write_bytes(b"x" * (len(bucket.objects[key("courts")]) + 9))
        fetch(bucket, tmp_path)
        assert_whole(bucket, tmp_path)
        assert bucket.requests_for(key("courts")) == [None]

    def test_416_restarts_then_refuses_a_short_file(self, bucket: Bucket, tmp_path: Path) -> None:
        """A 416 (nothing at our offset) restarts from zero; a server file shorter than
        listed then fails the size check, and no final file appears."""
        k = key("citations")
        body = bucket.objects[k]
        name = f"citations-{NEW}.csv.bz2"
        assert len(body) > 1000
        bucket.objects[k] = body[:500]
        bucket.listed_size[k] = len(body)
        (tmp_path / (name + ".part")).write_bytes(body[:1000])
        with pytest.raises(DownloadError, match="listing says"):
            fetch(bucket, tmp_path)
        assert bucket.requests_for(k) == ["bytes=1000-", None]
        assert not (tmp_path / name).exists()
        assert not (tmp_path / (name + ".part")).exists()

    def test_wrong_checksum(self, bucket: Bucket, tmp_path: Path) -> None:
        """A file whose MD5 differs from its single-part ETag is refused and removed."""
        k = key("dockets")
        bucket.etag[k] = '"' + "0" * 32 + '"'
        with pytest.raises(DownloadError, match="MD5"):
            fetch(bucket, tmp_path)
        assert not (tmp_path / f"dockets-{NEW}.csv.bz2").exists()
        assert not (tmp_path / f"dockets-{NEW}.csv.bz2.part").exists()

    def test_wrong_checksum_after_a_resume(self, bucket: Bucket, tmp_path: Path) -> None:
        """A .part whose bytes are not the file's is caught by the MD5 after resuming."""
        k = key("citations")
        name = f"citations-{NEW}.csv.bz2"
        body = bucket.objects[k]
        (tmp_path / (name + ".part")).write_bytes(b"\0" * 300)
        with pytest.raises(DownloadError, match="MD5"):
            fetch(bucket, tmp_path)
        assert bucket.requests_for(k) == ["bytes=300-"]
        assert not (tmp_path / name).exists()
        fetch(bucket, tmp_path)  # the bad .part was removed: the next run starts clean
        assert (tmp_path / name).read_bytes() == body

    def test_multipart_etag_checks_size_only(self, bucket: Bucket, tmp_path: Path) -> None:
        """With a multipart ETag the file is kept on its size and reported unchecked."""
        bucket.etag[key("courts")] = '"' + "f" * 32 + '-3"'
        report = fetch(bucket, tmp_path)
        assert report.unchecked == [f"courts-{NEW}.csv.bz2"]
        assert_whole(bucket, tmp_path)

    def test_missing_table_falls_back_to_an_older_set(
        self, tmp_path: Path, bucket: Bucket
    ) -> None:
        """When the newest date lacks a table, the newest complete set is taken, and said so."""
        bucket.objects.update(dump_objects(tmp_path, OLD))
        del bucket.objects[key("citations")]
        notes: list[str] = []
        report = fetch(bucket, tmp_path / "cl", notify=notes.append)
        assert report.dump.date == OLD
        assert_whole(bucket, tmp_path / "cl", OLD)
        assert any(NEW in n and "citations" in n and OLD in n for n in notes)
        assert not any(NEW in k for k, _ in bucket.seen)

    def test_no_complete_set_fails_clearly(self, bucket: Bucket, tmp_path: Path) -> None:
        """With no complete set listed, nothing is fetched and the error says what is missing."""
        del bucket.objects[key("dockets")]
        with pytest.raises(DownloadError, match=f"{NEW} lacks dockets"):
            fetch(bucket, tmp_path)
        assert bucket.seen == []

    def test_not_enough_disk(
        self, bucket: Bucket, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """A set larger than the free space is refused before any file is requested."""
        total = sum(len(v) for k, v in bucket.objects.items() if k.endswith(f"{NEW}.csv.bz2")
                    and "people" not in k)  # fmt: skip

        def usage(path: Any) -> Any:
            return type("Usage", (), {"total": 10**9, "used": 10**9, "free": total - 1})()

        monkeypatch.setattr(_download.shutil, "disk_usage", usage)
        with pytest.raises(DownloadError, match="not enough disk space"):
            fetch(bucket, tmp_path)
        assert bucket.seen == []
        assert not any(p.name.endswith(".bz2") for p in tmp_path.iterdir())

    def test_disk_check_counts_what_is_already_there(
        self, bucket: Bucket, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Bytes already in a .part are not asked for twice in the space check."""
        k = key("citations")
        body = bucket.objects[k]
        (tmp_path / f"citations-{NEW}.csv.bz2.part").write_bytes(body[:1000])
        total = sum(len(bucket.objects[key(t)]) for t in TABLES)

        def usage(path: Any) -> Any:
            return type("Usage", (), {"total": 10**9, "used": 0, "free": total - 1000})()

        monkeypatch.setattr(_download.shutil, "disk_usage", usage)
        fetch(bucket, tmp_path)
        assert_whole(bucket, tmp_path)

    def test_missing_object_is_an_error(self, bucket: Bucket, tmp_path: Path) -> None:
        """A listed file the server does not have (404) is an error at once, not a retry loop."""
        bucket.missing.add(key("courts"))
        with pytest.raises(DownloadError, match="404"):
            fetch(bucket, tmp_path)
        assert len(bucket.requests_for(key("courts"))) == 1


# -- the commands and the import -----------------------------------------------------


class TestCommands:
    def test_download_then_import_then_verify(
        self, bucket: Bucket, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Download, import with --dir, and verify a lower-court citation and a fabricated one."""
        folder, out = tmp_path / "cl", tmp_path / "cl.sqlite3"
        assert main(["download", "courtlistener", "--dir", str(folder),
                     "--from", bucket.base_url]) == 0  # fmt: skip
        err = capsys.readouterr().err
        assert f"the {NEW} set is in" in err
        assert main(["import", "courtlistener", "--dir", str(folder), "--out", str(out)]) == 0
        assert f"bulk data of {NEW}" in capsys.readouterr().err
        response = citeverify.verify_request(
            {
                "items": [
                    {"id": "guild", "type": "case",
                     "rawText": "Authors Guild v. Google, Inc., 804 F.3d 202 (2d Cir. 2015)"},
                    {"id": "varghese", "type": "case",
                     "rawText": "Varghese v. China Southern Airlines Co., 925 F.3d 1339 "
                                "(11th Cir. 2019)"},
                ]
            },
            provider=LocalStore(out),
        )  # fmt: skip
        results = {r["id"]: r for r in response["results"]}
        assert results["guild"]["verdict"]["status"] == "verified"
        assert results["guild"]["verdict"]["asOf"] == f"{NEW}T00:00:00Z"
        assert results["varghese"]["verdict"]["outcome"] == "not_found"

    def test_import_with_download_in_one_command(
        self, bucket: Bucket, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """``import courtlistener --download`` downloads, then imports, quietly."""
        folder, out = tmp_path / "cl", tmp_path / "cl.sqlite3"
        code = main(["import", "courtlistener", "--dir", str(folder), "--out", str(out),
                     "--download", "--from", bucket.base_url, "--quiet"])  # fmt: skip
        assert code == 0
        assert capsys.readouterr().err == ""
        assert_whole(bucket, folder)
        with_store = citeverify.verify(
            [{"id": "1", "type": "case", "rawText": "Authors Guild v. Google, Inc., "
              "804 F.3d 202 (2d Cir. 2015)"}], provider=LocalStore(out),
        )  # fmt: skip
        assert with_store.results[0].verdict.status.value == "verified"

    def test_manifest_picks_the_set_over_other_files(self, bucket: Bucket, tmp_path: Path) -> None:
        """With a manifest, the import reads its set, not a stray newer file in the folder."""
        folder = tmp_path / "cl"
        fetch(bucket, folder)
        write_table(folder, "citations", ["id", "volume", "reporter", "page", "type",
                                          "cluster_id"], [], date="2025-03-31")  # fmt: skip
        found = find_dump(folder)
        assert found.date == NEW
        assert found.files["citations"].name == f"citations-{NEW}.csv.bz2"
        (folder / f"dockets-{NEW}.csv.bz2").unlink()
        with pytest.raises(DumpError, match="dockets"):
            find_dump(folder)

    def test_download_failure_is_exit_1_with_message(
        self, bucket: Bucket, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """A failed download exits 1 with one line saying why, and --download stops there."""
        del bucket.objects[key("dockets")]
        out = tmp_path / "cl.sqlite3"
        code = main(["import", "courtlistener", "--dir", str(tmp_path / "cl"), "--out",
                     str(out), "--download", "--from", bucket.base_url])  # fmt: skip
        assert code == 1
        err = capsys.readouterr().err
        assert err.startswith("download courtlistener: no complete set")
        assert not out.exists()

    def test_download_without_source_prints_help(
        self, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """``citeverify download`` alone prints its help and exits 2."""
        assert main(["download"]) == 2
        assert "courtlistener" in capsys.readouterr().err

    def test_missing_httpx_names_the_extra(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Without httpx the download says which extra to install."""
        import builtins

        real = builtins.__import__

        def blocked(name: str, *args: Any, **kwargs: Any) -> Any:
            if name == "httpx":
                raise ImportError("no httpx")
            return real(name, *args, **kwargs)

        monkeypatch.setattr(builtins, "__import__", blocked)
        with pytest.raises(DownloadError, match=r"citeverify\[courtlistener\]"):
            _download._httpx()


def test_bz2_bodies_are_real_dumps(bucket: Bucket) -> None:
    """The stand-in's files are bz2 CSV with the importer's header (so the end-to-end is real)."""
    text = bz2.decompress(bucket.objects[key("citations")]).decode()
    assert text.startswith("id,volume,reporter,page,type,cluster_id\n")
    assert len(bucket.objects[key("citations")]) > 1500
