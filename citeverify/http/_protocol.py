"""The server's own limits, where uvicorn's httptools protocol has none.

uvicorn (with httptools) bounds neither the size nor the count of request
headers, has no timeout for a connection that never sends a byte or sends its
head or body slowly, answers its parser's rejections and its concurrency limit
in plain text, and accepts connections until the process runs out of file
descriptors.  ``GuardedProtocol`` is uvicorn's ``HttpToolsProtocol`` with:

- a cap on the bytes of a request head (request line and headers), counted on
  the raw bytes *before* they reach the parser, so a 64 MB header is refused
  after the first ``max_header_bytes`` instead of being parsed for seconds
  (431);
- a cap on the number of headers (431);
- an idle timeout for a new connection that sends nothing (closed), a
  head-read timeout from a request's first byte to its last header, and a
  body-read timeout from there to its last body byte (408 where a response
  can still be written);
- a cap on requests in flight per worker (503 with ``Retry-After``) and on open
  connections per worker (past it, an idle connection is dropped to make room,
  else the new one is closed at once, so descriptors never run out);
- every rejection it writes is the contract's error envelope.

uvicorn's own keep-alive timeout still closes a connection that is silent
between two requests.  The settings reach each worker in ``$CITEVERIFY_SERVE_LIMITS``
(uvicorn starts workers from an import string), see ``ServerLimits``.
"""

from __future__ import annotations

import json
from asyncio import TimerHandle
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from citeverify.http._limits import ServerLimits, envelope_response

__all__ = ["GuardedProtocol"]


async def _busy(scope: Any, receive: Any, send: Any) -> None:
    """The app that answers a request over the in-flight cap."""
    body = json.dumps(
        {
            "error": {
                "code": "service_unavailable",
                "message": "the server is at its limit of requests in flight; retry shortly",
            }
        }
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 503,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", b"1"),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


_LIMITS: ServerLimits | None = None


def _limits() -> ServerLimits:
    global _LIMITS
    if _LIMITS is None:
        _LIMITS = ServerLimits.from_env()
    return _LIMITS


#: A timer may fire this much before its time (the loop's timers count milliseconds).
_TIMER_SLACK = 0.001

#: How long a refused connection's further bytes are dropped before it closes.
_LINGER_SECONDS = 2.0


class _Refused(Exception):
    """Raised from a parser callback to stop parsing; the refusal is on the protocol."""


class GuardedProtocol(HttpToolsProtocol):
    """``HttpToolsProtocol`` with the limits of ``ServerLimits`` (see the module doc)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits = _limits()
        self.timeout_keep_alive = self.limits.timeout_keep_alive
        self._phase = "idle"  # idle (no byte of a request yet), head, body
        self._head_bytes = 0
        self._header_count = 0
        self._timer: TimerHandle | None = None
        self._deadline: float | None = None  # when the current phase times out
        self._linger: TimerHandle | None = None
        self._refusal: tuple[int, str, str] | None = None
        self._seen_request = False

    # -- connection --------------------------------------------------------------------

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        if len(self.connections) > self.limits.max_connections and not self._evict_idle():
            transport.abort()  # frees the descriptor at once
            return
        self._arm(self.limits.timeout_idle)

    def _evict_idle(self) -> bool:
        """Close one connection that has not sent a byte; whether there was one."""
        for other in list(self.connections):
            if (
                other is not self
                and isinstance(other, GuardedProtocol)
                and other._phase == "idle"
                and not other._seen_request
                and other.transport is not None
            ):
                other.transport.abort()
                self.connections.discard(other)
                return True
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timers()
        super().connection_lost(exc)

    # -- reading -----------------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        if self._phase == "refused":
            return  # dropped unparsed until the linger closes the connection
        if self._phase == "idle":
            self._phase = "head"
            self._seen_request = True
            self._head_bytes = 0
            self._header_count = 0
            self._arm(self.limits.timeout_header)
        if self._phase != "head":
            super().data_received(data)
            return
        room = self.limits.max_header_bytes - self._head_bytes
        if len(data) <= room:
            self._head_bytes += len(data)
            super().data_received(data)
            return
        # Feed only what the limit allows; refuse if that did not finish the head.
        self._head_bytes += room
        if room > 0:
            super().data_received(data[:room])
        if self.transport.is_closing() or self._phase == "refused":
            return
        if self._phase == "head":
            self._refuse(
                431,
                "request_header_fields_too_large",
                f"the request line and headers exceed {self.limits.max_header_bytes} bytes",
            )
            return
        super().data_received(data[room:])

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._header_count = 0

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        if self._header_count > self.limits.max_headers:
            self._refusal = (
                431,
                "request_header_fields_too_large",
                f"more than {self.limits.max_headers} headers",
            )
            raise _Refused
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._phase = "body"
        self._arm(self.limits.timeout_body)
        busy = len(self.tasks) >= self.limits.max_in_flight
        if busy:
            app, self.app = self.app, _busy
        try:
            super().on_headers_complete()
        finally:
            if busy:
                self.app = app

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._phase = "idle"
        self._disarm()

    # -- refusals ----------------------------------------------------------------------

    def send_400_response(self, msg: str) -> None:
        """The parser's rejections (and ours, raised from a callback) as envelopes."""
        refusal, self._refusal = self._refusal, None
        if refusal is None:
            refusal = (400, "bad_request", "the request is not valid HTTP/1.1")
        self._refuse(*refusal)

    def _refuse(self, status: int, code: str, message: str) -> None:
        """Write the envelope and stop reading: the rest of what the client sends is
        dropped unparsed for a short linger, so that a client still sending reads the
        answer instead of a connection reset; then the connection closes."""
        self._stop_timers()
        self.logger.info("refused a request: %d %s", status, code)
        if self.transport.is_closing():
            return
        self._phase = "refused"
        self.transport.write(envelope_response(status, code, message))
        if self.transport.can_write_eof():
            self.transport.write_eof()
        self._linger = self.loop.call_later(_LINGER_SECONDS, self.transport.close)

    # -- timers ------------------------------------------------------------------------

    # One timer per connection serves the deadline of every phase.  Each request moves
    # the deadline three times (head, body, none); cancelling and scheduling a timer each
    # time was a measurable part of the server's work per request.  Instead a deadline
    # moved later is only recorded: the timer, when it fires before it, sleeps again until
    # it.  Only a deadline earlier than the timer's reschedules it.  ``_expired`` runs
    # when the current phase's deadline passes, as if each phase had its own timer.

    def _arm(self, seconds: float) -> None:
        """Time the current phase out ``seconds`` from now."""
        deadline = self.loop.time() + seconds
        self._deadline = deadline
        timer = self._timer
        if timer is not None:
            if timer.when() <= deadline:
                return  # it fires first and sleeps again until the deadline
            timer.cancel()
        self._timer = self.loop.call_at(deadline, self._fire)

    def _disarm(self) -> None:
        """No deadline: a pending timer finds nothing to do when it fires, and lapses."""
        self._deadline = None

    def _stop_timers(self) -> None:
        self._deadline = None
        for timer in (self._timer, self._linger):
            if timer is not None:
                timer.cancel()
        self._timer = self._linger = None

    def _fire(self) -> None:
        self._timer = None
        deadline = self._deadline
        if deadline is None:
            return
        if deadline - self.loop.time() > _TIMER_SLACK:  # moved since: sleep until it
            self._timer = self.loop.call_at(deadline, self._fire)
            return
        self._deadline = None
        self._expired()

    def _expired(self) -> None:
        if self.transport is None or self.transport.is_closing() or self._phase == "refused":
            return
        if self._phase == "idle":  # a new connection that sent nothing
            self.transport.close()
            return
        cycle = self.cycle
        if self._phase == "head" and cycle is not None and not cycle.response_complete:
            # A pipelined head behind a request still being answered: wait for it.
            self._arm(self.limits.timeout_header)
            return
        if self._phase == "body" and cycle is not None and cycle.response_started:
            self.transport.close()
            return
        what = "headers" if self._phase == "head" else "body"
        seconds = self.limits.timeout_header if self._phase == "head" else self.limits.timeout_body
        self._refuse(
            408, "request_timeout", f"the request {what} did not arrive within {seconds:g} s"
        )
