"""CONTRIBUTING.md's "add a game" checklist, proven: a game registered in one place (its
package name in GAME_PACKAGES) shows in the API, can be created and played to the end,
is checked for docs, and is held to the package layout; no other list is edited."""

from __future__ import annotations

from tests.platform.helpers import auth
from tests.sixth_game import PACKAGE, add_sixth_game
from tests.test_stands_alone import missing_docs


def test_a_sixth_game_registered_in_one_place_is_listed_created_and_played(client, monkeypatch, tmp_path):
    add_sixth_game(monkeypatch, tmp_path)
    types = {t["name"]: t for t in client.get("/api/game-types").json}
    assert types[PACKAGE]["title"] == "The Sixth Game" and types[PACKAGE]["options"]["rounds"]["default"] == 3
    created = client.post("/api/games", json={"game": PACKAGE, "seats": ["a", "b"], "options": {"rounds": 1}})
    assert created.status_code == 201, created.json
    gid, tokens = created.json["id"], [s["token"] for s in created.json["seats"]]
    while (meta := client.get(f"/api/games/{gid}").json)["status"] == "active":
        seat = meta["to_act"][0]
        action = client.get(f"/api/games/{gid}/actions", headers=auth(tokens[seat])).json["actions"][0]
        r = client.post(f"/api/games/{gid}/actions", json=action, headers=auth(tokens[seat]))
        assert r.status_code == 201, r.json
    assert meta["result"] is not None
    assert any(g["id"] == gid for g in client.get(f"/api/games?game={PACKAGE}").json["games"])


def test_the_docs_check_asks_the_sixth_game_for_its_docs(monkeypatch, tmp_path):
    import projections.games as games

    assert missing_docs(games.GAME_PACKAGES) == []
    add_sixth_game(monkeypatch, tmp_path)
    assert missing_docs(games.GAME_PACKAGES) == [f"docs/rules/{PACKAGE}.md", f"docs/games/{PACKAGE}.md"]
