"""Complete random games through the shared harness, invariants after every event."""
from __future__ import annotations

import pytest

from projections.games.carcassonne_castle import GAME
from tests.games import harness

from .invariants import Invariants

VARIANTS = [
    {"first_player": "random"},
    {"unplaceable_tile": "confirm"},
    {"unfinished_needs_majority": False},
]


@pytest.mark.parametrize("seed", range(50))
def test_random_two_player_game(seed):
    check = Invariants()
    out = harness.play(GAME, 2, f"random-{seed}", check=check)
    assert out.result is not None and len(out.final["board"]) + len(out.final["removed"]) == 60


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("seed", range(4))
def test_random_game_with_variant(seed, options):
    out = harness.play(GAME, 2, f"variant-{seed}", options=options, check=Invariants(), check_views=False)
    assert out.result is not None
