"""A rematch from a finished table: the same players, each moved one seat on, offered to
all of them and started when every one has taken the seat kept for them."""

from __future__ import annotations

from tests.accounts.helpers import auth, new_account, roll_out
from tests.tables.test_my_games import started
from tests.tables.test_open_tables import share


def finished_pair(client):
    alice, alice_session = new_account(client, "alice")
    bob, bob_session = new_account(client, "bob")
    game = started(client, alice_session, bob_session)
    roll_out(client, {"id": game, "seats": [{"token": alice_session}, {"token": bob_session}]})
    return game, (alice, alice_session), (bob, bob_session)


def test_a_rematch_rotates_the_seats_and_starts_when_everyone_accepts(client):
    game, (alice, alice_session), (bob, bob_session) = finished_pair(client)
    offered = client.post(f"/api/games/{game}/rematch", json={"contribution": share()}, headers=auth(alice_session))
    assert offered.status_code == 201, offered.get_json()
    table = offered.get_json()
    assert table["rematch_of"] == game and table["reserved"] == {"0": bob, "1": alice}
    assert table["seats"][1]["account"] == alice and table["free_seats"] == [0] and table["invited"] == [bob]
    assert table["status"] == "open" and not table["listed"]

    again = client.post(f"/api/games/{game}/rematch", json={"contribution": share()}, headers=auth(alice_session))
    assert again.status_code == 200 and again.get_json()["id"] == table["id"]  # one offer per game

    waiting = client.get("/api/me/games", headers=auth(bob_session)).get_json()["games"]
    assert waiting[0]["id"] == table["id"] and waiting[0]["your_turn"]

    _, carol_session = new_account(client, "carol")
    stranger = client.post(
        f"/api/tables/{table['id']}/seats", json={"contribution": share()}, headers=auth(carol_session)
    )
    assert stranger.status_code == 409 and stranger.get_json()["error"]["code"] == "seats_kept"

    accepted = client.post(
        f"/api/tables/{table['id']}/seats", json={"contribution": share()}, headers=auth(bob_session)
    )
    assert accepted.status_code == 201 and accepted.get_json()["status"] == "started"
    meta = client.get(f"/api/games/{table['id']}").get_json()
    assert meta["accounts"] == {"0": bob, "1": alice}


def test_a_declined_rematch_ends_its_table(client):
    game, (_, alice_session), (_, bob_session) = finished_pair(client)
    table = client.post(f"/api/games/{game}/rematch", json={"contribution": share()}, headers=auth(alice_session))
    declined = client.post(f"/api/tables/{table.get_json()['id']}/decline", headers=auth(bob_session))
    assert declined.status_code == 200 and declined.get_json()["status"] == "expired"


def test_a_rematch_is_refused_before_the_end_to_strangers_and_without_accounts(client):
    _, alice_session = new_account(client, "alice")
    _, bob_session = new_account(client, "bob")
    _, carol_session = new_account(client, "carol")
    live = started(client, alice_session, bob_session)
    body = {"contribution": share()}
    early = client.post(f"/api/games/{live}/rematch", json=body, headers=auth(alice_session))
    assert early.status_code == 409 and early.get_json()["error"]["code"] == "not_finished"
    game, _, _ = finished_pair(client)
    assert client.post(f"/api/games/{game}/rematch", json=body, headers=auth(carol_session)).status_code == 403
    assert client.post(f"/api/games/{game}/rematch", json=body).status_code == 401
    assert client.post(f"/api/games/{game}/rematch", json={}, headers=auth(carol_session)).status_code == 400
    assert client.post("/api/games/nosuchgame/rematch", json=body, headers=auth(carol_session)).status_code == 404

    plain = client.post(
        "/api/games",
        json={"game": "toy", "seats": ["a", "b"], "options": {"rounds": 1}, "account_seat": 0},
        headers=auth(alice_session),
    ).get_json()
    roll_out(client, plain)
    unbound = client.post(f"/api/games/{plain['id']}/rematch", json=body, headers=auth(alice_session))
    assert unbound.status_code == 409 and unbound.get_json()["error"]["code"] == "unbound_seats"


def test_asking_for_the_rematch_another_offered_accepts_it(client):
    game, (alice, alice_session), (bob, bob_session) = finished_pair(client)
    offered = client.post(f"/api/games/{game}/rematch", json={"contribution": share()}, headers=auth(alice_session))
    accepted = client.post(f"/api/games/{game}/rematch", json={"contribution": share()}, headers=auth(bob_session))
    assert accepted.status_code == 200 and accepted.get_json()["status"] == "started"
    assert accepted.get_json()["id"] == offered.get_json()["id"]
    assert client.get(f"/api/games/{accepted.get_json()['game_id']}").get_json()["accounts"] == {"0": bob, "1": alice}


def test_a_rematch_keeps_the_clock_asked_days_per_move_and_vacation_too(client):
    """A rematch of a game by days is by days: it once became a live clock of the move's
    days in seconds (base 172800), with no days per move and no vacation."""
    alice, alice_session = new_account(client, "alice")
    bob, bob_session = new_account(client, "bob")
    for clock in ({"per_move_days": 2, "vacation_days": 3}, {"base": 300.0, "increment": 5.0}):
        game = started(client, alice_session, bob_session, clock=clock)
        roll_out(client, {"id": game, "seats": [{"token": alice_session}, {"token": bob_session}]})
        offered = client.post(f"/api/games/{game}/rematch", json={"contribution": share()}, headers=auth(alice_session))
        table = offered.get_json()
        assert {k: table["clock"][k] for k in clock} == clock, table["clock"]
        client.post(f"/api/tables/{table['id']}/seats", json={"contribution": share()}, headers=auth(bob_session))
        clocks = client.get(f"/api/games/{table['id']}").get_json()["clocks"]
        if "per_move_days" in clock:
            assert clocks["per_move"] == 2 * 86400 and clocks["vacation"] == [3 * 86400, 3 * 86400], clocks
        else:
            assert "per_move" not in clocks and clocks["remaining"] == [300.0, 300.0], clocks
