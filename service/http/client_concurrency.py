"""At most ``MAX_INFLIGHT_PER_CLIENT`` requests of one client address in progress per
worker; the next ones are refused at once (429 ``too_many_requests_in_flight``,
``Retry-After: 1``) before Flask, the rate limiter or Redis see them.

Why: the rate limiter counts requests over a minute, but a client that holds a hundred
kept-alive connections and sends on all of them at once still fills a worker's event
loop with a hundred requests in progress, and every other client's request waits
behind them (measured: a player's move waited seconds while one address flooded, even
though most of the flood was refused). Refusing the surplus here costs a dictionary
lookup and a short constant answer, so a flood mostly spins on cheap refusals and the
worker's time goes to other clients. Live streams and move sockets are not counted (they take
stream slots, capped per client by service/http/live.py). ``MAX_INFLIGHT_PER_CLIENT=0`` turns this off, and so does
``RATE_LIMITS=off`` (it is part of the per-client limits).

The address is the WSGI ``REMOTE_ADDR``: installed inside ``ProxyFix`` (service/http/limits.py),
so behind a trusted proxy it is the client's own.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment

MESSAGE = "too many requests from this address at once; try again in 1 s"


def body(message: str) -> bytes:
    """The refusal's JSON body with ``message`` (the request's language)."""
    error = {"code": "too_many_requests_in_flight", "message": message, "details": {"retry_after": 1}}
    return json.dumps({"error": error}, ensure_ascii=False).encode() + b"\n"


BODY = body(MESSAGE)


class InflightCap:
    """WSGI middleware: a per-address count of requests in progress in this process."""

    def __init__(
        self,
        app: WSGIApplication,
        most: int,
        exempt: Callable[[str], bool] = lambda address: False,
        body_for: Callable[[str | None], bytes] = lambda accept_language: BODY,
    ) -> None:
        """``exempt(address)``: an address not capped (a trusted venue network's);
        ``body_for(Accept-Language)``: the refusal's body in the request's language
        (built once per language, before any request)."""
        self.app, self.most, self.exempt, self.body_for = app, most, exempt, body_for
        self.inflight: Counter[str] = Counter()
        self.lock = threading.Lock()

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if not path.startswith("/api/") or path.endswith(("/stream", "/socket")):
            return self.app(environ, start_response)
        who = environ.get("REMOTE_ADDR") or "unknown"
        if self.exempt(who):
            return self.app(environ, start_response)
        with self.lock:
            if self.inflight[who] >= self.most:
                refused = True
            else:
                refused = False
                self.inflight[who] += 1
        if refused:
            answer = self.body_for(environ.get("HTTP_ACCEPT_LANGUAGE"))
            start_response(
                "429 Too Many Requests",
                [("Content-Type", "application/json"), ("Content-Length", str(len(answer))), ("Retry-After", "1")],
            )
            return [answer]
        try:
            result = self.app(environ, start_response)
            try:
                return list(result)  # counted until the answer is built; streams are not counted
            finally:
                if hasattr(result, "close"):
                    result.close()
        finally:
            with self.lock:
                self.inflight[who] -= 1
                if self.inflight[who] <= 0:
                    del self.inflight[who]
