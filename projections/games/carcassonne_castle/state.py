"""The initial state and the small helpers every rules module shares.

The state is a plain JSON dict. Hidden parts: ``pile`` (the shuffled draw order),
``frame`` (which wall tile lies face down on each corner tower) and ``set_aside``
(the five wall tiles out of the game unseen). Everything else is public.
"""

from __future__ import annotations

import json
from typing import Any

from projections.games.base import Options, Rng, State

from .components import ALL_CASTLE_TILES, ALL_WALL_TILES, POINTS, WALL_TILE_CORNERS


def initial_state(options: Options, seats: int, rng: Rng) -> State:
    walls = rng.shuffle(ALL_WALL_TILES)
    on_frame = len(WALL_TILE_CORNERS)
    pile = rng.shuffle(ALL_CASTLE_TILES)
    first = rng.randbelow(seats) if options.get("first_player") == "random" else 0
    return {
        "seats": seats,
        "options": dict(options),
        "phase": "place",
        "active": first,
        "turn": 1,
        "pile": pile,
        "tile": None,
        "removed": [],
        "board": {},
        "placed": [],
        "followers": [],
        "supply": [POINTS["followers_in_supply"]] * seats,
        "score": [0] * seats,
        "keep": [None] * seats,
        "frame": dict(zip(WALL_TILE_CORNERS, walls[:on_frame])),
        "set_aside": sorted(walls[on_frame:]),
        "held": [[] for _ in range(seats)],
        "pending": [],
        "confirmed": [],
        "final_todo": [[] for _ in range(seats)],
        "final_choices": [[] for _ in range(seats)],
        "breakdown": None,
        "result": None,
        "recent": [],
    }


def copy(state: State) -> State:
    """A deep copy to build the next state in (the state is small: one copy per event)."""
    new: State = json.loads(json.dumps(state))
    return new


def eligible_wall_tiles(state: State, seat: int, kind: int) -> list[dict[str, Any]]:
    """Held, unused tiles of ``kind`` taken in an earlier turn than this one (digest 7.6)."""
    return [t for t in state["held"][seat] if t["kind"] == kind and not t["used"] and t["turn"] < state["turn"]]


def fresh_wall_tiles(state: State, seat: int, kind: int) -> list[dict[str, Any]]:
    """Held, unused tiles of ``kind`` taken in this very turn: they must wait."""
    return [t for t in state["held"][seat] if t["kind"] == kind and not t["used"] and t["turn"] >= state["turn"]]


def note(state: State, what: str, **facts: Any) -> None:
    """Record what an event caused, for the view's "recent" list and the log renderer."""
    state["recent"].append({"what": what, **facts})
