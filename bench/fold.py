"""Fold benchmark: prints figures, asserts nothing.

For each game at its largest player count: complete random bot games, the mean
events per game, and the fold speed (events/s) re-folding their logs. Then, for a
long Caylus game stored in Redis: the time to build a view at a random seq cold
(no cache), with snapshots every K entries and without.

    .venv/bin/python bench/fold.py [--games N]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from events.rng import SeededRng  # noqa: E402
from projections.games import registry  # noqa: E402
from service.adapters.connection import connect, start_embedded  # noqa: E402
from tests.games import harness  # noqa: E402


def plain_refold(game, playout) -> dict:
    """The fold alone: setup, then apply each logged event with its seeded rng (the
    harness's refold also checks that apply never mutates, which costs two JSON dumps)."""
    state = game.setup(playout.options, playout.seats, SeededRng(playout.seed, 0))
    for event, counter in playout.log:
        state = game.apply(state, event, SeededRng(playout.seed, counter))
    return state


def fold_speed(games: int) -> None:
    print(f"{'game':24} {'seats':>5} {'games':>5} {'events/game':>12} {'fold events/s':>14} {'ms/game':>8}")
    for name, game in registry().items():
        seats = game.max_seats
        outs = [
            harness.play(game, seats, f"bench-{name}-{i}", check_views=False, check_schemas=False) for i in range(games)
        ]
        events = sum(len(o.log) for o in outs)
        start = time.perf_counter()
        for out in outs:
            plain_refold(game, out)
        elapsed = time.perf_counter() - start
        print(
            f"{name:24} {seats:>5} {games:>5} {events / games:>12.1f} {events / elapsed:>14.0f} "
            f"{1000 * elapsed / games:>8.1f}"
        )


def view_at_random_seq(samples: int = 30) -> None:
    from service.services.games import CreateGame
    from tests.services import services_over

    tmp = tempfile.mkdtemp()
    server, url = start_embedded(tmp)
    game = registry()["caylus"]
    rand = random.Random(7)
    timings = {}
    for label, every in (("snapshots every 100", 100), ("no snapshots", 10**9)):
        built = services_over(connect(url), snapshot_every=every)
        created = built.games.create(CreateGame("caylus", [f"p{i}" for i in range(game.max_seats)]))
        gid = created["id"]
        callers = [built.games.caller(gid, s["token"]) for s in created["seats"]]
        while built.log.state(gid)["status"] == "active":
            p = built.log.state(gid)
            seat = rand.choice(sorted(game.to_act(p["state"])))
            action = rand.choice(game.legal_actions(p["state"], seat))
            built.games.act(gid, callers[seat], action["type"], action["payload"])
        length = built.log.state(gid)["seq"]
        cold = []
        for _ in range(samples):
            seq = rand.randint(1, length)
            built.log.forget(gid)
            start = time.perf_counter()
            p = built.log.state_at(gid, seq)
            game.view(p["state"], 0)
            cold.append(time.perf_counter() - start)
        timings[label] = (length, statistics.mean(cold), max(cold))
    print(f"\nview at a random seq of a {game.max_seats}-player Caylus game (cold, from Redis):")
    for label, (length, mean, worst) in timings.items():
        print(f"  {label:22} log {length:>5} entries: mean {1000 * mean:7.1f} ms, worst {1000 * worst:7.1f} ms")
    a, b = timings["no snapshots"][1], timings["snapshots every 100"][1]
    print(f"  speed-up from snapshots: {a / b:.1f}x")
    server.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10)
    args = parser.parse_args()
    fold_speed(args.games)
    view_at_random_seq()
