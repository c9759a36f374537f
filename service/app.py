"""The Flask application factory. Nothing connects at import time."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from typing import Any

from flask import Flask, Response, jsonify, request
from werkzeug.exceptions import HTTPException

from service import bootstrap, wiring
from service.adapters.archive import DirectoryArchive
from service.adapters.connection import (
    BLOCKING_TIMEOUT,
    REFUSED,
    UNAVAILABLE,
    connect,
    embedded_server,
    is_full,
    server_version,
    start_embedded,
)
from service.adapters.durability import DurabilityCheck, NotDurable
from service.config import from_env
from service.http import accounts as accounts_api
from service.http import (
    body_limits,
    chat,
    disk_space,
    i18n,
    limits,
    openapi,
    ops,
    request_log,
    security_headers,
    sockets,
    tables,
    tournaments,
)
from service.http import docs as api_docs
from service.http import errors as http_errors
from service.http import games as api
from service.http import notices as notices_api
from service.http import pages as web
from service.http.disk_space import DiskSpace
from service.http.json_input import StrictJSONProvider
from service.http.live import LiveTails, StreamSlots
from service.metrics import (
    CLOCKS_EXPIRED,
    DURABLE,
    LAST_SWEEP,
    STORAGE_FULL,
    STORAGE_UNAVAILABLE,
    SWEEP_DURATION,
    SWEEP_RESULTS,
    build_info,
)
from service.ports import ArchiveStore
from service.services.accounts import hasher
from service.services.computer_seats import Caps
from service.services.errors import Invalid, Refusal
from service.signing import signer_for

log = logging.getLogger(__name__)
_embedded: dict[str, tuple[Any, str]] = {}  # data dir -> (server, url)
RETRY_AFTER_SECONDS = 1
FULL_RETRY_SECONDS = 5  # room comes back when an operator or the archive frees it: not at once
STORAGE_FULL_MESSAGE = "storage is full; nothing was written, retry later"
OUTAGE_SWEEPS = 3  # a heartbeat older than this many sweep periods (+1 s): no process was sweeping


def archive_dir(cfg: dict[str, Any]) -> str:
    """Where archived games are kept: ``ARCHIVE_DIR``, else ``<DATA_DIR>/archive``."""
    return str(cfg.get("ARCHIVE_DIR") or os.path.join(cfg["DATA_DIR"], "archive"))


def archive_store(cfg: dict[str, Any]) -> ArchiveStore:
    """The S3-compatible bucket ``ARCHIVE_S3_BUCKET`` when it is set, else the directory."""
    if not cfg.get("ARCHIVE_S3_BUCKET"):
        return DirectoryArchive(archive_dir(cfg))
    from service.adapters.s3_archive import S3Archive  # boto3 loads only when a bucket is used

    return S3Archive(
        cfg["ARCHIVE_S3_BUCKET"],
        prefix=cfg.get("ARCHIVE_S3_PREFIX") or "",
        endpoint_url=cfg.get("ARCHIVE_S3_ENDPOINT"),
        region=cfg.get("ARCHIVE_S3_REGION"),
    )


def create_app(overrides: dict[str, Any] | None = None, *, now: Callable[[], float] = time.time) -> Flask:
    """The app; ``now`` is the clock every service reads (tests inject one they advance)."""
    app = Flask(__name__)
    app.config.update(from_env())
    app.config.update(overrides or {})
    app.json = StrictJSONProvider(app)
    app.json.sort_keys = False
    cfg = app.config
    url = cfg["REDIS_URL"] or embedded_url(cfg["DATA_DIR"], cfg["APPENDFSYNC"])
    client = connect(url)
    durability = DurabilityCheck(client, cfg["APPENDFSYNC"], cfg["REDIS_DURABILITY_CHECK"])
    try:
        durability.refuse_unless_kept()
    except NotDurable as exc:
        DURABLE.set(0)
        log.critical("refusing to start: %s", exc)
        raise
    DURABLE.set(1 if durability.enabled else -1)
    app.config["REDIS_SERVER"] = redis_server(cfg["REDIS_URL"], client)
    build_info(app.config["REDIS_SERVER"]["version"])
    built = bootstrap.build(
        client,
        signer_for(cfg["DATA_DIR"], cfg["SIGNING_KEY"]),
        blocking=connect(url, socket_timeout=BLOCKING_TIMEOUT),
        snapshot_every=cfg["SNAPSHOT_EVERY"],
        password_hasher=hasher(cfg["ARGON2_TIME_COST"], cfg["ARGON2_MEMORY_KIB"], cfg["ARGON2_PARALLELISM"]),
        session_days=cfg["SESSION_DAYS"],
        failed_logins=limits.failed_logins(cfg, url),
        computer_caps=Caps(cfg["BOT_SEATS_PER_CREATOR"], cfg["BOT_STRENGTH_PER_CREATOR"]),
        min_replica_acks=cfg["REDIS_MIN_REPLICA_ACKS"],
        replica_wait_ms=cfg["REDIS_REPLICA_WAIT_MS"],
        archive=archive_store(cfg),
        notice_digest=cfg["NOTICE_DIGEST_SECONDS"],
        now=now,
    )
    stream_slots = StreamSlots(
        cfg["SSE_MAX_STREAMS"], cfg["SSE_MAX_PER_CLIENT"], cfg["SSE_MAX_PER_GAME"], cfg["SSE_SECONDS"]
    )
    wiring.install(
        app, built, wiring.Edge(LiveTails(built.log, built.games, built.chat.mark), stream_slots, durability=durability)
    )
    request_log.install(app)
    body_limits.install(app)
    if not cfg["REDIS_URL"] or os.environ.get("EMBEDDED_REDIS") == cfg["REDIS_URL"]:
        disk_space.install(app, DiskSpace(cfg["DATA_DIR"], cfg["DISK_RESERVE_BYTES"], cfg["DISK_WARN_BYTES"]))
    smorest = openapi.Api(app)
    smorest.register_blueprint(api.bp)
    smorest.register_blueprint(accounts_api.bp)
    smorest.register_blueprint(notices_api.bp)
    smorest.register_blueprint(tournaments.bp)
    smorest.register_blueprint(tables.bp)
    smorest.register_blueprint(chat.bp)
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
    try:
        built.lobby.prepare()
    except UNAVAILABLE as exc:  # storage down at start: the next start, or the CLI step, files them
        log.warning("the lobby indexes were not checked: %s", exc)
    return app


def embedded_url(data_dir: str, appendfsync: str = "always") -> str:
    """The embedded Redis of this process (one per process; gunicorn starts it in
    the master and hands the socket to workers through REDIS_URL instead)."""
    if data_dir not in _embedded:
        _embedded[data_dir] = start_embedded(data_dir, appendfsync=appendfsync)
    return _embedded[data_dir][1]


def redis_server(given_url: str | None, client: object) -> dict[str, str]:
    """Which Redis this app writes to, for ``/healthz`` and ``build_info``: the embedded
    one (this process's, or the gunicorn master's, which names it in ``EMBEDDED_REDIS``)
    by its executable, an external one by the version it reports."""
    if not given_url or os.environ.get("EMBEDDED_REDIS") == given_url:
        path, version = embedded_server()
        return {"kind": "embedded", "executable": path, "version": version}
    return {"kind": "external", "version": server_version(client)}


def register_error_handlers(app: Flask) -> None:
    def refused(exc: Refusal) -> tuple[Response, int, dict[str, str]]:
        return http_errors.response_of(exc)

    for kind in http_errors.REFUSALS:
        app.register_error_handler(kind, refused)

    @app.errorhandler(HTTPException)
    def http_error(
        exc: HTTPException,
    ) -> HTTPException | tuple[Response, int, dict[str, str]] | tuple[Response, int, list[tuple[str, str]]]:
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
        }.get(exc.code or 0, "http_error")
        if exc.code in (400, 422) and messages:
            code, status = (
                ("malformed", 400) if "json" in messages and _is_json_error(messages) else ("bad_request", 400)
            )
        else:
            status = exc.code or 500  # every error Werkzeug raises has its code
        message = "the request body is too large" if exc.code == 413 else (exc.description or exc.name)
        if code == "malformed":
            message = "the body is not valid JSON"
        elif code == "bad_request":  # the reasons are in details, field by field
            message = "the request fails its schema"
        # Allow (405) and Retry-After (429) travel with the error body.
        headers = [(k, v) for k, v in exc.get_headers() if k.lower() in ("allow", "retry-after")]
        if status == 429:  # the limiter's: a sentence with the wait, not its "5 per 1 minute"
            wait = limits.retry_after()
            headers = [(k, v) for k, v in headers if k.lower() != "retry-after"] + [("Retry-After", str(wait))]
            message, messages = limits.refusal_message(wait), {"retry_after": wait}
        message = i18n.localize_error(code, message, status)
        return jsonify({"error": {"code": code, "message": message, "details": messages}}), status, headers

    def storage_unavailable(exc: Exception) -> tuple[Response, int, dict[str, str]]:
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

    @app.errorhandler(REFUSED)
    def storage_refused(exc: Exception) -> tuple[Response, int, dict[str, str]] | tuple[Response, int]:
        """Redis out of memory or disk refuses the write (nothing written): 503 ``storage_full``."""
        if not is_full(exc):
            return unexpected(exc)
        STORAGE_FULL.inc()
        log.warning("storage full on %s: %s", request.path, exc)
        message = i18n.localize_error("storage_full", STORAGE_FULL_MESSAGE, 503)
        body = {"error": {"code": "storage_full", "message": message, "details": {"retry_after": FULL_RETRY_SECONDS}}}
        return jsonify(body), 503, {"Retry-After": str(FULL_RETRY_SECONDS)}

    @app.errorhandler(Exception)
    def unexpected(exc: Exception) -> tuple[Response, int]:
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


def _is_json_error(messages: dict[str, Any]) -> bool:
    return any("Invalid JSON" in str(m) for m in messages.get("json", []))


def start_clock_sweeper(app: Flask) -> None:
    """A daemon thread per process forfeits seats whose clocks ran out. Several
    workers may sweep at once: the forfeit's action id makes the append happen once.
    Before the first sweep, and after sweeps the storage failed, an outage (no heartbeat
    for a while) is credited to every running clock, so no seat is forfeited for the
    time the service was down or could not reach its storage."""
    built = wiring.of(app)
    period = app.config["CLOCK_SWEEP_SECONDS"]
    stop = threading.Event()
    outage_after = OUTAGE_SWEEPS * period + 1

    def credit() -> None:
        done = built.clocks.pay_owed_credit()
        if done:
            log.warning("credited %d running clocks with the outage", len(done))

    built.clocks.owe_credit(outage_after)
    try:
        credit()
    except Exception:  # storage not up yet: the sweeper credits before its first sweep
        log.exception("crediting the outage failed")

    def sweep() -> None:
        while not stop.wait(period):
            started = time.monotonic()
            try:
                credit()
                built.lagging.flush()
                CLOCKS_EXPIRED.inc(len(built.clocks.sweep()))
            except Exception:  # keep sweeping through a Redis hiccup; credit what it cost once back
                built.clocks.owe_credit(outage_after)
                SWEEP_RESULTS["failed"].inc()
                log.exception("clock sweep failed")
                continue
            SWEEP_RESULTS["ok"].inc()
            SWEEP_DURATION.observe(time.monotonic() - started)
            LAST_SWEEP.set_to_current_time()

    threading.Thread(target=sweep, name="clock-sweeper", daemon=True).start()
    app.extensions["clock_sweeper_stop"] = stop
