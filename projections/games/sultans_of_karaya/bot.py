"""A random bot that also uses the standing interrupts: the face-down Sultan's royal claim,
and, under the option ``slave_call_any_time`` (G2 variant), a face-down Slave's revolt
called out of turn.

The platform's uniform bot only moves seats in ``to_act``; an interrupt is never awaited,
so this one lets any seat post one now and then, always through that seat's own
``legal_actions``.
"""

from __future__ import annotations

import random

from projections.games.base import Action, Game, State

CLAIM_CHANCE = 0.02


def interrupts(game: Game, state: State, seat: int, asked: list[int]) -> list[Action]:
    """The interrupts ``seat`` may post now: a claim, or a revolt called while not awaited."""
    return [
        a
        for a in game.legal_actions(state, seat)
        if a["type"] == "royal_claim" or (a["type"] == "call_revolt" and seat not in asked)
    ]


def choose(game: Game, state: State, rand: random.Random) -> tuple[int, Action] | None:
    """(seat, action) for one random legal move, or None once the game is over."""
    asked = sorted(game.to_act(state))
    if not asked:
        return None
    if rand.random() < CLAIM_CHANCE:
        offers = [(seat, action) for seat in range(state["seats"]) for action in interrupts(game, state, seat, asked)]
        if offers:
            return offers[0] if len(offers) == 1 else rand.choice(offers)
    seat = rand.choice(asked)
    return seat, rand.choice(game.legal_actions(state, seat))
