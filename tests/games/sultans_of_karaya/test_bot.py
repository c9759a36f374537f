"""The package bot, including out-of-turn royal claims, plays games to the end."""
from __future__ import annotations

import random

import pytest

from events.rng import SeededRng
from projections.games.sultans_of_karaya import GAME
from projections.games.sultans_of_karaya.bot import choose
from tests.games.harness import load_options, validate_result

from .invariants import check_state


@pytest.mark.parametrize("seats", [5, 9, 15])
def test_bot_games_with_interrupts_finish(seats):
    rand = random.Random(seats)
    state = GAME.setup(load_options(GAME, {}), seats, SeededRng("bot", 0))
    counter, claims = 1000, 0
    while GAME.result(state) is None:
        seat, action = choose(GAME, state, rand)
        claims += action["type"] == "royal_claim" and seat not in GAME.to_act(state)
        rng = SeededRng("bot", counter)
        state = GAME.apply(state, {"type": action["type"], "seat": seat, "payload": action["payload"]}, rng)
        counter = rng.counter
        check_state(state)
    validate_result(GAME.result(state), seats)
    assert claims > 0
