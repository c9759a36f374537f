"""A random bot that first picks an action *type*, then one action of that type.

A uniform choice over ``legal_actions`` works too (projections/games/bot.py), but a
phase-IV turn offers dozens of knight placements for one pass; choosing the type first
keeps random games closer to how people play. Bots are players, so ``random`` is fine here.
"""

from __future__ import annotations

import random

from projections.games.base import Action, Game, State


def choose(game: Game, state: State, rand: random.Random) -> tuple[int | None, Action] | None:
    seats = sorted(game.to_act(state))
    rand.shuffle(seats)
    for seat in seats:
        actions = game.legal_actions(state, seat)
        if actions:
            kind = rand.choice(sorted({a["type"] for a in actions}))
            return seat, rand.choice([a for a in actions if a["type"] == kind])
    return None
