"""The initial state: board for the player count, card stacks, supplies, setup queue."""
from __future__ import annotations

import json

from .components import (
    CARDS, ELECTORATE_ORDER, ELECTORATES, EMPIRE_CITIES, PIECES, STARTING_THALERS, stack_sizes,
)

SETUP_PIECES = ["couple35", "baron25", "couple15", "knight"]


def clone(state: dict) -> dict:
    """A deep copy; the state is small plain JSON, so a JSON round trip is the fastest copy."""
    return json.loads(json.dumps(state))


def clockwise(state: dict, start: int) -> list[int]:
    n = state["seats"]
    return [(start + i) % n for i in range(n)]


def removed_electorates(seats: int, rng) -> list[str]:
    """2 players: a Doctor card drawn at random removes the archdiocese on its back, a
    Permit card the secular electorate on its back; both cards then go back."""
    if seats != 2:
        return []
    return [rng.choice(CARDS["doctor"]["backs"]), rng.choice(CARDS["permit"]["backs"])]


def initial_state(options: dict, seats: int, rng) -> dict:
    first = options.get("first_emperor")
    emperor = rng.randbelow(seats) if first is None else first
    removed = removed_electorates(seats, rng)
    electorates = {
        e: {
            "in_play": e not in removed,
            "elector": None,
            "used": False,
            "nobles": [None] * ELECTORATES[e]["aristocrat_spaces"],
            "cities": [None] * ELECTORATES[e]["city_spaces"],
            "castles": [None] * ELECTORATES[e]["castle_spaces"],
        }
        for e in ELECTORATE_ORDER
    }
    players = [
        {
            "thalers": STARTING_THALERS, "chip": STARTING_THALERS, "vp": 0,
            "nobles": PIECES["nobles"], "knights": PIECES["knights"], "cities": PIECES["cities"],
            "display": [], "passed": False,
        }
        for _ in range(seats)
    ]
    state = {
        "seats": seats,
        "options": dict(options),
        "round": 1,
        "phase": "setup",
        "emperor": emperor,
        "throne": None,
        "electorates": electorates,
        "removed": removed,
        "players": players,
        "stacks": stack_sizes(seats),
        "empire_in_box": EMPIRE_CITIES,
        "gray_eminences": [],
        "targets": {"church_influence": None, "excommunication": None},
        "votes": {},
        "election": None,
        "active": None,
        "queue": [],
        "cursor": 0,
        "sub": None,
        "limbo": None,
        "await": None,
    }
    order = clockwise(state, emperor)
    queue = [["empire_city", emperor], ["throne", emperor]]
    queue += [["elector", seat] for seat in order[1:]]
    for piece in SETUP_PIECES:
        queue += [[piece, seat] for seat in order]
    state["queue"] = queue
    return state
