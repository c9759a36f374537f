"""The Flask application factory. Nothing connects at import time."""

from __future__ import annotations

import logging
import threading

from flask import Flask, jsonify, request
from werkzeug.exceptions import HTTPException

from events.connection import BLOCKING_TIMEOUT, UNAVAILABLE, connect, start_embedded
from events.store import RedisEventStore
from service import wiring
from service.audit.signing_keys import signer_for
from service.config import from_env
from service.http import accounts as accounts_api
from service.http import body_limits, i18n, limits, openapi, ops, request_log, security_headers, sockets, tournaments
from service.http import docs as api_docs
from service.http import errors as http_errors
from service.http import games as api
from service.http import pages as web
from service.http.json_input import StrictJSONProvider
from service.http.live import LiveTails, StreamSlots
from service.metrics import STORAGE_UNAVAILABLE
from service.services.accounts import hasher
from service.services.errors import Invalid, Refusal
from service.services.games import Platform
from service.services.tournaments import Tournaments
from service.wiring import Services

log = logging.getLogger(__name__)
_embedded = {}
RETRY_AFTER_SECONDS = 1


def create_app(overrides: dict | None = None) -> Flask:
    app = Flask(__name__)
    app.config.update(from_env())
    app.config.update(overrides or {})
    app.json = StrictJSONProvider(app)
    app.json.sort_keys = False
    url = app.config["REDIS_URL"] or embedded_url(app.config["DATA_DIR"])
    redis = connect(url)
    store = RedisEventStore(redis, blocking=connect(url, socket_timeout=BLOCKING_TIMEOUT))
    platform = Platform(redis, snapshot_every=app.config["SNAPSHOT_EVERY"], store=store)
    platform.signer = signer_for(app.config["DATA_DIR"], app.config["SIGNING_KEY"])
    platform.accounts.session_seconds = app.config["SESSION_DAYS"] * 86400
    platform.accounts.use_hasher(
        hasher(app.config["ARGON2_TIME_COST"], app.config["ARGON2_MEMORY_KIB"], app.config["ARGON2_PARALLELISM"])
    )
    stream_slots = StreamSlots(
        app.config["SSE_MAX_STREAMS"],
        app.config["SSE_MAX_PER_CLIENT"],
        app.config["SSE_MAX_PER_GAME"],
        app.config["SSE_SECONDS"],
    )
    wiring.install(app, Services(platform, Tournaments(platform, store), LiveTails(platform), stream_slots))
    request_log.install(app)
    body_limits.install(app)
    smorest = openapi.Api(app)
    smorest.register_blueprint(api.bp)
    smorest.register_blueprint(accounts_api.bp)
    smorest.register_blueprint(tournaments.bp)
    app.register_blueprint(tournaments.pages)
    app.register_blueprint(web.bp)
    app.register_blueprint(ops.bp)
    i18n.init_app(app)
    app.register_blueprint(api_docs.bp)
    sockets.install(app)
    openapi.document(smorest)
    limits.install(app, url)
    security_headers.install(app)
    register_error_handlers(app)
    if app.config["CLOCK_SWEEP_SECONDS"] > 0:
        start_clock_sweeper(app)
    return app


def embedded_url(data_dir: str) -> str:
    """The embedded Redis of this process (one per process; gunicorn starts it in
    the master and hands the socket to workers through REDIS_URL instead)."""
    if data_dir not in _embedded:
        _embedded[data_dir] = start_embedded(data_dir)
    return _embedded[data_dir][1]


def register_error_handlers(app: Flask) -> None:
    def refused(exc: Refusal):
        return http_errors.response_of(exc)

    for kind in http_errors.REFUSALS:
        app.register_error_handler(kind, refused)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        if not _target_is_path():
            return http_errors.response_of(Invalid("target_not_a_path", "the request target is not a path"))
        if _browser_page_request():
            return exc  # Werkzeug's HTML page, for a page a browser asked for
        data = getattr(exc, "data", None) or {}
        messages = data.get("messages", {})
        code = {
            400: "malformed",
            404: "not_found",
            405: "method_not_allowed",
            413: "too_large",
            429: "rate_limited",
        }.get(exc.code, "http_error")
        if exc.code in (400, 422) and messages:
            code, status = (
                ("malformed", 400) if "json" in messages and _is_json_error(messages) else ("bad_request", 400)
            )
        else:
            status = exc.code
        message = "the request body is too large" if exc.code == 413 else (exc.description or exc.name)
        if code == "malformed":
            message = "the body is not valid JSON"
        elif code == "bad_request":  # the reasons are in details, field by field
            message = "the request fails its schema"
        message = i18n.localize_error(code, message, status)
        # Allow (405) and Retry-After (429) travel with the error body.
        headers = [(k, v) for k, v in exc.get_headers() if k.lower() in ("allow", "retry-after")]
        if status == 429 and not any(k.lower() == "retry-after" for k, _ in headers):
            headers.append(("Retry-After", str(limits.retry_after())))
        return jsonify({"error": {"code": code, "message": message, "details": messages}}), status, headers

    def storage_unavailable(exc: Exception):
        """Storage down, restarting or failing over: the one place that says so (503)."""
        STORAGE_UNAVAILABLE.inc()
        log.warning("storage unavailable on %s: %s", request.path, exc)
        message = i18n.localize_error("storage_unavailable", "storage is unreachable; retry shortly", 503)
        body = {
            "error": {
                "code": "storage_unavailable",
                "message": message,
                "details": {"retry_after": RETRY_AFTER_SECONDS},
            }
        }
        return jsonify(body), 503, {"Retry-After": str(RETRY_AFTER_SECONDS)}

    for unavailable in UNAVAILABLE:
        app.register_error_handler(unavailable, storage_unavailable)

    @app.errorhandler(Exception)
    def unexpected(exc: Exception):
        log.exception("unhandled error on %s", request.path)
        message = i18n.localize_error("internal", "internal error", 500)
        return jsonify({"error": {"code": "internal", "message": message, "details": {}}}), 500


def _target_is_path() -> bool:
    """Whether the request line named a path: ``OPTIONS *`` (asterisk-form) and
    ``CONNECT host:443`` (authority-form) name none, and Werkzeug would make one up
    (``/*``, ``/443``). An absolute-form target carries its path, possibly empty."""
    return request.environ.get("PATH_INFO", "").startswith("/") or not request.environ.get("PATH_INFO")


def _browser_page_request() -> bool:
    """A GET or HEAD outside /api/: what a browser navigates to, answered with an HTML
    page. Any other method, or any path under /api/, gets the JSON error body."""
    return request.method in ("GET", "HEAD") and not request.path.startswith("/api/")


def _is_json_error(messages: dict) -> bool:
    return any("Invalid JSON" in str(m) for m in messages.get("json", []))


def start_clock_sweeper(app: Flask) -> None:
    """A daemon thread per process forfeits seats whose clocks ran out. Several
    workers may sweep at once: the forfeit's action id makes the append happen once."""
    platform = wiring.of(app).platform
    period = app.config["CLOCK_SWEEP_SECONDS"]
    stop = threading.Event()

    def sweep():
        while not stop.wait(period):
            try:
                platform.lobby_writes.flush()
                platform.expire_clocks()
            except Exception:  # keep sweeping through a Redis hiccup
                log.exception("clock sweep failed")

    threading.Thread(target=sweep, name="clock-sweeper", daemon=True).start()
    app.extensions["clock_sweeper_stop"] = stop
