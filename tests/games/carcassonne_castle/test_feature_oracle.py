"""The feature graph against an independent oracle (digest 5.2, 5.3, 7.4, 14).

The oracle is a flood fill over single ports, written from the tile catalogue and the
digest's port conventions without the rotation tables or the union-find of the
package. After every tile placed in bot games, both must find the same features:
type, the pieces (tiles and start spaces) each covers, and whether it is still open.
"""
from __future__ import annotations

import random

from projections.games.carcassonne_castle import GAME
from projections.games.carcassonne_castle.bot import choose
from projections.games.carcassonne_castle.components import BOARD, TILE_TYPES
from projections.games.carcassonne_castle.features import features_of
from tests.games import harness

PORTS = [side + str(i) for side in "NESW" for i in range(3)]
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "E": "W", "S": "N", "W": "E"}
CELLS = {f"{x},{y}" for y, row in enumerate(BOARD["interior_rows"]) for x, ch in enumerate(row) if ch == "#"}
STARTS = {(f"{s['faces_cell'][0]},{s['faces_cell'][1]}", s["side"]): s for s in BOARD["start_spaces"]}


def turned(port: str, rotation: int) -> str:
    """5.2: clockwise rotation moves a port three places per quarter turn."""
    return PORTS[(PORTS.index(port) + 3 * rotation // 90) % 12]


def across(port: str) -> str:
    """5.2 facing: <side><i> faces <opposite side><2-i>."""
    return OPPOSITE[port[0]] + str(2 - int(port[1]))


def oracle(board: dict) -> list:
    links: dict = {}
    kind: dict = {}

    def link(a, b):
        links.setdefault(a, set()).add(b)
        links.setdefault(b, set()).add(a)

    # ports of one feature belong together, on tiles and on start spaces
    for key, (tid, rotation) in board.items():
        for feature in TILE_TYPES[tid]["features"]:
            ports = [(key, turned(p, rotation)) for p in feature["ports"]]
            for port in ports:
                kind[port] = feature["type"]
                link(port, ports[0])
    for space in BOARD["start_spaces"]:
        for feature in space["features"]:
            ports = [(space["id"], p) for p in feature["cell_ports"]]
            for port in ports:
                kind[port] = feature["type"]
                link(port, ports[0])
    # facing ports of the same type join; a port facing an empty interior cell is open
    open_ports = set()
    for key in board:
        x, y = (int(v) for v in key.split(","))
        for side in "NESW":
            space = STARTS.get((key, side))
            other = f"{x + STEP[side][0]},{y + STEP[side][1]}"
            for i in range(3):
                mine = (key, f"{side}{i}")
                if space is not None:
                    theirs = (space["id"], mine[1])
                elif other in board:
                    theirs = (other, across(mine[1]))
                else:
                    if other in CELLS:
                        open_ports.add(mine)
                    continue
                if kind[theirs] == kind[mine]:
                    link(mine, theirs)
    for (cell, _side), space in STARTS.items():
        if cell not in board:
            open_ports.update((space["id"], p) for f in space["features"] for p in f["cell_ports"])
    seen, groups = set(), []
    for start in links:
        if start in seen:
            continue
        seen.add(start)
        stack, members = [start], []
        while stack:
            port = stack.pop()
            members.append(port)
            for other in links[port] - seen:
                seen.add(other)
                stack.append(other)
        groups.append((kind[start], frozenset(piece for piece, _ in members),
                       any(m in open_ports for m in members)))
    return sorted(groups, key=lambda g: (g[0], sorted(g[1]), g[2]))


def engine(board: dict) -> list:
    groups = features_of(board).groups.values()
    return sorted(((g["type"], frozenset(g["pieces"]), g["open"]) for g in groups),
                  key=lambda g: (g[0], sorted(g[1]), g[2]))


def test_feature_graph_agrees_with_a_port_level_flood_fill():
    boards = 0
    for seed in range(3):
        rand = random.Random(seed)
        state, rng, _ = harness.start(GAME, 2, f"oracle-{seed}")
        counter = rng.counter
        while GAME.result(state) is None:
            seat, action = choose(GAME, state, rand)
            state, counter = harness.step(GAME, state, {"seat": seat, **action}, counter, f"oracle-{seed}")
            if action["type"] == "place_tile":
                assert engine(state["board"]) == oracle(state["board"]), (seed, state["placed"][-1])
                boards += 1
    assert boards >= 150
