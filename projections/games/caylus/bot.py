"""A bot that plays Caylus a little less aimlessly than a uniform choice.

It weights what ``legal_actions`` offers (placing over passing, building over
declining, batches over leaving the castle, favours in high columns), so test games
reach the later parts of the game: castle overflow, high favour columns, prestige
buildings. Bots are players, not rules: this module may use ``random``.
"""

from __future__ import annotations

import random

from ..base import Action, Game, State

WEIGHTS: dict[str, float] = {
    "place_worker": 6,
    "pass": 1,
    "build": 8,
    "convert": 4,
    "build_prestige": 12,
    "trade": 4,
    "decline": 1,
    "give_batch": 8,
    "castle_done": 1,
    "gate_move": 3,
    "gate_recall": 1,
}


def weight(action: Action) -> float:
    base = WEIGHTS.get(action["type"], 1)
    if action["type"] == "choose_favour":
        base = 1 + action["payload"]["column"] ** 2
    if action["type"] == "move_provost":
        base = 3 if action["payload"]["delta"] == 0 else 1
    return base


def choose(game: Game, state: State, rand: random.Random) -> tuple[int, Action] | None:
    """(seat, action) weighted over the legal actions, or None once the game is over."""
    seats = sorted(game.to_act(state))
    if not seats:
        return None
    seat = seats[0]
    actions = game.legal_actions(state, seat)
    return seat, rand.choices(actions, weights=[weight(a) for a in actions])[0]
