"""Scoring during play: which features a placement completed, and paying one of them.

Digest 7.4-7.5: a path, tower or house is complete once no segment faces an empty
cell; the seat with strictly more followers on it scores all its points (a tie pays
nobody); the marker moves once, may land on a corner and take its wall tile; a scored
house may carry the keep; every follower on it goes home.
"""

from __future__ import annotations

from typing import Any

from projections.games.base import State

from .components import CORNER_OF_SPACE, DOUBLE_FOR, POINTS, TILE_TYPES
from .features import canonical_node, count_by_seat, features_of, majority, node_order, tile_node
from .placement import Board, side_neighbour
from .state import eligible_wall_tiles, note


def feature_points(group_type: str, size: int, well: bool, doubled: bool = False) -> int:
    rate: int
    if doubled:
        rate = POINTS["doubled_per_tile"][group_type]
    elif group_type == "path" and well:
        rate = POINTS["path_with_well_per_tile"]
    else:
        rate = POINTS["per_tile"][group_type]
    return size * rate


def touched_nodes(board: Board, x: int, y: int) -> list[str]:
    """Nodes whose group the tile on (x, y) may have closed: its own features, and every
    feature of the tiles and start spaces beside it (a house closes a tower it borders)."""
    nodes = [tile_node(x, y, i) for i in range(len(TILE_TYPES[board[f"{x},{y}"][0]]["features"]))]
    for side in range(4):
        kind, what = side_neighbour(board, x, y, side)
        if kind == "tile":
            nodes += [f"{what},{i}" for i in range(len(TILE_TYPES[board[what][0]]["features"]))]
        elif kind == "start":
            nodes += [f"{what['id']}:{f['index']}" for f in what["features"]]
    return nodes


def completed_events(state: State, x: int, y: int) -> list[dict[str, Any]]:
    """The path/tower/house groups the new tile completed that carry followers, each
    named by its first tile node, with the scorer fixed by the followers on it (7.4-7.5)."""
    feats = features_of(state["board"])
    seen: set[str] = set()
    events: list[dict[str, Any]] = []
    for node in touched_nodes(state["board"], x, y):
        root = feats.find(node)
        group = feats.groups[root]
        if root in seen or group["type"] == "court" or group["open"]:
            continue
        seen.add(root)
        on_it = feats.followers_on(group, state["followers"])
        if not on_it:
            continue
        events.append(
            {
                "node": canonical_node(group),
                "type": group["type"],
                "size": group["size"],
                "well": group["well"],
                "nodes": list(group["nodes"]),
                "scorer": majority(count_by_seat(on_it, state["seats"])),
            }
        )
    return sorted(events, key=lambda e: node_order(e["node"]))


def return_followers(state: State, nodes: list[str]) -> None:
    members = set(nodes)
    keep = []
    for follower in state["followers"]:
        if follower["node"] in members:
            state["supply"][follower["seat"]] += 1
        else:
            keep.append(follower)
    state["followers"] = keep


def move_marker(state: State, seat: int, points: int) -> None:
    """One move of ``points``; ending on a corner that still holds a wall tile takes it."""
    state["score"][seat] += points
    corner = CORNER_OF_SPACE.get(state["score"][seat] % POINTS["track_length"])
    if points and corner is not None and state["frame"].get(corner) is not None:
        kind = state["frame"][corner]
        state["frame"][corner] = None
        state["held"][seat].append({"kind": kind, "turn": state["turn"], "used": False, "corner": corner})
        note(state, "wall_tile_taken", seat=seat, kind=kind, corner=corner)


def can_double(state: State, event: dict[str, Any]) -> bool:
    kind = DOUBLE_FOR.get(event["type"])
    return (
        kind is not None
        and event["scorer"] == state["active"]
        and bool(eligible_wall_tiles(state, state["active"], kind))
    )


def resolve_event(state: State, event: dict[str, Any], use_wall_tile: bool) -> None:
    """Pay one completed feature (mutates the working copy ``state``)."""
    seat = event["scorer"]
    if use_wall_tile:
        eligible_wall_tiles(state, seat, DOUBLE_FOR[event["type"]])[0]["used"] = True
    points = feature_points(event["type"], event["size"], event["well"], use_wall_tile)
    note(
        state,
        "feature_scored",
        seat=seat,
        type=event["type"],
        size=event["size"],
        points=points,
        doubled=use_wall_tile,
        node=event["node"],
    )
    move_marker(state, seat, points)
    if event["type"] == "house":
        keep = state["keep"][seat]
        if keep is None or event["size"] > keep["size"]:
            state["keep"][seat] = {"node": event["node"], "size": event["size"]}
            note(state, "keep_placed", seat=seat, size=event["size"])
    return_followers(state, event["nodes"])
    state["pending"] = [e for e in state["pending"] if e["node"] != event["node"]]


def resolve_tie(state: State, event: dict[str, Any]) -> None:
    note(state, "feature_tied", type=event["type"], size=event["size"], node=event["node"])
    return_followers(state, event["nodes"])
