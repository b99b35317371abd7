"""A stand-in for the CourtListener REST API v4, served on loopback for end-to-end tests.

It answers the endpoints the provider uses (``citation-lookup``, ``clusters``,
``dockets``, ``opinions``) in CourtListener's shapes, over a real HTTP server
(stdlib ``http.server`` in a thread, 127.0.0.1, ephemeral port), and can be
told to misbehave the ways the real service does: throttle (429 with a JSON
``wait_until``, or with ``Retry-After: 86400``), fail (5xx), hang past any
deadline, send malformed bodies, or drop the connection.

The cases are real federal decisions with their real names, courts, decision
dates and parallel citations; their ids are the stand-in's own.  One passage
of each opinion text is given (U.S. court opinions are public domain), with
star-pagination where the real reporter pages are known.  ``925 F.3d 1339``
(*Varghese v. China Southern Airlines*) is the famous fabricated citation: the
stand-in, like CourtListener, does not know it.
"""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.parse
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["CASES", "Case", "StandIn", "running"]


@dataclass(frozen=True)
class Case:
    cluster_id: int
    docket_id: int
    opinion_ids: tuple[int, ...]
    case_name: str
    court_id: str
    date_filed: str
    citations: tuple[tuple[str, str, str, int], ...]  # volume, reporter, page, CL type
    slug: str
    docket_number: str = ""
    html_with_citations: str = ""
    plain_text: str = ""


CASES: tuple[Case, ...] = (
    Case(
        cluster_id=145875,
        docket_id=9001,
        opinion_ids=(145876,),
        case_name="Ashcroft v. Iqbal",
        court_id="scotus",
        date_filed="2009-05-18",
        citations=(
            ("556", "U.S.", "662", 1),
            ("129", "S. Ct.", "1937", 4),
            ("173", "L. Ed. 2d", "868", 4),
        ),
        slug="ashcroft-v-iqbal",
        docket_number="07-1015",
        html_with_citations=(
            "<div><p>Justice KENNEDY delivered the opinion of the Court.</p>"
            "<p>Two working principles underlie our decision in <i>Twombly.</i> "
            '<span class="star-pagination" label="678">*678</span> First, the tenet that '
            "a court must accept as true all of the allegations contained in a complaint is "
            "inapplicable to legal conclusions. Threadbare recitals of the elements of a cause "
            "of action, supported by mere conclusory statements, do not suffice.</p>"
            "<p>To survive a motion to dismiss, a complaint must contain sufficient factual "
            "matter, accepted as true, to &ldquo;state a claim to relief that is plausible on "
            "its face.&rdquo; "
            '<span class="star-pagination" label="679">*679</span> Second, only a complaint '
            "that states a plausible claim for relief survives a motion to dismiss.</p>"
            '<div class="footnotes"><span class="star-pagination" label="999">*999</span>'
            "A footnote.</div></div>"
        ),
    ),
    Case(
        cluster_id=145730,
        docket_id=9002,
        opinion_ids=(145731, 145732),
        case_name="Bell Atlantic Corp. v. Twombly",
        court_id="scotus",
        date_filed="2007-05-21",
        citations=(
            ("550", "U.S.", "544", 1),
            ("127", "S. Ct.", "1955", 4),
            ("167", "L. Ed. 2d", "929", 4),
        ),
        slug="bell-atlantic-corp-v-twombly",
        docket_number="05-1126",
        plain_text=(
            "Factual allegations must be enough to raise a right to relief above the "
            "speculative level, on the assumption that all the allegations in the complaint "
            "are true (even if doubtful in fact)."
        ),
    ),
    Case(
        cluster_id=770001,
        docket_id=9003,
        opinion_ids=(770002,),
        case_name="United States v. Microsoft Corp.",
        court_id="cadc",
        date_filed="2001-06-28",
        citations=(("253", "F.3d", "34", 1),),
        slug="united-states-v-microsoft-corp",
        docket_number="00-5212",
    ),
    Case(
        cluster_id=770011,
        docket_id=9004,
        opinion_ids=(770012,),
        case_name="Zeran v. America Online, Inc.",
        court_id="ca4",
        date_filed="1997-11-12",
        citations=(("129", "F.3d", "327", 1),),
        slug="zeran-v-america-online-inc",
        docket_number="97-1523",
    ),
    Case(
        cluster_id=770021,
        docket_id=9005,
        opinion_ids=(770022,),
        case_name="Authors Guild v. Google, Inc.",
        court_id="ca2",
        date_filed="2015-10-16",
        citations=(("804", "F.3d", "202", 1),),
        slug="authors-guild-v-google-inc",
        docket_number="13-4829",
    ),
    Case(
        cluster_id=770031,
        docket_id=9006,
        opinion_ids=(770032,),
        case_name="Mata v. Avianca, Inc.",
        court_id="nysd",
        date_filed="2023-06-22",
        citations=(("678", "F. Supp. 3d", "443", 1),),
        slug="mata-v-avianca-inc",
        docket_number="1:22-cv-01461",
    ),
    Case(
        cluster_id=770041,
        docket_id=9007,
        opinion_ids=(770042,),
        case_name="Bragg v. Linden Research, Inc.",
        court_id="paed",
        date_filed="2007-05-30",
        citations=(("487", "F. Supp. 2d", "593", 1),),
        slug="bragg-v-linden-research-inc",
        docket_number="06-4925",
    ),
)

# Reporters the stand-in's "eyecite" recognises in text, and those it can look up.
RECOGNISED = (
    "U.S.",
    "S. Ct.",
    "L. Ed. 2d",
    "L. Ed.",
    "F.4th",
    "F.3d",
    "F.2d",
    "F. Supp. 3d",
    "F. Supp. 2d",
    "F. Supp.",
    "Odd. Rptr.",  # recognised but not covered: CourtListener's per-citation 400
)
COVERED = frozenset(RECOGNISED) - {"Odd. Rptr."}
_CITATION = re.compile(
    r"(?P<volume>\d+) (?P<reporter>"
    + "|".join(re.escape(r) for r in sorted(RECOGNISED, key=len, reverse=True))
    + r") (?P<page>\d+)"
)
MAX_CITATIONS_PER_REQUEST = 250


@dataclass
class Fault:
    """How the stand-in misbehaves on one endpoint, for ``times`` requests (None: always)."""

    mode: str
    times: int | None = None
    seconds: float = 30.0


@dataclass
class Seen:
    method: str
    endpoint: str
    path: str
    authorization: str | None
    text: str | None


@dataclass
class StandIn:
    """The server's state: cases, token, faults, and a log of what it was asked."""

    token: str | None = "standin-token-0123456789abcdef"
    cases: tuple[Case, ...] = CASES
    clusters_carry_court: bool = False
    ambiguous: dict[str, tuple[int, ...]] = field(default_factory=dict)
    faults: dict[str, Fault] = field(default_factory=dict)
    seen: list[Seen] = field(default_factory=list)
    base_url: str = ""
    _release: threading.Event = field(default_factory=threading.Event)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    # -- control -------------------------------------------------------------

    def fail(
        self, endpoint: str, mode: str, times: int | None = None, seconds: float = 30.0
    ) -> None:
        """Make ``endpoint`` (``citation-lookup``, ``dockets``, ``opinions``, ``*``) misbehave."""
        self.faults[endpoint] = Fault(mode, times, seconds)

    def heal(self) -> None:
        self.faults.clear()

    def counts(self) -> Counter[str]:
        with self._lock:
            return Counter(s.endpoint for s in self.seen)

    # -- data ----------------------------------------------------------------

    def by_cluster(self) -> dict[int, Case]:
        return {c.cluster_id: c for c in self.cases}

    def by_citation(self, volume: str, reporter: str, page: str) -> list[Case]:
        key = f"{volume} {reporter} {page}"
        if key in self.ambiguous:
            clusters = self.by_cluster()
            return [clusters[i] for i in self.ambiguous[key]]
        return [
            case
            for case in self.cases
            if any((v, r, p) == (volume, reporter, page) for v, r, p, _ in case.citations)
        ]

    def cluster_json(self, case: Case) -> dict[str, Any]:
        api = f"{self.base_url}/api/rest/v4"
        data: dict[str, Any] = {
            "resource_uri": f"{api}/clusters/{case.cluster_id}/",
            "id": case.cluster_id,
            "absolute_url": f"/opinion/{case.cluster_id}/{case.slug}/",
            "panel": [],
            "non_participating_judges": [],
            "docket_id": case.docket_id,
            "docket": f"{api}/dockets/{case.docket_id}/",
            "sub_opinions": [f"{api}/opinions/{o}/" for o in case.opinion_ids],
            "citations": [
                {"volume": int(v), "reporter": r, "page": p, "type": t}
                for v, r, p, t in case.citations
            ],
            "case_name_short": case.case_name.split(" v. ")[0],
            "case_name": case.case_name,
            "case_name_full": case.case_name,
            "date_filed": case.date_filed,
            "date_filed_is_approximate": False,
            "slug": case.slug,
            "precedential_status": "Published",
            "citation_count": 1000,
            "judges": "",
            "source": "C",
        }
        if self.clusters_carry_court:
            data["court_id"] = case.court_id
        return data


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def _send(self, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
        raw = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(raw)

    def _handle(self, method: str) -> None:
        state = self.server.state
        parsed = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(parsed.query)
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        form = urllib.parse.parse_qs(body.decode("utf-8", "replace")) if body else {}
        parts = [p for p in parsed.path.split("/") if p]
        endpoint = parts[3] if len(parts) >= 4 and parts[:3] == ["api", "rest", "v4"] else "?"
        text = form.get("text", [None])[0]
        with state._lock:
            state.seen.append(
                Seen(method, endpoint, parsed.path, self.headers.get("Authorization"), text)
            )
        if self._misbehave(state, endpoint):
            return
        if state.token and self.headers.get("Authorization") != f"Token {state.token}":
            self._send(401, {"detail": "Authentication credentials were not provided."})
            return
        if endpoint == "citation-lookup" and method == "POST":
            self._send(200, _lookup(state, text or ""))
        elif endpoint == "clusters" and len(parts) == 5:
            case = state.by_cluster().get(int(parts[4])) if parts[4].isdigit() else None
            self._object(state.cluster_json(case) if case else None, query)
        elif endpoint == "dockets" and len(parts) == 5:
            found = [c for c in state.cases if str(c.docket_id) == parts[4]]
            self._object(_docket(state, found[0]) if found else None, query)
        elif endpoint == "opinions" and len(parts) == 5:
            found = [c for c in state.cases if parts[4] in map(str, c.opinion_ids)]
            self._object(_opinion(state, found[0], int(parts[4])) if found else None, query)
        else:
            self._send(404, {"detail": "Not found."})

    def _object(self, data: dict[str, Any] | None, query: dict[str, list[str]]) -> None:
        if data is None:
            self._send(404, {"detail": "No object matches the given query."})
            return
        if "fields" in query:
            wanted = set(query["fields"][0].split(","))
            data = {k: v for k, v in data.items() if k in wanted}
        self._send(200, data)

    def _misbehave(self, state: StandIn, endpoint: str) -> bool:
        with state._lock:
            fault = state.faults.get(endpoint) or state.faults.get("*")
            if fault is None:
                return False
            if fault.times is not None:
                if fault.times <= 0:
                    return False
                fault.times -= 1
        mode = fault.mode
        if mode == "throttle-wait-until":
            until = time.time() + fault.seconds
            stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(until))
            frac = f"{until % 1:.6f}"[1:]
            self._send(
                429,
                {
                    "detail": "Too many citations requested.",
                    "wait_until": f"{stamp}{frac}+00:00",
                },
            )
        elif mode == "throttle-retry-after":
            self._send(
                429,
                {"detail": f"Request was throttled. Expected available in {fault.seconds:g} s."},
                {"Retry-After": str(int(fault.seconds))},
            )
        elif mode == "5xx":
            self._send(503, b"<html><body>Service Unavailable</body></html>")
        elif mode == "malformed":
            self._send(200, b'[{"citation": "556 U.S. 662", "status": 2')
        elif mode == "not-a-list":
            self._send(200, {"detail": "unexpected"})
        elif mode == "hang":
            state._release.wait(fault.seconds)
            with suppress(OSError):
                self._send(503, {"detail": "late"})
        elif mode == "trickle":
            # Headers at once, then one byte at a time: no per-read timeout ever fires.
            body = b" " * 200 + b"[]"
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                for byte in body:
                    if state._release.wait(0.1):
                        break
                    self.wfile.write(bytes([byte]))
                    self.wfile.flush()
            except OSError:
                pass
        elif mode == "drop":
            self.close_connection = True
            self.wfile.flush()
            self.connection.close()
        else:  # pragma: no cover - a typo in a test
            raise ValueError(mode)
        return True


def _lookup(state: StandIn, text: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for index, match in enumerate(_CITATION.finditer(text)):
        volume, reporter, page = match.group("volume", "reporter", "page")
        entry: dict[str, Any] = {
            "citation": match.group(0),
            "normalized_citations": [f"{volume} {reporter} {page}"],
            "start_index": match.start(),
            "end_index": match.end(),
        }
        if index == MAX_CITATIONS_PER_REQUEST:
            out.append({**entry, "status": 429, "error_message": "Too many requests."})
            break
        if reporter not in COVERED:
            entry["normalized_citations"] = []
            entry["status"] = 400
            entry["error_message"] = f"Unable to find reporter with abbreviation of '{reporter}'"
            entry["clusters"] = []
        else:
            cases = state.by_citation(volume, reporter, page)
            if not cases:
                entry["status"] = 404
                entry["error_message"] = f"Citation not found: '{volume} {reporter} {page}'"
                entry["clusters"] = []
            else:
                entry["status"] = 300 if len(cases) > 1 else 200
                entry["error_message"] = ""
                entry["clusters"] = [
                    state.cluster_json(c)
                    for c in sorted(cases, key=lambda c: c.cluster_id, reverse=True)
                ]
        out.append(entry)
    return out


def _docket(state: StandIn, case: Case) -> dict[str, Any]:
    api = f"{state.base_url}/api/rest/v4"
    return {
        "resource_uri": f"{api}/dockets/{case.docket_id}/",
        "id": case.docket_id,
        "court": f"{api}/courts/{case.court_id}/",
        "court_id": case.court_id,
        "case_name": case.case_name,
        "docket_number": case.docket_number,
        "absolute_url": f"/docket/{case.docket_id}/{case.slug}/",
    }


def _opinion(state: StandIn, case: Case, opinion_id: int) -> dict[str, Any]:
    api = f"{state.base_url}/api/rest/v4"
    lead = opinion_id == case.opinion_ids[0]
    return {
        "resource_uri": f"{api}/opinions/{opinion_id}/",
        "id": opinion_id,
        "cluster": f"{api}/clusters/{case.cluster_id}/",
        "type": "020lead" if lead else "040dissent",
        "plain_text": case.plain_text if lead else "A dissenting opinion.",
        "html": "",
        "html_lawbox": "",
        "html_columbia": "",
        "html_anon_2020": "",
        "xml_harvard": "",
        "html_with_citations": case.html_with_citations if lead else "",
    }


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, state: StandIn) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.state = state


@contextmanager
def running(state: StandIn | None = None) -> Iterator[StandIn]:
    """Serve ``state`` on 127.0.0.1 (ephemeral port) for the ``with`` block."""
    state = state or StandIn()
    server = _Server(state)
    host, port = server.server_address[:2]
    state.base_url = f"http://{host!s}:{port}"
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield state
    finally:
        state._release.set()  # wake any hanging handler
        server.shutdown()
        server.server_close()
        thread.join(5)
