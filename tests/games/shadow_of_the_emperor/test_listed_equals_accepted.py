"""Listed actions are accepted and unlisted ones refused (STYLE principle 14): perturbed
payloads from random positions are accepted exactly when ``legal_actions`` lists them."""

from __future__ import annotations

import random

import pytest

from projections.games.base import IllegalAction
from projections.games.shadow_of_the_emperor import GAME
from projections.games.shadow_of_the_emperor.components import CARD_ORDER, ELECTORATE_ORDER, ELECTORATES
from tests.games import harness

LOCATIONS = ["throne", "supply", "nowhere/a0"] + [
    loc
    for eid in ELECTORATE_ORDER
    for loc in [f"{eid}/elector"]
    + [f"{eid}/a{i}" for i in range(ELECTORATES[eid]["aristocrat_spaces"])]
    + [f"{eid}/city{i}" for i in range(ELECTORATES[eid]["city_spaces"])]
    + [f"{eid}/castle{i}" for i in range(ELECTORATES[eid]["castle_spaces"])]
]
VALUES = {
    "space": LOCATIONS,
    "target": LOCATIONS + [None],
    "source": LOCATIONS,
    "card": CARD_ORDER + [None],
    "side": ["baron", "couple", None],
    "decline": [True, False],
    "electorate": ELECTORATE_ORDER,
    "winner": [0, 1, 2, 3],
    "accept": [True, False],
    "side_vote": ["emperor", "rival"],
}


def perturb(action: dict, rand: random.Random) -> dict:
    payload = dict(action["payload"])
    if payload:
        key = rand.choice(sorted(payload))
        pool = VALUES["side_vote"] if action["type"] == "vote" else VALUES.get(key, [None])
        payload[key] = rand.choice(pool)
    return {"type": action["type"], "payload": payload}


@pytest.mark.parametrize("run", [0, 1])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_an_action_is_accepted_exactly_when_it_is_listed(seats, run):
    rand = random.Random(10 * seats + run)
    out = harness.play(GAME, seats, f"listed-{seats}-{run}", check_schemas=False, check_views=False, keep_states=True)
    checked = 0
    for state in out.states[::2]:
        before = harness.canonical(state)
        for seat in sorted(GAME.to_act(state)):
            listed = GAME.legal_actions(state, seat)
            for _ in range(10):
                candidate = perturb(rand.choice(listed), rand)
                event = {**candidate, "seat": seat}
                try:
                    GAME.apply(state, event, None)
                    accepted = True
                except IllegalAction:
                    accepted = False
                assert accepted == (candidate in listed), (state["await"], candidate)
                checked += 1
        assert harness.canonical(state) == before, "an accepted or refused event changed its input"
        for seat in set(range(seats)) - GAME.to_act(state):
            if state["phase"] != "finished":
                harness.assert_refused(GAME, state, {"type": "pass", "seat": seat, "payload": {}}, "not_your_turn")
    assert checked > 200
