"""The end of the game (digest 8): the holders of wall tiles 4-7 name their targets,
then keep bonus, unfinished features, courts and the 5-point tiles are scored.
"""

from __future__ import annotations

from projections.games.base import State

from .components import (
    COURT_FOUR,
    FINAL_CHOICE_KINDS,
    FIVE_POINTS,
    INTERIOR,
    KEEP_PLUS_TWO,
    OFFSETS,
    POINTS,
    UNFINISHED_FOR,
    cell_key,
)
from .features import Features, canonical_node, count_by_seat, features_of, majority, node_order
from .placement import Board
from .scoring import feature_points
from .state import note


def start_final(state: State) -> None:
    state["tile"] = None
    state["phase"] = "final"
    for seat in range(state["seats"]):
        state["final_todo"][seat] = sorted(
            t["kind"] for t in state["held"][seat] if t["kind"] in FINAL_CHOICE_KINDS and not t["used"]
        )
    continue_final(state)


def target_options(state: State, seat: int, kind: int, feats: Features | None = None) -> list[str]:
    """Nodes naming the groups ``seat`` may pick with wall tile ``kind`` now."""
    feats = feats or features_of(state["board"])
    taken = {c["target"] for c in state["final_choices"][seat] if c["kind"] == kind}
    wanted = UNFINISHED_FOR.get(kind, "court")
    # a game created before the option existed played under the majority reading
    needs_majority = kind == COURT_FOUR or state["options"].get("unfinished_needs_majority", True)
    out: list[str] = []
    for group in feats.groups.values():
        if group["type"] != wanted or (kind != COURT_FOUR and not group["open"]):
            continue
        name = canonical_node(group)
        if name is None or name in taken:
            continue
        if needs_majority:
            counts = count_by_seat(feats.followers_on(group, state["followers"]), state["seats"])
            if majority(counts) != seat:
                continue
        out.append(name)
    return sorted(out, key=node_order)


def continue_final(state: State) -> None:
    """Tiles with nothing to aim at resolve to no target; finish once nobody has a choice."""
    feats = features_of(state["board"])
    for seat in range(state["seats"]):
        for kind in list(state["final_todo"][seat]):
            if not target_options(state, seat, kind, feats):
                choose_target(state, seat, kind, None)
    if not any(state["final_todo"]):
        finish(state, feats)


def choose_target(state: State, seat: int, kind: int, target: str | None) -> None:
    state["final_todo"][seat].remove(kind)
    state["final_choices"][seat].append({"kind": kind, "target": target})


def largest_empty_area(board: Board) -> int:
    """The largest group of empty interior cells joined side to side."""
    empty = {cell_key(x, y) for x, y in INTERIOR} - set(board)
    best = 0
    while empty:
        stack = [empty.pop()]
        size = 0
        while stack:
            x, y = (int(v) for v in stack.pop().split(","))
            size += 1
            for dx, dy in OFFSETS.values():
                other = cell_key(x + dx, y + dy)
                if other in empty:
                    empty.remove(other)
                    stack.append(other)
        best = max(best, size)
    return best


def keep_values(state: State) -> list[int | None]:
    values: list[int | None] = []
    for seat, keep in enumerate(state["keep"]):
        plus = sum(1 for t in state["held"][seat] if t["kind"] == KEEP_PLUS_TWO)
        values.append(None if keep is None else keep["size"] + POINTS["keep_plus_two"] * plus)
    return values


def finish(state: State, feats: Features) -> None:
    seats = state["seats"]
    parts = {name: [0] * seats for name in ("keep", "unfinished", "courts", "five_points")}
    # 1. keep bonus: strictly the larger keep value scores the largest empty area
    values = keep_values(state)
    ranked = [v if v is not None else -1 for v in values]
    winner = majority_of_values(ranked)
    area = largest_empty_area(state["board"])
    if winner is not None and values[winner] is not None:
        parts["keep"][winner] = area
    # 2. unfinished features named with wall tiles 4, 5, 6
    court_four: list[set[str]] = [set() for _ in range(seats)]
    for seat in range(seats):
        for choice in state["final_choices"][seat]:
            if choice["target"] is None:
                continue
            group = feats.group_of(choice["target"])
            if choice["kind"] == COURT_FOUR:
                court_four[seat].add(feats.find(choice["target"]))
            else:
                parts["unfinished"][seat] += feature_points(group["type"], group["size"], group["well"])
    # 3. courts by merchant majority
    for root, group in feats.groups.items():
        if group["type"] != "court" or not group["markets"]:
            continue
        owner = majority(count_by_seat(feats.followers_on(group, state["followers"]), seats))
        if owner is not None:
            rate = POINTS["court_per_market_with_court_four" if root in court_four[owner] else "court_per_market"]
            parts["courts"][owner] += rate * group["markets"]
    # 4. five points per tile 9
    for seat in range(seats):
        parts["five_points"][seat] = POINTS["five_points"] * sum(
            1 for t in state["held"][seat] if t["kind"] == FIVE_POINTS
        )
    # followers on unfinished paths, towers and houses go home without points
    for follower in [f for f in state["followers"] if f["role"] != "merchant"]:
        state["supply"][follower["seat"]] += 1
    state["followers"] = [f for f in state["followers"] if f["role"] == "merchant"]
    for seat in range(seats):
        state["score"][seat] += sum(part[seat] for part in parts.values())
    state["breakdown"] = {"largest_empty_area": area, "keep_values": values, **parts}
    state["phase"] = "over"
    note(state, "game_over", scores=list(state["score"]))


def majority_of_values(values: list[int]) -> int | None:
    best = max(values)
    if best < 0 or values.count(best) > 1:
        return None
    return values.index(best)
