"""Computer seats through the API: a bot's move is an ordinary event made with its own
seat token, action id and expected seq; the runner works outside the request threads;
evaluation lines for commentators stay hidden from spectators of a live game."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

from projections.bots.search import Budget
from service.services.bot_runner import BotRunner
from tests.platform.helpers import auth

ROOT = Path(__file__).resolve().parents[2]


def create(client, game="caylus", seats=("ann", "bob"), bots=(), **extra):
    r = client.post("/api/games", json={"game": game, "seats": list(seats), "bots": list(bots), **extra})
    assert r.status_code == 201, r.json
    return r.json


QUICK = {n: Budget(iterations=4, rollout_depth=10) for n in (1, 2, 3)}
"""Tiny budgets: these tests prove the plumbing; strength is measured in bench/bots.py."""


def runner(services) -> BotRunner:
    return services.bot_runner(QUICK)


def test_a_game_of_computers_plays_to_the_end_with_ordinary_events(client, services):
    created = create(client, bots=[{"seat": 0, "strength": 1}, {"seat": 1, "strength": 1}])
    assert [s["token"] for s in created["seats"]] == [None, None]  # nobody can play a computer's seat
    assert [s["bot"] for s in created["seats"]] == [1, 1]
    gid = created["id"]
    runner(services).run_until_idle()
    meta = client.get(f"/api/games/{gid}").json
    assert meta["status"] == "finished"
    assert [s.get("bot") for s in meta["seats"]] == [1, 1]
    events = client.get(f"/api/games/{gid}/events").json["events"]
    assert events[0]["payload"]["bots"] == {"0": 1, "1": 1}  # the log says who was a computer
    moves = [e for e in events if e["type"].startswith("caylus.") and "seat" in e["actor"]]
    assert moves and all(e["action_id"] == f"sys:bot:{e['seq'] - 1}:{e['actor']['seat']}" for e in moves)
    report = client.post("/api/verify", data=client.get(f"/api/games/{gid}/export").get_data(as_text=True)).json
    assert report["ok"], report


def test_a_person_plays_against_a_computer_and_cannot_move_for_it(client, services):
    created = create(client, bots=[{"seat": 1, "strength": 1}])
    gid, token = created["id"], created["seats"][0]["token"]
    bot = runner(services)
    rand = random.Random(7)
    for _ in range(2000):
        bot.run_until_idle()
        meta = client.get(f"/api/games/{gid}").json
        if meta["status"] == "finished":
            break
        assert meta["to_act"] == [0], "the computer left its turn unplayed"
        actions = client.get(f"/api/games/{gid}/actions", headers=auth(token)).json["actions"]
        r = client.post(
            f"/api/games/{gid}/actions", json={**rand.choice(actions), "expected_seq": meta["seq"]}, headers=auth(token)
        )
        assert r.status_code == 201, r.json
    assert client.get(f"/api/games/{gid}").json["status"] == "finished"


def test_the_referee_seats_a_computer_for_a_withdrawn_player(client, services):
    created = create(client)
    gid, ref = created["id"], created["referee_token"]
    withdrawn = created["seats"][1]["token"]
    r = client.post(
        f"/api/games/{gid}/referee/bot", json={"seat": 1, "strength": 1, "reason": "bob withdrew"}, headers=auth(ref)
    )
    assert r.status_code == 201, r.json
    again = client.post(f"/api/games/{gid}/referee/bot", json={"seat": 1, "reason": "twice"}, headers=auth(ref))
    assert again.status_code == 409 and again.json["error"]["code"] == "already_a_computer"
    spectator = client.post(f"/api/games/{gid}/referee/bot", json={"seat": 0, "reason": "x"})
    assert spectator.status_code == 403
    meta = client.get(f"/api/games/{gid}").json
    assert meta["seats"][1]["bot"] == 1
    # the withdrawn player's token no longer moves that seat
    actions = client.get(f"/api/games/{gid}/actions", headers=auth(withdrawn)).json["actions"]
    if actions:
        r = client.post(f"/api/games/{gid}/actions", json=actions[0], headers=auth(withdrawn))
        assert r.status_code == 403 and r.json["error"]["code"] == "computer_seat"


def test_bad_bot_seats_are_refused_and_nothing_is_written(client, services):
    before = client.get("/api/games").json["games"]
    for bots in ([{"seat": 5}], [{"seat": 0, "strength": 9}], [{"seat": "x"}], [{"seat": 0.5}]):
        r = client.post("/api/games", json={"game": "caylus", "seats": ["a", "b"], "bots": bots})
        assert r.status_code == 400, (bots, r.json)
    # the toy game hides cards but cannot say how to re-deal them: no computer can sit there
    r = client.post("/api/games", json={"game": "toy", "seats": ["a", "b"], "bots": [{"seat": 1}]})
    assert r.status_code == 400 and r.json["error"]["code"] == "no_computer_player"
    assert client.get("/api/games").json["games"] == before


def test_the_evaluation_line_of_a_finished_game(client, services):
    created = create(client, bots=[{"seat": 0, "strength": 1}, {"seat": 1, "strength": 1}])
    gid = created["id"]
    bot = runner(services)
    bot.run_until_idle()
    assert client.get(f"/api/games/{gid}").json["status"] == "finished"
    r = client.post(f"/api/games/{gid}/analysis")
    assert r.status_code == 202 and r.json["status"] == "queued"
    assert client.get(f"/api/games/{gid}/analysis").json["status"] == "queued"
    bot.run_until_idle()
    line = client.get(f"/api/games/{gid}/analysis").json
    assert line["status"] == "done" and line["done"] == line["total"] == len(line["points"]) <= 80
    for _seq, chances in line["points"]:
        assert len(chances) == 2 and abs(sum(chances) - 1) < 0.01
    result = client.get(f"/api/games/{gid}").json["result"]
    assert line["points"][-1][1] == [1.0 if r == 1 else 0.0 for r in result["ranking"]] or 1 in result["ranking"]
    assert {d["seat"] for d in line["drops"]} <= {0, 1}


def test_spectators_get_no_evaluation_of_a_live_game(client, services):
    created = create(client, game="carcassonne_castle")
    gid, ref = created["id"], created["referee_token"]
    seat = created["seats"][0]["token"]
    assert client.post(f"/api/games/{gid}/analysis").status_code == 403
    assert client.post(f"/api/games/{gid}/analysis", headers=auth(seat)).status_code == 403
    assert client.post(f"/api/games/{gid}/analysis", headers=auth(ref)).status_code == 202
    runner(services).run_until_idle()
    assert client.get(f"/api/games/{gid}/analysis", headers=auth(ref)).json["status"] == "done"
    assert client.get(f"/api/games/{gid}/analysis").status_code == 403
    assert client.get(f"/api/games/{gid}/analysis", headers=auth(seat)).status_code == 403


def test_the_runner_process_plays_outside_the_web_workers(client, services, redis_url):
    """``python -m service bots`` is its own process: it plays while no request is served."""
    created = create(client, game="age_of_rome", seats=("solo",), bots=[{"seat": 0, "strength": 1}])
    gid = created["id"]
    env = {**os.environ, "REDIS_URL": redis_url, "PYTHONPATH": str(ROOT), "BOT_SECONDS_CAP": "0.01"}
    proc = subprocess.Popen([sys.executable, "-m", "service", "bots"], cwd=ROOT, env=env)
    try:
        deadline = time.time() + 120
        while time.time() < deadline and client.get(f"/api/games/{gid}").json["status"] != "finished":
            time.sleep(0.3)
        assert client.get(f"/api/games/{gid}").json["status"] == "finished"
    finally:
        proc.terminate()
        proc.wait(10)


def test_a_withdrawn_tournament_player_is_replaced_by_a_computer_and_ranks_last(client, services):
    """The director withdraws a player with ``bot``: the table plays on, and the seat still ranks last."""
    from tests.tournaments.bots import bearer as tbearer

    made = client.post(
        "/api/tournaments", json={"game": "caylus", "name": "Club night", "options": {"table_size": 3, "rounds": 1}}
    ).get_json()
    tid, director = made["id"], made["director_token"]
    players = {}
    for name in ("Ann", "Bob", "Cy"):
        reg = client.post(f"/api/tournaments/{tid}/players", json={"name": name}).get_json()
        players[reg["pid"]] = reg["player_token"]
    table = client.post(f"/api/tournaments/{tid}/rounds", headers=tbearer(director)).get_json()["tables"][0]
    gid = table["game_id"]
    quitter = table["seats"][1]
    answer = client.delete(
        f"/api/tournaments/{tid}/players/{quitter['pid']}",
        headers=tbearer(director),
        json={"reason": "unwell", "bot": 1},
    )
    assert answer.status_code == 200, answer.get_json()
    meta = client.get(f"/api/games/{gid}").json
    assert meta["status"] == "active" and meta["seats"][1]["bot"] == 1
    humans = {s["seat"]: s["token"] for s in table["seats"] if s["seat"] != 1}
    _play_humans(client, services, gid, humans, 3)
    result = client.get(f"/api/games/{gid}").json["result"]
    assert result["ranking"][1] == 3 and 1 in result["forfeited"]
    standings = client.get(f"/api/tournaments/{tid}/standings").get_json()
    last = max(standings["standings"], key=lambda row: row["rank"])
    assert last["pid"] == quitter["pid"]


def _play_humans(client, services, gid, humans, seed):
    bot, rand = runner(services), random.Random(seed)
    for _ in range(3000):
        bot.run_until_idle()
        meta = client.get(f"/api/games/{gid}").json
        if meta["status"] == "finished":
            return meta
        seat = rand.choice([s for s in meta["to_act"] if s in humans])
        actions = client.get(f"/api/games/{gid}/actions", headers=auth(humans[seat])).json["actions"]
        r = client.post(
            f"/api/games/{gid}/actions",
            json={**rand.choice(actions), "expected_seq": meta["seq"]},
            headers=auth(humans[seat]),
        )
        assert r.status_code == 201, r.json
    raise AssertionError(f"game {gid} did not finish")


def test_a_director_fills_a_bye_with_a_computer_and_the_game_counts(client, services):
    """Three players, two-player Swiss: the player who would sit out plays a computer;
    their result counts as any game's, the computer has no standing, the next bye rotates."""
    from service.audit.bundles import verify_tournament
    from tests.tournaments.bots import bearer as tbearer

    made = client.post(
        "/api/tournaments", json={"game": "caylus", "name": "Odd night", "options": {"table_size": 2, "rounds": 2}}
    ).get_json()
    tid, director = made["id"], made["director_token"]
    for name in ("Ann", "Bob", "Cy"):
        assert client.post(f"/api/tournaments/{tid}/players", json={"name": name}).status_code == 201
    for bad in ({"bye_computer": 0}, {"bye_computer": 4}, {"bye_computer": "2"}, {"bye_computer": True}):
        refused = client.post(f"/api/tournaments/{tid}/rounds", headers=tbearer(director), json=bad)
        assert refused.status_code == 400 and refused.get_json()["error"]["code"] == "bad_request", bad
    assert client.get(f"/api/tournaments/{tid}").get_json()["rounds"] == []  # nothing written

    first = client.post(f"/api/tournaments/{tid}/rounds", headers=tbearer(director), json={"bye_computer": 1})
    assert first.status_code == 201, first.get_json()
    pairing = first.get_json()
    assert pairing["byes"] == [] and len(pairing["tables"]) == 2
    filled = next(t for t in pairing["tables"] if any(s["pid"] is None for s in t["seats"]))
    computer = next(s for s in filled["seats"] if s["pid"] is None)
    player = next(s for s in filled["seats"] if s["pid"] is not None)
    assert computer == {"seat": computer["seat"], "pid": None, "name": "Computer (strength 1)", "computer": 1}
    assert computer.get("token") is None and player["token"]  # the director gets the player's link only
    meta = client.get(f"/api/games/{filled['game_id']}").json
    assert meta["seats"][computer["seat"]]["bot"] == 1 and meta["tournament"] == tid

    results = {}
    for table in pairing["tables"]:
        humans = {s["seat"]: s["token"] for s in table["seats"] if s["pid"] is not None}
        results[table["game_id"]] = _play_humans(client, services, table["game_id"], humans, 11)["result"]
    standings = client.get(f"/api/tournaments/{tid}/standings").get_json()["standings"]
    assert {row["pid"] for row in standings} == {"p1", "p2", "p3"}  # the computer has no standing
    row = next(r for r in standings if r["pid"] == player["pid"])
    won = results[filled["game_id"]]["ranking"][player["seat"]] == 1
    assert row["points"] == (1 if won else 0) and row["games"] == 1 and row["byes"] == 1
    assert sum(r["points"] for r in standings) == 1 + (1 if won else 0)  # no free bye point

    second = client.post(
        f"/api/tournaments/{tid}/rounds", headers=tbearer(director), json={"bye_computer": 1}
    ).get_json()
    filled2 = next(t for t in second["tables"] if any(s["pid"] is None for s in t["seats"]))
    assert player["pid"] not in [s["pid"] for s in filled2["seats"]]  # the bye rotates
    for table in second["tables"]:
        humans = {s["seat"]: s["token"] for s in table["seats"] if s["pid"] is not None}
        _play_humans(client, services, table["game_id"], humans, 12)
    summary = client.get(f"/api/tournaments/{tid}").get_json()
    assert summary["status"] == "finished"
    report = verify_tournament(client.get(f"/api/tournaments/{tid}/export").get_json())
    assert report["ok"], report["messages"]


def test_a_computer_seats_old_token_neither_asks_nor_answers_undos_nor_writes_as_the_seat(client, services):
    """Once a computer plays a seat, the person's token no longer speaks for it: not in
    moves, undo requests, undo answers or annotations (each 403 computer_seat, nothing written)."""
    created = create(client, seats=("ann", "bob", "cy"))
    gid, ref = created["id"], created["referee_token"]
    tokens = [s["token"] for s in created["seats"]]
    for _ in range(3):  # the first seats to act move, so there is something to undo
        meta = client.get(f"/api/games/{gid}").json
        seat = meta["to_act"][0]
        action = client.get(f"/api/games/{gid}/actions", headers=auth(tokens[seat])).json["actions"][0]
        assert client.post(f"/api/games/{gid}/actions", json=action, headers=auth(tokens[seat])).status_code == 201
    r = client.post(
        f"/api/games/{gid}/referee/bot", json={"seat": 0, "strength": 1, "reason": "left"}, headers=auth(ref)
    )
    assert r.status_code == 201, r.json
    seq = client.get(f"/api/games/{gid}").json["seq"]
    refused = [
        client.post(f"/api/games/{gid}/undo", json={"to_seq": 1}, headers=auth(tokens[0])),
        client.post(f"/api/games/{gid}/undo/abc/approve", headers=auth(tokens[0])),
        client.post(f"/api/games/{gid}/annotations", json={"seq": 1, "text": "hi"}, headers=auth(tokens[0])),
        client.post(
            f"/api/games/{gid}/annotations", json={"seq": 1, "text": "no", "kind": "dispute"}, headers=auth(tokens[0])
        ),
    ]
    for r in refused:
        assert r.status_code == 403 and r.json["error"]["code"] == "computer_seat", r.json
    assert client.get(f"/api/games/{gid}").json["seq"] == seq
    assert client.get(f"/api/games/{gid}/annotations").json["annotations"] == []


def test_a_person_cannot_take_the_computers_action_id_first(client, services):
    """The runner's action ids are the platform's own: a person who names the id the
    computer will use next (it is predictable: its seq and seat) must not leave the
    computer refused as a reuse of that id, its turn unplayed for ever."""
    created = create(client, bots=[{"seat": 1, "strength": 1}])
    gid, token = created["id"], created["seats"][0]["token"]
    bot = runner(services)
    rand = random.Random(11)
    for _ in range(2000):
        assert bot.run_until_idle(limit=20) < 20, "the runner keeps retrying a move it cannot make"
        meta = client.get(f"/api/games/{gid}").json
        if meta["status"] == "finished":
            break
        assert meta["to_act"] == [0], "the computer left its turn unplayed"
        actions = client.get(f"/api/games/{gid}/actions", headers=auth(token)).json["actions"]
        move = rand.choice(actions)
        for action_id in (f"bot:{meta['seq'] + 1}:1", f"sys:bot:{meta['seq'] + 1}:1"):  # old form, the runner's
            r = client.post(f"/api/games/{gid}/actions", json={**move, "action_id": action_id}, headers=auth(token))
            if r.status_code != 201:
                assert r.status_code == 400 and r.json["error"]["code"] == "bad_request", r.json
    else:
        raise AssertionError("the game did not finish")


def test_computer_seats_stop_at_the_bound_of_the_log(client, services, monkeypatch):
    """A game of computers at its log's bound is not scheduled again and again: the
    runner goes idle, and the game waits for its referee."""
    from projections.games.caylus.game import Caylus

    # first the computer moves earlier tests on this Redis left queued or taken: counted
    # below, they made the runner look busy (a full run saw 200 units of other games' work)
    services.bot_runner(QUICK, stale_seconds=0).run_until_idle()
    monkeypatch.setattr(Caylus, "max_log_entries", 15)
    created = create(client, bots=[{"seat": 0, "strength": 1}, {"seat": 1, "strength": 1}])
    done = runner(services).run_until_idle(limit=200)
    meta = client.get(f"/api/games/{created['id']}").json
    assert done < 200 and meta["status"] == "active"
    assert 15 - 2 <= meta["seq"] <= 15 + 10  # at the bound, give or take what followed the last move
