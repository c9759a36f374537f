"""Phase 2, placing workers: where a worker may go, what it costs, and passing (§5.2).

The Gate (phase 3) moves a worker to any target legal here, for free, so the target
rules are shared with it.
"""

from __future__ import annotations

from ..base import State
from .components import BUILDINGS, CONST, PRODUCTION_COLOURS, ROAD_LENGTH, SPECIAL_NAMES
from .state import Payload, Player, require, two_players
from .versions import CASTLE_AT_BRIDGE_NUMBER, version

SINGLE_SPOTS = ("gate", "trading_post", "merchants_guild", "joust_field")
ROAD_TARGETS = {f"road:{n}": n for n in range(1, ROAD_LENGTH + 1)}
TARGETS = (*SINGLE_SPOTS, "stables", "inn", "castle", *ROAD_TARGETS)


def road_number(target: object) -> int | None:
    return ROAD_TARGETS.get(target) if isinstance(target, str) else None


def target_problem(state: State, seat: int, target: object) -> tuple[str, str] | None:
    """Why ``target`` cannot take a worker of ``seat`` now (None if it can)."""
    special = state["special"]
    if target in SINGLE_SPOTS:
        if special[target] is not None:
            return "space_occupied", f"the {SPECIAL_NAMES[target]} already has a worker"
        return None
    if target == "stables":
        if two_players(state):
            return "stables_unusable", "the Stables cannot be used with 2 players"
        if seat in special["stables"]:
            return "already_there", "you already have a worker in the Stables"
        if len(special["stables"]) >= CONST["stables_spots"]:
            return "space_occupied", "the Stables are full"
        return None
    if target == "inn":
        if special["inn_left"] is not None:
            return "space_occupied", "the Inn's entry spot is taken"
        return None
    if target == "castle":
        if seat in state["castle_workers"]:
            return "already_there", "you already have a worker in the castle"
        if len(state["castle_workers"]) >= CONST["castle_places"]:
            return "space_occupied", "the castle spots are full"
        return None
    number = road_number(target)
    if number is None:
        return "unknown_target", f"no such place {target!r}"
    sp = state["road"][number - 1]
    if sp["building"] is None:
        return "empty_lot", f"road space {number} has no building"
    if BUILDINGS[sp["building"]]["colour"] not in PRODUCTION_COLOURS:
        return "not_placeable", "no worker may go on a residence or a prestige building"
    if sp["worker"] is not None:
        return "space_occupied", f"road space {number} already has a worker"
    return None


def bridge_cost(state: State, target: object) -> int:
    """The lowest free passing space, 1 + the number of players who passed. With 2 players a
    building not one's own costs 3 once the opponent passed (6.(1)C); the castle, which is no
    building (2.(2)E), keeps the bridge number, except under rules version 1 (digest G3)."""
    if two_players(state) and state["passed"]:
        if target != "castle" or version(state) < CASTLE_AT_BRIDGE_NUMBER:
            three: int = CONST["two_player_cost_after_pass"]
            return three
    return 1 + len(state["passed"])


def placement_cost(state: State, seat: int, target: object) -> int:
    number = road_number(target)
    cost: int
    if number is not None and state["road"][number - 1]["owner"] == seat:
        cost = CONST["own_building_cost"]
    elif state["special"]["inn_right"] == seat:
        cost = CONST["inn_cost"]
    else:
        cost = bridge_cost(state, target)
    return cost


def check_place(state: State, seat: int, target: object) -> int:
    """Validate a phase-2 placement; returns its cost."""
    problem = target_problem(state, seat, target)
    if problem:
        require(False, *problem)
    require(state["players"][seat]["workers"] > 0, "no_worker_left", "you have no worker left to place")
    cost = placement_cost(state, seat, target)
    require(state["players"][seat]["deniers"] >= cost, "not_enough_money", f"this placement costs {cost} deniers")
    return cost


def put_worker(state: State, seat: int, target: str) -> None:
    """Put the worker there; the owner of someone else's building gains 1 PP at once."""
    special = state["special"]
    if target in SINGLE_SPOTS:
        special[target] = seat
    elif target == "stables":
        special["stables"].append(seat)
    elif target == "inn":
        special["inn_left"] = seat
    elif target == "castle":
        state["castle_workers"].append(seat)
    else:
        sp = state["road"][ROAD_TARGETS[target] - 1]
        sp["worker"] = seat
        if sp["owner"] is not None and sp["owner"] != seat:
            state["players"][sp["owner"]]["pp"] += CONST["owner_pp_on_visit"]


def place_options(state: State, seat: int) -> list[Payload]:
    p: Player = state["players"][seat]
    if p["workers"] <= 0 or p["deniers"] <= 0:
        return []
    return [
        {"target": t}
        for t in TARGETS
        if target_problem(state, seat, t) is None and p["deniers"] >= placement_cost(state, seat, t)
    ]


def gate_options(state: State, seat: int) -> list[Payload]:
    return [{"target": t} for t in TARGETS if t != "gate" and target_problem(state, seat, t) is None]
