"""Where a castle tile may go (digest 7.2).

A cell is legal when it is an empty interior cell with at least one side against a
placed tile or a start space, and on every side against a placed tile both middles
agree on being a path. Houses, towers and courts may face anything; walls constrain
nothing. Against a start space (the picture beside a wall number) any terrain may go
(the seed: 「無論道路、城塔、房屋、庭院皆可與城牆框架上數字旁邊的圖案相連接」), unless
``paths_at_pictures`` asks for paths to meet paths there too (rules versions 1 and 2,
and the option ``start_pictures=paths_match``).
"""

from __future__ import annotations

from typing import Any

from .components import INTERIOR, INTERIOR_KEYS, OFFSETS, ROTATED, ROTATIONS, SIDES, START_AT, cell_key

Board = dict[str, list[Any]]
"""Placed tiles: ``"x,y"`` -> ``[tile id, rotation]`` (a JSON pair)."""
Across = tuple[str, Any]
"""What lies across a side: ``("cell", key)``, ``("start", start space)`` or ``("wall", None)``;
``side_neighbour`` turns a cell into ``("tile", key)`` or ``("empty", key)``."""


def _across(x: int, y: int, side: int) -> Across:
    name = SIDES[side]
    start = START_AT.get((cell_key(x, y), name))
    if start is not None:
        return "start", start
    dx, dy = OFFSETS[name]
    other = cell_key(x + dx, y + dy)
    return ("cell", other) if other in INTERIOR_KEYS else ("wall", None)


# What each interior cell's four sides face, fixed by the frame: computed once.
ACROSS: dict[str, list[Across]] = {cell_key(x, y): [_across(x, y, side) for side in range(4)] for x, y in INTERIOR}


def side_neighbour(board: Board, x: int, y: int, side: int) -> Across:
    """What lies across ``side`` of cell (x, y): ("tile", key), ("start", space), ("empty", key) or ("wall", None)."""
    kind, what = ACROSS[cell_key(x, y)][side]
    if kind == "cell":
        return ("tile", what) if what in board else ("empty", what)
    return kind, what


def frontier(board: Board) -> list[tuple[int, int]]:
    """Empty cells with a side against a placed tile or a start space, in board order."""
    out: list[tuple[int, int]] = []
    for x, y in INTERIOR:
        key = cell_key(x, y)
        if key in board:
            continue
        if any(kind == "start" or (kind == "cell" and what in board) for kind, what in ACROSS[key]):
            out.append((x, y))
    return out


def placement_problem(
    board: Board, tile_id: str, x: int, y: int, rotation: int, paths_at_pictures: bool
) -> tuple[str, str] | None:
    """None when legal, else (code, message). ``paths_at_pictures``: whether a path must
    meet a path at a start space too (``versions.paths_match_at_start_pictures``)."""
    if rotation not in ROTATIONS:
        return "bad_rotation", "rotation must be 0, 90, 180 or 270"
    key = cell_key(x, y)
    if key not in INTERIOR_KEYS:
        return "outside_castle", f"({x},{y}) is not a cell inside the castle walls"
    if key in board:
        return "cell_occupied", f"a tile already lies on ({x},{y})"
    path_side = ROTATED[(tile_id, rotation)]["path_side"]
    touches = False
    for side in range(4):
        kind, what = side_neighbour(board, x, y, side)
        if kind == "start":
            touches = True
            if paths_at_pictures and (what["segments"][f"{SIDES[side]}1"] == "path") != path_side[side]:
                return "path_mismatch", f"paths must meet paths at the start space on the {SIDES[side]} side"
        elif kind == "tile":
            touches = True
            tid, rot = board[what]
            theirs = ROTATED[(tid, rot)]["path_side"][(side + 2) % 4]
            if theirs != path_side[side]:
                return "path_mismatch", f"paths must meet paths on the {SIDES[side]} side"
    if not touches:
        return "not_adjacent", "a tile must share a side with a placed tile or a start space"
    return None


def legal_placements(board: Board, tile_id: str, paths_at_pictures: bool) -> list[tuple[int, int, int]]:
    """Every (x, y, rotation) where the tile may go, in board order."""
    return [
        (x, y, rotation)
        for x, y in frontier(board)
        for rotation in ROTATIONS
        if placement_problem(board, tile_id, x, y, rotation, paths_at_pictures) is None
    ]


def has_placement(board: Board, tile_id: str, paths_at_pictures: bool) -> bool:
    return any(
        placement_problem(board, tile_id, x, y, rotation, paths_at_pictures) is None
        for x, y in frontier(board)
        for rotation in ROTATIONS
    )
