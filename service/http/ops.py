"""Endpoints for operators: liveness, readiness (storage reachable) and metrics."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify

from events.connection import UNAVAILABLE
from service.metrics import exposition
from service.wiring import services

bp = Blueprint("ops", __name__)


@bp.get("/healthz")
def healthz():
    """The process answers; says nothing about storage (restarting would not help it)."""
    return jsonify({"status": "ok"})


@bp.get("/readyz")
def readyz():
    """Ready when storage answers a PING; 503 + Retry-After otherwise."""
    try:
        services().platform.redis.ping()
    except UNAVAILABLE as exc:
        return jsonify({"status": "unavailable", "storage": str(exc) or type(exc).__name__}), 503, {"Retry-After": "1"}
    return jsonify({"status": "ready"})


@bp.get("/metrics")
def metrics():
    body, content_type = exposition()
    return Response(body, content_type=content_type)
