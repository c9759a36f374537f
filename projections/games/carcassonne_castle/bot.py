"""A bot a little keener than uniform: it places followers on paths, towers and houses
(which come back when scored), keeps merchants for later, and uses wall tiles when it
may, and prefers snug cells, where features close. It still chooses only among ``legal_actions``."""

from __future__ import annotations

import random

from projections.games.base import Action, Game, State

from .components import TILE_TYPES
from .placement import side_neighbour


def weight(action: Action, state: State) -> float:
    kind, payload = action["type"], action["payload"]
    if kind == "place_tile":
        return 4.0 ** _closed_sides(state, payload["x"], payload["y"])
    if kind == "place_follower":
        return 0.5 if _is_court(state, payload["feature"]) else 4.0
    if kind == "score_feature" and payload.get("use_wall_tile"):
        return 3.0
    if kind == "use_extra_turn":
        return 3.0
    if kind == "final_target" and payload["target"] is None:
        return 0.2
    return 1.0


def _closed_sides(state: State, x: int, y: int) -> int:
    """Sides of the cell that face no empty cell: filling snug gaps completes features."""
    return sum(1 for side in range(4) if side_neighbour(state["board"], x, y, side)[0] != "empty")


def _is_court(state: State, feature: int) -> bool:
    x, y = state["placed"][-1]
    kind: str = TILE_TYPES[state["board"][f"{x},{y}"][0]]["features"][feature]["type"]
    return kind == "court"


def choose(game: Game, state: State, rand: random.Random) -> tuple[int, Action] | None:
    """(seat, action) or None when the game is over."""
    seats = sorted(game.to_act(state))
    if not seats:
        return None
    seat = rand.choice(seats)
    actions = game.legal_actions(state, seat)
    return seat, rand.choices(actions, weights=[weight(a, state) for a in actions])[0]
