"""The state of a Caylus game: its shape, the setup, and small shared helpers.

The state is one JSON-serialisable dict. ``road`` is a list of 28 spaces (index 0 is
road space 1); ``decision`` is the choice the game waits for, and ``favours`` a queue of
seats owed a royal favour, resolved before anything else goes on.
"""

from __future__ import annotations

from typing import Any

from ..base import IllegalAction, Options, Rng, State
from .components import CONST, CUBES, ROAD, ROAD_LENGTH, neutral_tiles, supply_tiles

RESOURCES = ("deniers", *CUBES)

Goods = dict[str, int]
"""A cost or a gain: resource (``deniers``, a cube, ``pp``) -> how many."""
Player = dict[str, int]
"""One seat's holdings: deniers, cubes, ``pp``, ``workers``, ``houses``."""
Space = dict[str, Any]
"""One road space: ``building`` (id or None), ``owner``, ``worker``, ``convert_to`` (seat or None)."""
Payload = dict[str, Any]
"""An action's payload, as posted (checked before it is trusted)."""
Decision = dict[str, Any]
"""What the game waits for: ``{"kind", "seat", ...context}``."""


def copy(state: State) -> State:
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


def setup_state(options: Options, seats: int, rng: Rng) -> State:
    neutrals = rng.shuffle(neutral_tiles())
    order = rng.shuffle(list(range(seats)))
    road: list[Space] = []
    for space in range(1, ROAD_LENGTH + 1):
        building = ROAD["fixed"].get(str(space))
        if space in ROAD["neutral_spaces"]:
            building = neutrals[ROAD["neutral_spaces"].index(space)]
        road.append({"building": building, "owner": None, "worker": None, "convert_to": None})
    players: list[Player] = []
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


def space(state: State, number: int) -> Space:
    sp: Space = state["road"][number - 1]
    return sp


def player(state: State, seat: int) -> Player:
    p: Player = state["players"][seat]
    return p


def has(state: State, seat: int, cost: Goods) -> bool:
    p: Player = state["players"][seat]
    return all(p[k] >= v for k, v in cost.items())


def pay(state: State, seat: int, cost: Goods) -> None:
    p: Player = state["players"][seat]
    for k, v in cost.items():
        p[k] -= v


def gain(state: State, seat: int, goods: Goods) -> None:
    p: Player = state["players"][seat]
    for k, v in goods.items():
        p[k] += v


def lose_pp(state: State, seat: int, amount: int) -> None:
    """Prestige never goes below 0 (published for the castle; G6 for every loss)."""
    p: Player = state["players"][seat]
    p["pp"] = max(0, p["pp"] - amount)


def require(condition: bool, code: str, message: str) -> None:
    if not condition:
        raise IllegalAction(code, message)


def house_available(state: State, seat: int) -> bool:
    """Houses are unlimited unless the ``house_limit`` option is set (G1)."""
    limit: int | None = state["options"].get("house_limit")
    houses: int = state["players"][seat]["houses"]
    return limit is None or houses < limit


def two_players(state: State) -> bool:
    seats: int = state["seats"]
    return seats == 2


def count_cubes(cubes: list[str]) -> Goods:
    out: Goods = {}
    for c in cubes:
        out[c] = out.get(c, 0) + 1
    return out
