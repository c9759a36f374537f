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
