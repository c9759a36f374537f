"""Tournaments with accounts: registration as oneself, round 1 seeded by the ratings the
registrations recorded (Swiss: top half against bottom half; tables: serpentine),
seats bound to the accounts in every game, ratings in the standings and bindings in
the audit bundle."""

from __future__ import annotations

import random

from service.audit.bundles import verify_tournament
from tests.tournaments.bots import play_round

from .helpers import auth, bound_game, new_account, roll_out


def rated_accounts(client, n, prefix):
    """``n`` accounts; the first ``n - 1`` get toy ratings that seed (each has met three
    opponents or more: ``ratings.SEED_OPPONENTS``) from a round robin among them."""
    accounts = [new_account(client, prefix) for _ in range(n)]
    for i, one in enumerate(accounts[:-1]):
        for other in accounts[i + 1 : -1]:
            roll_out(client, bound_game(client, [one[1], other[1]], options={"rounds": 1}))
    return accounts


def tournament(client, size, rounds=1):
    created = client.post(
        "/api/tournaments",
        json={
            "game": "toy",
            "name": "Club night",
            "options": {"table_size": size, "rounds": rounds, "game_options": {"rounds": 1}},
        },
    ).get_json()
    return created["id"], created["director_token"]


def register_all(client, tid, accounts):
    out = {}
    for name, session in accounts:
        answer = client.post(f"/api/tournaments/{tid}/players", json={}, headers=auth(session))
        assert answer.status_code == 201, answer.get_json()
        body = answer.get_json()
        assert body["name"] == body["account"] == name
        board = client.get("/api/ratings/toy?min_games=0&limit=500").get_json()["players"]
        live = next((r["rating"] for r in board if r["name"] == name and r["seeds"]), None)
        assert body["rating"] == live  # the registration records the live rating, once it seeds
        out[body["pid"]] = body
    return out


def seeded(players):
    return sorted(players, key=lambda p: (players[p]["rating"] is None, -(players[p]["rating"] or 0), int(p[1:])))


def test_swiss_round_one_pairs_top_half_against_bottom_half(client):
    accounts = rated_accounts(client, 6, "sw")
    tid, director = tournament(client, 2)
    players = register_all(client, tid, accounts)
    order = seeded(players)
    pairing = client.post(f"/api/tournaments/{tid}/rounds", headers=auth(director)).get_json()
    boards = [[s["pid"] for s in t["seats"]] for t in pairing["tables"]]
    assert boards == [[order[0], order[3]], [order[4], order[1]], [order[2], order[5]]]
    for table in pairing["tables"]:
        meta = client.get(f"/api/games/{table['game_id']}").get_json()
        assert meta["accounts"] == {str(s["seat"]): players[s["pid"]]["account"] for s in table["seats"]}
    play_round(client, tid, pairing, random.Random(1))
    standings = client.get(f"/api/tournaments/{tid}/standings").get_json()["standings"]
    assert {r["pid"]: (r["account"], r["rating"]) for r in standings} == {
        p: (b["account"], b["rating"]) for p, b in players.items()
    }
    bundle = client.get(f"/api/tournaments/{tid}/export").get_json()
    report = verify_tournament(bundle)
    assert report["ok"], report["messages"]
    registered = {
        e["payload"]["pid"]: e["payload"]["account"] for e in bundle["tournament"] if e["type"] == "player.registered"
    }
    assert registered == {p: b["account"] for p, b in players.items()}
    bound = {e["payload"]["account"] for log in bundle["games"].values() for e in log if e["type"] == "seat.bound"}
    assert bound == {b["account"] for b in players.values()}
    # the tournament's games were ranked and every seat bound: they are rated
    rated = client.get("/api/ratings").get_json()["games"]
    assert all(t["game_id"] in rated for t in pairing["tables"])


def test_tables_are_dealt_serpentine_by_rating(client):
    accounts = rated_accounts(client, 6, "tb")
    tid, director = tournament(client, 3)
    players = register_all(client, tid, accounts)
    order = seeded(players)
    pairing = client.post(f"/api/tournaments/{tid}/rounds", headers=auth(director)).get_json()
    tables = [[s["pid"] for s in t["seats"]] for t in pairing["tables"]]
    # seeds 1,4,5 and 2,3,6; the lowest seed of a table sits first
    assert tables == [[order[4], order[3], order[0]], [order[5], order[2], order[1]]]


def test_account_registration_refusals_write_nothing(client):
    ((name, session),) = [new_account(client, "rg")]
    tid, _ = tournament(client, 2)
    assert client.post(f"/api/tournaments/{tid}/players", json={}, headers=auth(session)).status_code == 201
    seq = client.get(f"/api/tournaments/{tid}").get_json()["seq"]
    again = client.post(f"/api/tournaments/{tid}/players", json={}, headers=auth(session))
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "already_registered"
    look_alike = client.post(f"/api/tournaments/{tid}/players", json={"name": name.upper()})
    assert look_alike.status_code == 409 and look_alike.get_json()["error"]["code"] == "already_registered"
    stranger = client.post(f"/api/tournaments/{tid}/players", json={}, headers=auth("made-up"))
    assert stranger.status_code == 401 and stranger.get_json()["error"]["code"] == "bad_session"
    nameless = client.post(f"/api/tournaments/{tid}/players", json={})
    assert nameless.status_code == 401 and nameless.get_json()["error"]["code"] == "no_session"
    assert client.get(f"/api/tournaments/{tid}").get_json()["seq"] == seq


def test_an_anonymous_player_may_not_take_an_accounts_name(client):
    """Otherwise the account's owner could not register as themselves afterwards."""
    name, session = new_account(client, "own")
    tid, _ = tournament(client, 2)
    seq = client.get(f"/api/tournaments/{tid}").get_json()["seq"]
    for other in (name, name.upper(), "\uff4f" + name[1:]):
        answer = client.post(f"/api/tournaments/{tid}/players", json={"name": other})
        assert answer.status_code == 409, (other, answer.get_json())
        assert answer.get_json()["error"]["code"] == "account_name"
        assert answer.get_json()["error"]["details"]["taken"] == name
    assert client.get(f"/api/tournaments/{tid}").get_json()["seq"] == seq
    own = client.post(f"/api/tournaments/{tid}/players", json={}, headers=auth(session))
    assert own.status_code == 201 and own.get_json()["account"] == name
