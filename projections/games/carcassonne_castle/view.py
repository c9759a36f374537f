"""What a viewer sees: the whole board with full tile geometry, minus the hidden parts.

Hidden from every seat alike (digest 12): the order of the draw pile, the kind of each
wall tile face down on the frame, and the five set aside. A referee sees them; once
the game is over everyone does.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from projections.games.base import REFEREE, State, Viewer

from .components import (
    BOARD,
    CORNERS,
    INTERIOR,
    LETTER,
    ROTATED,
    ROTATIONS,
    START_SPACES,
    TILE_TYPES,
    WALL_KINDS,
)
from .features import parse_node
from .legal import to_act
from .state import eligible_wall_tiles


def _geometry(tid: str, rotation: int) -> dict[str, Any]:
    table = ROTATED[(tid, rotation)]
    features = []
    for feature in TILE_TYPES[tid]["features"]:
        shown: dict[str, Any] = {"type": feature["type"]}
        for extra in ("markets", "well", "inner_end"):
            if feature.get(extra):
                shown[extra] = feature[extra]
        features.append(shown)
    return {
        "ports": "".join(LETTER[t] for t in table["type_at"]),
        "feature_at": "".join(str(f) for f in table["feature_at"]),
        "features": features,
    }


GEOMETRY = {(tid, r): _geometry(tid, r) for tid in TILE_TYPES for r in ROTATIONS}

CASTLE = {
    "cells": INTERIOR,
    "start_spaces": [
        {
            "id": s["id"],
            "label": s["label"],
            "numbers": s["numbers"],
            "ring_cell": s["ring_cell"],
            "faces_cell": s["faces_cell"],
            "side": s["side"],
            "segments": s["segments"],
            "features": s["features"],
        }
        for s in START_SPACES.values()
    ],
    "corners": [
        {"id": c["id"], "numbers": c["numbers"], "ring_cell": c["ring_cell"], "diagonal": c["diagonal"]}
        for c in CORNERS
    ],
    "track": [space["ring_cell"] for space in sorted(BOARD["track"], key=lambda s: s["n"])],
}

PHASE_TEXT = {
    "place": "place the drawn tile",
    "confirm_remove": "agree to remove the unplaceable tile",
    "follower": "place a follower or skip",
    "score": "choose which completed feature scores next",
    "post": "use an extra turn or end the turn",
    "final": "name targets for the final-scoring wall tiles",
}


def _where(node: str) -> dict[str, int]:
    x, y, i = parse_node(node)
    return {"x": x, "y": y, "feature": i}


def tile_view(tid: str, rotation: int = 0) -> dict[str, Any]:
    return {"tile": tid, "rotation": rotation, **GEOMETRY[(tid, rotation)]}


def summary(state: State) -> str:
    if state["phase"] == "over":
        return "Game over: " + " - ".join(str(s) for s in state["score"])
    waiting = ", ".join(f"seat {s}" for s in sorted(to_act(state)))
    return f"Turn {state['turn']}: {waiting} to {PHASE_TEXT[state['phase']]}"


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    omniscient = viewer == REFEREE or state["phase"] == "over"
    out: dict[str, Any] = {
        "summary": summary(state),
        "scores": list(state["score"]),
        "phase": state["phase"],
        "active": state["active"],
        "turn": state["turn"],
        "to_act": sorted(to_act(state)),
        "tile": {**tile_view(state["tile"]), "name": TILE_TYPES[state["tile"]]["name"]} if state["tile"] else None,
        "pile_count": len(state["pile"]),
        "remaining": dict(sorted(Counter(state["pile"]).items())),
        "removed": list(state["removed"]),
        "board": [{"x": x, "y": y, **tile_view(*state["board"][f"{x},{y}"])} for x, y in state["placed"]],
        "last_placed": state["placed"][-1] if state["placed"] else None,
        "followers": [{"seat": f["seat"], "role": f["role"], **_where(f["node"])} for f in state["followers"]],
        "supply": list(state["supply"]),
        "keeps": [None if k is None else {"size": k["size"], **_where(k["node"])} for k in state["keep"]],
        "frame": {
            corner: (kind if omniscient else "face_down") if kind is not None else None
            for corner, kind in state["frame"].items()
        },
        "held": [
            [
                {
                    "kind": t["kind"],
                    "key": WALL_KINDS[t["kind"]]["key"],
                    "turn": t["turn"],
                    "used": t["used"],
                    "corner": t["corner"],
                }
                for t in held
            ]
            for held in state["held"]
        ],
        "usable_now": [
            sorted({t["kind"] for t in held if t in _eligible(state, seat)}) for seat, held in enumerate(state["held"])
        ],
        "set_aside": list(state["set_aside"]) if omniscient else len(state["set_aside"]),
        "pending": [
            {**_where(e["node"]), "type": e["type"], "size": e["size"], "scorer": e["scorer"], "well": e["well"]}
            for e in state["pending"]
        ],
        "confirmed": list(state["confirmed"]),
        "final_todo": [list(t) for t in state["final_todo"]],
        "final_choices": [
            [{"kind": c["kind"], "target": None if c["target"] is None else _where(c["target"])} for c in choices]
            for choices in state["final_choices"]
        ],
        "breakdown": state["breakdown"],
        "recent": list(state["recent"]),
        "castle": CASTLE,
    }
    if omniscient:
        out["pile"] = list(state["pile"])
    return out


def _eligible(state: State, seat: int) -> list[dict[str, Any]]:
    if state["phase"] == "over" or seat != state["active"]:
        return []
    return [t for kind in WALL_KINDS for t in eligible_wall_tiles(state, seat, kind)]
