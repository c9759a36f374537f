"""Memory flat as games pile up: plays short toy games (two seats, one round: the game
created, two moves, finished; four entries) through the app against an embedded Redis,
archives them after each batch (the pass ``python -m service archive`` runs), and
prints Redis's ``used_memory`` before, after each batch is played and after it is
archived, what stays in Redis (keys and the members of its sets), and the archive's size
per game (the games' archive objects, and the listing's segments of lobby lines).
Then the lobby, from a fresh app: its first page of finished games (cold: the listing's
index and one segment read), the next pages, and every page walked to the end with the
number of games listed. Asserts nothing.

``--workers N`` plays each batch from N processes at once, each with its own app (the
same requests through the same service layer as one process, on more CPUs).

    nice -n 10 .venv/bin/python -u bench/archive.py [--games 100000] [--batch 2000] [--workers 2]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import shutil
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from projections.games import registry  # noqa: E402
from service.adapters.archive import Archiver, DirectoryArchive  # noqa: E402
from service.adapters.connection import connect, start_embedded  # noqa: E402
from service.app import create_app  # noqa: E402
from tests.toygame import TOY  # noqa: E402

registry()["toy"] = TOY
_client: Any = None


def _app(url: str, data: str) -> Any:
    return create_app(
        {
            "REDIS_URL": url,
            "DATA_DIR": data,
            "REDIS_DURABILITY_CHECK": False,  # appendfsync no: the figure is memory, not disk
            "CLOCK_SWEEP_SECONDS": 0,
            "RATE_LIMITS_ENABLED": False,
            "REQUEST_LOG": False,
        }
    )


def _start_worker(url: str, data: str) -> None:
    global _client
    _client = _app(url, data).test_client()


def play(games: int) -> int:
    """Each game: created, then the seat to act rolls until it is finished."""
    for _ in range(games):
        created = _client.post("/api/games", json={"game": "toy", "seats": ["a", "b"], "options": {"rounds": 1}}).json
        url = f"/api/games/{created['id']}/actions"
        tokens = [s["token"] for s in created["seats"]]
        to_act = [0]
        while to_act:
            answer = _client.post(url, json={"type": "roll"}, headers={"Authorization": "Bearer " + tokens[to_act[0]]})
            assert answer.status_code == 201, answer.json
            to_act = answer.json["to_act"] if answer.json["status"] != "finished" else []
    return games


def disk_bytes(root: str) -> tuple[int, int, int]:
    """The archive's files: their bytes, the blocks they take on this file system, and
    the bytes of the listing's segments and index among them."""
    size = blocks = listing = 0
    for folder, _, names in os.walk(root):
        for name in names:
            stat = os.stat(os.path.join(folder, name))
            size, blocks = size + stat.st_size, blocks + stat.st_blocks * 512
            listing += stat.st_size if os.path.basename(folder) == "listing" else 0
    return size, blocks, listing


def held(redis: Any) -> tuple[int, int]:
    """Redis's keys, and the members of its sorted sets, hashes, sets and streams."""
    size = {"zset": redis.zcard, "hash": redis.hlen, "set": redis.scard, "stream": redis.xlen}
    keys = list(redis.scan_iter(count=1000))
    return len(keys), sum(size.get(redis.type(key), lambda _: 1)(key) for key in keys)


def lobby(client: Any) -> None:
    """Times lobby pages of finished games, all of them archived, and walks them all."""
    timed = []
    cursor, listed = "", 0
    while cursor is not None:
        started = time.perf_counter()
        page = client.get("/api/games?status=finished&limit=100" + (f"&cursor={cursor}" if cursor else "")).json
        timed.append(time.perf_counter() - started)
        listed, cursor = listed + len(page["games"]), page["next"]
    timed_ms = sorted(t * 1000 for t in timed[1:])
    print(
        f"lobby: first page (100 games, cold) {timed[0] * 1000:.1f} ms; {len(timed) - 1} more pages: median "
        f"{timed_ms[len(timed_ms) // 2]:.1f} ms, max {timed_ms[-1]:.1f} ms; {listed} finished games listed",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=2_000)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="bench-archive-")
    server, url = start_embedded(os.path.join(data, "redis"), appendfsync="no")
    pool = multiprocessing.get_context("spawn").Pool(args.workers, _start_worker, (url, data))
    try:
        redis = connect(url)
        archive_dir = os.path.join(data, "archive")
        archiver = Archiver(redis, DirectoryArchive(archive_dir))
        pool.map(
            play, [5] * args.workers
        )  # the first games' one-off keys (scripts, the lobby's marks) are no game's cost
        archiver.sweep(0, 10**9, time.time() + 1)
        before = redis.info("memory")["used_memory"]
        print(f"before: Redis used_memory {before / 1e6:.2f} MB; keys, members {held(redis)}", flush=True)
        played = archived = archive_bytes = 0
        started = time.monotonic()
        while played < args.games:
            batch = min(args.batch, args.games - played)
            shares = [batch // args.workers + (i < batch % args.workers) for i in range(args.workers)]
            played += sum(pool.map(play, shares))
            full = redis.info("memory")["used_memory"]
            done = archiver.sweep(0, 10**9, time.time() + 1)
            after = redis.info("memory")["used_memory"]
            archived += done["finished"]
            archive_bytes += done["bytes"]
            print(
                f"{played} games ({time.monotonic() - started:.0f} s): used_memory {full / 1e6:.2f} MB played, "
                f"{after / 1e6:.2f} MB archived ({done['finished']} archived, "
                f"{(full - after) / max(done['finished'], 1):.0f} B freed per game); "
                f"{after - before:+d} B since before ({(after - before) / played:.1f} B per game); "
                f"keys, members {held(redis)}; archive {archive_bytes / max(archived, 1):.0f} B per game",
                flush=True,
            )
        after = redis.info("memory")["used_memory"]
        size, blocks, listing = disk_bytes(archive_dir)
        print(
            f"total: {played} games, {archived} archived in {time.monotonic() - started:.0f} s; Redis used_memory "
            f"before {before / 1e6:.2f} MB, after archiving {after / 1e6:.2f} MB: {(after - before) / played:.1f} B "
            f"per game stays; archive {size / max(archived, 1):.0f} B per game ({size / 1e6:.1f} MB in files, of "
            f"which the listing {listing / 1e6:.2f} MB = {listing / max(archived, 1):.0f} B per game; "
            f"{blocks / 1e6:.1f} MB of disk blocks)",
            flush=True,
        )
        lobby(_app(url, data).test_client())
    finally:
        pool.terminate()
        server.shutdown()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
