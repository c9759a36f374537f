"""Undos across snapshot windows: prints figures, asserts nothing.

Builds, through the HTTP API (Flask's test client over an embedded Redis, snapshots every
100 entries as shipped), the game of the trust review: a game played to a step, then many
immediate undos back to that step from the next snapshot window, then the same one window
further on; then times ``GET /view?at=N`` on a cold worker (a new app over the same Redis)
for steps in each window, and counts the entries folded for each.

    .venv/bin/python bench/undo_windows.py [--game age_of_rome] [--moves 95] [--undos 51] [--windows 2]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

os.environ.setdefault("RATE_LIMITS", "off")

from projections.projector import FOLDED  # noqa: E402
from service.app import create_app  # noqa: E402


def app_over(url: str, data_dir: str):
    return create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0, "DATA_DIR": data_dir})


def build(client, game: str, seats: int, moves: int, undos: int, windows: int) -> tuple[str, dict]:
    created = client.post("/api/games", json={"game": game, "seats": [f"p{i}" for i in range(seats)]}).json
    gid, tokens = created["id"], [s["token"] for s in created["seats"]]

    def meta():
        return client.get(f"/api/games/{gid}").json

    def move():
        seat = meta()["to_act"][0]
        head = {"Authorization": f"Bearer {tokens[seat]}"}
        action = client.get(f"/api/games/{gid}/actions", headers=head).json["actions"][0]
        return seat, client.post(f"/api/games/{gid}/actions", json=action, headers=head).json["seq"]

    while meta()["seq"] < moves:
        move()
    point = meta()["seq"]
    for _ in range(windows):
        for _ in range(undos):
            seat, _ = move()
            answer = client.post(
                f"/api/games/{gid}/undo", json={"to_seq": point}, headers={"Authorization": f"Bearer {tokens[seat]}"}
            ).json
            for other in range(seats):
                if answer.get("status") == "requested" and other != seat:
                    client.post(
                        f"/api/games/{gid}/undo/{answer['request_id']}/approve",
                        headers={"Authorization": f"Bearer {tokens[other]}"},
                    )
        point = move()[1]
    return gid, meta()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="age_of_rome")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--moves", type=int, default=95)
    parser.add_argument("--undos", type=int, default=51)
    parser.add_argument("--windows", type=int, default=2)
    args = parser.parse_args()
    from service.adapters.connection import start_embedded

    with tempfile.TemporaryDirectory() as tmp:
        server, url = start_embedded(os.path.join(tmp, "redis"))
        try:
            writer = app_over(url, os.path.join(tmp, "data"))
            start = time.perf_counter()
            gid, meta = build(writer.test_client(), args.game, args.seats, args.moves, args.undos, args.windows)
            print(f"{args.game}: {meta['seq']} entries written in {time.perf_counter() - start:.1f} s")
            for at in sorted({50, meta["seq"] // 2, meta["seq"] - 2, meta["seq"]}):
                cold = app_over(url, os.path.join(tmp, "data")).test_client()
                before = FOLDED._value.get()
                t0 = time.perf_counter()
                status = cold.get(f"/api/games/{gid}/view?at={at}").status_code
                ms = 1000 * (time.perf_counter() - t0)
                folded = FOLDED._value.get() - before
                print(f"  cold view?at={at:4d}: {status} in {ms:8.1f} ms, {folded:.0f} entries folded")
        finally:
            server.shutdown()


if __name__ == "__main__":
    main()
