"""Registration: the director closes (and reopens) it; names are normalised (NFKC, no
format characters) and look-alike names are refused."""

from __future__ import annotations

import pytest

from service.audit.bundles import verify_tournament


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture()
def tournament(client):
    r = client.post("/api/tournaments", json={"game": "toy", "name": "Open", "options": {"table_size": 2, "rounds": 1}})
    assert r.status_code == 201, r.json
    return r.json["id"], r.json["director_token"]


def register(client, tid, name):
    return client.post(f"/api/tournaments/{tid}/players", json={"name": name})


def test_the_director_closes_registration(client, tournament):
    tid, director = tournament
    assert register(client, tid, "Alice").status_code == 201
    url = f"/api/tournaments/{tid}/registration"
    assert client.post(url, json={"open": False}).status_code == 401
    player = register(client, tid, "Bob").json["player_token"]
    assert client.post(url, json={"open": False}, headers=bearer(player)).status_code == 403
    closed = client.post(url, json={"open": False, "reason": "full"}, headers=bearer(director))
    assert closed.status_code == 200 and closed.json["registration"] == "closed"
    refused = register(client, tid, "Carol")
    assert refused.status_code == 409 and refused.json["error"]["code"] == "registration_closed"
    assert client.get(f"/api/tournaments/{tid}").json["registration"] == "closed"
    assert client.post(url, json={"open": True}, headers=bearer(director)).json["registration"] == "open"
    assert register(client, tid, "Carol").status_code == 201
    bundle = client.get(f"/api/tournaments/{tid}/export").json
    assert verify_tournament(bundle)["ok"]


@pytest.mark.parametrize(
    "lookalike",
    [
        "Alice\u200b",  # zero-width space
        "\u0410lice",  # Cyrillic capital A
        "Al\u0456ce",  # Cyrillic small i
        "\uff21lice",  # full-width A (NFKC makes it Alice)
        "ALICE",
        "AIice",  # capital I for l
        " Alice  ",
    ],
)
def test_look_alike_names_are_refused(client, tournament, lookalike):
    tid, _ = tournament
    assert register(client, tid, "Alice").status_code == 201
    r = register(client, tid, lookalike)
    assert r.status_code in (400, 409), r.json
    assert r.json["error"]["code"] in ("confusable_name", "already_registered")
    players = client.get(f"/api/tournaments/{tid}").json["players"]
    assert [p["name"] for p in players] == ["Alice"]


def test_names_are_stored_normalised(client, tournament):
    tid, _ = tournament
    r = register(client, tid, "\uff22ob\u200b  \u00a0Smith")
    assert r.status_code == 201 and r.json["name"] == "Bob Smith"
    assert register(client, tid, "李 Smith").status_code == 201  # words in different scripts are fine
    assert register(client, tid, "\u200b\u200d").status_code == 400


def pair(client, tid, director):
    r = client.post(f"/api/tournaments/{tid}/rounds", headers=bearer(director))
    assert r.status_code == 201, r.json
    return r.json


def test_registration_closes_when_round_one_is_paired(client, tournament):
    """A player who turns up after round 1 is paired is refused (nothing written), and
    the stream says so: a registration.closed event the verifier refolds."""
    tid, director = tournament
    for name in ("Alice", "Bob"):
        assert register(client, tid, name).status_code == 201
    pair(client, tid, director)
    assert client.get(f"/api/tournaments/{tid}").json["registration"] == "closed"
    late = register(client, tid, "Carol")
    assert late.status_code == 409 and late.json["error"]["code"] == "registration_closed"
    assert [p["name"] for p in client.get(f"/api/tournaments/{tid}").json["players"]] == ["Alice", "Bob"]
    # the director may still let a late entry in
    url = f"/api/tournaments/{tid}/registration"
    assert client.post(url, json={"open": True}, headers=bearer(director)).json["registration"] == "open"
    assert register(client, tid, "Carol").status_code == 201
    assert verify_tournament(client.get(f"/api/tournaments/{tid}/export").json)["ok"]


def test_a_tournament_that_allows_late_entries_stays_open(client):
    options = {"table_size": 2, "rounds": 2, "late_entries": True}
    made = client.post("/api/tournaments", json={"game": "toy", "name": "Late", "options": options}).json
    tid, director = made["id"], made["director_token"]
    for name in ("Alice", "Bob"):
        assert register(client, tid, name).status_code == 201
    pair(client, tid, director)
    assert client.get(f"/api/tournaments/{tid}").json["registration"] == "open"
    assert register(client, tid, "Carol").status_code == 201


def test_the_director_registers_a_pasted_roster(client, tournament):
    """One request for the roster; each name registers as it would alone, refusals are
    named one by one and the other names still register; only the director may."""
    tid, director = tournament
    assert register(client, tid, "Alice").status_code == 201
    url = f"/api/tournaments/{tid}/roster"
    names = ["Bram", "Chen Li", "ALICE", "Dora"]
    assert client.post(url, json={"names": names}).status_code == 401
    player = register(client, tid, "Eve").json["player_token"]
    assert client.post(url, json={"names": names}, headers=bearer(player)).status_code == 403
    for bad in ({"names": []}, {"names": "Bram"}, {"names": [" "]}, {}):
        refused = client.post(url, json=bad, headers=bearer(director))
        assert refused.status_code == 400 and refused.json["error"]["code"] == "bad_request", bad
    done = client.post(url, json={"names": names}, headers=bearer(director))
    assert done.status_code == 201, done.json
    assert [p["name"] for p in done.json["registered"]] == ["Bram", "Chen Li", "Dora"]
    assert all(p["player_token"] for p in done.json["registered"])
    assert [(r["name"], r["code"]) for r in done.json["refused"]] == [("ALICE", "already_registered")]
    chinese = client.post(url, json={"names": ["Dora"]}, headers={**bearer(director), "Accept-Language": "zh-Hant"})
    assert chinese.json["refused"][0]["code"] == "already_registered"
    assert "already" not in chinese.json["refused"][0]["message"]  # said in the request's language
    players = [p["name"] for p in client.get(f"/api/tournaments/{tid}").json["players"]]
    assert players == ["Alice", "Eve", "Bram", "Chen Li", "Dora"]
