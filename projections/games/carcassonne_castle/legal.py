"""Who acts, and every action they may post now (complete ``{type, payload}`` dicts)."""

from __future__ import annotations

from typing import overload

from projections.games.base import Action, State

from .final import target_options
from .flow import extra_turn_possible, free_features, score_options
from .placement import legal_placements
from .versions import paths_match_at_start_pictures


def to_act(state: State) -> set[int]:
    phase = state["phase"]
    if phase == "over":
        return set()
    if phase == "confirm_remove":
        return {s for s in range(state["seats"]) if s not in state["confirmed"]}
    if phase == "final":
        return {s for s in range(state["seats"]) if state["final_todo"][s]}
    return {state["active"]}


@overload
def node_payload(node: str) -> dict[str, int]: ...
@overload
def node_payload(node: None) -> None: ...
def node_payload(node: str | None) -> dict[str, int] | None:
    if node is None:
        return None
    x, y, i = (int(v) for v in node.split(","))
    return {"x": x, "y": y, "feature": i}


def legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    phase = state["phase"]
    if phase == "place":
        return [
            {"type": "place_tile", "payload": {"x": x, "y": y, "rotation": r}}
            for x, y, r in legal_placements(state["board"], state["tile"], paths_match_at_start_pictures(state))
        ]
    if phase == "confirm_remove":
        return [{"type": "confirm_remove_tile", "payload": {}}]
    if phase == "follower":
        actions: list[Action] = [{"type": "skip_follower", "payload": {}}]
        if state["supply"][seat] > 0:
            actions += [{"type": "place_follower", "payload": {"feature": i}} for i in free_features(state)]
        return actions
    if phase == "score":
        return [
            {"type": "score_feature", "payload": {**node_payload(node), "use_wall_tile": use}}
            for node, use in score_options(state)
        ]
    if phase == "post":
        actions = [{"type": "end_turn", "payload": {}}]
        if extra_turn_possible(state):
            actions.append({"type": "use_extra_turn", "payload": {}})
        return actions
    if phase == "final":
        actions = []
        for kind in sorted(set(state["final_todo"][seat])):
            for node in target_options(state, seat, kind):
                actions.append({"type": "final_target", "payload": {"wall_tile": kind, "target": node_payload(node)}})
            actions.append({"type": "final_target", "payload": {"wall_tile": kind, "target": None}})
        return actions
    return []
