"""CourtListener as an authority provider: its citation-lookup API, batched, faults as values.

``CourtListener(token)`` answers case citations from the REST API v4 of
CourtListener (Free Law Project), the largest open U.S. case-law source:

* every case citation of one ``lookup`` goes to ``POST citation-lookup/`` as
  one ``text`` (the normalised citations joined by ``"; "``), split only where
  the API requires (at most 250 citations and 64,000 characters a call);
  answers are matched back by normalised citation, not by position;
* each returned cluster becomes an :class:`Authority`: every parallel
  citation, the case name, ``date_filed`` (a filing date, so
  ``date_is_filing``), the court from the cluster or else from its docket
  (``GET dockets/<id>/``, fetched once per docket and cached), a public
  document with the cluster and opinion ids, and ``load_text`` that fetches
  the opinions' text on demand (``GET opinions/<id>/``) for quotation checks;
* per-citation status 200 is ``Found``, 300 ``Found`` with every candidate,
  404 ``NotFound`` (CourtListener answers 404 only for reporters it knows),
  400 (unknown reporter) ``OutsideCoverage``; Westlaw and Lexis numbers,
  ECLIs, neutral citations of systems reporters-db does not know, statutes,
  rules and constitutions are ``OutsideCoverage`` without a call;
* faults are values: each ``lookup`` has one overall deadline (``timeout``
  seconds), enforced by waiting on the exchange itself, not only by httpx's
  per-phase timeouts; connection errors, 5xx, malformed JSON and throttling
  (HTTP 429 with JSON ``wait_until`` or ``Retry-After``) become
  ``Unavailable`` with a reason and, when known, ``retry_at``; retries (with
  stamina) happen only when their wait fits in the deadline;
* the token is sent as ``Authorization: Token ...`` and appears nowhere else:
  not in a repr, a log line, a reason, the cache or a result;
* with ``cache=PATH`` lookups, dockets and texts are kept in SQLite with the
  time they were fetched, reported as ``as_of``; a repeated brief costs no
  API calls.
"""

from __future__ import annotations

import collections
import concurrent.futures
import datetime as dt
import email.utils
import functools
import json
import random
import re
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import stamina

from citeverify._facts import jurisdiction_of
from citeverify._model import Court, Document, Identifier
from citeverify._version import __version__
from citeverify.citations._types import CaseCitation
from citeverify.providers._base import (
    Authority,
    AuthorityText,
    Found,
    LookupAnswer,
    LookupRequest,
    NotFound,
    OutsideCoverage,
    Unavailable,
)
from citeverify.providers._cl_cache import Cache
from citeverify.providers._cl_text import TEXT_FIELDS, opinion_text

__all__ = ["CourtListener"]

PUBLIC_SITE = "https://www.courtlistener.com"
LOOKUP_PATH = "/api/rest/v4/citation-lookup/"
MAX_CITATIONS_PER_CALL = 250
MAX_CHARS_PER_CALL = 64_000
_SEPARATOR = "; "
_MAX_BODY = 64 * 1024 * 1024  # an opinion's HTML can be several megabytes
_MIN_ATTEMPT = 0.25  # seconds a retry needs at least to be worth starting
_DEFAULT_THROTTLE = 60.0  # seconds to wait on a 429 that says nothing
_DEFINITIVE = (200, 300, 400, 404)
_ID_AT_END = re.compile(r"/(\d+)/?$")
_SPACE = re.compile(r"\s+")


def _key(citation: str) -> str:
    """How a citation is matched: case and spacing do not count."""
    return _SPACE.sub(" ", citation).strip().casefold()


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _iso(moment: dt.datetime) -> str:
    return moment.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@functools.cache
def _known_reporters() -> frozenset[str]:
    """Every reporter edition reporters-db knows (CourtListener resolves with the same data)."""
    import reporters_db

    editions: set[str] = set()
    for entries in reporters_db.REPORTERS.values():
        for entry in entries:
            editions.update(entry.get("editions", {}))
            editions.update(entry.get("variations", {}))
    return frozenset(editions)


@functools.cache
def _court_names() -> dict[str, str]:
    """courts-db id to court name, loaded on first need."""
    import courts_db

    return {str(c["id"]): str(c["name"]) for c in courts_db.courts if c.get("id")}


def court_for(court_id: str) -> Court:
    """The contract's Court for a CourtListener court id (``scotus``, ``ca11``, ``nysd``)."""
    jurisdiction = jurisdiction_of(court_id)
    return Court(name=_court_names().get(court_id), jurisdiction=jurisdiction)


class _Fault(Exception):
    """Why an exchange failed; ``retryable`` faults may be retried after ``wait`` seconds."""

    def __init__(
        self,
        reason: str,
        *,
        retryable: bool = False,
        retry_at: dt.datetime | None = None,
        wait: float | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retryable = retryable
        self.retry_at = retry_at
        self.wait = wait

    def answer(self) -> Unavailable:
        return Unavailable(reason=self.reason, retry_at=self.retry_at)


def _retry_after(value: str | None) -> dt.datetime | None:
    """A ``Retry-After`` header (seconds, or an HTTP date) as a UTC time."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return _now() + dt.timedelta(seconds=int(value))
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment


def _wait_until(body: bytes) -> dt.datetime | None:
    """CourtListener's citation throttle: a JSON body with ``wait_until`` (ISO time)."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("wait_until"), str):
        return None
    try:
        moment = dt.datetime.fromisoformat(data["wait_until"])
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment


def _int_id(value: Any) -> int | None:
    """An id given as an integer, a digit string or a URL ending in ``/<id>/``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        if value.isdigit():
            return int(value)
        found = _ID_AT_END.search(value)
        if found:
            return int(found.group(1))
    return None


def _text_or_none(value: Any) -> str | None:
    return value.strip() or None if isinstance(value, str) else None


def _slim_cluster(cluster: Any) -> dict[str, Any] | None:
    """The fields of a cluster we use, validated; ``None`` for a malformed cluster."""
    if not isinstance(cluster, dict):
        return None
    cluster_id = _int_id(cluster.get("id"))
    if cluster_id is None:
        return None
    citations = []
    for cite in cluster.get("citations") or ():
        if not isinstance(cite, dict):
            continue
        volume, reporter, page = cite.get("volume"), cite.get("reporter"), cite.get("page")
        if volume is None or not isinstance(reporter, str) or page is None:
            continue
        kind = cite.get("type")
        citations.append(
            {
                "volume": str(volume),
                "reporter": reporter,
                "page": str(page),
                "type": kind if isinstance(kind, int) else 99,
            }
        )
    court = cluster.get("court_id")
    if not isinstance(court, str) or not court:
        court = None
    opinions = [i for i in (_int_id(o) for o in cluster.get("sub_opinions") or ()) if i]
    return {
        "id": cluster_id,
        "case_name": _text_or_none(cluster.get("case_name"))
        or _text_or_none(cluster.get("case_name_full"))
        or _text_or_none(cluster.get("case_name_short")),
        "date_filed": _text_or_none(cluster.get("date_filed")),
        "citations": citations,
        "docket_id": _int_id(cluster.get("docket_id")) or _int_id(cluster.get("docket")),
        "absolute_url": _text_or_none(cluster.get("absolute_url")),
        "sub_opinions": opinions,
        "court_id": court,
    }


def _date(value: str | None) -> dt.date | None:
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value[:10])
    except ValueError:
        return None


# A lookup record: per-citation status, message, slim clusters, fetch time.
_Record = tuple[int, str | None, list[dict[str, Any]], str]


class CourtListener:
    """Case citations from CourtListener's REST API v4 (see the module docstring).

    ``token`` is a CourtListener API token (citation lookup needs one).
    ``timeout`` is the overall deadline of one ``lookup`` call, in seconds,
    and also of one ``load_text``.  ``cache`` is a SQLite file for lookups,
    dockets and texts (created when missing).  ``transport`` replaces the
    network (``httpx.MockTransport`` in tests).  ``attempts`` bounds tries of
    one exchange.  ``public_url`` is the site document URLs point at.
    ``workers`` is how many exchanges may run at once (docket fetches run in
    parallel).
    """

    name = "courtlistener"

    def __init__(
        self,
        token: str | None = None,
        *,
        base_url: str = PUBLIC_SITE,
        timeout: float = 30.0,
        cache: str | Path | None = None,
        transport: httpx.BaseTransport | None = None,
        attempts: int = 3,
        public_url: str = PUBLIC_SITE,
        workers: int = 4,
        max_citations_per_call: int = MAX_CITATIONS_PER_CALL,
        max_chars_per_call: int = MAX_CHARS_PER_CALL,
    ) -> None:
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        if not 1 <= max_citations_per_call <= MAX_CITATIONS_PER_CALL:
            raise ValueError(f"max_citations_per_call must be 1..{MAX_CITATIONS_PER_CALL}")
        self.base_url = base_url.rstrip("/")
        self.public_url = public_url.rstrip("/")
        self.timeout = float(timeout)
        self.attempts = max(1, attempts)
        self.max_citations_per_call = max_citations_per_call
        self.max_chars_per_call = min(max_chars_per_call, MAX_CHARS_PER_CALL)
        self._secret = token or None
        headers = {"User-Agent": f"citeverify/{__version__}", "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        self._client = httpx.Client(
            base_url=self.base_url,
            headers=headers,
            transport=transport,
            follow_redirects=False,
            timeout=self.timeout,
        )
        self._exchanges = concurrent.futures.ThreadPoolExecutor(
            max_workers=max(2, workers * 2), thread_name_prefix="courtlistener-http"
        )
        self._fanout = concurrent.futures.ThreadPoolExecutor(
            max_workers=max(1, workers), thread_name_prefix="courtlistener"
        )
        self._cache = Cache(cache) if cache is not None else None
        self._dockets: dict[int, tuple[str | None, str | None]] = {}
        self._texts: collections.OrderedDict[int, tuple[str, tuple[tuple[int, int], ...]]] = (
            collections.OrderedDict()
        )
        self._memo_lock = threading.Lock()
        self.calls: collections.Counter[str] = collections.Counter()

    def __repr__(self) -> str:
        token = "set" if self._secret else None
        cache = self._cache.path if self._cache else None
        return (
            f"CourtListener(base_url={self.base_url!r}, token={token!r}, "
            f"timeout={self.timeout!r}, cache={cache!r})"
        )

    def close(self) -> None:
        """Release the connection pool, the worker threads and the cache file."""
        self._fanout.shutdown(wait=False, cancel_futures=True)
        self._exchanges.shutdown(wait=False, cancel_futures=True)
        self._client.close()
        if self._cache is not None:
            self._cache.close()

    def __enter__(self) -> CourtListener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the provider protocol ----------------------------------------------

    def lookup(self, requests: Sequence[LookupRequest]) -> list[LookupAnswer]:
        """One answer per request, in order; never raises for a miss or a fault."""
        deadline = time.monotonic() + self.timeout
        answers: list[LookupAnswer | None] = [None] * len(requests)
        wanted: dict[str, list[int]] = {}
        sent_as: dict[str, str] = {}
        for index, request in enumerate(requests):
            try:
                screened = self._screen(request)
            except Exception as exc:
                answers[index] = OutsideCoverage(
                    f"CourtListener could not look this up ({type(exc).__name__})"
                )
                continue
            if screened is not None:
                answers[index] = screened
                continue
            citation = request.citation
            assert isinstance(citation, CaseCitation)
            key = _key(citation.normalized)
            wanted.setdefault(key, []).append(index)
            sent_as.setdefault(key, _SPACE.sub(" ", citation.normalized).strip())
        if wanted:
            try:
                self._answer(wanted, sent_as, requests, answers, deadline)
            except Exception as exc:
                reason = self._scrub(
                    f"the CourtListener provider failed unexpectedly ({type(exc).__name__}); "
                    "retry later"
                )
                for indices in wanted.values():
                    for index in indices:
                        if answers[index] is None:
                            answers[index] = Unavailable(reason=reason)
        return [
            answer if answer is not None else Unavailable(reason="no answer from CourtListener")
            for answer in answers
        ]

    def _screen(self, request: LookupRequest) -> LookupAnswer | None:
        """The answer given without a call, or ``None`` when the API must be asked."""
        citation = request.citation
        if not isinstance(citation, CaseCitation):
            return OutsideCoverage("CourtListener holds case law only")
        if citation.system in ("westlaw", "lexis"):
            service = "Westlaw" if citation.system == "westlaw" else "Lexis"
            return OutsideCoverage(f"{service} numbers are not in CourtListener's citation index")
        if citation.system == "ecli":
            return OutsideCoverage("CourtListener does not look up ECLI identifiers")
        if not citation.volume or not citation.page:
            return OutsideCoverage("CourtListener looks up citations with a volume and a page")
        if citation.system == "neutral" and citation.reporter not in _known_reporters():
            return OutsideCoverage(
                f"CourtListener does not know the neutral citations of {citation.reporter}"
            )
        return None

    def _answer(
        self,
        wanted: dict[str, list[int]],
        sent_as: dict[str, str],
        requests: Sequence[LookupRequest],
        answers: list[LookupAnswer | None],
        deadline: float,
    ) -> None:
        records: dict[str, _Record] = {}
        faults: dict[str, Unavailable] = {}
        if self._cache is not None:
            records.update(self._cache.get_lookups(list(wanted)))
        missing = [key for key in wanted if key not in records]
        if missing:
            self._fetch_lookups(missing, sent_as, records, faults, deadline)
        dockets, docket_faults = self._courts(records, deadline)
        for key, indices in wanted.items():
            for index in indices:
                if key in faults:
                    answers[index] = faults[key]
                    continue
                citation = requests[index].citation
                assert isinstance(citation, CaseCitation)
                answers[index] = self._to_answer(citation, records[key], dockets, docket_faults)

    # -- citation lookup -----------------------------------------------------

    def _batches(self, keys: list[str], sent_as: dict[str, str]) -> list[list[str]]:
        """Split the citations into calls within the API's count and size limits."""
        batches: list[list[str]] = []
        current: list[str] = []
        size = 0
        for key in keys:
            length = len(sent_as[key]) + (len(_SEPARATOR) if current else 0)
            if current and (
                len(current) >= self.max_citations_per_call
                or size + length > self.max_chars_per_call
            ):
                batches.append(current)
                current, size = [], 0
                length = len(sent_as[key])
            current.append(key)
            size += length
        if current:
            batches.append(current)
        return batches

    def _fetch_lookups(
        self,
        keys: list[str],
        sent_as: dict[str, str],
        records: dict[str, _Record],
        faults: dict[str, Unavailable],
        deadline: float,
    ) -> None:
        queue = collections.deque(self._batches(keys, sent_as))
        requeued: set[str] = set()
        while queue:
            batch = queue.popleft()
            try:
                entries, fetched_at = self._post_lookup(batch, sent_as, deadline)
            except _Fault as fault:
                unavailable = fault.answer()
                for key in [*batch, *(k for rest in queue for k in rest)]:
                    faults[key] = unavailable
                return
            again: list[str] = []
            for key in batch:
                entry = entries.get(key)
                if entry is None:
                    record: _Record = (
                        400,
                        "CourtListener did not recognise this as a case citation",
                        [],
                        fetched_at,
                    )
                else:
                    status, message, clusters = entry
                    if status == 429:
                        if key in requeued:
                            faults[key] = Unavailable(
                                reason="CourtListener declined to look this citation up "
                                "(too many citations in one request); retry later"
                            )
                        else:
                            requeued.add(key)
                            again.append(key)
                        continue
                    if status not in _DEFINITIVE or (status in (200, 300) and not clusters):
                        faults[key] = Unavailable(
                            reason=f"CourtListener answered status {status} for this "
                            "citation without a usable record; retry later"
                        )
                        continue
                    record = (status, message, clusters, fetched_at)
                records[key] = record
                if self._cache is not None:
                    self._cache.put_lookup(key, *record)
            if again:
                queue.extendleft(reversed(self._batches(again, sent_as)))

    def _post_lookup(
        self, batch: list[str], sent_as: dict[str, str], deadline: float
    ) -> tuple[dict[str, tuple[int, str | None, list[dict[str, Any]]]], str]:
        """One call to citation-lookup; entries matched back to the batch's keys."""
        spans: list[tuple[int, int, str]] = []
        parts: list[str] = []
        offset = 0
        for key in batch:
            if parts:
                parts.append(_SEPARATOR)
                offset += len(_SEPARATOR)
            text = sent_as[key]
            spans.append((offset, offset + len(text), key))
            parts.append(text)
            offset += len(text)
        self.calls["citation-lookup"] += 1
        data = self._call("POST", LOOKUP_PATH, deadline, data={"text": "".join(parts)})
        fetched_at = _iso(_now())
        if isinstance(data, dict) and not data:
            data = []  # CourtListener answers {} or [] when the text held no citation
        if not isinstance(data, list):
            raise _Fault(
                "CourtListener sent a malformed answer (not a list of citations); retry later",
            )
        in_batch = set(batch)
        matched: dict[str, tuple[int, str | None, list[dict[str, Any]]]] = {}
        cut: int | None = None  # where CourtListener stopped looking up (its per-request cap)
        for entry in data:
            if not isinstance(entry, dict) or not isinstance(entry.get("status"), int):
                continue
            start = entry.get("start_index")
            if entry["status"] == 429 and isinstance(start, int):
                cut = start if cut is None else min(cut, start)
            answered = self._match(entry, in_batch, spans)
            if answered is None or answered in matched:
                continue
            raw_clusters = entry.get("clusters") or []
            clusters = [
                slim
                for slim in (
                    _slim_cluster(c)
                    for c in (raw_clusters if isinstance(raw_clusters, list) else [])
                )
                if slim is not None
            ]
            message = entry.get("error_message")
            matched[answered] = (
                int(entry["status"]),
                message if isinstance(message, str) and message else None,
                clusters,
            )
        if cut is not None:
            # CourtListener answers one 429 at its cap and omits every later citation.
            for first, _last, key in spans:
                if first >= cut and key not in matched:
                    matched[key] = (429, None, [])
        return matched, fetched_at

    @staticmethod
    def _match(
        entry: dict[str, Any], in_batch: set[str], spans: list[tuple[int, int, str]]
    ) -> str | None:
        """The batch key an entry answers: by normalised citation, else by where it was found."""
        candidates = entry.get("normalized_citations")
        names = (
            [c for c in candidates if isinstance(c, str)] if isinstance(candidates, list) else []
        )
        if isinstance(entry.get("citation"), str):
            names.append(entry["citation"])
        for name in names:
            if _key(name) in in_batch:
                return _key(name)
        start = entry.get("start_index")
        if isinstance(start, int):
            for first, last, key in spans:
                if first <= start < last:
                    return key
        return None

    # -- dockets (courts) ----------------------------------------------------

    def _courts(
        self, records: dict[str, _Record], deadline: float
    ) -> tuple[dict[int, tuple[str | None, str | None]], dict[int, Unavailable]]:
        """Court id and docket number of every docket whose cluster lacks its court."""
        needed: set[int] = set()
        for _status, _message, clusters, _at in records.values():
            for cluster in clusters:
                if cluster.get("court_id") is None and cluster.get("docket_id") is not None:
                    needed.add(int(cluster["docket_id"]))
        known: dict[int, tuple[str | None, str | None]] = {}
        with self._memo_lock:
            for docket_id in needed:
                if docket_id in self._dockets:
                    known[docket_id] = self._dockets[docket_id]
        missing = sorted(needed - set(known))
        if missing and self._cache is not None:
            cached = self._cache.get_dockets(missing)
            known.update(cached)
            missing = [d for d in missing if d not in cached]
        faults: dict[int, Unavailable] = {}
        if missing:
            futures = {
                docket_id: self._fanout.submit(self._fetch_docket, docket_id, deadline)
                for docket_id in missing
            }
            for docket_id, future in futures.items():
                try:
                    known[docket_id] = future.result(
                        timeout=max(0.0, deadline - time.monotonic()) + 0.05
                    )
                except _Fault as fault:
                    faults[docket_id] = fault.answer()
                except concurrent.futures.TimeoutError:
                    faults[docket_id] = self._timeout_fault().answer()
                except Exception as exc:
                    faults[docket_id] = Unavailable(
                        reason=f"fetching a docket from CourtListener failed ({type(exc).__name__})"
                    )
        with self._memo_lock:
            self._dockets.update(known)
        return known, faults

    def _fetch_docket(self, docket_id: int, deadline: float) -> tuple[str | None, str | None]:
        self.calls["dockets"] += 1
        data = self._call(
            "GET",
            f"/api/rest/v4/dockets/{docket_id}/",
            deadline,
            params={"fields": "id,court_id,docket_number"},
        )
        if not isinstance(data, dict):
            raise _Fault("CourtListener sent a malformed docket; retry later")
        court = data.get("court_id")
        if not isinstance(court, str) or not court:
            court = _court_from_url(data.get("court"))
        number = _text_or_none(data.get("docket_number"))
        if self._cache is not None:
            self._cache.put_docket(docket_id, court, number, _iso(_now()))
        return court, number

    # -- answers -------------------------------------------------------------

    def _to_answer(
        self,
        citation: CaseCitation,
        record: _Record,
        dockets: dict[int, tuple[str | None, str | None]],
        docket_faults: dict[int, Unavailable],
    ) -> LookupAnswer:
        status, message, clusters, fetched_at = record
        if status == 404:
            return NotFound(
                message=message or f"CourtListener has no case at {citation.normalized}",
                as_of=fetched_at,
            )
        if status == 400:
            return OutsideCoverage(
                message or f"CourtListener does not cover the reporter {citation.reporter}"
            )
        authorities = []
        for cluster in clusters:
            docket_id = cluster.get("docket_id")
            court_id = cluster.get("court_id")
            number = None
            if docket_id is not None:
                if court_id is None and docket_id in docket_faults:
                    fault = docket_faults[docket_id]
                    return Unavailable(
                        reason="CourtListener found the case but its court could not be "
                        f"fetched: {fault.reason}",
                        retry_at=fault.retry_at,
                    )
                court_id2, number = dockets.get(docket_id, (None, None))
                court_id = court_id or court_id2
            authorities.append(self._authority(citation, cluster, court_id, number))
        return Found(tuple(authorities), as_of=fetched_at)

    def _authority(
        self,
        cited: CaseCitation,
        cluster: dict[str, Any],
        court_id: str | None,
        docket_number: str | None,
    ) -> Authority:
        cluster_id = int(cluster["id"])
        cites = sorted(
            enumerate(cluster.get("citations") or []),
            key=lambda pair: (int(pair[1].get("type", 99)), pair[0]),
        )
        strings: list[str] = []
        pages: dict[str, str] = {}
        for _, cite in cites:
            text = f"{cite['volume']} {cite['reporter']} {cite['page']}"
            if text not in strings:
                strings.append(text)
                pages[_key(text)] = str(cite["page"])
        # The looked-up citation first: its page is the authority's first page in that reporter.
        own = _key(cited.normalized)
        for text in strings:
            if _key(text) == own:
                strings.remove(text)
                strings.insert(0, text)
                break
        else:
            strings.insert(0, _SPACE.sub(" ", cited.normalized).strip())
            pages[own] = str(cited.page or "")
        first = pages.get(_key(strings[0]), "")
        opinions = [int(o) for o in cluster.get("sub_opinions") or []]
        identifiers = (
            Identifier(provider=self.name, kind="cluster", id=str(cluster_id)),
            *(Identifier(provider=self.name, kind="opinion", id=str(o)) for o in opinions),
        )
        path = cluster.get("absolute_url") or f"/opinion/{cluster_id}/opinion/"
        document = Document(
            provider=self.name,
            url=self.public_url + (path if path.startswith("/") else "/" + path),
            format="html",
            identifiers=identifiers,
        )
        return Authority(
            kind="case",
            reference=f"courtlistener:cluster:{cluster_id}",
            provider=self.name,
            citations=tuple(strings),
            name=cluster.get("case_name"),
            court=court_for(court_id) if court_id else Court(),
            court_id=court_id,
            decided=_date(cluster.get("date_filed")),
            date_is_filing=True,
            first_page=int(first) if first.isdigit() else None,
            documents=(document,),
            docket=docket_number,
            load_text=functools.partial(self._load_text, tuple(opinions)) if opinions else None,
        )

    # -- opinion text --------------------------------------------------------

    def _load_text(self, opinion_ids: tuple[int, ...]) -> AuthorityText | None:
        """The opinions' text joined (lead first), or ``None`` when it cannot be had now."""
        deadline = time.monotonic() + self.timeout
        bodies: list[tuple[str, tuple[tuple[int, int], ...]]] = []
        try:
            for opinion_id in opinion_ids:
                bodies.append(self._opinion_text(opinion_id, deadline))
        except _Fault:
            return None
        except Exception:
            return None
        text_parts: list[str] = []
        pages: list[tuple[int, int]] = []
        offset = 0
        for body, body_pages in bodies:
            if not body:
                continue
            if text_parts:
                text_parts.append("\n\n")
                offset += 2
            pages.extend((offset + at, page) for at, page in body_pages)
            text_parts.append(body)
            offset += len(body)
        if not text_parts:
            return None
        return AuthorityText(text="".join(text_parts), pages=tuple(pages))

    def _opinion_text(
        self, opinion_id: int, deadline: float
    ) -> tuple[str, tuple[tuple[int, int], ...]]:
        with self._memo_lock:
            if opinion_id in self._texts:
                self._texts.move_to_end(opinion_id)
                return self._texts[opinion_id]
        if self._cache is not None:
            cached = self._cache.get_text(opinion_id)
            if cached is not None:
                self._remember_text(opinion_id, (cached[0], cached[1]))
                return cached[0], cached[1]
        self.calls["opinions"] += 1
        data = self._call(
            "GET",
            f"/api/rest/v4/opinions/{opinion_id}/",
            deadline,
            params={"fields": ",".join(("id", *TEXT_FIELDS))},
        )
        if not isinstance(data, dict):
            raise _Fault("CourtListener sent a malformed opinion; retry later")
        result = opinion_text(data)
        if self._cache is not None:
            self._cache.put_text(opinion_id, result[0], result[1], _iso(_now()))
        self._remember_text(opinion_id, result)
        return result

    def _remember_text(
        self, opinion_id: int, value: tuple[str, tuple[tuple[int, int], ...]]
    ) -> None:
        with self._memo_lock:
            self._texts[opinion_id] = value
            while len(self._texts) > 16:
                self._texts.popitem(last=False)

    # -- HTTP ----------------------------------------------------------------

    def _scrub(self, text: str) -> str:
        """Never let the token into a message, whatever an exception said."""
        if self._secret:
            text = text.replace(self._secret, "[token]")
        return text

    def _timeout_fault(self) -> _Fault:
        return _Fault(
            f"CourtListener did not answer within the {self.timeout:g} s deadline; retry later",
        )

    def _call(
        self,
        method: str,
        path: str,
        deadline: float,
        *,
        data: dict[str, str] | None = None,
        params: dict[str, str] | None = None,
    ) -> Any:
        """One exchange with retries that fit in the deadline; JSON on success, else ``_Fault``."""
        tries = 0

        def retry(exc: Exception) -> bool | float:
            if not isinstance(exc, _Fault) or not exc.retryable:
                return False
            if exc.wait is not None:
                wait = exc.wait
            else:
                wait = min(2.0, 0.2 * 2 ** (tries - 1)) * (0.5 + random.random() / 2)
            if time.monotonic() + wait + _MIN_ATTEMPT > deadline:
                return False
            return max(wait, 0.0)

        try:
            for attempt in stamina.retry_context(on=retry, attempts=self.attempts, timeout=None):
                with attempt:
                    tries += 1
                    return self._attempt(method, path, deadline, data, params)
        except _Fault as fault:
            if fault.retryable and tries > 1 and fault.retry_at is None:
                fault.reason = f"{fault.reason} (after {tries} attempts)"
            raise
        raise self._timeout_fault()  # pragma: no cover - the loop always returns or raises

    def _attempt(
        self,
        method: str,
        path: str,
        deadline: float,
        data: dict[str, str] | None,
        params: dict[str, str] | None,
    ) -> Any:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise self._timeout_fault()
        future = self._exchanges.submit(self._exchange, method, path, deadline, data, params)
        try:
            status, headers, body = future.result(timeout=remaining)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise self._timeout_fault() from None
        except httpx.TimeoutException:
            raise self._timeout_fault() from None
        except httpx.TransportError as exc:
            raise _Fault(
                self._scrub(
                    f"could not reach CourtListener ({type(exc).__name__}); "
                    "check the network and retry"
                ),
                retryable=True,
            ) from None
        except _Fault:
            raise
        except Exception as exc:
            raise _Fault(
                self._scrub(f"the exchange with CourtListener failed ({type(exc).__name__})"),
                retryable=True,
            ) from None
        return self._interpret(status, headers, body)

    def _exchange(
        self,
        method: str,
        path: str,
        deadline: float,
        data: dict[str, str] | None,
        params: dict[str, str] | None,
    ) -> tuple[int, httpx.Headers, bytes]:
        """Runs in a worker thread; the caller stops waiting at the deadline."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise httpx.ReadTimeout("deadline passed before the request")
        with self._client.stream(
            method, path, data=data, params=params, timeout=httpx.Timeout(remaining)
        ) as response:
            chunks: list[bytes] = []
            size = 0
            for chunk in response.iter_bytes():
                chunks.append(chunk)
                size += len(chunk)
                if size > _MAX_BODY:
                    raise _Fault("CourtListener sent an answer too large to read; retry later")
                if time.monotonic() > deadline:
                    raise httpx.ReadTimeout("deadline passed while reading")
            return response.status_code, response.headers, b"".join(chunks)

    def _interpret(self, status: int, headers: httpx.Headers, body: bytes) -> Any:
        if status == 429:
            retry_at = _wait_until(body) or _retry_after(headers.get("retry-after"))
            if retry_at is None:
                retry_at = _now() + dt.timedelta(seconds=_DEFAULT_THROTTLE)
            wait = max(0.0, (retry_at - _now()).total_seconds())
            raise _Fault(
                f"CourtListener is throttling requests until {_iso(retry_at)}; retry after then",
                retryable=True,
                retry_at=retry_at,
                wait=wait,
            )
        if status >= 500:
            raise _Fault(
                f"CourtListener had a server error (HTTP {status}); retry in a few minutes",
                retryable=True,
            )
        if status in (401, 403):
            raise _Fault(
                f"CourtListener refused the request (HTTP {status}): the API token is "
                "missing, invalid or not permitted"
            )
        if status != 200:
            raise _Fault(f"CourtListener answered HTTP {status}; retry later")
        try:
            return json.loads(body)
        except (ValueError, UnicodeDecodeError):
            raise _Fault(
                "CourtListener sent a malformed answer (not JSON); retry later", retryable=True
            ) from None


def _court_from_url(value: Any) -> str | None:
    """``.../api/rest/v4/courts/ca11/`` -> ``ca11``."""
    if not isinstance(value, str):
        return None
    found = re.search(r"/courts/([^/]+)/?$", value)
    return found.group(1) if found else None
