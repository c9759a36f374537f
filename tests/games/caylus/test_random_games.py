"""Complete random games through the shared harness: 50 per player count, invariants after
every event, plus games of the weighted bot that reach the later parts of the rules."""

import random

import pytest

from projections.games.caylus import GAME
from projections.games.caylus.bot import choose
from tests.games import harness

from .invariants import check_state

GAMES_PER_COUNT = 50


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
@pytest.mark.parametrize("batch", range(5))
def test_random_games_finish_with_a_valid_result(seats, batch):
    for index in range(GAMES_PER_COUNT // 5):
        game = batch * 10 + index
        options = {
            "beginner_favours": game % 7 == 3,
            "church_payment": "cloth" if game % 5 == 1 else "deniers",
            "include_jeweller": game % 3 == 2,
            "lawyer_prestige": 3 if game % 4 == 1 else 4,
            "house_limit": 20 if game % 6 == 5 else None,
            "favour_lawyer_payment": "deniers" if game % 4 == 3 else "cloth",
            "locked_favour_columns": "enter" if game % 3 == 1 else "blocked",
        }
        out = harness.play(
            GAME,
            seats,
            f"random-{seats}-{game}",
            options=options,
            check=check_state,
            check_views=index == 0,
            check_schemas=index < 2,
        )
        assert out.final["sections_scored"] == 3
        assert out.result["scores"] == [p["pp"] for p in out.final["players"]]


@pytest.mark.parametrize("seats", [2, 3])
def test_rules_version_1_games_finish(seats):
    """Games recorded under rules version 1 (the 2-player castle at 3 after a pass, rows 1-2 of
    the favour table at their highest column only) still play out."""
    for index in range(5):
        out = harness.play(
            GAME,
            seats,
            f"random-v1-{seats}-{index}",
            options={"rules_version": 1},
            check=check_state,
            check_views=index == 0,
            check_schemas=index == 0,
        )
        assert out.final["sections_scored"] == 3 and GAME.version(out.final) == 1


def bot_game(seats: int, seed: str, options: dict | None = None):
    state, rng, opts = harness.start(GAME, seats, seed, options)
    counter = rng.counter
    log = []
    rand = random.Random(seed)
    while GAME.result(state) is None:
        seat, action = choose(GAME, state, rand)
        event = {"type": action["type"], "seat": seat, "payload": action["payload"]}
        log.append((event, counter))
        state, counter = harness.step(GAME, state, event, counter, seed)
        check_state(state)
    return state, harness.Playout(seed=seed, seats=seats, options=opts, log=log, final=state)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_weighted_bot_games_refold_to_the_same_state(seats):
    for index in range(3):
        state, playout = bot_game(seats, f"bot-{seats}-{index}")
        harness.validate_result(state["result"], seats)
        assert harness.canonical(harness.refold(GAME, playout)) == harness.canonical(state)
