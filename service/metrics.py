"""Prometheus metrics (prometheus-client). Under gunicorn every worker writes its
samples to PROMETHEUS_MULTIPROC_DIR and /metrics adds them up (multiprocess mode);
without it (tests, the CLI) the process's own registry answers.

Metrics of the fold and the worker cache live next to them (projections/projector.py).
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

REQUESTS = Counter("http_requests", "HTTP requests by route, method and status", ["route", "method", "status"])
LATENCY = Histogram(
    "http_request_duration_seconds",
    "Time to answer (for streams: to start answering)",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
APPENDS = Counter("event_appends", "Compare-and-append attempts by result", ["result"])
APPEND_RESULTS = {r: APPENDS.labels(r) for r in ("ok", "conflict", "duplicate")}  # bound once: labels() locks
SOCKET_FRAMES = Counter("socket_frames", "Action frames answered over move sockets, by the status answered", ["status"])
STORAGE_UNAVAILABLE = Counter("storage_unavailable", "Requests answered 503 because storage was unreachable")
LIVE_STREAMS = Gauge("live_streams", "Open live streams (SSE)", multiprocess_mode="livesum")
LIVE_TAILS = Gauge("live_tails", "Games tailed from Redis for live streams", multiprocess_mode="livesum")
LAGGING_WRITES = Gauge("lobby_writes_pending", "Lobby writes waiting for their Redis node", multiprocess_mode="livesum")


def exposition() -> tuple[bytes, str]:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    else:
        registry = REGISTRY
    return generate_latest(registry), CONTENT_TYPE_LATEST
