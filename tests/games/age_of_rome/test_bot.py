"""The package's own bot finishes games at every player count through ``legal_actions``."""
from __future__ import annotations

import random

import pytest

from events.rng import SeededRng
from projections.games.age_of_rome import GAME
from projections.games.age_of_rome.bot import choose
from tests.games.harness import start


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
def test_bot_finishes_a_game(seats):
    state, rng, _ = start(GAME, seats, f"bot-{seats}")
    counter, rand = rng.counter, random.Random(seats)
    for _ in range(5000):
        if GAME.result(state) is not None:
            break
        seat, action = choose(GAME, state, rand)
        rng = SeededRng(f"bot-{seats}", counter)
        state = GAME.apply(state, {"type": action["type"], "seat": seat, "payload": action["payload"]}, rng)
        counter = rng.counter
    result = GAME.result(state)
    assert result is not None and len(result["scores"]) == seats
