"""Bot strength and search speed: prints figures, asserts nothing.

For each game and player count, the search bot takes one seat (rotating) against
opponents that all play uniformly at random, then against the game's weighted bot;
it prints the search bot's win rate with a 95% Wilson interval and its mean rank.
Then the search speed: iterations per second per game.

    .venv/bin/python bench/bots.py [--games N] [--iterations I] [--depth D] [--game NAME] [--seats N]
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from projections.bots import match  # noqa: E402
from projections.bots.search import Budget, Simulation, _iterate, Node  # noqa: E402
from projections.games import registry  # noqa: E402

import random  # noqa: E402


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def strength(name: str, seats: int, games: int, budget: Budget, opponent) -> tuple[int, float, int]:
    game = registry()[name]
    wins, ranks = 0, []
    for i in range(games):
        me = i % seats
        policies = [match.searching(budget) if s == me else opponent for s in range(seats)]
        result = match.play(game, policies, seed=f"bench-{name}-{seats}-{i}")
        rank = result["ranking"][me]
        wins += rank == 1
        ranks.append(rank)
    return wins, sum(ranks) / len(ranks), games


def speed(name: str, seats: int, seconds: float, budget: Budget) -> float:
    game = registry()[name]
    state = game.setup(game.options_schema().load({}), seats, __import__("events.rng", fromlist=["SeededRng"]).SeededRng("speed", 0))
    sim = Simulation(game, state, "s")
    sim.system_moves()
    state = sim.state
    seat = sorted(game.to_act(state))[0]
    root, rand, n, start = Node(), random.Random(0), 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        world = game.determinize(state, seat, rand) if game.hidden_information else state
        _iterate(game, Simulation(game, world, f"s{n}"), root, seat, seats, budget, rand)
        n += 1
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--iterations", type=int, default=60)
    ap.add_argument("--depth", type=int, default=20)
    ap.add_argument("--game")
    ap.add_argument("--seats", type=int)
    ap.add_argument("--against", choices=["uniform", "weighted", "both"], default="both")
    args = ap.parse_args()
    budget = Budget(iterations=args.iterations, rollout_depth=args.depth)
    print(f"budget: {budget.iterations} iterations, rollouts cut at {budget.rollout_depth} moves")
    print(f"{'game':24} {'seats':>5} {'against':>8} {'games':>5} {'wins':>5} {'win rate':>9} {'95% CI':>13} {'mean rank':>9} {'s/game':>7}")
    against = ["uniform", "weighted"] if args.against == "both" else [args.against]
    for name, game in registry().items():
        if args.game and name != args.game:
            continue
        counts = [args.seats] if args.seats else list(range(max(game.min_seats, 1), game.max_seats + 1))
        for seats in counts:
            for who in against:
                start = time.perf_counter()
                wins, mean_rank, n = strength(name, seats, args.games, budget, getattr(match, who))
                lo, hi = wilson(wins, n)
                print(f"{name:24} {seats:>5} {who:>8} {n:>5} {wins:>5} {wins / n:>9.2f} {f'{lo:.2f}-{hi:.2f}':>13} "
                      f"{mean_rank:>9.2f} {(time.perf_counter() - start) / n:>7.1f}", flush=True)
    print(f"\n{'game':24} {'seats':>5} {'iterations/s':>13}")
    for name, game in registry().items():
        if args.game and name != args.game:
            continue
        seats = args.seats or max(game.min_seats, 2)
        print(f"{name:24} {seats:>5} {speed(name, seats, 3.0, budget):>13.0f}", flush=True)


if __name__ == "__main__":
    main()
