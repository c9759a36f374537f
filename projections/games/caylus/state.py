"""The state of a Caylus game: its shape, the setup, and small shared helpers.

The state is one JSON-serialisable dict. ``road`` is a list of 28 spaces (index 0 is
road space 1); ``decision`` is the choice the game waits for, and ``favours`` a queue of
seats owed a royal favour, resolved before anything else goes on.
"""

from __future__ import annotations

from ..base import IllegalAction
from .components import CONST, CUBES, ROAD, ROAD_LENGTH, neutral_tiles, supply_tiles

RESOURCES = ("deniers", *CUBES)


def copy(state: dict) -> dict:
    """A deep copy of the mutable parts, written out for speed (apply copies once per event).

    ``options``, ``final`` and ``result`` are never changed in place, so they are shared.
    """
    new = dict(state)
    new["players"] = [dict(p) for p in state["players"]]
    new["road"] = [dict(sp) for sp in state["road"]]
    special = dict(state["special"])
    special["stables"] = list(special["stables"])
    new["special"] = special
    for key in ("order", "passed", "castle_workers", "castle_placed", "supply", "discarded", "favours"):
        new[key] = list(state[key])
    for key in ("favour_markers", "favour_rows_used", "castle"):
        new[key] = [list(inner) for inner in state[key]]
    for key in ("decision", "cursor"):
        if isinstance(state[key], dict):
            new[key] = dict(state[key])
    return new


def setup_state(options: dict, seats: int, rng) -> dict:
    neutrals = rng.shuffle(neutral_tiles())
    order = rng.shuffle(list(range(seats)))
    road = []
    for space in range(1, ROAD_LENGTH + 1):
        building = ROAD["fixed"].get(str(space))
        if space in ROAD["neutral_spaces"]:
            building = neutrals[ROAD["neutral_spaces"].index(space)]
        road.append({"building": building, "owner": None, "worker": None, "convert_to": None})
    players = []
    for seat in range(seats):
        position = order.index(seat)
        deniers = CONST["start_deniers_two_players"] if seats == 2 else CONST["start_deniers"][position]
        player = {r: 0 for r in RESOURCES}
        player.update(CONST["start_cubes"])
        player.update({"deniers": deniers, "pp": 0, "workers": CONST["workers"], "houses": 0})
        players.append(player)
    return {
        "seats": seats,
        "options": dict(options),
        "turn": 0,
        "phase": "setup",
        "cursor": None,
        "order": order,
        "passed": [],
        "players": players,
        "favour_markers": [[0, 0, 0, 0] for _ in range(seats)],
        "favour_rows_used": [[] for _ in range(seats)],
        "columns_open": 2,
        "sections_scored": 0,
        "castle": [[], [], []],
        "castle_workers": [],
        "castle_placed": [0] * seats,
        "road": road,
        "special": {
            "gate": None,
            "trading_post": None,
            "merchants_guild": None,
            "joust_field": None,
            "stables": [],
            "inn_left": None,
            "inn_right": None,
        },
        "supply": supply_tiles(options),
        "discarded": [],
        "provost": ROAD["start"],
        "bailiff": ROAD["start"],
        "favours": [],
        "decision": None,
        "final": None,
        "result": None,
    }


def space(state: dict, number: int) -> dict:
    return state["road"][number - 1]


def player(state: dict, seat: int) -> dict:
    return state["players"][seat]


def has(state: dict, seat: int, cost: dict) -> bool:
    p = state["players"][seat]
    return all(p[k] >= v for k, v in cost.items())


def pay(state: dict, seat: int, cost: dict) -> None:
    p = state["players"][seat]
    for k, v in cost.items():
        p[k] -= v


def gain(state: dict, seat: int, goods: dict) -> None:
    p = state["players"][seat]
    for k, v in goods.items():
        p[k] += v


def lose_pp(state: dict, seat: int, amount: int) -> None:
    """Prestige never goes below 0 (published for the castle; G6 for every loss)."""
    p = state["players"][seat]
    p["pp"] = max(0, p["pp"] - amount)


def require(condition: bool, code: str, message: str) -> None:
    if not condition:
        raise IllegalAction(code, message)


def house_available(state: dict, seat: int) -> bool:
    """Houses are unlimited unless the ``house_limit`` option is set (G1)."""
    limit = state["options"].get("house_limit")
    return limit is None or state["players"][seat]["houses"] < limit


def two_players(state: dict) -> bool:
    return state["seats"] == 2


def count_cubes(cubes: list[str]) -> dict:
    out: dict = {}
    for c in cubes:
        out[c] = out.get(c, 0) + 1
    return out
