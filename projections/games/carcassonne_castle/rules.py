"""The checks and effects ``base.Game.apply`` runs for each action.

Every check runs on the untouched input; the effects change the copy and ``flow``
carries it forward to the next real decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from projections.games.base import IllegalAction, Rng, State

from .components import DOUBLE_FOR, TILE_TYPES, cell_key
from .features import canonical_node, features_of
from .final import choose_target, continue_final, target_options
from .flow import (
    after_follower,
    after_placement,
    continue_scoring,
    end_turn,
    extra_turn_possible,
    free_features,
    pending_event,
    place_follower,
    remove_unplaceable,
    score_options,
)
from .placement import placement_problem
from .scoring import resolve_event
from .state import fresh_wall_tiles
from .versions import paths_match_at_start_pictures

Payload = dict[str, Any]
Handler = Callable[[State, int, Payload], None]
"""A check or an effect of one action type: (state, seat, payload)."""

PHASE_OF = {
    "place_tile": "place",
    "confirm_remove_tile": "confirm_remove",
    "place_follower": "follower",
    "skip_follower": "follower",
    "score_feature": "score",
    "use_extra_turn": "post",
    "end_turn": "post",
    "final_target": "final",
}


def awaits(state: State, seat: int | None, kind: str) -> bool:
    phase: str = state["phase"]
    return PHASE_OF[kind] == phase


# ``apply``'s guard admits only a seat in ``to_act``, never None (this game has no system
# actor), so check and effect hand their handlers an int: the casts below say so to mypy.


def check(state: State, seat: int | None, kind: str, payload: Payload) -> None:
    check = CHECKS.get(kind)
    if check is not None:
        check(state, cast(int, seat), payload)


def effect(state: State, seat: int | None, kind: str, payload: Payload, rng: Rng | None = None) -> None:
    state["recent"] = []
    DO[kind](state, cast(int, seat), payload)


INTEGER_FIELDS = {
    "place_tile": ("x", "y", "rotation"),
    "place_follower": ("feature",),
    "score_feature": ("x", "y", "feature"),
    "final_target": ("wall_tile",),
}


def malformed(kind: str, payload: Payload) -> str | None:
    """The platform validates schemas; this keeps a malformed payload from reaching the rules."""
    for name in INTEGER_FIELDS.get(kind, ()):
        if not isinstance(payload.get(name), int) or isinstance(payload.get(name), bool):
            return f"{kind} needs an integer {name!r}"
    target = payload.get("target")
    if kind == "final_target" and target is not None:
        if not isinstance(target, dict) or not all(isinstance(target.get(k), int) for k in ("x", "y", "feature")):
            return "a target is {x, y, feature} or null"
    return None


def payload_node(payload: Payload) -> str:
    return f"{payload['x']},{payload['y']},{payload['feature']}"


# -- checks (read only) ---------------------------------------------------------------
def check_place_tile(state: State, seat: int, payload: Payload) -> None:
    problem = placement_problem(
        state["board"],
        state["tile"],
        payload["x"],
        payload["y"],
        payload["rotation"],
        paths_match_at_start_pictures(state),
    )
    if problem is not None:
        raise IllegalAction(*problem)


def check_place_follower(state: State, seat: int, payload: Payload) -> None:
    x, y = state["placed"][-1]
    tid = state["board"][cell_key(x, y)][0]
    index = payload["feature"]
    if not 0 <= index < len(TILE_TYPES[tid]["features"]):
        raise IllegalAction("unknown_feature", f"the tile just placed has no feature {index}")
    if state["supply"][seat] == 0:
        raise IllegalAction("no_followers_left", "your supply is empty: followers come back only on a later turn")
    if index not in free_features(state):
        raise IllegalAction("feature_occupied", "that feature already carries a follower")


def check_score_feature(state: State, seat: int, payload: Payload) -> None:
    node, use = payload_node(payload), bool(payload.get("use_wall_tile", False))
    options = score_options(state)
    if (node, use) in options:
        return
    event = next((e for e in state["pending"] if e["node"] == node), None)
    if event is None:
        raise IllegalAction("unknown_feature", "no completed feature waits to be scored there")
    if (node, False) not in options:
        raise IllegalAction("scoring_order", "the active player's own features are scored before the opponent's")
    if event["scorer"] != seat or event["type"] not in DOUBLE_FOR:
        raise IllegalAction("no_wall_tile", "a wall tile doubles only a tower or house you score on your own turn")
    if fresh_wall_tiles(state, seat, DOUBLE_FOR[event["type"]]):
        raise IllegalAction("wall_tile_not_ready", "a wall tile cannot be used in the turn it was taken")
    raise IllegalAction("no_wall_tile", "you hold no wall tile that doubles this feature")


def check_use_extra_turn(state: State, seat: int, payload: Payload) -> None:
    if not extra_turn_possible(state):
        raise IllegalAction("no_wall_tile", "you hold no extra-turn wall tile usable now")


def check_final_target(state: State, seat: int, payload: Payload) -> None:
    kind = payload["wall_tile"]
    if kind not in state["final_todo"][seat]:
        raise IllegalAction("not_held", f"you have no unscored wall tile {kind}")
    target = payload.get("target")
    if target is None:
        return
    node = f"{target['x']},{target['y']},{target['feature']}"
    options = target_options(state, seat, kind)
    if node in options:
        return
    board_key = cell_key(target["x"], target["y"])
    tile = state["board"].get(board_key)
    if tile is None or not 0 <= target["feature"] < len(TILE_TYPES[tile[0]]["features"]):
        raise IllegalAction("unknown_feature", "the target names no feature on a placed tile")
    group = features_of(state["board"]).group_of(node)
    canonical = canonical_node(group)
    if canonical in options:
        return
    if any(c["kind"] == kind and c["target"] == canonical for c in state["final_choices"][seat]):
        raise IllegalAction("target_taken", "each wall tile of one kind scores a different feature")
    raise IllegalAction("bad_target", "that feature is not an eligible target for this wall tile")


CHECKS: dict[str, Handler] = {
    "place_tile": check_place_tile,
    "place_follower": check_place_follower,
    "score_feature": check_score_feature,
    "use_extra_turn": check_use_extra_turn,
    "final_target": check_final_target,
}


# -- changes (on the copy) -------------------------------------------------------------
def do_place_tile(state: State, seat: int, payload: Payload) -> None:
    x, y = payload["x"], payload["y"]
    state["board"][cell_key(x, y)] = [state["tile"], payload["rotation"]]
    state["placed"].append([x, y])
    state["tile"] = None
    after_placement(state)


def do_confirm_remove(state: State, seat: int, payload: Payload) -> None:
    state["confirmed"].append(seat)
    if len(state["confirmed"]) == state["seats"]:
        remove_unplaceable(state)


def do_place_follower(state: State, seat: int, payload: Payload) -> None:
    place_follower(state, payload["feature"])
    after_follower(state)


def do_skip_follower(state: State, seat: int, payload: Payload) -> None:
    after_follower(state)


def do_score_feature(state: State, seat: int, payload: Payload) -> None:
    resolve_event(state, pending_event(state, payload_node(payload)), bool(payload.get("use_wall_tile", False)))
    continue_scoring(state)


def do_use_extra_turn(state: State, seat: int, payload: Payload) -> None:
    end_turn(state, extra=True)


def do_end_turn(state: State, seat: int, payload: Payload) -> None:
    end_turn(state, extra=False)


def do_final_target(state: State, seat: int, payload: Payload) -> None:
    target = payload.get("target")
    node = None
    if target is not None:
        node = canonical_node(features_of(state["board"]).group_of(f"{target['x']},{target['y']},{target['feature']}"))
    choose_target(state, seat, payload["wall_tile"], node)
    continue_final(state)


DO: dict[str, Handler] = {
    "place_tile": do_place_tile,
    "confirm_remove_tile": do_confirm_remove,
    "place_follower": do_place_follower,
    "skip_follower": do_skip_follower,
    "score_feature": do_score_feature,
    "use_extra_turn": do_use_extra_turn,
    "end_turn": do_end_turn,
    "final_target": do_final_target,
}
