"""The platform loads every payload through its schema before apply: loading an offered
action must give back exactly the payload offered (no renamed keys, no lost fields)."""

from __future__ import annotations

import pytest

from projections.games.age_of_rome import GAME
from tests.games.harness import play


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_every_offered_payload_loads_unchanged(seats):
    out = play(GAME, seats, f"schemas-{seats}", check_views=False, check_schemas=False, keep_states=True)
    seen = set()
    for state in out.states:
        for seat in sorted(GAME.to_act(state)):
            for action in GAME.legal_actions(state, seat):
                loaded = GAME.action_schemas[action["type"]]().load(action["payload"])
                assert loaded == action["payload"], action
                seen.add(action["type"])
    assert {"place_follower", "build", "tax", "keep_missions"} <= seen


def test_moves_keep_their_from_key():
    schemas = GAME.action_schemas
    assert schemas["move_legion"]().load({"from": "supply", "to": "thrace"}) == {"from": "supply", "to": "thrace"}
    assert schemas["lure_move"]().load({"from": "epirus", "to": "thrace"}) == {"from": "epirus", "to": "thrace"}
