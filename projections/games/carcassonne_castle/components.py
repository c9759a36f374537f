"""Component data, loaded once, plus the lookup tables the rules need.

The JSON under ``data/`` is the source; this module only indexes it: interior cells,
start spaces by the cell side they face, corner towers by track number, and every
castle tile's ports at each rotation (so placement never rotates at run time).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DATA = Path(__file__).parent / "data"


def _load(name: str) -> dict[str, Any]:
    with open(_DATA / name, encoding="utf-8") as handle:
        data: dict[str, Any] = json.load(handle)
    return data


BOARD = _load("board.json")
TILES = _load("tiles.json")
WALL_TILES = _load("wall_tiles.json")
POINTS = _load("points.json")

SIDES = ["N", "E", "S", "W"]
PORTS = [f"{side}{i}" for side in SIDES for i in range(3)]
PORT_INDEX = {name: i for i, name in enumerate(PORTS)}
OFFSETS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
ROTATIONS = [0, 90, 180, 270]
ROLES = {"path": "herald", "tower": "knight", "house": "squire", "court": "merchant"}
LETTER = {"path": "P", "tower": "T", "house": "H", "court": "C"}


def facing_port(port: int) -> int:
    """The neighbour's port across from ``port``: N0<->S2, N1<->S1, E0<->W2, ..."""
    side, i = divmod(port, 3)
    return ((side + 2) % 4) * 3 + (2 - i)


def cell_key(x: int, y: int) -> str:
    return f"{x},{y}"


# -- the interior --------------------------------------------------------------
INTERIOR: list[list[int]] = [
    [x, y] for y, row in enumerate(BOARD["interior_rows"]) for x, ch in enumerate(row) if ch == "#"
]
INTERIOR_KEYS = frozenset(cell_key(x, y) for x, y in INTERIOR)

# -- start spaces: (cell key, side) -> start space -------------------------------
START_SPACES: dict[str, dict[str, Any]] = {s["id"]: s for s in BOARD["start_spaces"]}
START_AT: dict[tuple[str, str], dict[str, Any]] = {
    (cell_key(*s["faces_cell"]), s["side"]): s for s in BOARD["start_spaces"]
}
# for each start space, port index on the facing cell -> the start space's feature index
START_PORT_FEATURE: dict[str, dict[int, int]] = {
    s["id"]: {PORT_INDEX[p]: f["index"] for f in s["features"] for p in f["cell_ports"]} for s in BOARD["start_spaces"]
}

# -- corner towers ---------------------------------------------------------------
CORNERS: list[dict[str, Any]] = BOARD["corner_towers"]
WALL_TILE_CORNERS: list[str] = [c["id"] for c in CORNERS if c["holds_wall_tile"]]
CORNER_OF_SPACE: dict[int, str] = {n: c["id"] for c in CORNERS if c["holds_wall_tile"] for n in c["numbers"]}

# -- wall tiles --------------------------------------------------------------------
WALL_KINDS: dict[int, dict[str, Any]] = {k["number"]: k for k in WALL_TILES["kinds"]}
WALL_KIND_NUMBER: dict[str, int] = {k["key"]: k["number"] for k in WALL_TILES["kinds"]}
ALL_WALL_TILES: list[int] = sorted(k["number"] for k in WALL_TILES["kinds"] for _ in range(k["copies"]))
EXTRA_TURN = WALL_KIND_NUMBER["extra_turn"]
DOUBLE_FOR = {"tower": WALL_KIND_NUMBER["tower_double"], "house": WALL_KIND_NUMBER["house_double"]}
UNFINISHED_FOR = {
    WALL_KIND_NUMBER["unfinished_path"]: "path",
    WALL_KIND_NUMBER["unfinished_tower"]: "tower",
    WALL_KIND_NUMBER["unfinished_house"]: "house",
}
COURT_FOUR = WALL_KIND_NUMBER["court_four"]
KEEP_PLUS_TWO = WALL_KIND_NUMBER["keep_plus_two"]
FIVE_POINTS = WALL_KIND_NUMBER["five_points"]
FINAL_CHOICE_KINDS = sorted([*UNFINISHED_FOR, COURT_FOUR])

# -- castle tiles --------------------------------------------------------------------
TILE_TYPES: dict[str, dict[str, Any]] = {t["id"]: t for t in TILES["tiles"]}
ALL_CASTLE_TILES: list[str] = [t["id"] for t in TILES["tiles"] for _ in range(t["count"])]


def _rotated(tile: dict[str, Any], rotation: int) -> dict[str, Any]:
    """Per actual port: the feature index and segment type, after a clockwise turn."""
    shift = 3 * rotation // 90
    feature_at = [0] * 12
    for index, feature in enumerate(tile["features"]):
        for port in feature["ports"]:
            feature_at[(PORT_INDEX[port] + shift) % 12] = index
    types = [tile["features"][f]["type"] for f in feature_at]
    return {
        "feature_at": feature_at,
        "type_at": types,
        "path_side": [types[side * 3 + 1] == "path" for side in range(4)],
        "ports_of": [[p for p in range(12) if feature_at[p] == index] for index in range(len(tile["features"]))],
    }


ROTATED = {(tid, r): _rotated(tile, r) for tid, tile in TILE_TYPES.items() for r in ROTATIONS}
