"""Complete random games through the shared harness, invariants after every event."""

from __future__ import annotations

import pytest

from projections.games.carcassonne_castle import GAME
from tests.games import harness

from .invariants import Invariants

VARIANTS = [
    {"first_player": "random"},
    {"unplaceable_tile": "auto"},
    {"unfinished_needs_majority": True},  # the majority reading (the default before the seed's)
]


@pytest.mark.parametrize("seed", range(50))
def test_random_two_player_game(seed):
    # Default options: unplaceable_tile="confirm", so every removal took both seats' agreement.
    check = Invariants()
    out = harness.play(GAME, 2, f"random-{seed}", check=check)
    assert out.options["unplaceable_tile"] == "confirm"
    assert out.result is not None and len(out.final["board"]) + len(out.final["removed"]) == 60
    agreed = [event["seat"] for event, _ in out.log if event["type"] == "confirm_remove_tile"]
    assert len(agreed) == 2 * len(out.final["removed"]) and agreed.count(0) == agreed.count(1)


@pytest.mark.parametrize("seed", range(10))
def test_random_two_player_game_with_automatic_removal(seed):
    out = harness.play(GAME, 2, f"random-{seed}", options={"unplaceable_tile": "auto"}, check=Invariants())
    assert out.result is not None and len(out.final["board"]) + len(out.final["removed"]) == 60
    assert not any(event["type"] == "confirm_remove_tile" for event, _ in out.log)


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
@pytest.mark.parametrize("seed", range(4))
def test_random_game_with_variant(seed, options):
    out = harness.play(GAME, 2, f"variant-{seed}", options=options, check=Invariants(), check_views=False)
    assert out.result is not None
