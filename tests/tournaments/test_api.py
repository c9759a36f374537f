"""Tournaments through the HTTP API: bots play whole tournaments; clocks, withdrawal,
the audit bundle and every bad input of the issue."""

from __future__ import annotations

import copy
import importlib
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from projections.games import registry
from service.audit.bundles import main as verify_main
from service.audit.bundles import verify_tournament

from .bots import bearer, play_game, play_round


def game_for(seats: int, preferred: str, monkeypatch) -> str:
    """The issue's game when it is registered (or TOURNAMENT_REAL_GAMES=1 lends it to
    this test alone), else the platform's toy game (1-4 seats)."""
    games = registry()
    if preferred not in games and os.environ.get("TOURNAMENT_REAL_GAMES") == "1":
        monkeypatch.setitem(games, preferred, importlib.import_module(f"projections.games.{preferred}").GAME)
    if preferred in games and games[preferred].min_seats <= seats <= games[preferred].max_seats:
        return preferred
    return "toy"


def create(client, game, size, rounds, names, **options):
    answer = client.post(
        "/api/tournaments",
        json={"game": game, "name": "Test open", "options": {"table_size": size, "rounds": rounds, **options}},
    )
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    tid, director = body["id"], body["director_token"]
    players = {}
    for name in names:
        reg = client.post(f"/api/tournaments/{tid}/players", json={"name": name})
        assert reg.status_code == 201, reg.get_json()
        players[reg.get_json()["pid"]] = reg.get_json()["player_token"]
    return tid, director, players


def run_tournament(client, tid, director, rounds, rand):
    for number in range(1, rounds + 1):
        answer = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director))
        assert answer.status_code == 201, answer.get_json()
        pairing = answer.get_json()
        assert pairing["round"] == number
        play_round(client, tid, pairing, rand)
    return client.get(f"/api/tournaments/{tid}").get_json()


def pairs_met(summary):
    met = []
    for rnd in summary["rounds"]:
        for table in rnd["tables"]:
            pids = [s["pid"] for s in table["seats"]]
            met += [frozenset((a, b)) for i, a in enumerate(pids) for b in pids[i + 1 :]]
    return met


def test_nine_players_at_tables_of_three_play_four_rounds(client, monkeypatch):
    game = game_for(3, "caylus", monkeypatch)
    tid, director, players = create(client, game, 3, 4, [f"Player {i}" for i in range(1, 10)])
    summary = run_tournament(client, tid, director, 4, random.Random(9))
    assert summary["game"] == game and summary["status"] == "finished"
    assert all(len(t["seats"]) == 3 for r in summary["rounds"] for t in r["tables"])
    met = pairs_met(summary)
    assert len(met) == len(set(met)) == 36  # nine players in threes: everyone meets everyone once
    firsts = [t["seats"][0]["pid"] for r in summary["rounds"] for t in r["tables"]]
    assert set(firsts[:3]).isdisjoint(firsts[3:6])  # first seat rotates
    table = client.get(f"/api/tournaments/{tid}/standings").get_json()
    assert [row["rank"] for row in table["standings"]] == sorted(row["rank"] for row in table["standings"])
    assert sum(row["points"] for row in table["standings"]) == 4 * 3 * 3  # 2+1+0 per table
    bundle = client.get(f"/api/tournaments/{tid}/export").get_json()
    report = verify_tournament(bundle)
    assert report["ok"], report["messages"]
    assert report["standings"] == table["standings"]


def test_eight_players_swiss_three_rounds_then_audit(client, tmp_path, monkeypatch):
    game = game_for(2, "carcassonne_castle", monkeypatch)
    tid, director, players = create(client, game, 2, 3, [f"P{i}" for i in range(8)])
    summary = run_tournament(client, tid, director, 3, random.Random(8))
    assert summary["status"] == "finished"
    met = pairs_met(summary)
    assert len(met) == len(set(met)) == 12  # no rematch
    firsts = {}
    for r in summary["rounds"]:
        for t in r["tables"]:
            firsts[t["seats"][0]["pid"]] = firsts.get(t["seats"][0]["pid"], 0) + 1
    assert all(1 <= firsts.get(p, 0) <= 2 for p in players)  # first player balanced over 3 games
    live = client.get(f"/api/tournaments/{tid}/standings").get_json()["standings"]
    path = tmp_path / "bundle.json"
    path.write_text(client.get(f"/api/tournaments/{tid}/export").get_data(as_text=True))
    cli = verify_cli(path)
    assert cli.returncode == 0, cli.stdout + cli.stderr
    printed = json.loads(cli.stdout)
    assert printed["ok"] and printed["standings"] == live
    assert set(printed["games"]) == {t["game_id"] for r in summary["rounds"] for t in r["tables"]}
    bundle = json.loads(path.read_text())
    bundle["tournament"][1]["payload"]["name"] = "Someone else"  # a registration rewritten
    path.write_text(json.dumps(bundle))
    cli = verify_cli(path)
    assert cli.returncode == 1 and json.loads(cli.stdout)["checks"]["chain"] == "failed"
    assert verify_main([str(tmp_path / "missing.json")]) == 2


def verify_cli(path):
    """``python -m service verify-tournament BUNDLE`` in a process of its own."""
    return subprocess.run(
        [sys.executable, "-m", "service", "verify-tournament", str(path)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).parents[2],
        timeout=300,
    )


def test_odd_field_gets_rotating_byes_and_a_withdrawal_forfeits(client):
    tid, director, players = create(client, "toy", 2, 3, ["A", "B", "C", "D", "E"])
    rand = random.Random(5)
    byes = []
    for number in (1, 2):
        pairing = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).get_json()
        byes += [b["pid"] for b in pairing["byes"]]
        if number == 2:
            break
        play_round(client, tid, pairing, rand)
    assert len(byes) == 2 and len(set(byes)) == 2
    # a player withdraws mid-round: their game is forfeited, the round can close
    table = pairing["tables"][0]
    quitter = table["seats"][0]["pid"]
    answer = client.delete(
        f"/api/tournaments/{tid}/players/{quitter}", headers=bearer(players[quitter]), json={"reason": "train to catch"}
    )
    assert answer.status_code == 200 and answer.get_json()["forfeited"] == [table["game_id"]]
    meta = client.get(f"/api/games/{table['game_id']}").get_json()
    assert meta["status"] == "finished" and meta["result"]["forfeited"] == [0]
    for other in pairing["tables"][1:]:
        play_game(client, other["game_id"], {s["seat"]: s["token"] for s in other["seats"]}, rand)
    summary = client.get(f"/api/tournaments/{tid}").get_json()
    assert summary["rounds"][1]["status"] == "finished"
    third = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).get_json()
    seated = [s["pid"] for t in third["tables"] for s in t["seats"]] + [b["pid"] for b in third["byes"]]
    assert quitter not in seated and len(seated) == 4 and not third["byes"]
    table = third["tables"][0]  # a bundle taken mid-round verifies too (unfinished games: chain only)
    first_seat = table["seats"][0]
    noted = client.post(
        f"/api/games/{table['game_id']}/actions",
        headers=bearer(first_seat["token"]),
        json={"type": "note", "payload": {"text": "a"}},
    )
    assert noted.status_code == 201, noted.get_json()
    report = verify_tournament(client.get(f"/api/tournaments/{tid}/export").get_json())
    assert report["ok"], report["messages"]
    assert report["standings"] == client.get(f"/api/tournaments/{tid}/standings").get_json()["standings"]


def test_clock_runs_out_and_the_forfeit_flows_into_the_standings(client, services):
    tid, director, players = create(client, "toy", 2, 1, ["Slow", "Fast"], clock={"base": 1, "increment": 0})
    pairing = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).get_json()
    game_id = pairing["tables"][0]["game_id"]
    meta = client.get(f"/api/games/{game_id}").get_json()
    assert meta["clocks"]["base"] == 1
    seats = pairing["tables"][0]["seats"]
    for _ in range(2):  # each seat's first move is untimed; then the clocks run
        seat = client.get(f"/api/games/{game_id}").get_json()["to_act"][0]
        moved = client.post(
            f"/api/games/{game_id}/actions", headers=bearer(seats[seat]["token"]), json={"type": "roll", "payload": {}}
        )
        assert moved.status_code == 201, moved.get_json()
    meta = client.get(f"/api/games/{game_id}").get_json()
    first = seats[meta["to_act"][0]]["pid"]
    time.sleep(1.2)
    assert game_id in services.clocks.expire()
    standings = client.get(f"/api/tournaments/{tid}/standings").get_json()
    assert standings["status"] == "finished"
    rows = {row["pid"]: row for row in standings["standings"]}
    assert rows[first]["points"] == 0 and rows[first]["rank"] == 2
    summary = client.get(f"/api/tournaments/{tid}").get_json()
    assert summary["rounds"][0]["tables"][0]["result"]["forfeited"] == [meta["to_act"][0]]


def test_a_clock_forfeit_the_referee_cancels_leaves_the_standings(client, services):
    """The server's outage ran a clock out: the referee's cancel reaches the table, the
    standings drop the forfeit, and the bundle still verifies."""
    tid, director, players = create(client, "toy", 2, 1, ["One", "Two"], clock={"base": 1, "increment": 0})
    table = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).get_json()["tables"][0]
    game_id = table["game_id"]
    for _ in range(2):
        seat = client.get(f"/api/games/{game_id}").get_json()["to_act"][0]
        moved = client.post(
            f"/api/games/{game_id}/actions",
            headers=bearer(table["seats"][seat]["token"]),
            json={"type": "roll", "payload": {}},
        )
        assert moved.status_code == 201, moved.get_json()
    assert game_id in services.clocks.expire(now=time.time() + 60)
    rows = client.get(f"/api/tournaments/{tid}/standings").get_json()["standings"]
    assert sorted(row["points"] for row in rows) == [0, 1]
    body = {"adjustments": [], "reason": "server restart", "cancel": True}
    fixed = client.post(f"/api/games/{game_id}/referee/correct", headers=bearer(table["referee_token"]), json=body)
    assert fixed.status_code == 201, fixed.get_json()
    rows = client.get(f"/api/tournaments/{tid}/standings").get_json()["standings"]
    assert all(row["points"] == 0 and row["games"] == 0 for row in rows), rows
    bundle = client.get(f"/api/tournaments/{tid}/export").get_json()
    assert any(e["type"] == "game.corrected" for e in bundle["tournament"])
    report = verify_tournament(bundle)
    assert report["ok"], report["messages"]


def test_a_seat_that_never_moves_cancels_its_game_unrated_and_unscored(client, services):
    """The first player of a table never finds the seat link: after the first-move
    allowance the game is cancelled, not forfeited: nobody scores, nothing is rated,
    the round can still close, and the bundle verifies."""
    clock = {"base": 1, "increment": 0, "first_move": 30, "pause_on_dispute": True}
    tid, director, players = create(client, "toy", 2, 1, ["Absent", "Present"], clock=clock)
    pairing = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).get_json()
    game_id = pairing["tables"][0]["game_id"]
    meta = client.get(f"/api/games/{game_id}").get_json()
    assert meta["clocks"]["first_move"] == 30 and meta["clocks"]["opening"] == [30.0, 30.0]
    assert meta["clocks"]["pause_on_dispute"] is True  # the director's setting reaches every game
    since = meta["clocks"]["since"]
    assert services.clocks.expire(now=since + 29) == []  # long past the 1 s clock: no forfeit
    assert game_id in services.clocks.expire(now=since + 31)
    meta = client.get(f"/api/games/{game_id}").get_json()
    assert meta["status"] == "finished" and meta["result"]["cancelled"] is True
    assert meta["result"]["forfeited"] == [] and meta["result"]["ranking"] == [1, 1]
    types = [e["type"] for e in client.get(f"/api/games/{game_id}/events").get_json()["events"]]
    assert types[-2:] == ["clock.cancelled", "game.finished"]
    standings = client.get(f"/api/tournaments/{tid}/standings").get_json()
    assert standings["status"] == "finished"
    assert all(row["points"] == 0 and row["games"] == 0 for row in standings["standings"]), standings
    table = client.get(f"/api/tournaments/{tid}").get_json()["rounds"][0]["tables"][0]
    assert table["result"]["cancelled"] is True
    report = verify_tournament(client.get(f"/api/tournaments/{tid}/export").get_json())
    assert report["ok"], report["messages"]


def test_a_tampered_bundle_is_detected(client):
    tid, director, players = create(client, "toy", 2, 1, ["A", "B", "C", "D"])
    run_tournament(client, tid, director, 1, random.Random(1))
    bundle = client.get(f"/api/tournaments/{tid}/export").get_json()
    assert verify_tournament(bundle)["ok"]

    forged = copy.deepcopy(bundle)  # a game's move changed
    gid = next(iter(forged["games"]))
    entry = next(e for e in forged["games"][gid] if e["type"].startswith("toy."))
    entry["payload"] = {"card": 999} if "card" in entry["payload"] else {"text": "b"}
    report = verify_tournament(forged)
    assert not report["ok"] and report["checks"]["games"] == "failed"

    forged = copy.deepcopy(bundle)  # a reported result swapped in the tournament stream
    entry = next(e for e in forged["tournament"] if e["type"] == "game.reported")
    entry["payload"]["result"]["ranking"].reverse()
    report = verify_tournament(forged)
    assert not report["ok"] and report["checks"]["chain"] == "failed"

    forged = copy.deepcopy(bundle)  # standings edited
    forged["standings"][0], forged["standings"][-1] = forged["standings"][-1], forged["standings"][0]
    report = verify_tournament(forged)
    assert not report["ok"] and report["checks"]["standings"] == "failed"

    forged = copy.deepcopy(bundle)  # a game dropped from the bundle
    forged["games"].pop(gid)
    assert not verify_tournament(forged)["ok"]

    forged = copy.deepcopy(bundle)  # the result re-hashed by a forger: the chain holds, the game disagrees
    from events.envelope import entry_hash, payload_digest

    stream = forged["tournament"]
    k = next(i for i, e in enumerate(stream) if e["type"] == "game.reported")
    stream[k]["payload"]["result"]["ranking"].reverse()
    stream[k]["payload_digest"] = payload_digest(b"", stream[k]["payload"])  # unsalted: the stream is public
    for i in range(k, len(stream)):
        stream[i]["prev"] = stream[i - 1]["hash"]
        stream[i]["hash"] = entry_hash(stream[i])
    forged["manifest"]["tournament_head"]["hash"] = stream[-1]["hash"]
    report = verify_tournament(forged)
    assert not report["ok"] and report["checks"]["results"] == "failed"


def snapshot(client, tid):
    return client.get(f"/api/tournaments/{tid}").get_json()


def error(answer, status, code):
    assert answer.status_code == status, answer.get_json()
    assert answer.get_json()["error"]["code"] == code, answer.get_json()
    assert answer.get_json()["error"]["message"]


def test_bad_input_is_refused_and_changes_nothing(client):
    tid, director, players = create(client, "toy", 2, 2, ["Ann", "Bob", "Cid", "Dan"])
    before = snapshot(client, tid)
    error(client.post(f"/api/tournaments/{tid}/players", json={"name": "ann"}), 409, "already_registered")
    error(client.post(f"/api/tournaments/{tid}/players", json={}), 401, "no_session")  # no name: log in
    error(client.post(f"/api/tournaments/{tid}/players", json={"name": "   "}), 400, "bad_request")
    error(client.post(f"/api/tournaments/{tid}/players", json=["Zed"]), 400, "bad_request")
    error(
        client.post(f"/api/tournaments/{tid}/players", data="{nope", content_type="application/json"), 400, "malformed"
    )
    someone = next(iter(players.values()))
    error(client.post(f"/api/tournaments/{tid}/rounds"), 401, "no_token")
    error(client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(someone)), 403, "not_director")
    error(client.post(f"/api/tournaments/{tid}/rounds", headers=bearer("forged")), 401, "bad_token")
    error(client.delete(f"/api/tournaments/{tid}/players/p2", headers=bearer(players["p1"])), 403, "not_director")
    assert snapshot(client, tid) == before

    pairing = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).get_json()
    during = snapshot(client, tid)
    error(client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)), 409, "round_in_progress")
    stranger = client.post("/api/games", json={"game": "toy", "seats": ["X", "Y"]}).get_json()["id"]
    error(client.post(f"/api/tournaments/{tid}/results", json={"game_id": stranger}), 422, "game_not_in_tournament")
    error(
        client.post(f"/api/tournaments/{tid}/results", json={"game_id": pairing["tables"][0]["game_id"]}),
        409,
        "game_not_finished",
    )
    assert snapshot(client, tid) == during
    games_before = len(client.get("/api/games").get_json()["games"])
    error(client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)), 409, "round_in_progress")
    assert len(client.get("/api/games").get_json()["games"]) == games_before  # no game created by a refusal

    error(client.get("/api/tournaments/nope"), 404, "not_found")
    error(
        client.post("/api/tournaments", json={"game": "nope", "name": "x", "options": {"table_size": 2, "rounds": 1}}),
        400,
        "unknown_game",
    )
    error(
        client.post("/api/tournaments", json={"game": "toy", "name": "x", "options": {"table_size": 9, "rounds": 1}}),
        400,
        "bad_table_size",
    )
    error(
        client.post("/api/tournaments", json={"game": "toy", "name": "x", "options": {"rounds": 1}}), 400, "bad_options"
    )


def test_players_get_their_own_seat_links_and_the_pages_render(client):
    tid, director, players = create(client, "toy", 2, 1, ["A", "B"])
    client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director))
    mine = client.get(f"/api/tournaments/{tid}/players/p1/games", headers=bearer(players["p1"])).get_json()
    assert mine["games"][0]["link"].endswith("#token=" + mine["games"][0]["token"])
    error(client.get(f"/api/tournaments/{tid}/players/p2/games", headers=bearer(players["p1"])), 403, "not_your_player")
    error(client.get(f"/api/tournaments/{tid}/players/p9/games", headers=bearer(director)), 404, "unknown_player")
    public = client.get(f"/api/tournaments/{tid}/rounds/1").get_json()
    assert all("token" not in s for t in public["tables"] for s in t["seats"])
    listed = client.get("/api/tournaments").get_json()["tournaments"]
    assert any(t["id"] == tid for t in listed)
    for url in ("/tournaments", f"/tournaments/{tid}"):
        page = client.get(url)
        assert page.status_code == 200 and b"<html" in page.data


def test_the_routes_are_in_the_openapi_document(client):
    spec = client.get("/api/openapi.json").get_json()
    assert {"/api/tournaments", "/api/tournaments/{tid}/rounds", "/api/tournaments/{tid}/export"} <= set(spec["paths"])
    assert "TournamentCreate" in spec["components"]["schemas"]


def test_the_document_says_which_token_and_body_each_route_takes(client):
    """Generated from the routes: the bearer scheme, the token each route needs (or may
    take), every body (the pairing's optional one too) and the route's own refusals."""
    spec = client.get("/api/openapi.json").get_json()
    assert spec["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http",
        "scheme": "bearer",
        "description": spec["components"]["securitySchemes"]["bearerAuth"]["description"],
    }
    paths = spec["paths"]
    for path, method in (
        ("/api/tournaments/{tid}/registration", "post"),
        ("/api/tournaments/{tid}/rounds", "post"),
        ("/api/tournaments/{tid}/finish", "post"),
        ("/api/tournaments/{tid}/players/{pid}", "delete"),
        ("/api/tournaments/{tid}/players/{pid}/games", "get"),
    ):
        operation = paths[path][method]
        assert operation["security"] == [{"bearerAuth": []}], path
        assert {"401", "403", "404"} <= set(operation["responses"]), path
    assert {} in paths["/api/tournaments/{tid}/players"]["post"]["security"]  # a name, or a logged-in account
    assert "security" not in paths["/api/tournaments"]["post"]
    pair = paths["/api/tournaments/{tid}/rounds"]["post"]
    assert pair["requestBody"]["required"] is False
    assert pair["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/TournamentPair"
    }
    assert "422" in paths["/api/tournaments/{tid}/results"]["post"]["responses"]
    assert "Bearer <director token>" in paths["/api/tournaments/{tid}/finish"]["post"]["description"]


def test_without_the_directors_token_the_body_is_not_judged(client):
    """401 before 400: a director's route says the token is missing whatever the body holds."""
    tid, _, _ = create(client, "toy", 2, 1, ["Ann", "Bob"])
    error(client.post(f"/api/tournaments/{tid}/rounds", json={"bye_computer": "x"}), 401, "no_token")
    error(client.post(f"/api/tournaments/{tid}/registration", json={"open": 1}), 401, "no_token")
    error(client.post(f"/api/tournaments/{tid}/finish", json={"reason": 5}), 401, "no_token")
    error(client.post(f"/api/tournaments/{tid}/finish", data="{nope", content_type="application/json"), 401, "no_token")


def test_a_karaya_field_is_seated_at_tables_the_game_allows(client):
    if "sultans_of_karaya" not in registry():
        pytest.skip("Sultans of Karaya is not registered")
    tid, director, players = create(client, "sultans_of_karaya", 5, 2, [f"K{i}" for i in range(11)])
    pairing = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).get_json()
    assert sorted(len(t["seats"]) for t in pairing["tables"]) == [5, 6] and not pairing["byes"]
    for table in pairing["tables"]:
        meta = client.get(f"/api/games/{table['game_id']}").get_json()
        assert meta["game"] == "sultans_of_karaya" and meta["tournament"] == tid
        assert [s["name"] for s in meta["seats"]] == [s["name"] for s in table["seats"]]


def test_workers_catching_up_at_once_report_each_game_once(client, redis_client):
    from concurrent.futures import ThreadPoolExecutor

    from tests.services import services_over

    tid, director, players = create(client, "toy", 2, 1, ["A", "B", "C", "D"])
    pairing = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).get_json()
    play_round(client, tid, pairing, random.Random(2))  # nobody has read the tournament since
    workers = [services_over(redis_client).tournaments for _ in range(4)]
    with ThreadPoolExecutor(4) as pool:
        states = list(pool.map(lambda w: w.sync(tid), workers))
    assert all(s["status"] == "finished" for s in states)
    types = [e["type"] for e in workers[0].events(tid)]
    assert types.count("game.reported") == 2 and types.count("round.finished") == 1
    assert types.count("tournament.finished") == 1


def test_the_director_may_end_early_but_not_mid_round(client):
    tid, director, players = create(client, "toy", 2, 3, ["A", "B"])
    pairing = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).get_json()
    error(client.post(f"/api/tournaments/{tid}/finish", headers=bearer(director), json={}), 409, "round_in_progress")
    error(client.post(f"/api/tournaments/{tid}/finish", headers=bearer(players["p1"]), json={}), 403, "not_director")
    play_round(client, tid, pairing, random.Random(4))
    ended = client.post(f"/api/tournaments/{tid}/finish", headers=bearer(director), json={"reason": "snow"})
    assert ended.status_code == 200 and ended.get_json()["status"] == "finished"
    error(client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)), 409, "tournament_finished")
    error(client.post(f"/api/tournaments/{tid}/players", json={"name": "Late"}), 409, "tournament_finished")


def test_a_paused_game_stops_its_clocks(client, services):
    tid, director, players = create(client, "toy", 2, 1, ["A", "B"], clock={"base": 3, "increment": 0})
    pairing = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director))
    table = pairing.get_json()["tables"][0]
    referee = bearer(table["referee_token"])
    assert client.post(f"/api/games/{table['game_id']}/referee/pause", headers=referee, json={}).status_code == 201
    time.sleep(3.2)
    assert services.clocks.expire() == []
    assert client.get(f"/api/tournaments/{tid}").get_json()["rounds"][0]["tables"][0]["result"] is None
    assert client.post(f"/api/games/{table['game_id']}/referee/resume", headers=referee, json={}).status_code == 201
    meta = client.get(f"/api/games/{table['game_id']}").get_json()
    assert meta["status"] == "active" and min(meta["clocks"]["remaining"]) > 0.5


def test_a_referee_adjustment_flows_into_the_standings(client):
    tid, director, players = create(client, "toy", 2, 1, ["A", "B"])
    table = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).get_json()["tables"][0]
    adjusted = table["seats"][1]
    answer = client.post(
        f"/api/games/{table['game_id']}/referee/adjust",
        headers=bearer(table["referee_token"]),
        json={"seat": 1, "points": 1000, "reason": "penalty on the opponent"},
    )
    assert answer.status_code == 201, answer.get_json()
    play_game(client, table["game_id"], {s["seat"]: s["token"] for s in table["seats"]}, random.Random(6))
    rows = {r["pid"]: r for r in client.get(f"/api/tournaments/{tid}/standings").get_json()["standings"]}
    assert rows[adjusted["pid"]]["points"] == 1 and rows[adjusted["pid"]]["tiebreaks"]["game_score"] >= 1000


def test_registration_waits_while_a_round_is_being_paired(client, redis_client):
    from service.adapters.keys import tournament_pairing_lock as pairing_lock_key

    tid, director, players = create(client, "toy", 2, 2, ["A", "B"])
    redis = redis_client
    redis.set(pairing_lock_key(tid), "1", ex=30)  # as if another request were pairing now
    try:
        before = snapshot(client, tid)
        error(client.post(f"/api/tournaments/{tid}/players", json={"name": "C"}), 409, "pairing_in_progress")
        error(client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)), 409, "pairing_in_progress")
        error(client.delete(f"/api/tournaments/{tid}/players/p1", headers=bearer(director)), 409, "pairing_in_progress")
        assert snapshot(client, tid) == before
    finally:
        redis.delete(pairing_lock_key(tid))
    assert client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).status_code == 201
    assert not redis.exists(pairing_lock_key(tid))


def test_a_turn_based_swiss_round_gives_each_game_days_per_move(client, services):
    tid, director, _ = create(client, "toy", 2, 1, ["Mail", "Post"], clock={"per_move_days": 3, "vacation_days": 7})
    pairing = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director)).get_json()
    game_id = pairing["tables"][0]["game_id"]
    clocks = client.get(f"/api/games/{game_id}").get_json()["clocks"]
    assert clocks["per_move"] == 3 * 86400 and clocks["vacation"] == [7 * 86400] * 2
    assert game_id not in services.clocks.expire(now=time.time() + 2.9 * 86400)
    assert game_id in services.clocks.expire(now=time.time() + 3.1 * 86400)  # a first move never made
    refused = client.post(
        "/api/tournaments",
        json={"game": "toy", "name": "x", "options": {"table_size": 2, "rounds": 1, "clock": {"per_move_days": 4}}},
    )
    assert refused.status_code == 400
