"""Fold speed of two checkouts on the same logs, in CPU time: prints figures, asserts nothing.

A busy machine makes wall-clock fold figures (bench/fold.py) swing several-fold from run
to run; CPU time of the same logs, measured alternately in each checkout, is steadier.

    # once, in either checkout: play N bot games per game and keep their logs
    .venv/bin/python bench/fold_ab.py gen /tmp/logs.pkl --games 4
    # then, alternately in each checkout (cd there first), a few times:
    .venv/bin/python bench/fold_ab.py fold /tmp/logs.pkl --game caylus --reps 7

The logs must fold alike in both checkouts (the golden logs say whether they do).
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from events.rng import SeededRng  # noqa: E402
from projections.games import registry  # noqa: E402
from tests.games import harness  # noqa: E402


def generate(path: str, games: int) -> None:
    logs = {}
    for name, game in registry().items():
        plays = [
            harness.play(game, game.max_seats, f"bench-{name}-{i}", check_views=False, check_schemas=False)
            for i in range(games)
        ]
        logs[name] = [(p.options, p.seats, p.seed, p.log) for p in plays]
    with open(path, "wb") as out:
        pickle.dump(logs, out)


def fold(path: str, names: list[str], reps: int) -> None:
    with open(path, "rb") as src:
        logs = pickle.load(src)
    for name in names:
        game = registry()[name]
        events = sum(len(log) for *_, log in logs[name])
        times = []
        for _ in range(reps):
            start = time.process_time()
            for options, seats, seed, log in logs[name]:
                state = game.setup(options, seats, SeededRng(seed, 0))
                for event, counter in log:
                    state = game.apply(state, event, SeededRng(seed, counter))
            times.append(time.process_time() - start)
        times.sort()
        print(
            f"{name:24} {events:>6} events  best {events / times[0]:>8.0f}  median {events / times[len(times) // 2]:>8.0f} events/s (CPU)"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["gen", "fold"])
    parser.add_argument("path")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--game", action="append")
    parser.add_argument("--reps", type=int, default=7)
    args = parser.parse_args()
    if args.mode == "gen":
        generate(args.path, args.games)
    else:
        fold(args.path, args.game or sorted(registry()), args.reps)
