"""Referee events, disputes as annotations, forks and clocks."""

from __future__ import annotations

from tests.platform.helpers import GameHandle


def ref(g, kind, **body):
    return g.client.post(g.url(f"/referee/{kind}"), json=body, headers=g.ref())


def test_pause_and_resume_are_events_in_the_log(client):
    g = GameHandle(client)
    assert ref(g, "pause", reason="phone").status_code == 201
    assert g.meta()["status"] == "paused"
    assert ref(g, "pause").status_code == 409
    assert ref(g, "resume").status_code == 201
    assert g.act(0, "roll").status_code == 201
    assert [e["type"] for e in g.events()][1:3] == ["referee.pause", "referee.resume"]


def test_rewind_restores_an_earlier_step_and_keeps_the_trail(client):
    g = GameHandle(client, options={"rounds": 4})
    g.act(0, "roll")
    at2 = client.get(g.url("/view"), headers=g.ref()).json["view"]
    g.act(1, "roll")
    g.act(0, "roll")
    assert ref(g, "rewind", to_seq=2, reason="misclick").status_code == 201
    assert client.get(g.url("/view"), headers=g.ref()).json["view"] == at2
    assert g.meta()["seq"] == 5 and g.events()[-1]["type"] == "referee.rewind"


def test_a_correction_changes_the_recorded_result_of_a_finished_game(client):
    g = GameHandle(client, options={"rounds": 1})
    g.act(0, "roll")
    g.act(1, "roll")
    before = g.meta()["result"]
    assert ref(g, "adjust", seat=1, points=100, reason="too late").status_code == 409
    assert (
        ref(g, "correct", adjustments=[{"seat": 1, "points": 100}], reason="penalty to seat 0 revoked").status_code
        == 201
    )
    after = g.meta()["result"]
    assert after["scores"][1] == before["scores"][1] + 100 and after["ranking"][1] == 1


def test_forfeit_ends_the_game_and_ranks_the_seat_last(client):
    g = GameHandle(client, seats=["a", "b", "c"])
    g.act(0, "roll")
    assert ref(g, "forfeit", seat=0, reason="left").status_code == 201
    meta = g.meta()
    assert meta["status"] == "finished" and meta["result"]["ranking"][0] == 3
    assert meta["result"]["forfeited"] == [0]


def test_a_dispute_is_resolved_by_the_referee_and_listed_with_its_resolution(client):
    g = GameHandle(client)
    g.act(0, "roll")
    note = client.post(
        g.url("/annotations"), json={"seq": 2, "text": "that roll was a misclick", "kind": "dispute"}, headers=g.seat(1)
    ).json
    assert ref(g, "dismiss", dispute=note["id"], reason="rolls stand").status_code == 201
    listed = client.get(g.url("/annotations")).json["annotations"]
    assert listed[0]["resolution"]["type"] == "referee.dismiss"


def test_spectators_comment_but_do_not_dispute(client):
    g = GameHandle(client)
    ok = client.post(g.url("/annotations"), json={"seq": 1, "text": "nice opening", "author": "Cam"})
    assert ok.status_code == 201 and ok.json["author"] == "Cam"
    no = client.post(g.url("/annotations"), json={"seq": 1, "text": "unfair", "kind": "dispute"})
    assert no.status_code == 403


def test_empty_or_too_long_annotations_are_refused(client):
    g = GameHandle(client)
    for text in ["", "   ", "x" * 2001]:
        r = client.post(g.url("/annotations"), json={"seq": 1, "text": text})
        assert r.status_code == 400 and r.json["error"]["code"] == "bad_text"
    assert client.get(g.url("/annotations")).json["annotations"] == []


def test_fork_of_a_finished_game_starts_unranked_from_that_step(client):
    g = GameHandle(client, options={"rounds": 2})
    for _ in range(4):
        g.play_first()
    at3 = client.get(g.url("/view?at=3")).json["view"]
    r = client.post(g.url("/fork"), json={"at_seq": 3})
    assert r.status_code == 201
    fork = r.json
    meta = client.get(f"/api/games/{fork['id']}").json
    assert meta["ranked"] is False and meta["forked_from"]["at_seq"] == 3
    view = client.get(
        f"/api/games/{fork['id']}/view", headers={"Authorization": "Bearer " + fork["referee_token"]}
    ).json
    assert view["view"]["scores"] == at3["scores"]


def test_an_ongoing_game_is_forked_by_its_referee_only(client):
    g = GameHandle(client)
    assert client.post(g.url("/fork"), json={"at_seq": 1}, headers=g.seat(0)).status_code == 403
    assert client.post(g.url("/fork"), json={"at_seq": 1}, headers=g.ref()).status_code == 201


def test_a_clock_that_runs_out_forfeits_its_seat(client, services):
    g = GameHandle(client, clock={"base": 5, "increment": 1})
    clocks = g.meta()["clocks"]
    assert clocks["running"] == [0] and clocks["remaining"] == [5.0, 5.0] and clocks["moved"] == []
    assert g.act(0, "roll").status_code == 201  # each seat's first move is untimed
    assert g.act(1, "roll").status_code == 201
    clocks = g.meta()["clocks"]
    assert clocks["running"] == [0] and clocks["remaining"] == [5.0, 5.0] and clocks["moved"] == [0, 1]
    assert services.clocks.expire(now=clocks["since"] + 4) == []
    assert services.clocks.expire(now=clocks["since"] + 6) == [g.id]
    assert services.clocks.expire(now=clocks["since"] + 7) == []
    meta = g.meta()
    assert meta["status"] == "finished" and meta["result"]["forfeited"] == [0]
    assert [e["type"] for e in g.events()][-2:] == ["clock.expired", "game.finished"]


def test_a_paused_game_stops_the_clocks(client, services):
    g = GameHandle(client, clock={"base": 5, "increment": 0})
    ref(g, "pause")
    since = g.meta()["clocks"]["since"]
    assert services.clocks.expire(now=since + 60) == []
    assert g.meta()["clocks"]["running"] == []
