"""The cost of durability: the store's compare-and-append script against the embedded
Redis under each ``appendfsync`` policy, one writer and several. Asserts nothing.

    .venv/bin/python bench/fsync.py [--seconds 5] [--writers 1 16]

Each append is the real one (events/store.py: one Lua script, one envelope of about
300 bytes, its own game), so the figure is what the fsync policy adds to an action,
without the HTTP and fold costs (bench/append.py measures those).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from events.store import game_stream  # noqa: E402  # after the path set-up above
from service.adapters.connection import connect, start_embedded  # noqa: E402  # after the path set-up above
from service.adapters.event_store import RedisEventStore  # noqa: E402

ENVELOPE = {
    "seq": 1,
    "type": "toy.roll",
    "actor": {"seat": 0},
    "payload": {"note": "x" * 200},
    "prev": "0" * 64,  # each entry chains to the one before, whose hash is this too
    "hash": "0" * 64,
    "action_id": None,
    "ts": "2026-11-24T00:00:00.000000Z",
}


def run(policy: str, writers: int, seconds: float) -> tuple[int, list[float]]:
    server, url = start_embedded(tempfile.mkdtemp(prefix="bench-fsync-"), appendfsync=policy)
    store = RedisEventStore(connect(url))
    latencies, lock = [], threading.Lock()
    deadline = time.monotonic() + seconds

    def writer(w):
        mine, seq = [], 0
        while time.monotonic() < deadline:
            start = time.perf_counter()
            result = store.append(game_stream(f"w{w}"), seq, None, [{**ENVELOPE, "seq": seq + 1}])
            mine.append(time.perf_counter() - start)
            assert result.status == "ok"
            seq += 1
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(writers)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    server.shutdown()
    return len(latencies), sorted(latencies)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--writers", type=int, nargs="+", default=[1, 16])
    args = parser.parse_args()
    for writers in args.writers:
        for policy in ("everysec", "always"):
            n, lat = run(policy, writers, args.seconds)
            print(
                f"appendfsync {policy:8} {writers:>3} writers  {n / args.seconds:>7.0f} appends/s  "
                f"p50 {1000 * lat[n // 2]:6.2f} ms  p99 {1000 * lat[int(n * 0.99)]:6.2f} ms"
            )


if __name__ == "__main__":
    main()
