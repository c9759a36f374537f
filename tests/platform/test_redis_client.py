"""The Redis client the workers use serves as many commands at once as there are
requests in flight: a gevent worker holds a greenlet per open socket, and each may be
waiting on Redis at the same moment.

redis-py 8 bounds a pool at 100 connections unless told otherwise; under 128
concurrent matches over move sockets a worker then answered 503 ``Too many
connections`` (bench/peer.py). The pin to 7.4 (docs/ARCHITECTURE.md) keeps the pool
unbounded, as the code assumed.
"""

from __future__ import annotations

import threading

from service.adapters.connection import connect

IN_FLIGHT = 150


def test_one_client_serves_more_commands_at_once_than_a_bounded_pool_would(redis_url):
    client = connect(redis_url)
    barrier = threading.Barrier(IN_FLIGHT)
    failures: list[BaseException] = []

    def wait_on_redis():
        barrier.wait()
        try:
            client.blpop(["test:redis-client:never-pushed"], timeout=0.5)  # holds its connection for 0.5 s
        except BaseException as exc:  # noqa: BLE001  (any failure is the finding)
            failures.append(exc)

    threads = [threading.Thread(target=wait_on_redis) for _ in range(IN_FLIGHT)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert not failures, failures[:3]
