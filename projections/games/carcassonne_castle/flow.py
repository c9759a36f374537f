"""The order of a turn (digest 7): draw, place, follower, score, wall tiles, next turn.

Each function takes the working copy of the state and carries it forward until a
seat has a real decision to make; steps with no choice are taken here, at once.
"""

from __future__ import annotations

from typing import Any

from projections.games.base import State

from .components import EXTRA_TURN, ROLES, TILE_TYPES
from .features import features_of, tile_node
from .final import start_final
from .placement import has_placement
from .scoring import can_double, completed_events, resolve_event, resolve_tie
from .state import eligible_wall_tiles, note
from .versions import paths_match_at_start_pictures


def begin_turn(state: State) -> None:
    """Draw until a tile can be placed; an unplaceable tile is removed (digest 7.1)."""
    while True:
        if not state["pile"]:
            note(state, "pile_empty")
            start_final(state)
            return
        tile = state["pile"].pop(0)
        note(state, "tile_drawn", seat=state["active"], tile=tile)
        if has_placement(state["board"], tile, paths_match_at_start_pictures(state)):
            state["tile"] = tile
            state["phase"] = "place"
            return
        if state["options"].get("unplaceable_tile") == "confirm":
            state["tile"] = tile
            state["confirmed"] = []
            state["phase"] = "confirm_remove"
            return
        state["removed"].append(tile)
        note(state, "tile_removed", tile=tile)


def remove_unplaceable(state: State) -> None:
    state["removed"].append(state["tile"])
    note(state, "tile_removed", tile=state["tile"])
    state["tile"] = None
    state["confirmed"] = []
    begin_turn(state)


def free_features(state: State) -> list[int]:
    """Feature indices of the tile just placed whose whole group carries no follower."""
    x, y = state["placed"][-1]
    tid = state["board"][f"{x},{y}"][0]
    feats = features_of(state["board"])
    occupied = {feats.find(f["node"]) for f in state["followers"]}
    return [
        index for index in range(len(TILE_TYPES[tid]["features"])) if feats.find(tile_node(x, y, index)) not in occupied
    ]


def after_placement(state: State) -> None:
    state["phase"] = "follower"
    if state["supply"][state["active"]] == 0 or not free_features(state):
        after_follower(state)


def place_follower(state: State, index: int) -> None:
    x, y = state["placed"][-1]
    tid = state["board"][f"{x},{y}"][0]
    seat = state["active"]
    role = ROLES[TILE_TYPES[tid]["features"][index]["type"]]
    state["supply"][seat] -= 1
    state["followers"].append({"seat": seat, "node": tile_node(x, y, index), "role": role})
    note(state, "follower_placed", seat=seat, role=role, node=tile_node(x, y, index))


def after_follower(state: State) -> None:
    x, y = state["placed"][-1]
    pending: list[dict[str, Any]] = []
    for event in completed_events(state, x, y):
        if event["scorer"] is None:
            resolve_tie(state, event)
        else:
            pending.append(event)
    state["pending"] = pending
    continue_scoring(state)


def score_options(state: State) -> list[tuple[str, bool]]:
    """(node, use_wall_tile) pairs the active player may score next (digest 7.5 order)."""
    active = state["active"]
    own = [e for e in state["pending"] if e["scorer"] == active]
    candidates = own or state["pending"]
    options: list[tuple[str, bool]] = []
    for event in candidates:
        options.append((event["node"], False))
        if can_double(state, event):
            options.append((event["node"], True))
    return options


def continue_scoring(state: State) -> None:
    while state["pending"]:
        options = score_options(state)
        if len(options) > 1:
            state["phase"] = "score"
            return
        node, use = options[0]
        resolve_event(state, pending_event(state, node), use)
    after_scoring(state)


def pending_event(state: State, node: str) -> dict[str, Any]:
    event: dict[str, Any] = next(e for e in state["pending"] if e["node"] == node)
    return event


def extra_turn_possible(state: State) -> bool:
    return bool(state["pile"]) and bool(eligible_wall_tiles(state, state["active"], EXTRA_TURN))


def after_scoring(state: State) -> None:
    state["pending"] = []
    if extra_turn_possible(state):
        state["phase"] = "post"
        return
    end_turn(state, extra=False)


def end_turn(state: State, extra: bool) -> None:
    """Pass play on (or keep it, for an extra turn); the game ends once the pile is empty."""
    if not state["pile"]:
        start_final(state)
        return
    if extra:
        eligible_wall_tiles(state, state["active"], EXTRA_TURN)[0]["used"] = True
        note(state, "extra_turn", seat=state["active"])
    else:
        state["active"] = (state["active"] + 1) % state["seats"]
    state["turn"] += 1
    begin_turn(state)
