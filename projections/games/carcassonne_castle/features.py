"""Connected features: paths, towers, houses and courts merged across tiles (digest 5.3, 7.4).

Nodes are one tile feature (``"x,y,i"``) or one start-space feature (``"SS1:0"``).
Facing segments of the same type join their features; a feature is open while any
of its segments faces an empty interior cell. Rebuilt from the board on demand:
with at most 60 tiles this is cheap and has no incremental state to get wrong.
"""

from __future__ import annotations

from typing import Any

from .components import (
    ROTATED,
    START_PORT_FEATURE,
    START_SPACES,
    TILE_TYPES,
    cell_key,
    facing_port,
)
from .placement import ACROSS, Board

Group = dict[str, Any]
"""One connected feature: ``type``, ``nodes`` (sorted), ``pieces`` (a set of tile keys and
start-space ids), ``size``, ``open``, ``well``, ``markets``."""


def tile_node(x: int, y: int, index: int) -> str:
    return f"{x},{y},{index}"


def start_node(space_id: str, index: int) -> str:
    return f"{space_id}:{index}"


class Features:
    """The feature graph of one board: which nodes belong together, and each group's facts."""

    def __init__(self, board: Board):
        self.board = board
        self.parent: dict[str, str] = {}
        self.info: dict[str, dict[str, Any]] = {}  # node -> its own facts before merging
        self._add_start_spaces(board)
        for key, (tid, rot) in board.items():
            self._add_tile(key, tid, rot)
        for key, (tid, rot) in board.items():
            self._join_tile(key, tid, rot)
        self.groups = self._collect()

    # -- building ----------------------------------------------------------------
    def _add_start_spaces(self, board: Board) -> None:
        for space in START_SPACES.values():
            empty = cell_key(*space["faces_cell"]) not in board
            for feature in space["features"]:
                node = start_node(space["id"], feature["index"])
                self.parent[node] = node
                self.info[node] = {
                    "type": feature["type"],
                    "piece": space["id"],
                    "open": empty,
                    "well": bool(feature.get("well")),
                    "markets": feature.get("markets", 0),
                }

    def _add_tile(self, key: str, tid: str, rot: int) -> None:
        for index, feature in enumerate(TILE_TYPES[tid]["features"]):
            node = f"{key},{index}"
            self.parent[node] = node
            self.info[node] = {
                "type": feature["type"],
                "piece": key,
                "open": False,
                "well": bool(feature.get("well")),
                "markets": feature.get("markets", 0),
            }

    def _join_tile(self, key: str, tid: str, rot: int) -> None:
        table = ROTATED[(tid, rot)]
        feature_at, type_at = table["feature_at"], table["type_at"]
        for side, (kind, what) in enumerate(ACROSS[key]):
            if kind == "wall":
                continue
            if kind == "cell" and what not in self.board:
                for port in range(side * 3, side * 3 + 3):
                    self.info[f"{key},{feature_at[port]}"]["open"] = True
                continue
            for port in range(side * 3, side * 3 + 3):
                mine = f"{key},{feature_at[port]}"
                if kind == "cell":
                    other = ROTATED[tuple(self.board[what])]
                    across = facing_port(port)
                    if other["type_at"][across] == type_at[port]:
                        self._union(mine, f"{what},{other['feature_at'][across]}")
                elif what["segments"][_port_name(port)] == type_at[port]:
                    self._union(mine, start_node(what["id"], START_PORT_FEATURE[what["id"]][port]))

    def find(self, node: str) -> str:
        parent = self.parent
        root = node
        while parent[root] != root:
            root = parent[root]
        while parent[node] != root:
            parent[node], node = root, parent[node]
        return root

    def _union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)

    def _collect(self) -> dict[str, Group]:
        groups: dict[str, Group] = {}
        for node, facts in self.info.items():
            root = self.find(node)
            group = groups.setdefault(
                root,
                {
                    "type": facts["type"],
                    "nodes": [],
                    "pieces": set(),
                    "open": False,
                    "well": False,
                    "markets": 0,
                },
            )
            group["nodes"].append(node)
            group["pieces"].add(facts["piece"])
            group["open"] = group["open"] or facts["open"]
            group["well"] = group["well"] or facts["well"]
            group["markets"] += facts["markets"]
        for group in groups.values():
            group["size"] = len(group["pieces"])
            group["nodes"].sort()
        return groups

    # -- questions -----------------------------------------------------------------
    def group_of(self, node: str) -> Group:
        return self.groups[self.find(node)]

    def followers_on(self, group: Group, followers: list[dict[str, Any]]) -> list[dict[str, Any]]:
        nodes = set(group["nodes"])
        return [f for f in followers if f["node"] in nodes]


_CACHE: dict[str, Features] = {}


def features_of(board: Board) -> Features:
    """The feature graph of ``board``, reused while the board is unchanged (boards only grow)."""
    key = ";".join(f"{k}={t}/{r}" for k, (t, r) in board.items())
    graph = _CACHE.get(key)
    if graph is None:
        if len(_CACHE) > 256:
            _CACHE.clear()
        graph = _CACHE[key] = Features(board)
    return graph


def _port_name(port: int) -> str:
    return "NESW"[port // 3] + str(port % 3)


def count_by_seat(followers: list[dict[str, Any]], seats: int) -> list[int]:
    counts = [0] * seats
    for follower in followers:
        counts[follower["seat"]] += 1
    return counts


def majority(counts: list[int]) -> int | None:
    """The seat with strictly more followers than every other, or None on a tie (digest 7.5)."""
    best = max(counts)
    if best == 0 or counts.count(best) > 1:
        return None
    return counts.index(best)


def canonical_node(group: Group) -> str | None:
    """The group's name for final targets: its first tile node in (y, x, feature) order."""
    tile_nodes: list[str] = [n for n in group["nodes"] if ":" not in n]
    if not tile_nodes:
        return None
    return min(tile_nodes, key=node_order)


def node_order(node: str) -> tuple[int, int, int]:
    """Board order of tile nodes: row, then column, then feature index."""
    x, y, i = parse_node(node)
    return (y, x, i)


def parse_node(node: str) -> tuple[int, int, int]:
    x, y, i = (int(v) for v in node.split(","))
    return x, y, i
