"""Bot strength and search speed: prints figures, asserts nothing.

For every game and player count the search bot takes one seat (rotating through the
seats) against opponents that all play uniformly at random, then against the game's
weighted bot where the game has one. Two-player cells give the win rate with a 95%
Wilson interval; multiplayer cells give the mean rank and the normalised rank,
(rank - 1) / (seats - 1): 0 is always first, 1 always last, 0.5 is what a random
player averages, with a conservative 95% interval (see ``summary``). A solo game (Age of Rome, one seat) is played against
the game's own automaton, beside the random bot's solo win rate for comparison.

Goals (issue 19): >= 90% wins in two-player games and a normalised rank <= 0.30 (the
top 30% of places) in multiplayer games against the random bot; clearly better than
the weighted bot.

Games are spread over ``--jobs`` processes; costs are CPU seconds (``process_time``)
so figures do not depend on how loaded the machine was, which is printed beside them.

    nice -n 10 .venv/bin/python bench/bots.py [--games N] [--jobs J] [--game NAME]
        [--seats N] [--against uniform|weighted|both] [--iterations I] [--depth D]
        [--markdown FILE] [--log FILE.jsonl]

``--pool`` measures the bot pool instead (``pool_bench``): ``--games`` games (20 by default)
whose seats are all computers, of every game and strength, from four creators, played
by ``python -m service bots`` (``--workers`` processes) on a Redis of its own for
``--seconds``; then the think time of every move (``bot.picked`` to the move, from the
logs) and how long each waited in the queue, by strength.

    .venv/bin/python bench/bots.py --pool [--games 20] [--workers 2] [--slots 2] [--seconds 240]
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from datetime import UTC, datetime

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from events.rng import SeededRng  # noqa: E402
from projections.bots import match  # noqa: E402
from projections.bots.search import Budget, Node, Simulation, _iterate  # noqa: E402
from projections.games import registry  # noqa: E402
from service.services.computer_seats import THINK_SECONDS  # noqa: E402

BUDGETS = {
    # Iterations per move and the depth at which a rollout stops and the world is judged
    # by the game's evaluation. Small, so that the whole table is affordable on a
    # shared two-core machine; a game whose moves are dear (the Castle's tile placement)
    # gets shorter rollouts; Sultans of Karaya (up to 15 seats, a fast
    # engine) longer rollouts and more iterations.
    "caylus": Budget(iterations=20, rollout_depth=20),
    "carcassonne_castle": Budget(iterations=20, rollout_depth=4),
    "shadow_of_the_emperor": Budget(iterations=20, rollout_depth=10),
    "sultans_of_karaya": Budget(iterations=60, rollout_depth=30),
    "age_of_rome": Budget(iterations=20, rollout_depth=10),
}
GAMES = {
    # Games per cell: enough for a 95% interval that can show the goals (40 straight wins
    # put the Wilson interval's lower end at 0.91).
    "caylus": 40,
    "carcassonne_castle": 40,
    "shadow_of_the_emperor": 40,
    "sultans_of_karaya": 40,
    "age_of_rome": 40,
}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def has_weighted(name: str) -> bool:
    return hasattr(importlib.import_module(f"projections.games.{name}.bot"), "weight")


def one_game(task: tuple) -> tuple[int, float]:
    """(rank of the seat under test, CPU seconds) for one game of a cell."""
    name, seats, against, i, iterations, depth = task
    game = registry()[name]
    budget = Budget(iterations=iterations, rollout_depth=depth)
    me = i % seats
    opponent = getattr(match, "uniform" if against in ("solo-random",) else against) if against != "solo" else None
    tested = match.uniform if against == "solo-random" else match.searching(budget)
    policies = [tested if s == me else opponent for s in range(seats)]
    start = time.process_time()
    result = match.play(game, policies, seed=f"bench-{name}-{seats}-{i}")
    return result["ranking"][me], time.process_time() - start


def cells(args) -> list[tuple[str, int, str]]:
    out = []
    for name, game in registry().items():
        if args.game and name != args.game:
            continue
        for seats in [args.seats] if args.seats else range(max(game.min_seats, 1), game.max_seats + 1):
            if seats == 1:
                out += [(name, 1, "solo"), (name, 1, "solo-random")]
                continue
            for who in ("uniform", "weighted"):
                if args.against in (who, "both") and (who == "uniform" or has_weighted(name)):
                    out.append((name, seats, who))
    return out


def summary(name: str, seats: int, against: str, ranks: list[int], cpu: list[float]) -> dict:
    n, wins = len(ranks), sum(r == 1 for r in ranks)
    lo, hi = wilson(wins, n)
    row = {
        "game": name,
        "seats": seats,
        "against": against,
        "games": n,
        "wins": wins,
        "win_rate": wins / n,
        "win_ci": (lo, hi),
        "cpu_per_game": statistics.fmean(cpu),
    }
    row.update(mean_rank=statistics.fmean(ranks), rank_ci=(1.0, 1.0))
    if seats > 1:
        # The normalised rank lies in [0, 1], so its variance is at most m(1 - m) for a
        # mean m: the Wilson interval with that variance is a conservative 95% interval
        # that does not collapse when every game ended alike (three wins out of three).
        m = statistics.fmean([(r - 1) / (seats - 1) for r in ranks])
        nlo, nhi = wilson(m * n, n)
        row["normalised"], row["norm_lo"], row["norm_hi"] = m, nlo, nhi
        row["rank_ci"] = (1 + nlo * (seats - 1), 1 + nhi * (seats - 1))
    if against == "uniform":
        row["goal"] = (
            ("met" if lo >= 0.9 else "not shown" if hi >= 0.9 else "missed")
            if seats == 2
            else ("met" if row["norm_hi"] <= 0.3 else "not shown" if row["norm_lo"] <= 0.3 else "missed")
        )
    elif against == "weighted":  # better than the weighted bot: ahead of an even share
        lo_, hi_ = (lo, hi) if seats == 2 else (1 - row["norm_hi"], 1 - row["norm_lo"])
        row["goal"] = "better" if lo_ > 0.5 else "worse" if hi_ < 0.5 else "not shown"
    return row


def speed(name: str, seats: int, seconds: float, budget: Budget) -> float:
    """Iterations per CPU second from the first decision of a game."""
    game = registry()[name]
    state = game.setup(game.options_schema().load({}), seats, SeededRng("speed", 0))
    sim = Simulation(game, state, "s")
    sim.system_moves()
    state = sim.state
    seat = sorted(game.to_act(state))[0]
    root, rand, n, start = Node(), random.Random(0), 0, time.process_time()
    while time.process_time() - start < seconds:
        world = game.determinize(state, seat, rand) if game.hidden_information else state
        _iterate(game, Simulation(game, world, f"s{n}"), root, seat, seats, budget, rand)
        n += 1
    return n / (time.process_time() - start)


def markdown(rows: list[dict], speeds: list[tuple], header: str) -> str:
    lines = [
        header,
        "",
        (
            "| game | seats | against | budget (iterations / rollout depth) | games | wins | win rate (95% CI) "
            "| mean rank (95% CI) | normalised rank (95% CI) | goal | CPU s/game |"
        ),
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        norm = f"{r['normalised']:.2f} ({r['norm_lo']:.2f}–{r['norm_hi']:.2f})" if "normalised" in r else "—"
        lines.append(
            f"| {r['game']} | {r['seats']} | {r['against']} | {r['budget']} | {r['games']} | {r['wins']} "
            f"| {r['win_rate']:.2f} ({r['win_ci'][0]:.2f}–{r['win_ci'][1]:.2f}) "
            f"| {r['mean_rank']:.2f} ({r['rank_ci'][0]:.2f}–{r['rank_ci'][1]:.2f}) | {norm} "
            f"| {r.get('goal', '')} | {r['cpu_per_game']:.1f} |"
        )
    lines += ["", "| game | seats | rollout depth | iterations per CPU second |", "|---|---|---|---|"]
    lines += [f"| {n} | {s} | {d} | {v:.0f} |" for n, s, d, v in speeds]
    return "\n".join(lines) + "\n"


POOL_GAMES = [  # (game, seats): every game, at its smallest table
    ("caylus", 2),
    ("carcassonne_castle", 2),
    ("shadow_of_the_emperor", 2),
    ("sultans_of_karaya", 5),
    ("age_of_rome", 2),
]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))] if ordered else float("nan")


def pool_bench(args) -> None:
    """Computer seats played by the bot pool, as a server runs them; figures from the logs."""
    import subprocess
    import tempfile

    from events.envelope import parse_ts
    from service.adapters.connection import connect, start_embedded
    from service.bootstrap import build
    from service.services.games import CreateGame
    from service.signing import signer_for

    root = tempfile.mkdtemp(prefix="bench-pool-")
    server, url = start_embedded(os.path.join(root, "redis"), appendfsync="everysec")
    services = build(connect(url), signer_for(os.path.join(root, "keys")))
    made = []
    for i in range(args.games or 20):
        name, seats = POOL_GAMES[i % len(POOL_GAMES)]
        strength = 1 + i % 3
        command = CreateGame(
            name,
            [f"cpu{s}" for s in range(seats)],
            clock={"base": 86400.0, "increment": 0.0},  # clocks on: bot.picked marks each think's start
            bots={s: strength for s in range(seats)},
            creator=f"address:10.0.0.{i % 4}",
        )
        made.append((services.games.create(command)["id"], name, strength))
    # a fifth creator's one game, strength 1 (the trust issue's victim): its moves' waits
    alone = CreateGame(
        "caylus",
        ["cpu0", "cpu1"],
        clock={"base": 86400.0, "increment": 0.0},
        bots={0: 1, 1: 1},
        creator="address:alone",
    )
    victim = services.games.create(alone)["id"]
    made.append((victim, "caylus", 1))
    env = {**os.environ, "REDIS_URL": url, "BOT_WORKERS": str(args.workers), "BOT_SLOTS": str(args.slots)}
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    load0, started = os.getloadavg(), datetime.now(UTC)
    runner = subprocess.Popen([sys.executable, "-m", "service", "bots"], env=env, stderr=subprocess.DEVNULL)
    time.sleep(args.seconds)
    runner.terminate()
    runner.wait(30)
    think: dict[int, list[float]] = {1: [], 2: [], 3: []}
    wait: dict[int, list[float]] = {1: [], 2: [], 3: []}
    finished, alone_waits = 0, []
    for game_id, _name, strength in made:
        envelopes = services.log.read(game_id)
        finished += envelopes[-1]["type"] == "game.finished"
        previous, picked = parse_ts(envelopes[0]["ts"]), {}
        for e in envelopes[1:]:
            ts = parse_ts(e["ts"])
            if e["type"] == "bot.picked":
                picked[e["payload"]["seat"]] = ts
                (alone_waits if game_id == victim else wait[strength]).append(ts - previous)
            elif e["actor"].get("seat") in picked:
                think[strength].append(ts - picked.pop(e["actor"]["seat"]))
            previous = ts
    print(
        f"`.venv/bin/python bench/bots.py --pool --games {len(made) - 1} --workers {args.workers} --slots {args.slots} "
        f"--seconds {args.seconds}` — {started:%Y-%m-%d %H:%M} UTC, {platform.machine()} {os.cpu_count()} cores, "
        f"load average {load0[0]:.1f} at the start and {os.getloadavg()[0]:.1f} at the end; "
        f"{finished} of {len(made)} games finished."
    )
    print(
        f"A fifth creator's one game (strength 1, both seats): {len(alone_waits)} moves, queue wait "
        f"p50 {percentile(alone_waits, 0.5):.2f} s, p99 {percentile(alone_waits, 0.99):.2f} s, "
        f"max {max(alone_waits, default=float('nan')):.2f} s."
    )
    print()
    print(
        "| strength | bound | moves | think p50 | think p99 | think max | within bound | queue wait p50 | queue wait p99 |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for n in (1, 2, 3):
        t, w = think[n], wait[n]
        print(
            f"| {n} | {THINK_SECONDS[n]:.0f} s | {len(t)} | {percentile(t, 0.5):.2f} s | {percentile(t, 0.99):.2f} s "
            f"| {max(t, default=float('nan')):.2f} s | {'yes' if t and percentile(t, 0.99) <= THINK_SECONDS[n] else 'no'} "
            f"| {percentile(w, 0.5):.2f} s | {percentile(w, 0.99):.2f} s |"
        )
    server.shutdown()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pool", action="store_true", help="measure the bot pool's think times (see the docstring)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--slots", type=int, default=2)
    ap.add_argument("--seconds", type=int, default=240)
    ap.add_argument("--games", type=int, help="games per cell (default: per game, see GAMES)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--iterations", type=int)
    ap.add_argument("--depth", type=int)
    ap.add_argument("--game")
    ap.add_argument("--seats", type=int)
    ap.add_argument("--against", choices=["uniform", "weighted", "both"], default="both")
    ap.add_argument("--no-speed", action="store_true")
    ap.add_argument("--markdown")
    ap.add_argument("--report-only", action="store_true", help="print the table of the games in --log, play none")
    ap.add_argument("--log", help="append each game's outcome here (JSON lines); games already in it are not replayed")
    args = ap.parse_args()
    if args.pool:
        pool_bench(args)
        return

    def budget(name: str) -> Budget:
        b = BUDGETS[name]
        return Budget(
            iterations=args.iterations or b.iterations,
            rollout_depth=args.depth if args.depth is not None else b.rollout_depth,
        )

    started, load0, wall0 = datetime.now(UTC), os.getloadavg(), time.monotonic()
    todo = cells(args)
    tasks, owners = [], []
    for cell in todo:
        name = cell[0]
        b = budget(name)
        for i in range(args.games or GAMES[name]):
            tasks.append((name, cell[1], cell[2], i, b.iterations, b.rollout_depth))
            owners.append(cell)
    results: dict[tuple, list] = {cell: [] for cell in todo}
    done = {}
    if args.log and os.path.exists(args.log):
        with open(args.log) as f:
            for line in f:
                entry = json.loads(line)
                done[tuple(entry["task"])] = (entry["rank"], entry["cpu"])
    print(f"{len(todo)} cells, {len(tasks)} games, {len(done)} logged", flush=True)

    # Game by game across all cells, so that every cell has games if the run is cut short;
    # the cells of the goals (each game's smallest table against the random bot, and solo)
    # three games to the others' one.
    def pace(k: int) -> tuple:
        name, seats, against, i = tasks[k][:4]
        main = against in ("solo", "solo-random") or (
            against == "uniform" and seats == max(registry()[name].min_seats, 2)
        )
        return (i / 3 if main else i, -seats)

    order = [] if args.report_only else sorted((k for k in range(len(tasks)) if tasks[k] not in done), key=pace)
    for k in range(len(tasks)):
        if tasks[k] in done:
            results[owners[k]].append(done[tasks[k]])
    with multiprocessing.Pool(args.jobs) as pool, open(args.log or os.devnull, "a") as log:
        for k, outcome in zip(order, pool.imap(one_game, [tasks[k] for k in order])):
            results[owners[k]].append(outcome)
            log.write(json.dumps({"task": tasks[k], "rank": outcome[0], "cpu": outcome[1]}) + "\n")
            log.flush()
    rows = []
    print(
        f"{'game':22} {'seats':>5} {'against':>11} {'games':>5} {'wins':>4} {'win rate (CI)':>17} {'mean rank (CI)':>18} "
        f"{'norm rank':>9} {'goal':>9} {'CPU s/game':>10}"
    )
    for cell in todo:
        if not results[cell]:
            continue
        ranks, cpu = [r for r, _ in results[cell]], [c for _, c in results[cell]]
        row = summary(*cell, ranks, cpu)
        b = budget(cell[0])
        row["budget"] = "—" if cell[2] == "solo-random" else f"{b.iterations} / {b.rollout_depth}"
        rows.append(row)
        norm = f"{row['normalised']:.2f}" if "normalised" in row else "—"
        print(
            f"{cell[0]:22} {cell[1]:>5} {cell[2]:>11} {row['games']:>5} {row['wins']:>4} "
            f"{row['win_rate']:>5.2f} ({row['win_ci'][0]:.2f}-{row['win_ci'][1]:.2f}) "
            f"{row['mean_rank']:>6.2f} ({row['rank_ci'][0]:.2f}-{row['rank_ci'][1]:.2f}) {norm:>9} "
            f"{row.get('goal', ''):>9} {row['cpu_per_game']:>10.1f}",
            flush=True,
        )
    speeds = []
    if not args.no_speed and not args.report_only:
        for name, game in registry().items():
            if args.game and name != args.game:
                continue
            seats = args.seats or max(game.min_seats, 2)
            speeds.append((name, seats, budget(name).rollout_depth, speed(name, seats, 3.0, budget(name))))
            print(f"speed {name:22} {seats:>3} seats: {speeds[-1][3]:.0f} iterations per CPU second", flush=True)
    cpu_total = sum(c for cell in todo for _, c in results[cell])
    if args.report_only:
        header = (
            f"{sum(len(v) for v in results.values())} games logged in {args.log}, {cpu_total / 60:.0f} CPU minutes."
        )
    else:
        header = (
            f"`{' '.join(['nice -n 10 .venv/bin/python bench/bots.py'] + sys.argv[1:])}` — "
            f"{started:%Y-%m-%d %H:%M} UTC, {platform.machine()} {os.cpu_count()} cores "
            f"({platform.processor() or 'cpu'}), load average {load0[0]:.1f} at the start and "
            f"{os.getloadavg()[0]:.1f} at the end; {cpu_total / 60:.0f} CPU minutes of games in "
            f"{(time.monotonic() - wall0) / 60:.0f} minutes of wall time."
        )
    print(header)
    if args.markdown:
        with open(args.markdown, "w") as out:
            out.write(markdown(rows, speeds, header))


if __name__ == "__main__":
    main()
