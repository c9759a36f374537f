"""Ratings fold benchmark: prints figures, asserts nothing.

A worker folds the ratings stream once, then one update per result arriving in order;
a correction (or a result older than one applied) refolds from the start
(projections/ratings.py). This measures that whole refold, which is also what a cold
worker pays, for seasons of growing size: random results of 2 to 5 seats among a pool
of accounts, in three game types.

    .venv/bin/python bench/ratings.py [--accounts 200]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from projections import ratings  # noqa: E402


def season(games: int, accounts: int, rand: random.Random) -> list[dict]:
    pool = [f"player{i}" for i in range(accounts)]
    out = []
    for n in range(games):
        seats = rand.randint(2, 5)
        ranking = [rand.randint(1, seats) for _ in range(seats)]
        out.append(
            {
                "game_id": f"g{n:07d}",
                "game": rand.choice(["caylus", "age_of_rome", "carcassonne_castle"]),
                "finished_at": f"2026-01-01T00:00:{n:07d}Z",
                "head": "h",
                "seq": 1,
                "accounts": rand.sample(pool, seats),
                "ranking": ranking,
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--accounts", type=int, default=200)
    args = parser.parse_args()
    rand = random.Random(16)
    print(f"ratings refold, {args.accounts} accounts, 2-5 seats per game (PlackettLuce)")
    for games in (100, 1_000, 10_000):
        results = season(games, args.accounts, rand)
        start = time.perf_counter()
        ratings.fold(results)
        spent = time.perf_counter() - start
        print(f"  {games:>6} results: {spent * 1000:8.1f} ms  ({games / spent:,.0f} results/s)")


if __name__ == "__main__":
    main()
