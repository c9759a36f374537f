"""A keener random bot: it plays through ``legal_actions`` like a person, but plays its
cards when a trigger comes, uses its bonus tokens and rarely wastes a turn on free actions.
It also posts the standing interrupt (the religious medal's exchange) out of turn now and then.
"""

from __future__ import annotations

import random

from projections.games.base import Action, Game, State

FREE = {"sell_card", "discard_card", "form_set", "exchange"}
# rules version 3: a building's action may be declined; a vote, a card or a Pantheon piece is
# nearly always worth having, so the bot declines rarely (and a legion move now and then)
DECLINES = {"decline_legion_move", "decline_vote", "decline_pantheon_piece"}
INTERRUPT_CHANCE = 0.1


def weight(action: Action, offered: list[Action]) -> float:
    kind, payload = action["type"], action["payload"]
    types = {a["type"] for a in offered}
    if kind == "form_set":
        return 5.0  # sets are glory at the end
    if kind in FREE:
        waiting_to_draw = "forfeit_draw" in types and "draw_card" not in types  # a full hand
        return 2.0 if waiting_to_draw else 0.05
    if kind == "play_card":
        return 4.0
    if kind in DECLINES or (kind == "forfeit_draw" and "draw_card" in types):
        return 0.1
    if kind in ("pass", "end_build_turn", "end_plot_turn", "forfeit_draw"):
        return 0.5
    if kind == "place_follower" and payload.get("use_token"):
        return 3.0
    return 1.0


def interrupts(game: Game, state: State, asked: list[int]) -> list[tuple[int, Action]]:
    """What seats not asked now may post anyway: the standing interrupts (rules version 2:
    the religious medal's exchange at any time)."""
    return [
        (seat, action)
        for seat in range(state["seats"])
        if seat not in asked
        for action in game.legal_actions(state, seat)
    ]


def choose(game: Game, state: State, rand: random.Random) -> tuple[int | None, Action] | None:
    """(seat, action) for one move, ``(None, action)`` for the system actor, None at the end.
    Now and then a seat that is not asked posts a standing interrupt."""
    auto = game.automatic(state)
    if auto is not None:
        return None, auto
    seats = sorted(game.to_act(state))
    if not seats:
        return None
    offers = interrupts(game, state, seats)
    if offers and rand.random() < INTERRUPT_CHANCE:
        return rand.choice(offers)
    seat = rand.choice(seats)
    offered = game.legal_actions(state, seat)
    return seat, rand.choices(offered, weights=[weight(a, offered) for a in offered])[0]
