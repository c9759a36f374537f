"""The search bot cannot cheat: its move is the same for two states that differ only in
what is hidden from its seat, and the same inputs always give the same move.

The hidden changes are the ones each game's own view properties use (other hands,
missions, deck orders, votes, unseen role cards, the tile pile); the test first checks
that the seat's view really is unchanged, then that the bot's choice is."""

from __future__ import annotations

import json
import random

import pytest

from projections.bots.search import Budget, choose
from projections.games import get
from tests.games import harness
from tests.games.age_of_rome.test_properties import _hide_from as hide_age_of_rome
from tests.games.carcassonne_castle.test_properties import hide_differently as hide_castle
from tests.games.shadow_of_the_emperor.test_properties import hide_from as hide_shadow
from tests.games.sultans_of_karaya.test_properties import permute_unseen as hide_karaya

BUDGET = Budget(iterations=16, rollout_depth=8)

HIDE = {
    "carcassonne_castle": (2, lambda state, seat, i: hide_castle(state, random.Random(i))),
    "shadow_of_the_emperor": (3, lambda state, seat, i: hide_shadow(state, seat, i)),
    "sultans_of_karaya": (6, lambda state, seat, i: hide_karaya(state, seat, random.Random(i))),
    "age_of_rome": (3, lambda state, seat, i: hide_age_of_rome(state, seat, 1 + i)),
}


def decision_points(name: str, seats: int, seed: str, wanted: int) -> list[tuple[dict, int]]:
    """States from a random game where some seat must choose among two or more moves."""
    game = get(name)
    out = harness.play(game, seats, seed, keep_states=True, check_views=False, check_schemas=False)
    points = []
    for state in out.states[1::7]:
        if game.result(state) is not None or game.automatic(state) is not None:
            continue
        for seat in sorted(game.to_act(state)):
            if len(game.legal_actions(state, seat)) >= 2:
                points.append((state, seat))
                break
    rand = random.Random(seed)
    return rand.sample(points, min(wanted, len(points)))


def canonical(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


@pytest.mark.parametrize("name", sorted(HIDE))
def test_the_bot_chooses_the_same_whatever_is_hidden_from_it(name):
    game = get(name)
    seats, hide = HIDE[name]
    points = [p for game in range(2) for p in decision_points(name, seats, f"cheat-{name}-{game}", wanted=8)]
    assert points
    changed = 0
    for i, (state, seat) in enumerate(points):
        other = hide(state, seat, i)
        changed += canonical(other) != canonical(state)
        assert canonical(game.view(other, seat)) == canonical(game.view(state, seat))
        mine = choose(game, state, seat, seats, BUDGET, seed=f"m{i}")
        assert choose(game, other, seat, seats, BUDGET, seed=f"m{i}") == mine
    assert changed, "no hidden change was tried"


@pytest.mark.parametrize("name", ["caylus", *sorted(HIDE)])
def test_the_same_state_and_seed_give_the_same_move(name):
    game = get(name)
    seats = HIDE.get(name, (3,))[0]
    state, seat = decision_points(name, seats, f"same-{name}", wanted=1)[0]
    first = choose(game, state, seat, seats, BUDGET, seed="x")
    assert first in game.legal_actions(state, seat)
    assert choose(game, json.loads(canonical(state)), seat, seats, BUDGET, seed="x") == first


def test_a_determinization_keeps_the_seats_view():
    """Every world the bot searches looks, from its seat, like the real one."""
    for name, (seats, _) in sorted(HIDE.items()):
        game = get(name)
        for state, seat in decision_points(name, seats, f"view-{name}", wanted=3):
            world = game.determinize(state, seat, random.Random(1))
            assert canonical(game.view(world, seat)) == canonical(game.view(state, seat)), name


@pytest.mark.parametrize("name", sorted(HIDE))
def test_a_determinization_depends_on_the_seats_information_only(name):
    """Stronger than equal moves: the worlds searched are the same worlds, byte for byte."""
    game = get(name)
    seats, hide = HIDE[name]
    for game_no in range(3):
        for i, (state, seat) in enumerate(decision_points(name, seats, f"worlds-{name}-{game_no}", wanted=10)):
            other = hide(state, seat, i)
            for draw in range(3):
                assert canonical(game.determinize(state, seat, random.Random(draw))) == canonical(
                    game.determinize(other, seat, random.Random(draw))
                ), (name, i)
