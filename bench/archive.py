"""Memory bounded as games pile up: plays short toy games (two seats, one round: the
game created, two moves, finished; four entries) through the app against an embedded
Redis, archives them after each batch (the pass ``python -m service archive`` runs), and
prints Redis's ``used_memory`` before, after each batch is played and after it is
archived, the bytes per game that stay in Redis, and the archive's size per game.
Asserts nothing.

    nice -n 10 .venv/bin/python -u bench/archive.py [--games 100000] [--batch 2000]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from projections.games import registry  # noqa: E402
from service.adapters.archive import Archiver, DirectoryArchive  # noqa: E402
from service.adapters.connection import connect, start_embedded  # noqa: E402
from service.app import create_app  # noqa: E402
from tests.toygame import TOY  # noqa: E402

registry()["toy"] = TOY


def play(client, games: int) -> None:
    """Each game: created, then the seat to act rolls until it is finished."""
    for _ in range(games):
        created = client.post("/api/games", json={"game": "toy", "seats": ["a", "b"], "options": {"rounds": 1}}).json
        url = f"/api/games/{created['id']}/actions"
        tokens = [s["token"] for s in created["seats"]]
        to_act = [0]
        while to_act:
            answer = client.post(url, json={"type": "roll"}, headers={"Authorization": "Bearer " + tokens[to_act[0]]})
            assert answer.status_code == 201, answer.json
            to_act = answer.json["to_act"] if answer.json["status"] != "finished" else []


def disk_bytes(root: str) -> tuple[int, int]:
    """The archive's files: their bytes, and the blocks they take on this file system."""
    size = blocks = 0
    for entry in os.scandir(root):
        stat = entry.stat()
        size, blocks = size + stat.st_size, blocks + stat.st_blocks * 512
    return size, blocks


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--batch", type=int, default=2_000)
    args = parser.parse_args()
    data = tempfile.mkdtemp(prefix="bench-archive-")
    server, url = start_embedded(os.path.join(data, "redis"), appendfsync="no")
    try:
        app = create_app(
            {
                "REDIS_URL": url,
                "DATA_DIR": data,
                "REDIS_DURABILITY_CHECK": False,  # appendfsync no: the figure is memory, not disk
                "CLOCK_SWEEP_SECONDS": 0,
                "RATE_LIMITS_ENABLED": False,
                "REQUEST_LOG": False,
            }
        )
        client, redis = app.test_client(), connect(url)
        archive_dir = os.path.join(data, "archive")
        archiver = Archiver(redis, DirectoryArchive(archive_dir))
        play(client, 10)  # the first game's one-off keys (scripts, the lobby's marks) are not a game's cost
        archiver.sweep(0, 10**9, time.time() + 1)
        before = redis.info("memory")["used_memory"]
        print(f"before: Redis used_memory {before / 1e6:.2f} MB", flush=True)
        played = archived = archive_bytes = 0
        started = time.monotonic()
        while played < args.games:
            batch = min(args.batch, args.games - played)
            play(client, batch)
            played += batch
            full = redis.info("memory")["used_memory"]
            done = archiver.sweep(0, 10**9, time.time() + 1)
            after = redis.info("memory")["used_memory"]
            archived += done["finished"]
            archive_bytes += done["bytes"]
            print(
                f"{played} games ({time.monotonic() - started:.0f} s): used_memory {full / 1e6:.2f} MB played, "
                f"{after / 1e6:.2f} MB archived ({done['finished']} archived, "
                f"{(full - after) / max(done['finished'], 1):.0f} B freed per game); "
                f"residual {(after - before) / played:.0f} B per game; archive {archive_bytes / max(archived, 1):.0f} B per game",
                flush=True,
            )
        after = redis.info("memory")["used_memory"]
        size, blocks = disk_bytes(archive_dir)
        print(
            f"total: {played} games, {archived} archived; Redis used_memory before {before / 1e6:.2f} MB, "
            f"after archiving {after / 1e6:.2f} MB: {(after - before) / played:.0f} B per game stays; "
            f"archive {archive_bytes / max(archived, 1):.0f} B per game ({size / 1e6:.1f} MB in files, "
            f"{blocks / 1e6:.1f} MB of disk blocks)",
            flush=True,
        )
    finally:
        server.shutdown()
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
