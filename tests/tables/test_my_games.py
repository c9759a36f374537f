"""``GET /api/me/games``: the account's games and tables, those waiting for it first."""

from __future__ import annotations

from tests.accounts.helpers import auth, new_account, roll_out
from tests.tables.test_open_tables import open_table, share


def started(client, first: str, second: str, **body) -> str:
    table = open_table(client, first, options={"rounds": 1}, **body)
    joined = client.post(f"/api/tables/{table['id']}/seats", json={"contribution": share()}, headers=auth(second))
    assert joined.get_json()["status"] == "started"
    return table["id"]


def test_my_games_lists_what_waits_for_me_first(client):
    alice, alice_session = new_account(client, "alice")
    _, bob_session = new_account(client, "bob")
    _, carol_session = new_account(client, "carol")
    finished = started(client, alice_session, bob_session)
    roll_out(client, {"id": finished, "seats": [{"token": alice_session}, {"token": bob_session}]})
    mine = started(client, alice_session, bob_session)  # seat 0 rolls first: alice's turn
    theirs = started(client, bob_session, alice_session)  # bob's turn
    waiting_table = open_table(client, alice_session, seats=3)["id"]
    invitation = open_table(client, carol_session, invited=[alice], listed=False)["id"]

    answer = client.get("/api/me/games", headers=auth(alice_session))
    assert answer.status_code == 200
    games = answer.get_json()["games"]
    ids = [g["id"] for g in games]
    assert ids == [invitation, mine, waiting_table, theirs, finished]
    by_id = {g["id"]: g for g in games}
    assert by_id[mine]["your_turn"] and by_id[mine]["seat"] == 0
    assert by_id[invitation]["your_turn"] and by_id[invitation]["invited"] and by_id[invitation]["kind"] == "table"
    assert not by_id[theirs]["your_turn"] and by_id[theirs]["seat"] == 1
    assert by_id[waiting_table]["seated"] and not by_id[waiting_table]["your_turn"]
    assert by_id[finished]["status"] == "finished" and by_id[finished]["rank"] in (1, 2)

    client.post(f"/api/tables/{invitation}/decline", headers=auth(alice_session))
    after = [g["id"] for g in client.get("/api/me/games", headers=auth(alice_session)).get_json()["games"]]
    assert invitation not in after


def test_my_games_needs_a_session(client):
    assert client.get("/api/me/games").status_code == 401
    assert client.get("/api/me/games", headers=auth("not-a-session")).status_code == 401
