"""Disputes of a game in play are log entries: they stream, the meta shows them open
until a referee entry names them, and the exported log still verifies."""

from __future__ import annotations

from tests.platform.helpers import GameHandle


def raise_dispute(g, seat, seq=1):
    r = g.client.post(
        g.url("/annotations"), json={"seq": seq, "text": "he moved my piece", "kind": "dispute"}, headers=g.seat(seat)
    )
    assert r.status_code == 201, r.json
    return r.json["id"]


def test_a_dispute_is_an_entry_of_the_log_and_stays_open_until_the_referee_settles_it(client):
    g = GameHandle(client, options={"rounds": 1})
    raised = raise_dispute(g, 1)
    last = g.events()[-1]
    assert last["type"] == "dispute.raised"
    assert last["payload"] == {"dispute": raised, "seat": 1, "at_seq": 1}
    assert g.meta()["disputes"] == [{"id": raised, "seat": 1, "seq": 1, "raised": last["seq"]}]
    assert client.get(g.url("/view"), headers=g.seat(0)).json["disputes"][0]["id"] == raised
    settled = client.post(g.url("/referee/dismiss"), json={"dispute": raised, "reason": "no"}, headers=g.ref())
    assert settled.status_code == 201
    assert g.meta()["disputes"] == []
    assert client.get(g.url("/annotations")).json["annotations"][0]["resolution"]["type"] == "referee.dismiss"
    g.act(0, "roll")
    g.act(1, "roll")
    assert g.meta()["status"] == "finished"
    assert client.post("/api/verify", data=g.export()).json["ok"]  # the whole log refolds offline


def test_a_comment_writes_nothing_to_the_log(client):
    g = GameHandle(client)
    seq = g.meta()["seq"]
    assert client.post(g.url("/annotations"), json={"seq": 1, "text": "nice"}, headers=g.seat(0)).status_code == 201
    assert g.meta()["seq"] == seq and g.meta()["disputes"] == []


def test_a_dispute_streams_to_an_open_console(app):
    client = app.test_client()
    g = GameHandle(client)
    seq = g.meta()["seq"]
    raised = raise_dispute(g, 0)
    app.config["SSE_SECONDS"] = 0.3
    body = client.get(g.url(f"/stream?after={seq}"), headers=g.ref()).get_data(as_text=True)
    assert "dispute.raised" in body and raised in body


def test_a_finished_games_dispute_stays_a_note_and_its_log_final(client):
    g = GameHandle(client, options={"rounds": 1})
    g.act(0, "roll")
    g.act(1, "roll")
    seq = g.meta()["seq"]
    raise_dispute(g, 1, seq=2)
    assert g.meta()["seq"] == seq and g.meta()["disputes"] == []
