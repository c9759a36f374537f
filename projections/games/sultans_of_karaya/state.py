"""Building states: the game record and the deal of each round (digest 4)."""

from __future__ import annotations

import json
from typing import Any

from projections.games.base import Options, Rng, State

from .components import DISTRIBUTION, NEUTRAL_POOL, fixed_deck, in_play_counts

Round = dict[str, Any]
"""One round's table, ``state["round_state"]`` (built by ``deal_round``): JSON of many shapes."""
Location = int | str
"""Where a card lies: a seat number, or ``"spare"``."""


def new_game(options: Options, seats: int, rng: Rng) -> State:
    """The game record; round 1 is dealt by the flow (it needs the start seat)."""
    first = options.get("first_player")
    if first is None:
        first = rng.randbelow(seats)
    return {
        "seats": seats,
        "options": dict(options),
        "round": 0,
        "totals": [0] * seats,
        "history": [],
        "first_player": first,
        "round_state": None,
        "finished": False,
        "result": None,
        "notes": [],
    }


def deal_round(seats: int, rng: Rng, raw_aid: bool = False) -> Round:
    """Shuffle the neutrals, draw the table's number, shuffle with the fixed cards and deal.

    Deck position i goes to seat i, the last card is the spare (reconstructed deal order).
    """
    neutrals = rng.shuffle(NEUTRAL_POOL)
    drawn = neutrals[: DISTRIBUTION[seats]["neutrals"]]
    deck = rng.shuffle(fixed_deck(seats) + drawn)
    return {
        "cards": deck[:seats],
        "spare": deck[seats],
        "set_aside": sorted(neutrals[len(drawn) :]),
        "composition": in_play_counts(seats),
        "revealed": [False] * seats,
        "alive": [True] * seats,
        "prison": [False] * seats,
        "fatigue": [False] * seats,
        "captured": [False] * seats,
        "faction": [None] * seats,
        "must_hide": [False] * seats,
        "incoming": [[] for _ in range(seats)],
        "crown": None,
        "owner": None,
        "turns": 0,
        "due": {"prison": False, "fatigue": False},
        "pending": None,
        "stack": [],
        "windows": 0,
        "known": [{} for _ in range(seats)],
        "seen": [[] for _ in range(seats)] if raw_aid else None,
    }


ROUND_LISTS = (
    "cards",
    "set_aside",
    "revealed",
    "alive",
    "prison",
    "fatigue",
    "captured",
    "faction",
    "must_hide",
    "incoming",
    "stack",
)


def copy(state: State) -> State:
    """Copy what an event may change. Rules replace nested entries (swap notes, incoming
    lists, history rows) rather than editing them, so copying the containers suffices;
    the pending step is edited in place and copied whole."""
    new = dict(state)
    new["totals"] = list(state["totals"])
    new["history"] = list(state["history"])
    rd = dict(state["round_state"])
    for key in ROUND_LISTS:
        rd[key] = list(rd[key])
    rd["known"] = [dict(notes) for notes in rd["known"]]
    if rd["seen"] is not None:
        rd["seen"] = [list(seen) for seen in rd["seen"]]
    rd["pending"] = json.loads(json.dumps(rd["pending"]))
    new["round_state"] = rd
    return new
