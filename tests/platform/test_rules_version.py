"""Every game records the rules it is played under, and the fold hands them to the game."""

from __future__ import annotations

from tests.platform.helpers import GameHandle


def test_game_created_names_the_rules_version_and_every_option(client):
    g = GameHandle(client)
    created = g.events()[0]
    assert created["payload"]["rules_version"] == 1
    assert created["payload"]["options"] == {"rounds": 3}  # the default written out
    assert g.meta()["rules_version"] == 1


def test_a_fork_keeps_its_source_rules_version(client):
    g = GameHandle(client)
    r = client.post(g.url("/fork"), json={"at_seq": 1}, headers=g.ref())
    assert r.status_code == 201, r.json
    fork = client.get(f"/api/games/{r.json['id']}/events").json["events"][0]
    assert fork["payload"]["rules_version"] == 1


def test_the_export_and_verify_name_the_rules_version(client):
    g = GameHandle(client, options={"rounds": 1})
    g.act(0, "roll")
    g.act(1, "roll")
    r = client.get(g.url("/export"))
    assert r.headers["X-Rules-Version"] == "1" and r.headers["X-Game"] == "toy"
    report = client.post("/api/verify", data=r.get_data(as_text=True)).json
    assert report["ok"] and (report["game"], report["rules_version"]) == ("toy", 1)


def test_a_log_from_before_rules_versions_is_verified_as_version_1():
    """Logs written before ``game.created`` carried a version were all played under 1."""
    from service.audit.exports import played_under

    assert played_under([{"type": "game.created", "payload": {"game": "toy"}}]) == {"game": "toy", "rules_version": 1}
    assert played_under([]) == {"game": None, "rules_version": None}
