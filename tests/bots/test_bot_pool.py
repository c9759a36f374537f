"""The bot pool is shared fairly: a creator with many strong computers cannot starve
another's one, nor put more computers in play than its cap, and a computer's clock does
not run while its move waits in the queue."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from events.envelope import parse_ts
from service import wiring
from tests.bots.test_bot_seats import QUICK
from tests.platform.helpers import auth

ROOT = Path(__file__).resolve().parents[2]


def drain(queue) -> None:
    """Takes every move waiting in the computer seats' queue, so a test starts and ends empty."""
    while queue.take() is not None:
        pass


def create(client, address, bots, game="caylus", seats=("ann", "bob"), **extra):
    return client.post(
        "/api/games",
        json={"game": game, "seats": list(seats), "bots": bots, **extra},
        environ_base={"REMOTE_ADDR": address},
    )


def test_a_creator_with_many_strong_computers_does_not_starve_another(client, services):
    """Eight all-strength-3 games queued first by one address, then one strength-1 game by
    another: the second creator's move is among the first two the pool takes (its cost, a
    strength-1 budget, is a sixth of theirs, so it comes first)."""
    queue = services.bot_queue
    drain(queue)  # what other tests left queued
    strong = [{"seat": 0, "strength": 3}, {"seat": 1, "strength": 3}]
    flood = [create(client, "10.9.0.1", strong).json["id"] for _ in range(8)]
    victim = create(client, "10.9.0.2", [{"seat": 0, "strength": 1}, {"seat": 1, "strength": 1}])
    assert victim.status_code == 201, victim.json
    order = []
    while (game_id := queue.take()) is not None:
        order.append(game_id)
    assert sorted(order) == sorted([*flood, victim.json["id"]])
    assert order.index(victim.json["id"]) <= 1, order
    # on main one queue in arrival order: the victim's move came after all eight


def test_the_fair_queue_serves_creators_by_their_think_time(services):
    """Start-time fair queuing by cost: a creator of strength-3 moves (12 s each) and one of
    strength-1 moves (2 s) both kept busy; the cheap one gets about six moves per dear one."""
    queue = services.bot_queue
    drain(queue)
    for i in range(4):
        queue.due(f"dear{i}", "address:a", 12.0)
    for i in range(24):
        queue.due(f"cheap{i}", "address:b", 2.0)
    first = [queue.take() for _ in range(14)]
    dear = [g for g in first if g.startswith("dear")]
    assert 2 <= len(dear) <= 3, first
    queue.due("dear0", "address:a", 12.0)  # a queued game keeps its one place
    while (game_id := queue.take()) is not None:
        first.append(game_id)
    assert queue.length() == 0
    for game_id in first:  # no such games: no worker is to look for them
        queue.done(game_id)


@pytest.fixture()
def capped(redis_url, tmp_path):
    from service.app import create_app

    app = create_app(
        {
            "REDIS_URL": redis_url,
            "CLOCK_SWEEP_SECONDS": 0,
            "TESTING": True,
            "DATA_DIR": str(tmp_path),
            "BOT_SEATS_PER_CREATOR": 4,
            "BOT_STRENGTH_PER_CREATOR": 6,
        }
    )
    return app.test_client(), wiring.of(app)


def test_the_cap_per_creator_refuses_with_429_and_writes_nothing(capped):
    client, services = capped
    address = f"10.8.{int(time.time()) % 250}.{int(time.time() * 1000) % 250}"
    two = [{"seat": 0, "strength": 3}, {"seat": 1, "strength": 3}]
    first = create(client, address, two)
    assert first.status_code == 201, first.json
    before = client.get("/api/games?limit=100").json["games"]
    refused = create(client, address, [{"seat": 0, "strength": 1}])
    assert refused.status_code == 429, refused.json
    error = refused.json["error"]
    assert error["code"] == "computer_seats_cap"
    assert error["details"]["seats"] == 2 and error["details"]["strength"] == 6
    assert error["details"]["max_seats"] == 4 and error["details"]["max_strength"] == 6
    assert refused.headers.get("Retry-After")
    assert client.get("/api/games?limit=100").json["games"] == before  # nothing written
    # another address is not charged for this one's games
    assert create(client, address + "1", [{"seat": 0, "strength": 3}]).status_code == 201
    # a game of people may still seat a computer through its referee: charged the same way
    people = create(client, address, [])
    assert people.status_code == 201
    r = client.post(
        f"/api/games/{people.json['id']}/referee/bot",
        json={"seat": 0, "strength": 1, "reason": "left"},
        headers=auth(people.json["referee_token"]),
        environ_base={"REMOTE_ADDR": address},
    )
    assert r.status_code == 429 and r.json["error"]["code"] == "computer_seats_cap", r.json
    # once the computers' game is over, its seats are released
    services.bot_runner(QUICK).run_until_idle()
    assert client.get(f"/api/games/{first.json['id']}").json["status"] == "finished"
    assert create(client, address, [{"seat": 0, "strength": 3}, {"seat": 1, "strength": 2}]).status_code == 201


def test_a_computers_clock_does_not_run_while_it_waits_in_the_queue(client, services):
    """A 3 s clock; the computer's move waits 4 s for a worker. Its flag does not fall
    meanwhile (the sweeper finds nothing to expire: on main it forfeited the seat), and
    the worker's ``bot.picked`` starts its clock, charged from there."""
    made = create(
        client,
        "10.7.0.1",
        [{"seat": 0, "strength": 1}, {"seat": 1, "strength": 1}],
        clock={"base": 3, "increment": 0},
    )
    assert made.status_code == 201, made.json
    gid, referee = made.json["id"], made.json["referee_token"]
    meta = client.get(f"/api/games/{gid}").json
    (first,) = meta["to_act"]
    assert meta["clocks"]["running"] == []  # queued: no clock runs
    time.sleep(4)
    services.clocks.expire()
    assert client.get(f"/api/games/{gid}").json["status"] == "active"
    assert services.bot_runner(QUICK).move(gid)
    events = client.get(f"/api/games/{gid}/events", headers=auth(referee)).json["events"]
    kinds = [e["type"] for e in events]
    assert kinds[1] == "bot.picked" and events[1]["payload"] == {"seat": first}
    assert kinds[2].startswith("caylus.") and events[2]["actor"]["seat"] == first
    meta = client.get(f"/api/games/{gid}").json
    clocks = meta["clocks"]  # a first move is timed by the first-move allowance
    spent = clocks["first_move"] - clocks["opening"][first]
    assert clocks["remaining"][first] == 3
    assert spent == pytest.approx(parse_ts(events[2]["ts"]) - parse_ts(events[1]["ts"]), abs=1e-6)
    assert spent < 1.5, meta["clocks"]  # the search, not the 4 s in the queue


def test_a_computers_time_is_what_it_spent_between_picked_and_its_move(client, services):
    """A whole game of computers with clocks, the first move queued 2 s: each seat's clock
    is charged exactly the spans from its ``bot.picked`` to its move, as the log says;
    replay and the verifier agree."""
    made = create(
        client,
        "10.7.0.2",
        [{"seat": 0, "strength": 1}, {"seat": 1, "strength": 2}],
        clock={"base": 600, "increment": 0},
    )
    assert made.status_code == 201, made.json
    gid, referee = made.json["id"], made.json["referee_token"]
    time.sleep(2)
    services.bot_runner(QUICK).run_until_idle()
    meta = client.get(f"/api/games/{gid}").json
    assert meta["status"] == "finished" and not meta["result"]["forfeited"]
    events = client.get(f"/api/games/{gid}/events", headers=auth(referee)).json["events"]
    spent, opening, picked, moved = [0.0, 0.0], [0.0, 0.0], {}, set()
    for e in events:
        if e["type"] == "bot.picked":
            picked[e["payload"]["seat"]] = parse_ts(e["ts"])
        elif e["type"].startswith("caylus.") and e["actor"].get("seat") is not None:
            seat = e["actor"]["seat"]
            first = seat not in moved
            moved.add(seat)
            (opening if first else spent)[seat] += parse_ts(e["ts"]) - picked.pop(seat)
    assert min(spent) > 0 and min(opening) > 0
    clocks = meta["clocks"]  # each seat's first move is timed by its first-move allowance
    assert clocks["remaining"] == pytest.approx([600 - spent[0], 600 - spent[1]], abs=1e-6)
    assert clocks["opening"] == pytest.approx([clocks["first_move"] - o for o in opening], abs=1e-6)
    waited = parse_ts(next(e for e in events if e["type"] == "bot.picked")["ts"]) - parse_ts(events[0]["ts"])
    assert waited >= 2  # the first move's 2 s in the queue are in no seat's charge
    export = client.get(f"/api/games/{gid}/export").data
    report = client.post("/api/verify", data=export).json
    assert report["ok"], report


def test_the_pool_of_workers_plays_every_creators_games_and_reports_its_metrics(client, services, redis_url, tmp_path):
    """``python -m service bots`` with BOT_WORKERS=2: two worker processes play games of
    three creators to the end; their think times land in the metrics directory, by
    strength, and /metrics tells the queue's length."""
    from prometheus_client import CollectorRegistry, multiprocess

    games = [
        create(client, f"10.6.0.{i}", [{"seat": 0, "strength": s}, {"seat": 1, "strength": s}], game="age_of_rome")
        for i, s in ((1, 1), (2, 2), (3, 1))
    ]
    assert all(g.status_code == 201 for g in games), [g.json for g in games]
    assert "boardgames_bot_queue_length" in client.get("/metrics").get_data(as_text=True)
    env = {
        **os.environ,
        "REDIS_URL": redis_url,
        "PYTHONPATH": str(ROOT),
        "BOT_SECONDS_CAP": "0.02",
        "BOT_WORKERS": "2",
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path),
    }
    proc = subprocess.Popen([sys.executable, "-m", "service", "bots"], cwd=ROOT, env=env)
    try:
        deadline = time.time() + 180
        while time.time() < deadline:
            if all(client.get(f"/api/games/{g.json['id']}").json["status"] == "finished" for g in games):
                break
            time.sleep(0.5)
        assert [client.get(f"/api/games/{g.json['id']}").json["status"] for g in games] == ["finished"] * 3
        workers = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
        assert len(workers) == 2, workers
    finally:
        proc.terminate()
        proc.wait(20)
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, str(tmp_path))
    counts = {
        s.labels["strength"]: s.value
        for metric in registry.collect()
        if metric.name == "boardgames_bot_think_seconds"
        for s in metric.samples
        if s.name == "boardgames_bot_think_seconds_count"
    }
    assert counts.get("1", 0) > 0 and counts.get("2", 0) > 0, counts


def test_a_long_think_yields_to_a_short_one_taken_after_it(client, services):
    """A worker with two slots slices its searches: a strength-1 move taken while a long
    strength-3 search is under way is written before that search ends."""
    from projections.bots.search import Budget

    queue = services.bot_queue
    drain(queue)
    strong = create(client, "10.5.0.1", [{"seat": 0, "strength": 3}, {"seat": 1, "strength": 3}]).json["id"]
    weak = create(client, "10.5.0.1", [{"seat": 0, "strength": 1}, {"seat": 1, "strength": 1}]).json[
        "id"
    ]  # queued after
    runner = services.bot_runner(
        {1: Budget(iterations=2, rollout_depth=5), 3: Budget(iterations=100000, rollout_depth=60, seconds=3.0)},
        slots=2,
    )
    started = time.monotonic()
    while client.get(f"/api/games/{weak}").json["seq"] == 1:
        assert runner.run_once()
    assert time.monotonic() - started < 1.5
    assert client.get(f"/api/games/{strong}").json["seq"] == 1  # still thinking
    while client.get(f"/api/games/{strong}").json["seq"] == 1:
        assert runner.run_once()
    assert time.monotonic() - started >= 3.0  # its budget, spent in slices
    drain(queue)


def test_a_move_taken_by_a_worker_that_died_is_played_by_another(client, services):
    """A worker takes a move from the queue and is killed before it plays it: another
    worker finds the move taken long ago and never finished, and plays it."""
    queue = services.bot_queue
    drain(queue)
    gid = create(client, "10.4.0.1", [{"seat": 0, "strength": 1}, {"seat": 1, "strength": 1}]).json["id"]
    assert queue.take() == gid  # the worker that dies
    services.bot_runner(QUICK, stale_seconds=5).run_until_idle(limit=5)
    assert client.get(f"/api/games/{gid}").json["seq"] == 1  # not stale yet
    time.sleep(1)
    survivor = services.bot_runner(QUICK, stale_seconds=0.5)
    survivor.run_until_idle(limit=20)
    assert client.get(f"/api/games/{gid}").json["seq"] > 1
    drain(queue)
