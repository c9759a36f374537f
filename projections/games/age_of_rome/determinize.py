"""Re-dealing what a seat cannot see, for search bots: the other seats' hand cards (their
anchors are public) and secret missions, and the order of every deck. Each pool is
sorted before it is shuffled, so the re-deal depends on what the seat knows only."""

from __future__ import annotations

import json
from typing import Protocol

from projections.games.base import State


class Shuffles(Protocol):
    """What the re-deal needs of the search bot's ``random.Random`` (a rules module may not
    import ``random`` itself)."""

    def shuffle(self, x: list[str]) -> None: ...


def _redeal(rand: Shuffles, holders: list[list[str]], deck: list[str]) -> list[str]:
    """Shuffle the cards in ``holders`` (lists changed in place) and ``deck`` together,
    keeping how many each holder has; returns the new deck."""
    pool = sorted([c for h in holders for c in h] + deck)
    rand.shuffle(pool)
    for h in holders:
        h[:] = [pool.pop() for _ in h]
    return pool


def deal(state: State, seat: int, rand: Shuffles) -> State:
    out: State = json.loads(json.dumps(state))
    others = [p for i, p in enumerate(out["players"]) if i != seat]
    hidden = [[c for c in p["hand"] if c[0] != "A"] for p in others]
    out["commerce_deck"] = _redeal(rand, hidden, out["commerce_deck"])
    for p, cards in zip(others, hidden):
        it = iter(cards)
        p["hand"] = [c if c[0] == "A" else next(it) for c in p["hand"]]
    secret = [p["missions"] for p in others] + [p["dealt"] for p in others]
    out["mission_deck"] = _redeal(rand, secret, out["mission_deck"])
    out["event_deck"] = _redeal(rand, [], out["event_deck"])
    if out.get("rival") and out["rival"]["deck"]:
        out["rival"]["deck"] = _redeal(rand, [], out["rival"]["deck"])
    return out
