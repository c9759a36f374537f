"""Cold read benchmark: the view of a long game built by a worker that has never seen it
(no cached state, no cached seed), from Redis. Prints figures, asserts nothing.

A game of about 300 entries is played through the platform (a 5-player Caylus game with
random legal moves, and a toy game of 300 entries), then a fresh worker's services (a new
worker) reads it: the first read, and the mean of the next ``--samples`` reads each by
another fresh worker (median and 90th percentile: the machine may be shared).

    .venv/bin/python bench/cold_read.py [--samples 30]
    PYTHONPATH=<other checkout> .venv/bin/python bench/cold_read.py   # the same, on other code
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time

if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from projections.games import registry  # noqa: E402
from service.adapters.connection import connect, start_embedded  # noqa: E402
from service.bootstrap import Services  # noqa: E402
from service.services.callers import Caller  # noqa: E402
from service.services.games import CreateGame  # noqa: E402
from tests.services import services_over  # noqa: E402
from tests.toygame import TOY  # noqa: E402

registry()["toy"] = TOY


def play_caylus(built: Services, rand: random.Random) -> str:
    game = registry()["caylus"]
    created = built.games.create(CreateGame("caylus", [f"p{i}" for i in range(game.max_seats)]))
    gid = created["id"]
    seats = [built.games.caller(gid, s["token"]) for s in created["seats"]]
    while built.log.state(gid)["status"] == "active":
        p = built.log.state(gid)
        seat = rand.choice(sorted(game.to_act(p["state"])))
        action = rand.choice(game.legal_actions(p["state"], seat))
        built.games.act(gid, seats[seat], action["type"], action["payload"])
    return gid


def play_toy(built: Services, entries: int = 300) -> str:
    created = built.games.create(CreateGame("toy", ["a", "b"], {"rounds": 50}))
    gid = created["id"]
    seats = [built.games.caller(gid, s["token"]) for s in created["seats"]]
    for n in range(entries - 1):
        turn = built.log.state(gid)["state"]["turn"]
        built.games.act(gid, seats[turn], "roll" if n % 4 == 0 else "note", {} if n % 4 == 0 else {"text": "a"})
    return gid


def cold_reads(redis, gid: str, samples: int) -> tuple[int, float, float, float]:
    """(entries, first read, median and 90th percentile of the next reads): each read by a
    new worker's services (empty caches) on a connected client, as a worker that has not seen the game."""
    timings = []
    for _ in range(samples + 1):
        built = services_over(redis)
        start = time.perf_counter()
        view = built.games.view(gid, Caller(seat=0))
        timings.append(time.perf_counter() - start)
    later = sorted(timings[1:])
    return view["seq"], timings[0], statistics.median(later), later[int(0.9 * len(later))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=30)
    args = parser.parse_args()
    server, url = start_embedded(tempfile.mkdtemp())
    try:
        writer = services_over(connect(url))
        games = {
            "caylus (5 seats, random legal moves)": play_caylus(writer, random.Random(7)),
            "toy (300 entries)": play_toy(writer),
        }
        print("cold view of a long game by a fresh worker (snapshots every 100 entries):")
        reader = connect(url)
        reader.ping()
        for label, gid in games.items():
            seq, first, median, p90 = cold_reads(reader, gid, args.samples)
            print(
                f"  {label:38} {seq:>4} entries: first read {1000 * first:6.1f} ms; next {args.samples} reads: "
                f"median {1000 * median:5.1f} ms, p90 {1000 * p90:5.1f} ms"
            )
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
