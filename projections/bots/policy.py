"""What a search bot knows of a game beyond its rules: a prior over the legal moves.

The prior is the game's own weighted bot (``projections/games/<name>/bot.py``'s
``weight``) where it has one; elsewhere each action *type* gets an equal share, split
among the actions of that type (one pass is not outweighed by forty placements) in
playouts, and all are equal in the tree. The search uses it twice: rollouts draw their
moves from it instead of uniformly, and the tree's selection (PUCT) tries the moves it
favours first, so a node with many legal moves is not spread over all of them at a few
dozen iterations.

It is computed only in the determinized worlds the search plays, so it sees what they
contain and nothing of the true hidden state."""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable
from functools import cache

from projections.games.base import Action, Game, State

Weight = Callable[[Action, State, list[Action]], float]


@cache
def game_weight(name: str) -> Weight | None:
    """The game's ``bot.weight`` as ``(action, state, offered) -> weight``, or None."""
    try:
        module = importlib.import_module(f"projections.games.{name}.bot")
    except ImportError:
        return None
    weight = getattr(module, "weight", None)
    if weight is None:
        return None
    if name == "carcassonne_castle":
        return lambda action, state, offered: float(weight(action, state))
    if name == "age_of_rome":
        return lambda action, state, offered: float(weight(action, offered))
    return lambda action, state, offered: float(weight(action))


def weights(game: Game, state: State, actions: list[Action], tree: bool = False) -> list[float]:
    """A positive weight per action of ``actions`` (all legal in ``state``): the game's
    own weights where it has them; else, for playouts, an equal share per action type,
    and for the tree, equal weights (a type-balanced prior makes the tree favour a lone
    move such as passing, which a playout tells too little about to correct)."""
    weight = game_weight(game.name)
    if weight is not None:
        return [max(weight(a, state, actions), 1e-6) for a in actions]
    if tree:
        return [1.0] * len(actions)
    kinds = Counter(a["type"] for a in actions)
    return [1.0 / kinds[a["type"]] for a in actions]
