"""The cost of replicas that confirm: the store's append against a standalone Redis
with one replica on loopback, without WAIT and with ``WAIT 1`` (REDIS_MIN_REPLICA_ACKS=1).
One writer, one envelope of about 300 bytes per append. Asserts nothing.

    .venv/bin/python bench/replica_acks.py [--appends 3000]
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import redis  # noqa: E402

from events.store import game_stream  # noqa: E402  # after the path set-up above
from service.adapters.connection import connect  # noqa: E402
from service.adapters.event_store import RedisEventStore  # noqa: E402
from tests import redis_servers  # noqa: E402

ENVELOPE = {
    "seq": 1,
    "type": "toy.roll",
    "actor": {"seat": 0},
    "payload": {"note": "x" * 200},
    "prev": "0" * 64,
    "hash": "0" * 64,
    "action_id": None,
    "ts": "2026-11-24T00:00:00.000000Z",
}


def run(store: RedisEventStore, game: str, appends: int) -> list[float]:
    out = []
    for seq in range(appends):
        start = time.perf_counter()
        result = store.append(game_stream(game), seq, None, [{**ENVELOPE, "seq": seq + 1}])
        out.append(time.perf_counter() - start)
        assert result.status == "ok", result
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--appends", type=int, default=3000)
    args = parser.parse_args()
    work = pathlib.Path(tempfile.mkdtemp(prefix="bench-acks-"))
    (work / "m").mkdir()
    (work / "r").mkdir()
    master, url = redis_servers.standalone(work / "m")
    port = url.rsplit(":", 1)[1].split("/")[0]
    replica, replica_url = redis_servers.standalone(work / "r", "--replicaof", "127.0.0.1", port)
    while redis.Redis.from_url(replica_url).info("replication").get("master_link_status") != "up":
        time.sleep(0.05)
    try:
        for acks in (0, 1, 0, 1):
            lat = run(RedisEventStore(connect(url), min_replica_acks=acks), f"b{acks}{time.time_ns()}", args.appends)
            lat.sort()
            print(
                f"acks={acks}: {len(lat) / sum(lat):.0f} appends/s, p50 {statistics.median(lat) * 1e3:.3f} ms, "
                f"p99 {lat[int(len(lat) * 0.99)] * 1e3:.3f} ms"
            )
    finally:
        redis_servers.stop([master, replica])


if __name__ == "__main__":
    main()
