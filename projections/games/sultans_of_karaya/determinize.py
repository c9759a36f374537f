"""Re-dealing what a seat cannot see, for search bots: the cards of the hidden seats it
holds no note on, and the spare card, shuffled among those places; the drawn neutrals
possibly traded for set-aside ones (nobody knows which neutrals were drawn). The round's
public composition is kept, and the re-deal starts from a sorted pool, so it depends on
what the seat knows only."""

from __future__ import annotations

import json
from typing import Any, Protocol

from projections.games.base import State

from .components import NEUTRAL_POOL
from .state import Location

NEUTRAL = "\u0000neutral"


class Shuffler(Protocol):
    """The search bot's own generator (a ``random.Random``): only its shuffle is used."""

    def shuffle(self, x: list[Any]) -> None: ...


def unseen(state: State, seat: int) -> list[Location]:
    """Where ``seat`` cannot know the card: hidden living seats it holds no note on, and the spare."""
    rd = state["round_state"]
    notes = rd["known"][seat]
    spots: list[Location] = [
        s
        for s in range(state["seats"])
        if rd["alive"][s] and not rd["revealed"][s] and s != seat and str(s) not in notes
    ]
    if "spare" not in notes:
        spots.append("spare")
    return spots


def deal(state: State, seat: int, rand: Shuffler) -> State:
    out: State = json.loads(json.dumps(state))
    rd = out.get("round_state")
    if not rd or "cards" not in rd:
        return out
    spots = unseen(out, seat)
    cards = [rd["spare"] if s == "spare" else rd["cards"][s] for s in spots]
    # Which neutrals were drawn is unknown to everyone: only how many lie among these places.
    pool = sorted(NEUTRAL if c in NEUTRAL_POOL else c for c in cards)
    rand.shuffle(pool)
    neutrals = sorted([c for c in cards if c in NEUTRAL_POOL] + rd["set_aside"])
    rand.shuffle(neutrals)
    drawn = iter(neutrals)
    pool = [next(drawn) if c == NEUTRAL else c for c in pool]
    rd["set_aside"] = sorted(drawn)
    for spot, card in zip(spots, pool):
        if spot == "spare":
            rd["spare"] = card
        else:
            rd["cards"][spot] = card
    return out
