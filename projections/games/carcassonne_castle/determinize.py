"""Re-dealing what a seat cannot see, for search bots: the draw pile's order, and which
wall tiles lie face down on the frame or set aside. Both are hidden from every seat
alike, so the re-deal starts from a sorted pool and ignores the true order."""

from __future__ import annotations

import json
from typing import Any

from projections.games.base import State


def deal(state: State, seat: int, rand: Any) -> State:
    """``rand`` is a ``random.Random`` (typed as ``Game.determinize`` types it: a rules
    module may not import ``random``)."""
    out: State = json.loads(json.dumps(state))
    out["pile"] = rand.sample(sorted(out["pile"]), len(out["pile"]))
    if out["phase"] != "over":
        corners = [c for c, kind in sorted(out["frame"].items()) if kind is not None]
        kinds = sorted([out["frame"][c] for c in corners] + out["set_aside"])
        rand.shuffle(kinds)
        for corner, kind in zip(corners, kinds):
            out["frame"][corner] = kind
        out["set_aside"] = sorted(kinds[len(corners) :])
    return out
