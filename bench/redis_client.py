"""CPU per Redis command of the installed redis-py, under gevent as the workers run it.

Why: redis-py 8 checks each pooled connection with a ``poll()`` before every command
and records metrics around it; under gevent that poll goes through the hub. The
project pins the release before that (requirements.txt, docs/ARCHITECTURE.md). Run it
with another redis-py first on the path to compare:

    .venv/bin/python bench/redis_client.py
    pip install --target /tmp/r8 redis==8.1.0 && PYTHONPATH=/tmp/r8 .venv/bin/python bench/redis_client.py

A ``GET`` of a short value over the embedded Redis's unix socket, the best of 3 runs.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402  (after the patch, as in deploy/gunicorn.conf.py)
import os  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import redis  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from service.adapters.connection import start_embedded  # noqa: E402


def cpu_per_call(call, n: int) -> float:
    """Microseconds of this process's CPU per call."""
    start = time.process_time()
    for _ in range(n):
        call()
    return (time.process_time() - start) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=20000)
    args = parser.parse_args()
    server, url = start_embedded(tempfile.mkdtemp(prefix="bench-redis-"), appendfsync="everysec")
    try:
        pooled = redis.Redis.from_url(url)
        single = redis.Redis.from_url(url, single_connection_client=True)
        pooled.set("k", "v")
        rows = [
            ("GET, connection from the pool", lambda: pooled.get("k")),
            ("GET, one held connection", lambda: single.get("k")),
        ]
        print(f"redis-py {redis.__version__}, gevent-patched, {args.calls} calls, best of 3")
        for label, call in rows:
            best = min(cpu_per_call(call, args.calls) for _ in range(3))
            print(f"  {label:32} {best:6.1f} µs CPU per command")
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
