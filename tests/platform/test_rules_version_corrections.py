"""The rules corrections reach games through the platform: new games record and play the
current rules version, and a game recorded under version 1 plays version 1."""

from __future__ import annotations

import pytest

from projections.games import get as get_game
from service.services.games import CreateGame
from tests.platform.helpers import GameHandle, auth

SEATS = ["ann", "bob", "cy", "di", "ed"]


@pytest.mark.parametrize(
    "game, version",
    [
        ("sultans_of_karaya", 3),
        ("shadow_of_the_emperor", 3),
        ("age_of_rome", 3),
        ("carcassonne_castle", 3),
    ],
)
def test_new_games_record_the_current_rules_version(client, game, version):
    rules = get_game(game)
    g = GameHandle(client, game=game, seats=SEATS[: max(rules.min_seats, 2)])
    created = g.events()[0]["payload"]
    assert created["rules_version"] == version == rules.rules_version
    if game == "carcassonne_castle":  # the seed's reading of tiles 4/5/6 is the default, written out
        assert created["options"]["unfinished_needs_majority"] is False


def claimed_sultan(client, services, rules_version=None):
    """A 5-seat table, seat 0 to act, after the face-down Sultan's royal claim (an interrupt).
    The deal is random: tables whose Sultan is seat 0 or the spare are dealt again."""
    for _ in range(50):
        made = services.games.create(
            CreateGame("sultans_of_karaya", SEATS, {"first_player": 0}, rules_version=rules_version)
        )
        tokens = [s["token"] for s in made["seats"]]
        seen = client.get(f"/api/games/{made['id']}/view", headers=auth(made["referee_token"])).json
        cards = [s["card"] for s in seen["view"]["seats"]]
        if "sultan" in cards[1:]:
            sultan = cards.index("sultan")
            url = f"/api/games/{made['id']}/actions"
            r = client.post(url, json={"type": "royal_claim", "payload": {}}, headers=auth(tokens[sultan]))
            assert r.status_code == 201, r.json
            return url, tokens, sultan
    raise AssertionError("no deal put the Sultan on seats 1-4")


def test_a_new_sultans_game_lets_a_face_up_seat_be_investigated(client, services):
    url, tokens, sultan = claimed_sultan(client, services)
    offered = client.get(url, headers=auth(tokens[0])).json["actions"]
    assert {"type": "investigate", "payload": {"target": sultan}} in offered
    r = client.post(url, json={"type": "investigate", "payload": {"target": sultan}}, headers=auth(tokens[0]))
    assert r.status_code == 201, r.json


def test_a_sultans_game_recorded_under_version_1_keeps_version_1(client, services):
    url, tokens, sultan = claimed_sultan(client, services, rules_version=1)
    offered = client.get(url, headers=auth(tokens[0])).json["actions"]
    assert {"type": "investigate", "payload": {"target": sultan}} not in offered
    r = client.post(url, json={"type": "investigate", "payload": {"target": sultan}}, headers=auth(tokens[0]))
    assert r.status_code == 422 and r.json["error"]["code"] == "target_revealed"
