"""A game's log is bounded per game type (``max_log_entries``, stated by each game and
listed by /api/game-types), and read a page at a time: /events answers pages that say
where the next one starts, /export streams the store a page at a time and still verifies."""

from __future__ import annotations

import pytest

from projections.games import registry
from service.audit.exports import parse_lines
from service.services import games as platform_games
from tests.platform.helpers import GameHandle, auth
from tests.toygame import ToyGame


def test_every_game_type_states_its_bound(client):
    listed = {t["name"]: t for t in client.get("/api/game-types").json}
    for name, game in registry().items():
        assert listed[name]["max_log_entries"] == game.max_log_entries > 0


@pytest.fixture()
def short_toy(monkeypatch):
    monkeypatch.setattr(ToyGame, "max_log_entries", 12)
    return 12


def test_a_move_past_the_bound_is_refused_and_nothing_written(client, short_toy):
    game = GameHandle(client, options={"rounds": 50})
    while (seq := game.meta()["seq"]) < short_toy:
        assert game.act(game.meta()["to_act"][0], "note", {"text": "a"}).status_code == 201
    refused = game.act(game.meta()["to_act"][0], "note", {"text": "a"})
    assert refused.status_code == 409, refused.json
    error = refused.json["error"]
    assert error["code"] == "log_full" and error["details"]["max_log_entries"] == short_toy
    assert game.meta()["seq"] == seq
    # the referee may still end it
    ended = client.post(game.url("/referee/forfeit"), json={"seat": 0, "reason": "too long"}, headers=game.ref())
    assert ended.status_code == 201, ended.json
    assert game.meta()["status"] == "finished"


def test_events_come_in_pages_that_name_the_next(client):
    game = GameHandle(client, options={"rounds": 5})
    for _ in range(5):
        game.play_first()
    head = game.meta()["seq"]
    seen, after = [], 0
    while after is not None:
        page = client.get(game.url(f"/events?after={after}&limit=2"), headers=game.ref()).json
        assert len(page["events"]) <= 2
        seen += [e["seq"] for e in page["events"]]
        after = page["next"]
    assert seen == list(range(1, head + 1))
    whole = client.get(game.url("/events"), headers=game.ref()).json
    assert [e["seq"] for e in whole["events"]] == seen and whole["next"] is None
    for bad in ("limit=0", "limit=1001", "limit=x"):
        assert client.get(game.url(f"/events?{bad}")).status_code == 400


def test_an_export_streams_page_by_page_and_still_verifies(client, monkeypatch):
    game = GameHandle(client, options={"rounds": 3})
    while game.meta()["status"] != "finished":
        game.play_first()
    whole = game.export(game.referee)
    monkeypatch.setattr(platform_games, "EXPORT_PAGE", 2)
    answer = client.get(game.url("/export"), headers=auth(game.referee))
    assert answer.is_streamed
    paged = answer.get_data(as_text=True)
    lines = parse_lines(paged)
    assert [e["seq"] for e in lines[:-1]] == list(range(1, game.meta()["seq"] + 1))
    assert paged.splitlines()[:-1] == whole.splitlines()[:-1]  # the same entries, only the signature's time differs
    report = client.post("/api/verify", data=paged).json
    assert report["ok"] and report["checks"]["signature"] == "ok", report
    assert client.get("/api/games/nosuchgame/export").status_code == 404  # refused before streaming
