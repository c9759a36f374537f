"""Moves over one WebSocket per player (``GET /api/games/<id>/socket``).

Why: per move, HTTP costs more CPU than the move itself — gunicorn parses a request,
Werkzeug and Flask build request and response objects, run the before/after hooks,
route the URL and parse the body (docs/BENCHMARKS.md). A player who keeps one socket
open pays that once, at the handshake; each frame then goes straight to the same
service path as ``POST /api/games/<id>/actions``: the same ``ActionSchema``, the same
token resolution (the worker's token cache), ``Platform.act`` (action-id idempotency,
``expected_seq``, the one-round-trip append) and the same signed receipt. Answers carry
the HTTP status the POST would have had, and the view is the caller's redacted view,
as over HTTP.

flask-sock (on simple-websocket and wsproto) rather than a handler of our own: it runs
inside gunicorn's gevent and gthread workers as an ordinary Flask route, so the
handshake goes through the app's hooks (rate limit, request id, security headers), and
it does the framing, pings and size limits. A socket holds a greenlet (gevent) or a
thread (gthread) while open: sockets share the live streams' per-worker slots
(``SSE_MAX_*``) and close after ``SOCKET_IDLE_SECONDS`` without a frame.

Frames are counted against ``RATE_LIMIT_DEFAULT`` per client address *in the worker*
(the ``limits`` library's memory storage): counting each frame in Redis would cost the
round trip the socket exists to save.
"""

from __future__ import annotations

import json
import logging
import time

from flask import Flask, current_app, request
from flask_babel import force_locale
from flask_sock import Sock
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter
from marshmallow import ValidationError
from simple_websocket import ConnectionClosed
from werkzeug.routing import WebsocketMismatch
from wsproto.utilities import RemoteProtocolError

from events.connection import UNAVAILABLE
from service import wiring
from service.http import errors as http_errors
from service.http import games as api
from service.http import i18n, json_input
from service.http.schemas import ActionSchema
from service.metrics import SOCKET_FRAMES
from service.services.callers import bearer_token
from service.services.errors import Broken, Forbidden, Invalid, RateLimited, Refusal, Unauthenticated, Unavailable
from service.wiring import services

log = logging.getLogger(__name__)
sock = Sock()
POLICY_VIOLATION = 1008  # WebSocket close codes (RFC 6455)
INTERNAL_ERROR = 1011


class FrameLimits:
    """Per-worker counters of frames per client address."""

    def __init__(self, spec: str | None):
        self.items = parse_many(spec) if spec else []
        self.limiter = SlidingWindowCounterRateLimiter(MemoryStorage())

    def allow(self, client: str) -> int | None:
        """None when the frame may go on; else seconds to wait."""
        for item in self.items:
            if not self.limiter.hit(item, "socket", client):
                reset = self.limiter.get_window_stats(item, "socket", client).reset_time
                return max(1, int(reset - time.time()) + 1)
        return None


def install(app: Flask) -> None:
    app.config.setdefault(
        "SOCK_SERVER_OPTIONS", {"ping_interval": 25, "max_message_size": app.config["MAX_BODY_BYTES"]}
    )
    limits_on = app.config["RATE_LIMITS_ENABLED"] and app.config["RATE_LIMIT_DEFAULT"]
    wiring.of(app).socket_limits = FrameLimits(app.config["RATE_LIMIT_DEFAULT"] if limits_on else None)
    sock.init_app(app)
    app.register_error_handler(WebsocketMismatch, not_a_handshake)
    app.register_error_handler(RemoteProtocolError, bad_handshake)


def not_a_handshake(exc: WebsocketMismatch):
    """A plain request to the socket's route: 400, saying what the route takes."""
    return http_errors.response_of(Invalid("bad_handshake", "this route takes a WebSocket handshake"))


def bad_handshake(exc: RemoteProtocolError):
    """An upgrade request wsproto refuses (no Sec-WebSocket-Key, another version): bad
    input, 400, nothing sent on the socket yet, never an internal error."""
    return http_errors.response_of(
        Invalid("bad_handshake", f"not a valid WebSocket handshake: {exc}", {"reason": str(exc)})
    )


def answer(status: int, body: dict) -> str:
    return json.dumps({"status": status, "body": body}, separators=(",", ":"))


def error(exc: Refusal) -> str:
    return answer(http_errors.status_of(exc), http_errors.body_of(exc))


def envelope(text) -> dict:
    """One frame as an action envelope, or Refusal 400 as for a POST body."""
    if not isinstance(text, str):
        raise Invalid("malformed", "a frame is one JSON object as text")
    try:
        data = json_input.loads(text.encode())
    except ValueError:
        raise Invalid("malformed", "the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise Invalid("malformed", "the body must be a JSON object")
    try:
        return api.schema_instance(ActionSchema).load(data)
    except ValidationError as exc:
        raise Invalid("bad_request", "the request fails its schema", {"json": exc.messages}) from None


def authenticate(ws, game_id: str, idle: float):
    """The caller and the answers' language, from the handshake's Authorization and
    Accept-Language headers or else a first frame ``{"token": ..., "accept_language"?: ...}``
    (browsers cannot set headers on a WebSocket: a page's language may not be its
    browser's)."""
    token = bearer_token(request.headers)
    language = i18n.request_language()
    if token is None:
        frame = ws.receive(timeout=idle)
        try:
            data = json_input.loads(frame) if isinstance(frame, str) else None  # strict: no lone surrogates
            token = data["token"]
            chosen = data.get("accept_language", None)
        except (ValueError, TypeError, KeyError, AttributeError):
            token = chosen = None
        if not isinstance(token, str) or not token or not isinstance(chosen, (str, type(None))):
            raise Unauthenticated("bad_token", "send the seat's token first: an Authorization header or a token frame")
        if chosen is not None:
            language = i18n.tag_for(chosen)
    who = api.platform().caller(game_id, token)
    if not who.is_seat:
        raise Forbidden("not_a_seat", "only a seat token can play actions")
    return who, language


def one_frame(game_id: str, who, text, limits: FrameLimits, client: str) -> str:
    """The answer to one frame: what ``POST .../actions`` would have answered."""
    try:
        wait = limits.allow(client)
        if wait is not None:
            raise RateLimited("rate_limited", "too many actions from this client; slow down", {"retry_after": wait})
        body = envelope(text)
        status, answered = api.play(game_id, who, body)
        SOCKET_FRAMES.labels(str(status)).inc()
        return answer(status, answered)
    except Refusal as exc:
        SOCKET_FRAMES.labels(str(http_errors.status_of(exc))).inc()
        return error(exc)
    except UNAVAILABLE as exc:
        SOCKET_FRAMES.labels("503").inc()
        log.warning("storage unavailable on a socket of %s: %s", game_id, exc)
        return error(Unavailable("storage_unavailable", "storage is unreachable; retry shortly", {"retry_after": 1}))


@sock.route("/api/games/<game_id>/socket")
def game_socket(ws, game_id):
    """One player's moves: a frame per action envelope, an answer frame per frame, in order."""
    config = current_app.config
    idle = config["SOCKET_IDLE_SECONDS"]
    client = request.remote_addr or ""
    limits = services().socket_limits
    try:
        with services().stream_slots.hold(client, game_id):
            who, language = authenticate(ws, game_id, idle)
            ws.send(answer(200, {"game": game_id, "viewer": who.describe()}))
            with force_locale(i18n.LANGUAGES[language]):
                while True:
                    text = ws.receive(timeout=idle)
                    if text is None:  # idle past SOCKET_IDLE_SECONDS
                        ws.close(reason=1000, message="idle")
                        return
                    ws.send(one_frame(game_id, who, text, limits, client))
    except ConnectionClosed:
        return
    except Refusal as exc:  # the handshake's refusal: say why, then close
        refuse(ws, exc, POLICY_VIOLATION)
    except UNAVAILABLE as exc:
        log.warning("storage unavailable opening a socket of %s: %s", game_id, exc)
        refuse(
            ws,
            Unavailable("storage_unavailable", "storage is unreachable; retry shortly", {"retry_after": 1}),
            INTERNAL_ERROR,
        )
    except Exception:
        log.exception("unhandled error on the socket of %s", game_id)
        refuse(ws, Broken("internal", "internal error"), INTERNAL_ERROR)


def refuse(ws, exc: Refusal, close_code: int) -> None:
    """The last frame says why; then the socket closes with ``close_code``."""
    try:
        ws.send(error(exc))
        ws.close(reason=close_code, message=exc.code)
    except ConnectionClosed:
        pass
