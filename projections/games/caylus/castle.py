"""Phase 6, building the castle, and the scoring of its sections in phase 7 (§5.6, §6)."""

from __future__ import annotations

from itertools import combinations
from typing import Any, cast

from ..base import State
from .components import CASTLE, SECTIONS
from .state import Goods, Payload, has, house_available, lose_pp, pay, require

BATCH_PAIRS: list[list[str]] = [list(p) for p in combinations(CASTLE["batch_others"], 2)]
"""A batch is food plus two different cubes of wood, stone, cloth and gold."""


def current_section(state: State) -> int | None:
    """The lowest unscored section with a free place (houses overflow onward); None if full."""
    for index in range(state["sections_scored"], len(SECTIONS)):
        if len(state["castle"][index]) < SECTIONS[index]["places"]:
            return index
    return None


def batch_cost(pair: list[str]) -> Goods:
    cost: Goods = {"food": CASTLE["batch_food"]}
    for cube in pair:
        cost[cube] = cost.get(cube, 0) + 1
    return cost


def check_batch(state: State, seat: int, cubes: Any) -> Goods:
    valid = isinstance(cubes, list) and all(isinstance(c, str) for c in cubes)
    require(
        valid and sorted(cubes) in [sorted(p) for p in BATCH_PAIRS],
        "bad_batch",
        "a batch is 1 food and 2 different cubes of wood, stone, cloth or gold",
    )
    require(current_section(state) is not None, "castle_full", "the castle has no free place left")
    require(house_available(state, seat), "no_house_left", "you have no house left")
    cost = batch_cost(cubes)
    require(has(state, seat, cost), "not_enough_resources", f"this batch needs {cost}")
    return cost


def give_batch(state: State, seat: int, cost: Goods) -> None:
    """One house into the current section, scoring that section's points per house."""
    pay(state, seat, cost)
    index = cast(int, current_section(state))  # check_batch refused a full castle
    state["castle"][index].append(seat)
    player = state["players"][seat]
    player["houses"] += 1
    player["pp"] += SECTIONS[index]["pp_per_house"]
    state["castle_placed"][seat] += 1


def batch_options(state: State, seat: int) -> list[Payload]:
    if current_section(state) is None or not house_available(state, seat):
        return []
    return [{"cubes": p} for p in BATCH_PAIRS if has(state, seat, batch_cost(p))]


def no_batch_penalty(state: State, seat: int) -> None:
    lose_pp(state, seat, CASTLE["no_batch_penalty"])


def best_builder(state: State) -> int | None:
    """Most houses this turn (at least 1); ties go to the earliest in castle order."""
    best: int | None = None
    most = 0
    for seat in state["castle_workers"]:
        if state["castle_placed"][seat] > most:
            best, most = seat, state["castle_placed"][seat]
    return best


def section_due(state: State) -> int | None:
    """The first unscored section, if the bailiff reached its trigger or it is full."""
    index: int = state["sections_scored"]
    if index >= len(SECTIONS):
        return None
    section = SECTIONS[index]
    if state["bailiff"] >= section["trigger"] or len(state["castle"][index]) >= section["places"]:
        return index
    return None


def reward(index: int, houses: int) -> tuple[int, int]:
    for low, high, pp, favours in SECTIONS[index]["rewards"]:
        if houses >= low and (high is None or houses <= high):
            return pp, favours
    return 0, 0


def score_section(state: State, index: int) -> list[int]:
    """Score one section in turn order; returns the favours owed, in that order."""
    owed: list[int] = []
    for seat in state["order"]:
        pp, favours = reward(index, state["castle"][index].count(seat))
        if pp < 0:
            lose_pp(state, seat, -pp)
        owed.extend([seat] * favours)
    state["sections_scored"] = index + 1
    return owed
