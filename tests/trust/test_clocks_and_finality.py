"""No seat escapes or banks its clock; a finished game is final; a referee's fork of a
live game keeps its source's secrets until the source has ended."""

from __future__ import annotations

import time

from service.audit.bundles import verify_tournament
from tests.platform.helpers import GameHandle, auth
from tests.tournaments.bots import played_cup


def stop(client, g):
    """End a clocked game, so no other test's clock sweep finds it running."""
    client.post(g.url("/referee/forfeit"), json={"seat": 0, "reason": "end of test"}, headers=g.ref())


def test_a_client_cannot_write_in_the_system_action_namespace(client):
    g = GameHandle(client, clock={"base": 60, "increment": 0})
    r = g.act(0, "roll", action_id="sys:clock:3:0")
    assert r.status_code == 400 and g.meta()["seq"] == 1
    assert r.json["error"]["message"] == "the request fails its schema"
    assert "sys:" in str(r.json["error"]["details"])
    stop(client, g)


def test_a_seat_cannot_pre_empt_its_own_clock_forfeit(client, services):
    """The old forfeit id was clock:<seq>:<seat>; a seat posting a move under the id its
    forfeit would use at seq 3, then undoing it, was never forfeited."""
    g = GameHandle(client, clock={"base": 5, "increment": 0})
    g.act(0, "roll")  # the first moves, untimed
    g.act(1, "roll")
    assert g.act(0, "note", {"text": "a"}, action_id="clock:5:0").status_code == 201
    assert client.post(g.url("/undo"), json={"to_seq": 3}, headers=g.seat(0)).json["status"] == "done"
    assert g.id in services.clocks.expire(now=time.time() + 3600)
    meta = g.meta()
    assert meta["status"] == "finished" and meta["result"]["forfeited"] == [0]


def test_move_and_undo_cannot_bank_increments(client):
    g = GameHandle(client, options={"rounds": 10}, clock={"base": 60, "increment": 30})
    for _ in range(5):
        assert g.act(0, "note", {"text": "a"}).status_code == 201
        assert client.post(g.url("/undo"), json={"to_seq": 1}, headers=g.seat(0)).json["status"] == "done"
    remaining = g.meta()["clocks"]["remaining"]
    stop(client, g)
    assert remaining[0] <= 60 and remaining[1] <= 60


def test_a_pending_undo_dies_with_the_finish(client):
    g = GameHandle(client, seats=["a", "b"], options={"rounds": 3})
    g.act(0, "roll")
    asked = client.post(g.url("/undo"), json={"to_seq": 1}, headers=g.seat(0)).json
    assert asked["status"] == "requested"
    assert (
        client.post(g.url("/referee/forfeit"), json={"seat": 0, "reason": "left"}, headers=g.ref()).status_code == 201
    )
    meta = g.meta()
    assert meta["status"] == "finished" and meta["pending_undo"] is None
    r = client.post(g.url(f"/undo/{asked['request_id']}/approve"), headers=g.seat(1))
    assert r.status_code in (404, 409)
    assert g.events()[-1]["type"] == "game.finished"


def test_after_the_end_only_a_signed_correction_is_appended(client):
    g = GameHandle(client, options={"rounds": 1})
    g.act(0, "roll")
    g.act(1, "roll")
    headers = g.ref()
    for kind, body in [
        ("adjust", {"seat": 0, "points": 5, "reason": "x"}),
        ("pause", {}),
        ("resume", {}),
        ("rewind", {"to_seq": 2, "reason": "x"}),
    ]:
        assert client.post(g.url(f"/referee/{kind}"), json=body, headers=headers).status_code == 409, kind
    assert (
        client.post(
            g.url("/referee/correct"),
            json={"adjustments": [{"seat": 0, "points": 5}], "reason": "x"},
            headers=g.seat(0),
        ).status_code
        == 403
    )
    r = client.post(
        g.url("/referee/correct"),
        json={"adjustments": [{"seat": 0, "points": 5}], "reason": "scoring"},
        headers=headers,
    )
    assert r.status_code == 201 and r.json["receipt"]["seq"] == r.json["seq"]
    entry = g.events()[-1]
    assert entry["type"] == "referee.correction" and entry["payload"]["attestation"]["result"] == g.meta()["result"]
    report = client.post("/api/verify", data=g.export()).json
    assert report["ok"] and report["checks"]["signature"] == "ok"


def test_a_tournament_picks_up_a_correction_and_its_bundle_agrees(client):
    tid, pairing = played_cup(client, seed=3)
    table = pairing["tables"][0]
    before = client.get(f"/api/tournaments/{tid}/standings").get_json()["standings"]
    loser = max(range(2), key=lambda s: client.get(f"/api/games/{table['game_id']}").json["result"]["ranking"][s])
    r = client.post(
        f"/api/games/{table['game_id']}/referee/correct",
        headers=auth(table["referee_token"]),
        json={"adjustments": [{"seat": loser, "points": 1000}], "reason": "miscount"},
    )
    assert r.status_code == 201
    after = client.get(f"/api/tournaments/{tid}/standings").get_json()["standings"]
    assert after != before
    bundle = client.get(f"/api/tournaments/{tid}/export").get_json()
    assert any(e["type"] == "game.corrected" for e in bundle["tournament"])
    from tests.trust.test_verdicts import server_keys

    report = verify_tournament(bundle, server_keys(client))
    assert report["ok"], report["messages"]
    assert report["checks"]["signature"] == "ok"
    forged = {**bundle, "standings": before}
    assert not verify_tournament(forged, server_keys(client))["ok"]


def test_a_referee_fork_of_a_live_game_keeps_the_source_secret_until_it_ends(client):
    source = GameHandle(client, options={"rounds": 2})
    source.act(0, "roll")
    fork = client.post(source.url("/fork"), json={"at_seq": 2}, headers=source.ref()).json
    fork_game = f"/api/games/{fork['id']}"
    tokens = [s["token"] for s in fork["seats"]]
    while client.get(fork_game).json["status"] == "active":
        seat = client.get(fork_game).json["to_act"][0]
        client.post(f"{fork_game}/actions", json={"type": "roll", "payload": {}}, headers=auth(tokens[seat]))
    assert client.get(fork_game).json["status"] == "finished"
    events = client.get(f"{fork_game}/events").json["events"]
    assert events[0]["payload"]["fork"]["state"] == {"hidden": True}
    assert "deck_order" not in client.get(f"{fork_game}/view").json["view"]
    assert "hidden" not in client.get(f"{fork_game}/export").get_data(as_text=True).split("\n")[
        0
    ] or '"state":{"hidden":true}' in client.get(f"{fork_game}/export").get_data(as_text=True)
    while source.meta()["status"] == "active":
        source.act(source.meta()["to_act"][0], "roll")
    events = client.get(f"{fork_game}/events").json["events"]
    assert "deck" in events[0]["payload"]["fork"]["state"]


def test_a_move_after_the_flag_fell_is_refused_and_the_seat_forfeits(client):
    """No sweep runs here (CLOCK_SWEEP_SECONDS=0): the move itself finds the flag down."""
    g = GameHandle(client, options={"rounds": 3}, clock={"base": 1, "increment": 20})
    g.act(0, "roll")  # the first moves, untimed and without increment
    g.act(1, "roll")
    seat = g.meta()["to_act"][0]
    time.sleep(1.1)
    r = g.act(seat, "roll")
    assert r.status_code == 409 and r.json["error"]["code"] == "clock_ran_out", r.json
    meta = g.meta()
    assert meta["status"] == "finished" and meta["result"]["forfeited"] == [seat]
    assert [e["type"] for e in g.events()][-2:] == ["clock.expired", "game.finished"]
