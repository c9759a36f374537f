"""Soak: many more random games per game and player count than `make test` plays.
Run with `make soak` (SOAK_GAMES per case, default 200)."""

from __future__ import annotations

import os

import pytest

from projections.games import registry
from tests.games import harness

GAMES = int(os.environ.get("SOAK_GAMES", "200"))
BLOCK = 20
CASES = [
    (name, seats, block)
    for name, game in registry().items()
    if name != "toy"
    for seats in range(game.min_seats, game.max_seats + 1)
    for block in range(0, GAMES, BLOCK)
]


@pytest.mark.slow
@pytest.mark.parametrize("name,seats,block", CASES, ids=[f"{n}-{s}-{b}" for n, s, b in CASES])
def test_random_games_finish_and_refold(name, seats, block):
    game = registry()[name]
    for i in range(block, min(block + BLOCK, GAMES)):
        harness.play(game, seats, f"soak-{name}-{seats}-{i}", check_views=(i % 10 == 0), check_schemas=(i % 10 == 0))
