"""A random bot that also uses the standing interrupt: the face-down Sultan's royal claim.

The platform's uniform bot only moves seats in ``to_act``; a claim is never awaited, so
this one lets any seat post it now and then, always through that seat's own
``legal_actions``.
"""
from __future__ import annotations

import random

CLAIM_CHANCE = 0.02


def choose(game, state: dict, rand: random.Random):
    """(seat, action) for one random legal move, or None once the game is over."""
    asked = sorted(game.to_act(state))
    if not asked:
        return None
    if rand.random() < CLAIM_CHANCE:
        for seat in range(state["seats"]):
            claims = [a for a in game.legal_actions(state, seat) if a["type"] == "royal_claim"]
            if claims:
                return seat, claims[0]
    seat = rand.choice(asked)
    return seat, rand.choice(game.legal_actions(state, seat))
