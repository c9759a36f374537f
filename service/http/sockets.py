"""Moves over one WebSocket per player (``GET /api/games/<id>/socket``).

Why: per move, HTTP costs more CPU than the move itself — gunicorn parses a request,
Werkzeug and Flask build request and response objects, run the before/after hooks,
route the URL and parse the body (docs/BENCHMARKS.md). A player who keeps one socket
open pays that once, at the handshake; each frame then goes straight to the same
service path as ``POST /api/games/<id>/actions``: the same ``ActionSchema``, the same
token resolution (the worker's token cache), ``Games.act`` (action-id idempotency,
``expected_seq``, the one-round-trip append) and the same signed receipt. Answers carry
the HTTP status the POST would have had, and the view is the caller's redacted view,
as over HTTP.

flask-sock (on simple-websocket and wsproto) rather than a handler of our own: it runs
inside gunicorn's gevent and gthread workers as an ordinary Flask route, so the
handshake goes through the app's hooks (rate limit, request id, security headers), and
it does the framing, pings and size limits. A socket holds a greenlet (gevent) or a
thread (gthread) while open: sockets share the live streams' per-worker slots
(``SSE_MAX_*``) and close after ``SOCKET_IDLE_SECONDS`` without a frame.

A page that follows the game over its socket (``"follow": <the seq it drew>`` in the
token frame) is pushed what it draws: after the hello (which then carries the viewer's
whole position and the meta), one ``{"push": {entries, meta_patch, position_patch}}``
frame per batch of new entries: the entries redacted for the viewer and what changed in
the meta and the viewer's position (view, ``to_act``, status, clocks, legal actions)
since what the socket last sent, as patches, so the frame does not grow with the game.
The position and its patch are computed once per (viewer, seq) per worker by the
game's live tail (service/http/live.py), the one tail that also feeds the spectators'
streams. A referee token may follow (its move frames are refused as over
HTTP); a socket that does not follow is answered only, as before.

Frames are counted against ``RATE_LIMIT_DEFAULT`` per seat (the socket's verified
token: players behind one venue address are not one client) *in the worker*
(the ``limits`` library's memory storage): counting each frame in Redis would cost the
round trip the socket exists to save.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from typing import Any

from flask import Flask, Response, current_app, request
from flask_babel import force_locale
from flask_sock import Sock
from limits import parse_many
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter
from marshmallow import ValidationError
from simple_websocket import ConnectionClosed, Server
from werkzeug.routing import WebsocketMismatch
from wsproto.utilities import RemoteProtocolError

from events.shapes import JSON, Envelope
from projections.fold import PlatformState
from projections.views import redacted_envelope
from service import wiring
from service.adapters.connection import REFUSED, UNAVAILABLE, is_full
from service.http import disk_space, i18n, json_input
from service.http import errors as http_errors
from service.http import games as api
from service.http import limits as rate_limits
from service.http.blueprints import schema_instance
from service.http.live import BLOCK_MS, Drawn, Shown, Tail
from service.http.schemas import ActionSchema
from service.metrics import SOCKET_FRAMES
from service.services.callers import Caller, bearer_token, require_current
from service.services.errors import Broken, Forbidden, Invalid, RateLimited, Refusal, Unauthenticated, Unavailable
from service.wiring import edge, services

log = logging.getLogger(__name__)
sock = Sock()
POLICY_VIOLATION = 1008  # WebSocket close codes (RFC 6455)
INTERNAL_ERROR = 1011


class FrameLimits:
    """Per-worker counters of frames per client address."""

    def __init__(self, spec: str | None) -> None:
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
    wiring.edge_of(app).socket_limits = FrameLimits(app.config["RATE_LIMIT_DEFAULT"] if limits_on else None)
    sock.init_app(app)
    app.register_error_handler(WebsocketMismatch, not_a_handshake)
    app.register_error_handler(RemoteProtocolError, bad_handshake)


def not_a_handshake(exc: WebsocketMismatch) -> tuple[Response, int, dict[str, str]]:
    """A plain request to the socket's route: 400, saying what the route takes."""
    return http_errors.response_of(Invalid("bad_handshake", "this route takes a WebSocket handshake"))


def bad_handshake(exc: RemoteProtocolError) -> tuple[Response, int, dict[str, str]]:
    """An upgrade request wsproto refuses (no Sec-WebSocket-Key, another version): bad
    input, 400, nothing sent on the socket yet, never an internal error."""
    return http_errors.response_of(
        Invalid("bad_handshake", f"not a valid WebSocket handshake: {exc}", {"reason": str(exc)})
    )


def answer(status: int, body: JSON) -> str:
    return json.dumps({"status": status, "body": body}, separators=(",", ":"))


def error(exc: Refusal) -> str:
    return answer(http_errors.status_of(exc), http_errors.body_of(exc))


def envelope(text: object) -> JSON:
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
        loaded: JSON = schema_instance(ActionSchema).load(data)
        return loaded
    except ValidationError as exc:
        raise Invalid("bad_request", "the request fails its schema", {"json": exc.messages}) from None


def authenticate(ws: Server, game_id: str, idle: float) -> tuple[Caller, str, int | None]:
    """The caller and the answers' language, from the handshake's Authorization and
    Accept-Language headers or else a first frame ``{"token": ..., "accept_language"?: ...}``
    (browsers cannot set headers on a WebSocket: a page's language may not be its
    browser's)."""
    token = bearer_token(request.headers)
    language = i18n.request_language()
    follow = followed(request.args.get("follow"))
    if token is None:
        frame = ws.receive(timeout=idle)
        try:
            data: Any = json_input.loads(frame) if isinstance(frame, str) else None  # strict: no lone surrogates
            token = data["token"]
            chosen = data.get("accept_language", None)
            if "follow" in data:
                follow = followed(data["follow"])
        except (ValueError, TypeError, KeyError, AttributeError):
            token = chosen = None
        if not isinstance(token, str) or not token or not isinstance(chosen, (str, type(None))):
            raise Unauthenticated("bad_token", "send the seat's token first: an Authorization header or a token frame")
        if chosen is not None:
            language = i18n.tag_for(chosen)
    who = services().games.caller(game_id, token)
    if not who.is_seat and not (who.referee and follow is not None):
        raise Forbidden("not_a_seat", "only a seat token can play actions")
    return who, language, follow


def followed(value: object) -> int | None:
    """The seq a following page drew (0: nothing yet); None when it does not follow."""
    if value is None:
        return None
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise Invalid("bad_follow", "follow is the seq the page drew: a whole number from 0")
    return value


class Pusher:
    """The pushes of one following socket: a thread (a greenlet under gevent) that waits
    on the game's tail and sends each batch of entries with what changed in the meta and
    the viewer's position since what this socket's page holds (patches when the page
    holds their base, else whole). Its sends and the answers share one lock: frames never
    interleave, and what the page holds is known at each send."""

    def __init__(self, ws: Server, tail: Tail, who: Caller, game_id: str, send_lock: threading.Lock) -> None:
        self.ws, self.tail, self.who, self.game_id, self.lock = ws, tail, who, game_id, send_lock
        self.log, self.games = services().log, services().games  # the thread has no app context
        self.stopped = threading.Event()
        self.after = 0  # the last entry sent
        self.meta_at = self.drawn = -1  # the seqs of the meta and the position the page holds

    def hello(self, after: int) -> JSON:
        """The hello's body: the whole position, the meta, and the entries after ``after``."""
        state, meta, _ = self.tail.shown()
        require_current(state, self.who)
        # up to the state shown: later entries come with the tail's next batch, and its position
        entries = self.log.read(self.game_id, after=after, upto=state["seq"]) if after < state["seq"] else []
        self.after = max([after, *(e["seq"] for e in entries)])
        self.meta_at = self.drawn = state["seq"]
        return {
            "game": self.game_id,
            "viewer": self.who.describe(),
            "entries": self.redacted(state, entries),
            "meta": meta,
            "position": self.tail.position_for(self.who, state).position,
        }

    def redacted(self, state: PlatformState, entries: list[Envelope]) -> list[Envelope]:
        viewer = self.who.viewer(self.games.sees_all(state, self.who)) if entries else None
        return [redacted_envelope(state["game"], e, viewer) for e in entries]

    def answered(self, at: int) -> None:
        """The page was sent its position at ``at`` in a move's answer (under the lock)."""
        self.drawn = max(self.drawn, at)

    def run(self) -> None:
        try:
            while not self.stopped.is_set():
                frames = self.tail.after(self.after, timeout=BLOCK_MS / 1000)
                shown = self.tail.shown()
                state = shown.state
                if frames is None:  # behind the ring: read the gap once, up to the state shown
                    entries = self.log.read(self.game_id, after=self.after, upto=state["seq"])
                else:
                    entries = [envelope for _, _, envelope in frames]
                if not entries or self.stopped.is_set():
                    continue
                require_current(state, self.who)  # a claim revokes the token: its socket is told and closed
                drawn = self.tail.position_for(self.who, state) if state["seq"] >= entries[-1]["seq"] else None
                with self.lock:
                    push = {"entries": self.redacted(state, entries), **self.changed(shown, drawn)}
                    self.ws.send(json.dumps({"push": push}, separators=(",", ":")))
                self.after = entries[-1]["seq"]
        except ConnectionClosed:
            return
        except Refusal as exc:
            with self.lock:
                refuse(self.ws, exc, POLICY_VIOLATION)
        except Exception:
            log.exception("pushing to a socket of %s failed", self.game_id)

    def changed(self, shown: Shown, drawn: Drawn | None) -> JSON:
        """The meta and the position past what the page holds: as patches from what it
        holds, whole when it holds something else, left out when it holds them already."""
        out: JSON = {}
        seq = shown.state["seq"]
        if seq > self.meta_at:
            patch = shown.patch
            out.update({"meta_patch": patch.sent()} if patch and patch.since == self.meta_at else {"meta": shown.meta})
            self.meta_at = seq
        if drawn is not None and drawn.seq > self.drawn:
            patch = drawn.patch
            out.update(
                {"position_patch": patch.sent()}
                if patch and patch.since == self.drawn
                else {"position": drawn.position}
            )
            self.drawn = drawn.seq
        return out


def one_frame(
    game_id: str, who: Caller, text: object, limits: FrameLimits, client: str, tail: Tail | None = None
) -> tuple[str, int | None]:
    """The answer to one frame, what ``POST .../actions`` would have answered, and the
    seq of the position it carries (None: a refusal)."""
    try:
        wait = limits.allow(client)
        if wait is not None:
            raise RateLimited(
                "rate_limited", f"too many actions from this seat; try again in {wait} s", {"retry_after": wait}
            )
        body = envelope(text)
        disk = disk_space.of(current_app)
        if disk is not None and disk.full() is not None:  # as refuse_writes_on_a_full_disk for POSTs
            raise Unavailable(
                "storage_full", "storage is full; nothing was written, retry later", retry_after=disk_space.RETRY_AFTER
            )
        status, answered = api.play(game_id, who, body)
        SOCKET_FRAMES.labels(str(status)).inc()
        if tail is not None:  # the push of this entry then reuses the answer's position
            tail.remember(who, {**{k: v for k, v in answered.items() if k != "receipt"}, "seq": answered["at"]})
        return answer(status, answered), answered["at"]
    except Refusal as exc:
        SOCKET_FRAMES.labels(str(http_errors.status_of(exc))).inc()
        return error(exc), None
    except UNAVAILABLE as exc:
        SOCKET_FRAMES.labels("503").inc()
        log.warning("storage unavailable on a socket of %s: %s", game_id, exc)
        return error(
            Unavailable("storage_unavailable", "storage is unreachable; retry shortly", {"retry_after": 1})
        ), None
    except REFUSED as exc:
        if not is_full(exc):
            raise
        SOCKET_FRAMES.labels("503").inc()
        log.warning("storage full on a socket of %s: %s", game_id, exc)
        return error(
            Unavailable("storage_full", "storage is full; nothing was written, retry later", retry_after=5)
        ), None


@sock.route("/api/games/<game_id>/socket")
def game_socket(ws: Server, game_id: str) -> None:
    """One player's moves: a frame per action envelope, an answer frame per frame, in order."""
    config = current_app.config
    idle = config["SOCKET_IDLE_SECONDS"]
    limits = edge().socket_limits
    assert limits is not None  # set by install(), which adds this route
    try:
        with edge().stream_slots.hold(rate_limits.stream_client(), game_id):
            who, language, follow = authenticate(ws, game_id, idle)
            client = f"{game_id}:{who.seat}"  # frames count per seat: a room behind one address is not one client
            with force_locale(i18n.LANGUAGES[language]):
                if follow is None:
                    ws.send(answer(200, {"game": game_id, "viewer": who.describe()}))
                    serve(ws, game_id, who, idle, limits, client, threading.Lock(), None, None)
                    return
                with edge().live_tails.watch(game_id) as tail:
                    lock = threading.Lock()
                    pusher = Pusher(ws, tail, who, game_id, lock)
                    ws.send(answer(200, pusher.hello(follow)))
                    threading.Thread(target=pusher.run, name=f"push-{game_id}", daemon=True).start()
                    try:
                        serve(ws, game_id, who, idle, limits, client, lock, tail, pusher)
                    finally:
                        pusher.stopped.set()
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


def serve(
    ws: Server,
    game_id: str,
    who: Caller,
    idle: float,
    limits: FrameLimits,
    client: str,
    lock: threading.Lock,
    tail: Tail | None,
    pusher: Pusher | None,
) -> None:
    """Answer the socket's frames in order until it closes or idles."""
    while True:
        text = ws.receive(timeout=idle)
        if text is None:  # idle past SOCKET_IDLE_SECONDS
            ws.close(reason=1000, message="idle")
            return
        answered, at = one_frame(game_id, who, text, limits, client, tail)
        with lock:
            ws.send(answered)
            if pusher is not None and at is not None:
                pusher.answered(at)


def refuse(ws: Server, exc: Refusal, close_code: int) -> None:
    """The last frame says why; then the socket closes with ``close_code``."""
    try:
        ws.send(error(exc))
        ws.close(reason=close_code, message=exc.code)
    except ConnectionClosed:
        pass
