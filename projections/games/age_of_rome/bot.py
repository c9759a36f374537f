"""A keener random bot: it plays through ``legal_actions`` like a person, but plays its
cards when a trigger comes, uses its bonus tokens and rarely wastes a turn on free actions.
"""
from __future__ import annotations

import random

from projections.games.base import Game

FREE = {"sell_card", "discard_card", "form_set", "exchange"}


def weight(action: dict, offered: list[dict]) -> float:
    kind, payload = action["type"], action["payload"]
    if kind == "form_set":
        return 5.0  # sets are glory at the end
    if kind in FREE:
        waiting_to_draw = any(a["type"] == "forfeit_draw" for a in offered)
        return 2.0 if waiting_to_draw else 0.05
    if kind == "play_card":
        return 4.0
    if kind in ("pass", "end_build_turn", "end_plot_turn", "forfeit_draw"):
        return 0.5
    if kind == "place_follower" and payload.get("use_token"):
        return 3.0
    return 1.0


def choose(game: Game, state: dict, rand: random.Random):
    """(seat, action) for one move, ``(None, action)`` for the system actor, None at the end."""
    auto = game.automatic(state)
    if auto is not None:
        return None, auto
    seats = sorted(game.to_act(state))
    if not seats:
        return None
    seat = rand.choice(seats)
    offered = game.legal_actions(state, seat)
    return seat, rand.choices(offered, weights=[weight(a, offered) for a in offered])[0]
