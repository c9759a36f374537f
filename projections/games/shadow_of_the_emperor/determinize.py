"""Re-dealing what a seat cannot see, for search bots: the other seats' victory points
and the votes they have committed but not yet shown.

A seat's view shows no other seat's points, so the bot supposes each is level with its
own (its best public guess, and the same whatever the true totals are); a hidden vote
is drawn at random."""

from __future__ import annotations

from typing import Any

from projections.games.base import State

from .state import copy

SIDES = ("emperor", "rival")


def deal(state: State, seat: int, rand: Any) -> State:
    """``rand`` is the search bot's ``random.Random`` (``Game.determinize``): a rules module
    never imports ``random``, so it is typed as the base class types it."""
    out = copy(state)
    own = state["players"][seat]["vp"]
    out["players"] = [p if i == seat else {**p, "vp": own} for i, p in enumerate(out["players"])]
    out["votes"] = {s: (v if int(s) == seat else rand.choice(SIDES)) for s, v in sorted(state["votes"].items())}
    return out
