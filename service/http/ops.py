"""Endpoints for operators: liveness (and what runs), readiness (storage reachable and
durable) and metrics."""

from __future__ import annotations

import logging

from flask import Blueprint, Response, current_app, jsonify

from service.adapters.connection import UNAVAILABLE
from service.build import VERSION, revision
from service.http import disk_space
from service.metrics import BOT_QUEUE, DURABLE, NOTICES, exposition
from service.wiring import edge, services

bp = Blueprint("ops", __name__)
log = logging.getLogger(__name__)


@bp.get("/healthz")
def healthz() -> Response:
    """The process answers, and says what it is; nothing about storage (restarting
    would not help it)."""
    redis = current_app.config.get("REDIS_SERVER", {})
    return jsonify({"status": "ok", "version": VERSION, "revision": revision(), "redis": redis})


@bp.get("/readyz")
def readyz() -> tuple[Response, int, dict[str, str]] | Response:
    """Ready when storage answers, has room to write and keeps what it acknowledges;
    503 + Retry-After otherwise, with the reason."""
    try:
        services().store.ping()
        check = edge().durability
        reasons = check.reasons() if check is not None else []
    except UNAVAILABLE as exc:
        return jsonify({"status": "unavailable", "storage": str(exc) or type(exc).__name__}), 503, {"Retry-After": "1"}
    disk = disk_space.of(current_app)
    full = disk.full() if disk is not None else None
    if full is not None:
        log.error("not ready for writes: %s", full)
        return jsonify({"status": "storage_full", "reason": full}), 503, {"Retry-After": str(disk_space.RETRY_AFTER)}
    if reasons:
        DURABLE.set(0)
        log.error("not ready: Redis does not keep what it acknowledges: %s", "; ".join(reasons))
        return jsonify({"status": "not_durable", "reasons": reasons}), 503, {"Retry-After": "30"}
    DURABLE.set(1 if check is not None and check.enabled else -1)
    return jsonify({"status": "ready"})


@bp.get("/metrics")
def metrics() -> Response:
    try:
        BOT_QUEUE.set(services().bot_queue.length())
        for outcome, count in services().notices.stats().items():
            NOTICES.labels(outcome).set(count)
    except UNAVAILABLE:
        pass  # the other metrics still answer; storage's own are in /readyz
    disk = disk_space.of(current_app)
    if disk is not None:
        disk.free()  # refreshes boardgames_disk_free_bytes
    body, content_type = exposition()
    return Response(body, content_type=content_type)
