"""Prometheus metrics (prometheus-client). Under gunicorn every worker writes its
samples to PROMETHEUS_MULTIPROC_DIR and /metrics adds them up (multiprocess mode);
without it (tests, the CLI) the process's own registry answers.

Every name starts with ``boardgames_`` (``NAMESPACE``), so the server's series stand
apart from others scraped into the same Prometheus. Metrics of the fold and the worker
cache live next to them (projections/projector.py).
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

NAMESPACE = "boardgames"
REQUESTS = Counter(
    "http_requests", "HTTP requests by route, method and status", ["route", "method", "status"], namespace=NAMESPACE
)
LATENCY = Histogram(
    "http_request_duration_seconds",
    "Time to answer (for streams: to start answering)",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
    namespace=NAMESPACE,
)
APPENDS = Counter("event_appends", "Compare-and-append attempts by result", ["result"], namespace=NAMESPACE)
APPEND_RESULTS = {r: APPENDS.labels(r) for r in ("ok", "conflict", "duplicate")}  # bound once: labels() locks
SOCKET_FRAMES = Counter(
    "socket_frames", "Action frames answered over move sockets, by the status answered", ["status"], namespace=NAMESPACE
)
STORAGE_UNAVAILABLE = Counter(
    "storage_unavailable", "Requests answered 503 because storage was unreachable", namespace=NAMESPACE
)
STORAGE_FULL = Counter(
    "storage_full", "Writes answered 503 because storage was out of memory or disk", namespace=NAMESPACE
)
DISK_FREE = Gauge(
    "disk_free_bytes",
    "Bytes free on the embedded Redis's disk (DATA_DIR); writes stop below DISK_RESERVE_BYTES",
    multiprocess_mode="livemin",
    namespace=NAMESPACE,
)
LIVE_STREAMS = Gauge("live_streams", "Open live streams (SSE)", multiprocess_mode="livesum", namespace=NAMESPACE)
LIVE_TAILS = Gauge(
    "live_tails", "Games tailed from Redis for live streams", multiprocess_mode="livesum", namespace=NAMESPACE
)
POSITIONS_COMPUTED = Counter(
    "live_positions",
    "Positions computed for the live push: the spectators' once per batch, a seat's or the referee's once per seq (per worker)",
    namespace=NAMESPACE,
)
LIVE_RELEASED = Counter(
    "live_released",
    "Live streams the tail stopped writing to itself because their client fell behind or left",
    namespace=NAMESPACE,
)
LIVE_STALLED = Counter(
    "live_stalled",
    "Live streams ended because their client took nothing for SSE_STALL_SECONDS",
    namespace=NAMESPACE,
)
LAGGING_WRITES = Gauge(
    "lobby_writes_pending",
    "Lobby writes waiting for their Redis node",
    multiprocess_mode="livesum",
    namespace=NAMESPACE,
)

CLOCK_SWEEPS = Counter("clock_sweeps", "Clock sweeps by outcome", ["result"], namespace=NAMESPACE)
SWEEP_RESULTS = {r: CLOCK_SWEEPS.labels(r) for r in ("ok", "failed")}
SWEEP_DURATION = Histogram(
    "clock_sweep_duration_seconds",
    "Time one clock sweep took",
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5),
    namespace=NAMESPACE,
)
CLOCKS_EXPIRED = Counter("clocks_expired", "Seats forfeited by the clock sweeper", namespace=NAMESPACE)
LAST_SWEEP = Gauge(
    "clock_sweep_last_success_timestamp_seconds",
    "When a clock sweep last completed (the newest of every worker)",
    multiprocess_mode="max",
    namespace=NAMESPACE,
)
DURABLE = Gauge(
    "redis_durable",
    "1 when Redis keeps what it acknowledges as APPENDFSYNC promises, 0 when not (see /readyz)",
    multiprocess_mode="livemin",
    namespace=NAMESPACE,
)
TOURNAMENT_STEPS = Counter(
    "tournament_steps", "Tournaments created, rounds paired, tournaments finished", ["step"], namespace=NAMESPACE
)
TOURNAMENT_STEP = {s: TOURNAMENT_STEPS.labels(s) for s in ("created", "round_paired", "finished")}


def build_info(redis_server: str) -> None:
    """Publish ``boardgames_build_info`` (a constant 1 carrying the labels); in
    multiprocess mode an Info is not aggregated, so it is a gauge there too."""
    from service.build import VERSION, revision

    labels = {"version": VERSION, "revision": revision(), "redis": redis_server}
    _BUILD_INFO.labels(**labels).set(1)


_BUILD_INFO = Gauge(
    "build_info",
    "The running version, its revision and the Redis it talks to",
    ["version", "revision", "redis"],
    multiprocess_mode="max",
    namespace=NAMESPACE,
)


def exposition() -> tuple[bytes, str]:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]  # prometheus_client leaves it unannotated
    else:
        registry = REGISTRY
    return generate_latest(registry), CONTENT_TYPE_LATEST


# The bot pool (service/services/bot_runner.py): its workers write these beside the web
# workers'; the queue's length is read from Redis when /metrics is asked (ops.py).
BOT_THINK_SECONDS = Histogram(
    "bot_think_seconds",
    "A computer's search for one move, from the worker taking it to its choice, by strength",
    ["strength"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 12, 20),
    namespace=NAMESPACE,
)
BOT_MOVES = Counter("bot_moves", "Computer moves chosen, by strength", ["strength"], namespace=NAMESPACE)
BOT_QUEUE = Gauge(
    "bot_queue_length", "Games waiting for a computer move", multiprocess_mode="mostrecent", namespace=NAMESPACE
)

# The notice sender (``python -m service notices``) counts in Redis what it sent, retried,
# dropped and left out as stale (a "your move" no longer true); /metrics reads the counts
# and the waiting digests from there (ops.py).
NOTICES = Gauge(
    "notices",
    "Notices by outcome since the store began (sent, retried, dropped, stale), and digests waiting",
    ["outcome"],
    multiprocess_mode="mostrecent",
    namespace=NAMESPACE,
)
