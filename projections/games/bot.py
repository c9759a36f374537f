"""A random bot that plays through the same door as people: ``legal_actions``.

Bots live outside the rules (they use Python's ``random``); a game may ship a
``bot.py`` of its own with a ``choose`` that weights the options, but a uniform
choice over ``legal_actions`` must always finish a game.
"""

from __future__ import annotations

import random

from .base import Action, Game, State


def choose(game: Game, state: State, rand: random.Random) -> tuple[int | None, Action] | None:
    """(seat, action) for one random legal move, or None when the game is over.

    Seats in ``to_act`` are tried in random order; a seat with nothing to post is
    skipped. Returns ``(None, action)`` when the system actor must move.
    """
    auto = game.automatic(state)
    if auto is not None:
        return None, auto
    seats = sorted(game.to_act(state))
    rand.shuffle(seats)
    for seat in seats:
        actions = game.legal_actions(state, seat)
        if actions:
            return seat, rand.choice(actions)
    return None
