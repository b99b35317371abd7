"""Download one quarterly CourtListener bulk-data set: find it, fetch it, verify it, record it.

CourtListener publishes its bulk data in a public S3 bucket, one file per table
and quarter (``bulk-data/<table>-<YYYY-MM-DD>.csv.bz2``).  A quarter may be
listed before all its tables are uploaded, and the files are gigabytes, so
this module:

- reads the bucket's ListObjectsV2 listing (XML, 1,000 keys a page, followed
  through continuation tokens) and picks the newest *complete* set: a date
  for which every table wanted has a file (:func:`choose_set`, no I/O);
- checks the free disk space against the sizes the listing gives;
- fetches each file into ``NAME.part``, resuming with an HTTP ``Range``
  request after an interruption (a server that ignores ``Range`` answers 200
  and the file restarts from zero), retrying 429/5xx answers and dropped
  connections a bounded number of times with backoff;
- verifies each file's size, and its MD5 where the ETag is one; then fsyncs
  and renames it to its final name, so a final name only ever holds a whole,
  verified file;
- writes ``manifest.json`` (the set's date and files), which
  ``citeverify import courtlistener --dir`` reads (see
  :func:`citeverify.importers.courtlistener.find_dump`).

The listing parser and the set chooser do no I/O; the downloader takes an
``httpx.Client`` (``pip install 'citeverify[courtlistener]'``), imported only
when a download runs.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import random
import re
import shutil
import sys
import time
import urllib.parse
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:  # pragma: no cover
    import httpx

__all__ = [
    "DEFAULT_FILES_URL",
    "DEFAULT_LISTING_URL",
    "MANIFEST",
    "TABLES",
    "DownloadError",
    "DownloadReport",
    "DumpSet",
    "RemoteFile",
    "choose_set",
    "download_courtlistener",
    "list_bulk_data",
    "parse_listing",
]

DEFAULT_LISTING_URL = "https://com-courtlistener-storage.s3-us-west-2.amazonaws.com"
DEFAULT_FILES_URL = "https://storage.courtlistener.com"
PREFIX = "bulk-data/"
MANIFEST = "manifest.json"
# The tables the importer reads; ``opinions`` (hundreds of gigabytes) only on request.
TABLES = ("courts", "dockets", "opinion-clusters", "citations")
OPINIONS = "opinions"

_KEY = re.compile(
    r"^(?P<table>courts|dockets|opinion-clusters|citations|opinions)"
    r"-(?P<date>\d{4}-\d{2}-\d{2})\.csv\.bz2$"
)
_MD5 = re.compile(r"^[0-9a-f]{32}$")
_CONTENT_RANGE = re.compile(r"^bytes (\d+)-(\d+)/(\d+|\*)$")
_MAX_LISTING_PAGE = 16 * 1024 * 1024  # one page of 1,000 keys is about 300 kB
_MAX_LISTING_PAGES = 10_000
_CHUNK = 1 << 20
_RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504})


class DownloadError(Exception):
    """The bulk data cannot be listed, chosen, stored or verified; the message says why."""


@attrs.frozen
class RemoteFile:
    """One bulk-data object of the listing."""

    key: str
    table: str
    date: str
    size: int
    etag: str | None = None

    @property
    def name(self) -> str:
        return self.key.rsplit("/", 1)[-1]

    @property
    def md5(self) -> str | None:
        """The file's MD5, when the ETag is one.

        S3's ETag is the MD5 of the object only for a single-part upload; a
        multipart upload's ETag is ``<md5 of the parts' md5s>-<part count>``
        (it contains ``-``) and is not the file's MD5, so it cannot be checked.
        """
        if self.etag is None:
            return None
        tag = self.etag.strip().strip('"').lower()
        return tag if _MD5.match(tag) else None


@attrs.frozen
class DumpSet:
    """The files of one quarter, and the newer quarters passed over because they lack tables."""

    date: str
    files: tuple[RemoteFile, ...]
    passed_over: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (date, missing tables)

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)


@attrs.define
class DownloadReport:
    """What one run did: the set, the files fetched now and those already there."""

    directory: Path
    dump: DumpSet
    downloaded: list[str] = attrs.Factory(list)
    present: list[str] = attrs.Factory(list)
    resumed: list[str] = attrs.Factory(list)
    unchecked: list[str] = attrs.Factory(list)  # no MD5 to compare (multipart ETag)
    bytes: int = 0
    seconds: float = 0.0


# -- listing (no I/O) --------------------------------------------------------------


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def parse_listing(body: bytes, prefix: str = PREFIX) -> tuple[list[RemoteFile], str | None]:
    """The bulk-data files of one ListObjectsV2 page, and the token of the next page (if any).

    Keys that are not ``<prefix><table>-<date>.csv.bz2`` of a table the importer
    knows are ignored (so are files in sub-folders, and tables such as
    ``citation-map`` that the importer does not read).  A page with a DTD is
    refused (S3 never sends one; it is how XML entity expansion attacks start).
    """
    if len(body) > _MAX_LISTING_PAGE:
        raise DownloadError(f"the listing page is larger than {_MAX_LISTING_PAGE:,} bytes")
    if b"<!DOCTYPE" in body or b"<!ENTITY" in body:
        raise DownloadError("the listing is not an S3 listing (it declares a DTD)")
    try:
        root = ET.fromstring(body)
    except ET.ParseError as exc:
        raise DownloadError(f"the listing is not XML: {exc}") from None
    if _local(root.tag) != "ListBucketResult":
        raise DownloadError(f"the listing is not an S3 ListBucketResult (got <{_local(root.tag)}>)")
    files: list[RemoteFile] = []
    truncated = False
    token: str | None = None
    for child in root:
        name = _local(child.tag)
        if name == "IsTruncated":
            truncated = (child.text or "").strip().lower() == "true"
        elif name == "NextContinuationToken":
            token = (child.text or "").strip() or None
        elif name == "Contents":
            fields = {_local(c.tag): (c.text or "").strip() for c in child}
            key = fields.get("Key", "")
            match = _KEY.match(key.removeprefix(prefix)) if key.startswith(prefix) else None
            if not match:
                continue
            try:
                size = int(fields.get("Size", ""))
            except ValueError:
                raise DownloadError(f"the listing gives no size for {key}") from None
            if size < 0:
                raise DownloadError(f"the listing gives a negative size for {key}")
            files.append(
                RemoteFile(
                    key=key,
                    table=match.group("table"),
                    date=match.group("date"),
                    size=size,
                    etag=fields.get("ETag") or None,
                )
            )
    if truncated and token is None:
        raise DownloadError("the listing says it continues but gives no continuation token")
    return files, token if truncated else None


def choose_set(
    files: Iterable[RemoteFile], tables: Sequence[str] = TABLES, *, date: str | None = None
) -> DumpSet:
    """The newest date for which every table in ``tables`` has a file (or exactly ``date``).

    Newer dates that lack a table are passed over and named in the result, so the
    caller can say why an older set was chosen.
    """
    by_date: dict[str, dict[str, RemoteFile]] = {}
    for f in files:
        if f.table in tables:
            by_date.setdefault(f.date, {})[f.table] = f
    passed: list[tuple[str, tuple[str, ...]]] = []
    for day in sorted(by_date, reverse=True):
        if date is not None and day != date:
            continue
        have = by_date[day]
        missing = tuple(t for t in tables if t not in have)
        if not missing:
            return DumpSet(day, tuple(have[t] for t in tables), tuple(passed))
        passed.append((day, missing))
    if date is not None:
        if passed:
            raise DownloadError(
                f"the {date} set is incomplete: no {', '.join(passed[0][1])} file is listed"
            )
        known = ", ".join(sorted(by_date, reverse=True)[:5]) or "none"
        raise DownloadError(f"no {date} set is listed (newest dates: {known})")
    if not by_date:
        raise DownloadError("the listing holds no CourtListener bulk-data files")
    newest = ", ".join(f"{d} lacks {', '.join(m)}" for d, m in passed[:3])
    raise DownloadError(f"no complete set of {', '.join(tables)} is listed ({newest})")


# -- I/O -------------------------------------------------------------------------


def _httpx() -> Any:
    try:
        import httpx
    except ImportError:
        raise DownloadError(
            "downloading needs httpx: pip install 'citeverify[courtlistener]'"
        ) from None
    return httpx


def list_bulk_data(
    client: httpx.Client,
    listing_url: str = DEFAULT_LISTING_URL,
    *,
    prefix: str = PREFIX,
    retries: int = 5,
    backoff: float = 1.0,
    sleep: Callable[[float], None] = time.sleep,
) -> list[RemoteFile]:
    """Every bulk-data file of the bucket at ``listing_url``, following continuation tokens."""
    httpx = _httpx()
    files: list[RemoteFile] = []
    token: str | None = None
    seen: set[str] = set()
    for _ in range(_MAX_LISTING_PAGES):
        params = {"list-type": "2", "prefix": prefix}
        if token is not None:
            params["continuation-token"] = token
        failures = 0
        while True:
            try:
                response = client.get(listing_url.rstrip("/") + "/", params=params)
            except httpx.TransportError as exc:
                failures += 1
                if failures > retries:
                    raise DownloadError(
                        f"cannot read the listing at {listing_url}: {exc}"
                    ) from None
                sleep(_delay(backoff, failures, None))
                continue
            if response.status_code in _RETRY_STATUSES and failures < retries:
                failures += 1
                sleep(_delay(backoff, failures, response.headers.get("retry-after")))
                continue
            break
        if response.status_code != 200:
            raise DownloadError(
                f"the listing at {listing_url} answered HTTP {response.status_code}"
            )
        page, token = parse_listing(response.content, prefix)
        files.extend(page)
        if token is None:
            return files
        if token in seen:
            raise DownloadError("the listing repeats a continuation token")
        seen.add(token)
    raise DownloadError(f"the listing has more than {_MAX_LISTING_PAGES:,} pages")


def _delay(backoff: float, failures: int, retry_after: str | None) -> float:
    """Exponential backoff with jitter; a server's ``Retry-After`` (seconds) wins, capped."""
    if retry_after is not None:
        with contextlib.suppress(ValueError):
            return min(max(float(retry_after), 0.0), 300.0)
    delay: float = min(backoff * 2.0 ** (failures - 1), 60.0)
    return delay * (0.5 + random.random() / 2)


def _gb(n: int) -> str:
    return f"{n / 1e9:,.2f} GB" if n >= 10**8 else f"{n:,} bytes"


@attrs.frozen
class _Record:
    name: str
    size: int
    etag: str | None


def _read_manifest(directory: Path) -> dict[str, Any] | None:
    path = directory / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _write_manifest(
    directory: Path, dump: DumpSet, source: str, verified: dict[str, _Record], complete: bool
) -> None:
    data = {
        "source": "courtlistener",
        "from": source,
        "date": dump.date,
        "complete": complete,
        "files": {
            f.table: {
                "name": f.name,
                "size": f.size,
                "etag": f.etag,
                "verified": f.name in verified,
            }
            for f in dump.files
        },
    }
    _atomic_write(directory / MANIFEST, (json.dumps(data, indent=2) + "\n").encode("utf-8"))


def _atomic_write(path: Path, data: bytes) -> None:
    part = path.with_name(path.name + ".part")
    with open(part, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(part, path)
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    """Make a rename durable (POSIX); not possible or needed everywhere, so best effort."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class _Bar:
    """Progress on stderr with rich (a base dependency), or nothing when quiet."""

    def __init__(self, total: int, enabled: bool, stream: IO[str] | None) -> None:
        self.progress: Any = None
        self.task: Any = None
        if not enabled:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            DownloadColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
            TransferSpeedColumn,
        )

        self.progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            TimeRemainingColumn(),
            console=Console(file=stream or sys.stderr),
            transient=False,
        )
        self.progress.start()
        self.task = self.progress.add_task("download", total=total)

    def describe(self, text: str) -> None:
        if self.progress is not None:
            self.progress.update(self.task, description=text)

    def advance(self, n: int) -> None:
        if self.progress is not None:
            self.progress.update(self.task, advance=n)

    def back(self, n: int) -> None:
        if self.progress is not None and n:
            self.progress.update(self.task, advance=-n)

    def say(self, text: str) -> None:
        if self.progress is not None:
            self.progress.console.print(text, markup=False, highlight=False)

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()


def download_courtlistener(
    directory: str | Path,
    *,
    listing_url: str = DEFAULT_LISTING_URL,
    files_url: str | None = None,
    opinions: bool = False,
    date: str | None = None,
    retries: int = 5,
    backoff: float = 1.0,
    client: httpx.Client | None = None,
    progress: bool = False,
    stream: IO[str] | None = None,
    notify: Callable[[str], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> DownloadReport:
    """Download the newest complete quarterly set (or the ``date`` set) into ``directory``.

    ``files_url`` is where files are fetched (``<files_url>/<key>``); it defaults
    to CourtListener's file host for the default listing, and to ``listing_url``
    for any other (a mirror, a test server).  Run again after an interruption:
    whole files are kept, ``.part`` files resume, and a set begun and not
    finished is continued (unless ``date`` names another).  ``retries`` bounds
    the failed attempts in a row on one file (an attempt that received bytes
    resets the count).  ``notify`` receives one-line notes (the set chosen, a
    fallback to an older set); ``progress`` shows a bar on ``stream`` (stderr).
    """
    httpx = _httpx()
    started = time.monotonic()
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    if files_url is None:
        files_url = DEFAULT_FILES_URL if listing_url == DEFAULT_LISTING_URL else listing_url
    say = notify or (lambda _text: None)
    tables = (*TABLES, OPINIONS) if opinions else TABLES
    own_client = client is None
    if client is None:
        client = httpx.Client(
            timeout=httpx.Timeout(60.0, connect=20.0),
            follow_redirects=True,
            headers={"User-Agent": "citeverify (bulk-data download)"},
        )
    try:
        listed = list_bulk_data(
            client, listing_url, retries=retries, backoff=backoff, sleep=sleep
        )
        previous = _read_manifest(folder)
        if date is None and previous and previous.get("complete") is False:
            pending = previous.get("date")
            if isinstance(pending, str) and _complete(listed, tables, pending):
                date = pending
                say(f"continuing the {pending} set begun in {folder}")
        dump = choose_set(listed, tables, date=date)
        for day, missing in dump.passed_over:
            say(f"the {day} set is incomplete (no {', '.join(missing)} yet); using {dump.date}")
        say(f"CourtListener bulk data of {dump.date}: {len(dump.files)} files, {_gb(dump.size)}")
        verified = _verified_records(previous, dump)
        _check_space(folder, dump, verified)
        report = DownloadReport(directory=folder, dump=dump)
        _write_manifest(folder, dump, listing_url, verified, complete=False)
        bar = _Bar(dump.size, progress, stream)
        try:
            for remote in dump.files:
                final = folder / remote.name
                if remote.name in verified and _size(final) == remote.size:
                    report.present.append(remote.name)
                    bar.advance(remote.size)
                    continue
                url = files_url.rstrip("/") + "/" + urllib.parse.quote(remote.key, safe="/")
                bar.describe(remote.name)
                fetched, resumed = _fetch(
                    client, url, remote, final, bar, retries, backoff, sleep, httpx
                )
                report.bytes += fetched
                report.downloaded.append(remote.name)
                if resumed:
                    report.resumed.append(remote.name)
                if remote.md5 is None:
                    report.unchecked.append(remote.name)
                verified[remote.name] = _Record(remote.name, remote.size, remote.etag)
                _write_manifest(folder, dump, listing_url, verified, complete=False)
        finally:
            bar.stop()
        _write_manifest(folder, dump, listing_url, verified, complete=True)
    finally:
        if own_client:
            client.close()
    report.seconds = time.monotonic() - started
    return report


def _complete(listed: Iterable[RemoteFile], tables: Sequence[str], day: str) -> bool:
    try:
        choose_set(listed, tables, date=day)
    except DownloadError:
        return False
    return True


def _verified_records(previous: dict[str, Any] | None, dump: DumpSet) -> dict[str, _Record]:
    """Files an earlier run verified: same name, size and ETag as listed now."""
    out: dict[str, _Record] = {}
    if not previous or not isinstance(previous.get("files"), dict):
        return out
    listed = {f.name: f for f in dump.files}
    for entry in previous["files"].values():
        if not isinstance(entry, dict) or entry.get("verified") is not True:
            continue
        remote = listed.get(str(entry.get("name")))
        if remote and entry.get("size") == remote.size and entry.get("etag") == remote.etag:
            out[remote.name] = _Record(remote.name, remote.size, remote.etag)
    return out


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except OSError:
        return None


def _check_space(folder: Path, dump: DumpSet, verified: dict[str, _Record]) -> None:
    """Refuse to start when the files still to fetch cannot fit on the disk."""
    needed = 0
    for remote in dump.files:
        if remote.name in verified and _size(folder / remote.name) == remote.size:
            continue
        have = _size(folder / (remote.name + ".part")) or 0
        needed += remote.size - have if have <= remote.size else remote.size
    free = shutil.disk_usage(folder).free
    if needed > free:
        raise DownloadError(
            f"not enough disk space in {folder}: the {dump.date} set needs {_gb(needed)} more, "
            f"{_gb(free)} is free"
        )


def _fetch(
    client: httpx.Client,
    url: str,
    remote: RemoteFile,
    final: Path,
    bar: _Bar,
    retries: int,
    backoff: float,
    sleep: Callable[[float], None],
    httpx: Any,
) -> tuple[int, bool]:
    """Fetch one file into ``final`` by way of ``final.part``; return (bytes received, resumed)."""
    part = final.with_name(final.name + ".part")
    expected = remote.size
    with contextlib.suppress(FileNotFoundError):
        if part.stat().st_size > expected:
            part.unlink()  # longer than the file can be: not a prefix of it
    received = 0
    resumed = False
    failures = 0
    counted = 0  # bytes of this file shown on the bar
    with open(part, "ab") as handle:
        digest = _hash_prefix(part, handle.tell()) if remote.md5 else None
        bar.advance(handle.tell())
        counted = handle.tell()
        while handle.tell() < expected:
            offset = handle.tell()
            if offset:
                resumed = True
            headers = {"Accept-Encoding": "identity"}
            if offset:
                headers["Range"] = f"bytes={offset}-"
            got = 0
            try:
                with client.stream("GET", url, headers=headers) as response:
                    status = response.status_code
                    if status == 416:
                        # The server holds no byte at our offset: the .part is not a prefix
                        # of this file.  Start again from zero.
                        if offset == 0:
                            raise DownloadError(f"{remote.name}: the server answers 416 at 0")
                        handle.seek(0)
                        handle.truncate()
                        digest = hashlib.md5() if remote.md5 else None
                        bar.back(counted)
                        counted = 0
                        failures += 1
                        if failures > retries:
                            raise DownloadError(f"{remote.name}: the server keeps answering 416")
                        continue
                    if status in _RETRY_STATUSES:
                        failures += 1
                        if failures > retries:
                            raise DownloadError(
                                f"{remote.name}: HTTP {status} after {retries} retries"
                            )
                        sleep(_delay(backoff, failures, response.headers.get("retry-after")))
                        continue
                    if status == 200:
                        if offset:
                            # The server ignored Range and sends the whole file: restart.
                            handle.seek(0)
                            handle.truncate()
                            digest = hashlib.md5() if remote.md5 else None
                            bar.back(counted)
                            counted = 0
                            offset = 0
                        total = _int(response.headers.get("content-length"))
                    elif status == 206:
                        start, total = _content_range(response.headers.get("content-range"))
                        if start != offset:
                            raise DownloadError(
                                f"{remote.name}: asked for bytes from {offset:,}, the server "
                                f"sent Content-Range {response.headers.get('content-range')!r}"
                            )
                    else:
                        raise DownloadError(f"{remote.name}: HTTP {status} from {url}")
                    if status == 200 and total is not None and total != expected:
                        raise _Mismatch(remote, total)
                    if status == 206 and total is not None and total != expected:
                        raise _Mismatch(remote, total)
                    # Raw bytes as they arrive: the listing's size and MD5 are of the stored
                    # bytes, and a chunk buffered but not yet yielded would be lost on a drop.
                    for chunk in response.iter_raw():
                        if handle.tell() + len(chunk) > expected:
                            raise _Mismatch(remote, None)
                        handle.write(chunk)
                        if digest is not None:
                            digest.update(chunk)
                        got += len(chunk)
                        counted += len(chunk)
                        bar.advance(len(chunk))
                received += got
                if handle.tell() < expected:
                    # The body ended cleanly but short: retry from where it stopped; if the
                    # server has no more, it answers 416 or a short total, which fails below.
                    failures = 0 if got else failures + 1
                    if failures > retries:
                        raise _Mismatch(remote, handle.tell())
                    continue
                break
            except httpx.TransportError as exc:
                received += got
                failures = 0 if got else failures + 1
                if failures > retries:
                    raise DownloadError(
                        f"{remote.name}: the connection failed {retries + 1} times in a row "
                        f"({exc.__class__.__name__}); run again to resume"
                    ) from None
                sleep(_delay(backoff, failures, None))
            except _Mismatch as exc:
                handle.close()
                part.unlink(missing_ok=True)
                raise DownloadError(str(exc)) from None
        handle.flush()
        os.fsync(handle.fileno())
        size = handle.tell()
    if size != expected:  # pragma: no cover - the loop only ends at the expected size
        part.unlink(missing_ok=True)
        raise DownloadError(f"{remote.name}: {size:,} bytes, the listing says {expected:,}")
    if digest is not None and digest.hexdigest() != remote.md5:
        part.unlink(missing_ok=True)
        raise DownloadError(
            f"{remote.name}: MD5 {digest.hexdigest()} does not match the listing's ETag "
            f"{remote.md5}; the partial file was removed, run again to fetch it anew"
        )
    os.replace(part, final)
    _fsync_dir(final.parent)
    return received, resumed


class _Mismatch(Exception):
    def __init__(self, remote: RemoteFile, size: int | None) -> None:
        got = "more bytes" if size is None else f"{size:,} bytes"
        super().__init__(
            f"{remote.name}: the server has {got}, the listing says {remote.size:,}; "
            "the file was not kept"
        )


def _hash_prefix(path: Path, length: int) -> Any:
    """MD5 of the first ``length`` bytes already on disk (a resumed download continues it)."""
    digest = hashlib.md5()
    with open(path, "rb") as handle:
        for chunk in _chunks(handle, length):
            digest.update(chunk)
    return digest


def _chunks(handle: IO[bytes], length: int) -> Iterator[bytes]:
    remaining = length
    while remaining > 0:
        chunk = handle.read(min(remaining, _CHUNK))
        if not chunk:
            return
        remaining -= len(chunk)
        yield chunk


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _content_range(value: str | None) -> tuple[int | None, int | None]:
    match = _CONTENT_RANGE.match((value or "").strip())
    if not match:
        return None, None
    total = match.group(3)
    return int(match.group(1)), None if total == "*" else int(total)
