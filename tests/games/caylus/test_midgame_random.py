"""Random games from a prepared middle game: the rules that uniform or weighted play from
the setup almost never reaches (the Lawyer's conversions, the Architects' prestige
buildings, favour columns 4 and 5, castle overflow) played to the end under the
invariants, with ``apply`` checked for never mutating its input after every event.

The position: turn 1, the Lawyer, two Architects, the Mason and the Bank already built
(spaces 9-13, owners spread over the seats), every player rich in cubes and deniers.
"""

import random
from collections import Counter

import pytest

from projections.games.caylus import GAME
from projections.games.caylus.bot import choose
from tests.games import harness

from .helpers import give, own, position
from .invariants import check_state

BUILT = [(9, "w_lawyer"), (10, "s_architect_1"), (11, "w_mason"), (12, "s_architect_2"), (13, "s_bank")]


def midgame(seats: int) -> dict:
    state = position(seats)
    for index, (number, building) in enumerate(BUILT):
        own(state, number, building, index % seats)
    for seat in range(seats):
        give(state, seat, food=6, wood=6, stone=8, cloth=6, gold=4, deniers=25)
    return state


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_random_games_from_a_prepared_middle_game(seats):
    played = Counter()
    for index in range(2):
        state = midgame(seats)
        check_state(state)
        rand = random.Random(f"midgame-{seats}-{index}")
        while GAME.result(state) is None:
            seat, action = choose(GAME, state, rand)
            played[action["type"]] += 1
            if action["type"] == "choose_favour" and action["payload"]["column"] >= 4:
                played["high_column"] += 1
            event = {"type": action["type"], "seat": seat, "payload": action["payload"]}
            state, _ = harness.step(GAME, state, event, 0, "midgame")  # asserts apply left its input alone
            check_state(state)
        harness.validate_result(state["result"], seats)
        assert state["sections_scored"] == 3
        assert state["result"]["scores"] == [p["pp"] for p in state["players"]]
    assert played["convert"] and played["build_prestige"] and played["high_column"], played
