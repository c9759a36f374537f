"""At least 50 complete random games per player count, invariants checked after every event."""

from __future__ import annotations

import pytest

from projections.games.age_of_rome import GAME
from tests.games.harness import play

from .helpers import check_invariants

VARIANTS = [
    {},
    {"plot_launch_order": "turn_order", "plot_action_target": "any_opponent"},
    {"optional_characters": True, "battle_ranking": "standard", "lure_max_legions": 1},
    {"colosseum_counts_new_follower": False, "new_follower_same_phase": False, "anchors_stealable": False},
    {"solo_difficulty": "hard"},
    {"solo_difficulty": "easy", "optional_characters": True},
]


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
@pytest.mark.parametrize("game_no", range(50))
def test_random_game_ends_with_a_valid_result(seats, game_no):
    options = VARIANTS[game_no % len(VARIANTS)]
    out = play(
        GAME,
        seats,
        f"aor-{seats}-{game_no}",
        options=options,
        check=check_invariants,
        check_views=game_no < 3,  # every view of every step is JSON (the costly check: a few games)
        check_schemas=game_no < len(VARIANTS),  # every variant once with every offer schema-checked
    )
    assert out.final["round"] == 9 and out.final["phase"] == "over"
    assert len(out.result["scores"]) == seats
    breakdown = out.result["breakdown"]
    assert [breakdown[str(s)]["total"] for s in range(seats)] == out.result["scores"]
    if seats == 1:
        assert out.result["solo"]["won"] == (out.result["scores"][0] > out.result["solo"]["rival_score"])


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_rules_version_1_games_finish(seats):
    """Games recorded under rules version 1 (the exchange only on one's own steps) still play out."""
    for game_no in range(3):
        out = play(
            GAME,
            seats,
            f"aor-v1-{seats}-{game_no}",
            options={"rules_version": 1},
            check=check_invariants,
            check_views=game_no == 0,
            check_schemas=game_no == 0,
        )
        assert out.final["phase"] == "over" and GAME.version(out.final) == 1


@pytest.mark.parametrize("seats", [1, 2, 4])
def test_rules_version_2_games_finish(seats):
    """Games recorded under rules version 2 (building actions at once, no turn after round 9)
    still play out, and end with the board as round 9 left it."""
    for game_no in range(2):
        out = play(
            GAME,
            seats,
            f"aor-v2-{seats}-{game_no}",
            options={"rules_version": 2},
            check=check_invariants,
            check_views=game_no == 0,
            check_schemas=game_no == 0,
        )
        assert out.final["phase"] == "over" and GAME.version(out.final) == 2
        posted = {event["type"] for event, _ in out.log}
        assert not posted & {"decline_legion_move", "place_vote", "decline_vote", "draw_card", "place_pantheon_piece"}
