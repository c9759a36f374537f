"""The initial state: board for the player count, card stacks, supplies, setup queue."""

from __future__ import annotations

from projections.games.base import Options, Rng, State

from .components import (
    CARDS,
    ELECTORATE_ORDER,
    ELECTORATES,
    EMPIRE_CITIES,
    PIECES,
    STARTING_THALERS,
    stack_sizes,
)

SETUP_PIECES = ["couple35", "baron25", "couple15", "knight"]


def copy(state: State) -> State:
    """A copy safe to change: every container the rules mutate is copied, while the
    piece dicts (nobles, knights) and finished records are shared -- the rules always
    replace those, never change them in place (the harness checks apply never mutates)."""
    new = dict(state)
    new["electorates"] = {
        eid: {**area, "nobles": list(area["nobles"]), "cities": list(area["cities"]), "castles": list(area["castles"])}
        for eid, area in state["electorates"].items()
    }
    new["players"] = [{**player, "display": list(player["display"])} for player in state["players"]]
    new["stacks"] = dict(state["stacks"])
    new["targets"] = dict(state["targets"])
    new["votes"] = dict(state["votes"])
    new["queue"] = list(state["queue"])
    new["gray_eminences"] = list(state["gray_eminences"])
    if state["sub"] is not None:
        new["sub"] = dict(state["sub"])
    return new


def clockwise(state: State, start: int) -> list[int]:
    n = state["seats"]
    return [(start + i) % n for i in range(n)]


def removed_electorates(seats: int, rng: Rng) -> list[str]:
    """2 players: a Doctor card drawn at random removes the archdiocese on its back, a
    Permit card the secular electorate on its back; both cards then go back."""
    if seats != 2:
        return []
    return [rng.choice(CARDS["doctor"]["backs"]), rng.choice(CARDS["permit"]["backs"])]


def initial_state(options: Options, seats: int, rng: Rng) -> State:
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
            "thalers": STARTING_THALERS,
            "chip": STARTING_THALERS,
            "vp": 0,
            "nobles": PIECES["nobles"],
            "knights": PIECES["knights"],
            "cities": PIECES["cities"],
            "display": [],
            "passed": False,
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
