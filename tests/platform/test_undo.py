"""Undo: immediate when safe, otherwise a request; never re-rolls a draw."""

from __future__ import annotations

from tests.platform.helpers import GameHandle


def view(g, seat):
    return g.client.get(g.url("/view"), headers=g.seat(seat)).json["view"]


def test_taking_back_a_note_nobody_saw_is_immediate(client):
    g = GameHandle(client)
    g.act(0, "note", {"text": "a"})
    r = client.post(g.url("/undo"), json={"to_seq": 1}, headers=g.seat(0))
    assert r.status_code == 201 and r.json["status"] == "done"
    assert view(g, 0)["notes"] == [[], 0]
    assert [e["type"] for e in g.events()] == ["game.created", "toy.note", "game.undo"]


def test_undo_after_a_draw_is_a_request_and_approval_reverts_it(client):
    g = GameHandle(client)
    g.act(0, "roll")
    r = client.post(g.url("/undo"), json={"to_seq": 1}, headers=g.seat(0))
    assert r.json["status"] == "requested"
    assert view(g, 0)["scores"][0] > 0
    a = client.post(g.url(f"/undo/{r.json['request_id']}/approve"), headers=g.seat(1))
    assert a.status_code == 201 and a.json["status"] == "done"
    assert view(g, 0)["scores"] == [0, 0]


def test_undo_after_another_seat_acted_needs_approval_and_decline_keeps_everything(client):
    g = GameHandle(client)
    g.act(0, "note", {"text": "a"})
    g.act(0, "play", {"card": g.legal(0)[0]["payload"]["card"]})
    g.act(1, "note", {"text": "b"})
    before = view(g, 0)
    r = client.post(g.url("/undo"), json={"to_seq": 2}, headers=g.seat(0))
    assert r.json["status"] == "requested"
    d = client.post(g.url(f"/undo/{r.json['request_id']}/decline"), headers=g.seat(1))
    assert d.json["status"] == "declined"
    assert view(g, 0) == before


def test_only_the_asked_seat_answers_an_undo_request(client):
    g = GameHandle(client)
    g.act(0, "roll")
    req = client.post(g.url("/undo"), json={"to_seq": 1}, headers=g.seat(0)).json["request_id"]
    r = client.post(g.url(f"/undo/{req}/approve"), headers=g.seat(0))
    assert r.status_code == 403 and r.json["error"]["code"] == "not_asked"


def test_the_referee_may_approve_an_undo_request(client):
    g = GameHandle(client)
    g.act(0, "roll")
    req = client.post(g.url("/undo"), json={"to_seq": 1}, headers=g.seat(0)).json["request_id"]
    assert client.post(g.url(f"/undo/{req}/approve"), headers=g.ref()).json["status"] == "done"


def test_undo_cannot_re_roll_a_draw(client):
    g = GameHandle(client)
    g.act(0, "roll")
    rolled = view(g, 0)["scores"][0]
    for _ in range(3):
        req = client.post(g.url("/undo"), json={"to_seq": 1}, headers=g.seat(0)).json["request_id"]
        client.post(g.url(f"/undo/{req}/approve"), headers=g.seat(1))
        g.act(0, "roll")
        assert view(g, 0)["scores"][0] == rolled


def test_undo_then_redo_restores_the_same_state(client):
    g = GameHandle(client)
    card = g.legal(0)[0]["payload"]["card"]
    g.act(0, "play", {"card": card})
    g.act(1, "roll")
    after = client.get(g.url("/view"), headers=g.ref()).json["view"]
    req = client.post(g.url("/undo"), json={"to_seq": 1}, headers=g.seat(0)).json["request_id"]
    client.post(g.url(f"/undo/{req}/approve"), headers=g.seat(1))
    g.act(0, "play", {"card": card})
    g.act(1, "roll")
    assert client.get(g.url("/view"), headers=g.ref()).json["view"] == after


def test_nothing_to_undo_and_non_steps_are_refused(client):
    g = GameHandle(client)
    r = client.post(g.url("/undo"), json={"to_seq": 1}, headers=g.seat(0))
    assert r.status_code == 422 and r.json["error"]["code"] == "nothing_to_undo"
    r = client.post(g.url("/undo"), json={"to_seq": 7}, headers=g.seat(0))
    assert r.status_code == 422 and r.json["error"]["code"] == "not_an_effective_step"


def test_an_undone_step_cannot_be_a_target_again(client):
    g = GameHandle(client)
    g.act(0, "note", {"text": "a"})
    g.act(0, "note", {"text": "b"})
    client.post(g.url("/undo"), json={"to_seq": 2}, headers=g.seat(0))
    r = client.post(g.url("/undo"), json={"to_seq": 3}, headers=g.seat(0))
    assert r.status_code == 422 and r.json["error"]["code"] == "not_an_effective_step"


def test_the_meta_names_the_moves_that_stand_so_clients_fold_nothing(client):
    g = GameHandle(client)
    g.act(0, "note", {"text": "a"})  # seq 2
    g.act(0, "play", {"card": g.legal(0)[0]["payload"]["card"]})  # seq 3
    g.act(1, "note", {"text": "b"})  # seq 4
    meta = client.get(g.url("")).json
    assert meta["moves"] == [{"seq": 2, "seat": 0}, {"seq": 3, "seat": 0}, {"seq": 4, "seat": 1}]
    req = client.post(g.url("/undo"), json={"to_seq": 2}, headers=g.seat(0)).json["request_id"]
    assert client.get(g.url("")).json["moves"] == meta["moves"]  # a request takes nothing back yet
    client.post(g.url(f"/undo/{req}/approve"), headers=g.seat(1))
    assert client.get(g.url("")).json["moves"] == [{"seq": 2, "seat": 0}]
    r = g.act(0, "note", {"text": "b"})
    assert r.status_code == 201, r.json
    assert [m["seq"] for m in client.get(g.url("")).json["moves"]] == [2, r.json["seq"]]


def test_an_undo_decided_again_on_the_latest_state_answers_what_was_written(app, redis_url, tmp_path):
    """A worker whose cache is behind decides on it first ("requested": a roll was made
    since), then again on the latest state, where only an unseen note remains: the
    answer is the undo done, with no id of a request that was never written."""
    from service.app import create_app

    other = create_app({"REDIS_URL": redis_url, "CLOCK_SWEEP_SECONDS": 0, "TESTING": True, "DATA_DIR": str(tmp_path)})
    behind, ahead = app.test_client(), other.test_client()
    g = GameHandle(behind)
    g.act(0, "note", {"text": "a"})
    g.act(0, "roll")  # this worker's cache: a roll (a draw) after seq 1
    rewound = ahead.post(g.url("/referee/rewind"), json={"to_seq": 1, "reason": "r"}, headers=g.ref())
    assert rewound.status_code == 201, rewound.json
    assert (
        ahead.post(g.url("/actions"), json={"type": "note", "payload": {"text": "b"}}, headers=g.seat(0)).status_code
        == 201
    )

    r = behind.post(g.url("/undo"), json={"to_seq": 1}, headers=g.seat(0))
    assert r.status_code == 201, r.json
    written = g.events()[-1]
    assert written["type"] == "game.undo" and written["seq"] == r.json["seq"]
    assert r.json == {"status": "done", "seq": written["seq"], "receipt": r.json["receipt"]}
