"""Answers that carry a token or a live game's hidden state must not be kept by a browser
or a proxy: every /api answer says ``Cache-Control: no-store`` (docs/API.md)."""

from __future__ import annotations

from tests.accounts.helpers import PASSWORD, new_account
from tests.platform.helpers import GameHandle, auth


def no_store(answer) -> bool:
    return "no-store" in answer.headers.get("Cache-Control", "")


def test_answers_with_tokens_are_not_stored(client):
    created = client.post("/api/games", json={"game": "toy", "seats": ["ann", "bob"], "options": {}})
    assert created.status_code == 201 and no_store(created)
    name, session = new_account(client, "nostore")
    login = client.post("/api/sessions", json={"name": name, "password": PASSWORD})
    assert login.status_code == 201 and no_store(login)
    account = client.post("/api/accounts", json={"name": f"{name}x", "password": PASSWORD})
    assert account.status_code == 201 and no_store(account)
    game = GameHandle(client)
    claim = client.post(game.url("/claim"), json={"seat_token": game.tokens[1]}, headers=auth(session))
    assert claim.status_code == 201 and no_store(claim)


def test_a_live_games_views_and_logs_are_not_stored(client):
    game = GameHandle(client)
    for path, who in [
        ("/view", game.seat(0)),
        ("/actions", game.seat(0)),
        ("/view", game.ref()),
        ("/events", game.ref()),
        ("/export", game.ref()),
        ("/export", {}),
        ("", {}),
    ]:
        answer = game.client.get(game.url(path), headers=who)
        assert answer.status_code == 200 and no_store(answer), path
    played = game.act(game.meta()["to_act"][0], "roll")
    assert played.status_code in (200, 201) and no_store(played)


def test_refusals_and_public_lists_are_not_stored_either(client):
    assert no_store(client.get("/api/games/nosuchgame/view"))
    assert no_store(client.get("/api/game-types"))
    assert no_store(client.get("/api/games/nosuchgame/socket"))
