"""The feature graph and in-play scoring against an independent oracle (digest 5.2,
5.3, 7.4, 7.5, 14).

The oracle is a flood fill over single ports, written from the tile catalogue and the
digest's port conventions without the rotation tables or the union-find of the
package. After every tile placed in bot games, both must find the same features (type,
the pieces each covers, open or not), and the features the turn scored or tied must be
exactly the closed ones the oracle finds with followers, with the same scorer and points.
At the end, the final-scoring breakdown (8.2-8.5) is recomputed from the oracle too.
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
    return sorted(
        ((t, pieces, is_open) for t, pieces, is_open, *_ in port_groups(board)),
        key=lambda g: (g[0], sorted(g[1]), g[2]),
    )


def port_groups(board: dict) -> list:
    """(type, pieces, open, ports, well, markets) for every connected feature of ``board``."""
    links: dict = {}
    kind: dict = {}
    wells: set = set()
    markets: dict = {}

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
            if feature.get("well"):
                wells.update(ports)
            markets[ports[0]] = feature.get("markets", 0)
    for space in BOARD["start_spaces"]:
        for feature in space["features"]:
            ports = [(space["id"], p) for p in feature["cell_ports"]]
            for port in ports:
                kind[port] = feature["type"]
                link(port, ports[0])
            markets[ports[0]] = feature.get("markets", 0)
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
        groups.append(
            (
                kind[start],
                frozenset(piece for piece, _ in members),
                any(m in open_ports for m in members),
                frozenset(members),
                any(m in wells for m in members),
                sum(markets.get(m, 0) for m in members),
            )
        )
    return groups


def engine(board: dict) -> list:
    groups = features_of(board).groups.values()
    return sorted(
        ((g["type"], frozenset(g["pieces"]), g["open"]) for g in groups), key=lambda g: (g[0], sorted(g[1]), g[2])
    )


RATE = {"path": 1, "tower": 2, "house": 1}


def expected_scoring(before: dict, board: dict, followers: list) -> list:
    """7.4-7.5 from the oracle: every path/tower/house closed by this placement (it was
    open before, or is new) that carries followers, with its scorer (strict majority,
    None on a tie) and its plain points (path 1 or 2 with a well, tower 2, house 1)."""
    open_before = {port for _, _, is_open, ports, *_ in port_groups(before["board"]) if is_open for port in ports}
    (new_cell,) = set(board) - set(before["board"])
    out = []
    for kind, pieces, is_open, ports, well, _ in port_groups(board):
        if kind == "court" or is_open or not (new_cell in pieces or ports & open_before):
            continue
        counts = count_on(board, ports, followers)
        if sum(counts):
            scorer = None if counts[0] == counts[1] else counts.index(max(counts))
            rate = 2 if kind == "path" and well else RATE[kind]
            out.append((kind, len(pieces), scorer, rate * len(pieces)))
    return sorted(out, key=repr)


def port_of(board: dict, node: str) -> tuple:
    """A port of the tile feature ``"x,y,i"``."""
    x, y, index = node.split(",")
    tid, rotation = board[f"{x},{y}"]
    return (f"{x},{y}", turned(TILE_TYPES[tid]["features"][int(index)]["ports"][0], rotation))


def count_on(board: dict, ports: frozenset, followers: list) -> list:
    counts = [0, 0]
    for f in followers:
        if port_of(board, f["node"]) in ports:
            counts[f["seat"]] += 1
    return counts


def largest_empty_area(board: dict) -> int:
    empty, best = CELLS - set(board), 0
    while empty:
        stack, size = [empty.pop()], 0
        while stack:
            x, y = (int(v) for v in stack.pop().split(","))
            size += 1
            for dx, dy in STEP.values():
                if f"{x + dx},{y + dy}" in empty:
                    empty.remove(f"{x + dx},{y + dy}")
                    stack.append(f"{x + dx},{y + dy}")
        best = max(best, size)
    return best


def expected_final(final: dict, chooser_followers: list) -> dict:
    """8.2-8.5 from the oracle: keep bonus, tiles 4-6, courts (tile 7), tile 9."""
    board, parts = final["board"], {k: [0, 0] for k in ("keep", "unfinished", "courts", "five_points")}
    values = [
        None if k is None else k["size"] + 2 * sum(t["kind"] == 8 for t in held)
        for k, held in zip(final["keep"], final["held"])
    ]
    area = largest_empty_area(board)
    ranked = [-1 if v is None else v for v in values]
    if ranked[0] != ranked[1]:
        parts["keep"][ranked.index(max(ranked))] = area
    groups = port_groups(board)
    group_of = {port: g for g in groups for port in g[3]}
    named_courts = [set(), set()]
    for seat, choices in enumerate(final["final_choices"]):
        for choice in choices:
            if choice["target"] is None:
                continue
            kind, pieces, is_open, ports, well, _ = group_of[port_of(board, choice["target"])]
            wanted = {4: "path", 5: "tower", 6: "house", 7: "court"}[choice["kind"]]
            assert kind == wanted
            if final["options"]["unfinished_needs_majority"] or wanted == "court":
                counts = count_on(board, ports, chooser_followers)
                assert counts[seat] > counts[1 - seat]
            if wanted == "court":
                named_courts[seat].add(ports)
            else:
                assert is_open
                parts["unfinished"][seat] += (2 if kind == "path" and well else RATE[kind]) * len(pieces)
    for kind, _, _, ports, _, markets in groups:
        if kind != "court" or not markets:
            continue
        counts = count_on(board, ports, final["followers"])
        if counts[0] != counts[1]:
            winner = counts.index(max(counts))
            parts["courts"][winner] += (4 if ports in named_courts[winner] else 3) * markets
    for seat, held in enumerate(final["held"]):
        parts["five_points"][seat] = 5 * sum(t["kind"] == 9 for t in held)
    return {"largest_empty_area": area, "keep_values": values, **parts}


def test_feature_graph_and_scoring_agree_with_a_port_level_flood_fill():
    boards = turns = 0
    for seed in range(3):
        rand = random.Random(seed)
        state, rng, _ = harness.start(GAME, 2, f"oracle-{seed}")
        counter = rng.counter
        turn = None  # (state before the placement, notes of the turn so far)
        chooser_followers = None  # the followers while wall tiles 4-7 are being aimed
        while GAME.result(state) is None:
            seat, action = choose(GAME, state, rand)
            before = state
            state, counter = harness.step(GAME, state, {"seat": seat, **action}, counter, f"oracle-{seed}")
            if action["type"] == "place_tile":
                assert engine(state["board"]) == oracle(state["board"]), (seed, state["placed"][-1])
                boards += 1
                turn = (before, [])
            if turn is not None:
                turn[1].extend(state["recent"])
                if state["phase"] in ("place", "final", "over", "post", "confirm_remove"):
                    turns += check_turn(*turn, state)
                    turn = None
            if state["phase"] == "final":
                chooser_followers = state["followers"]
        assert state["breakdown"] == expected_final(state, chooser_followers or state["followers"])
    assert boards >= 150 and turns >= 150


def check_turn(before: dict, notes: list, after: dict) -> bool:
    """The features scored in one turn are exactly the oracle's, at the digest's rates
    (an x2 tile doubles only a tower or a house). False if no tile was placed."""
    if len(after["placed"]) == len(before["placed"]):
        return False
    x, y = after["placed"][len(before["placed"])]
    board = {**before["board"], f"{x},{y}": after["board"][f"{x},{y}"]}
    placed = [n for n in notes if n["what"] == "follower_placed"]
    followers = before["followers"] + [{"seat": n["seat"], "node": n["node"]} for n in placed]
    got = []
    for n in notes:
        if n["what"] == "feature_scored":
            assert not n["doubled"] or n["type"] in ("tower", "house")
            got.append((n["type"], n["size"], n["seat"], n["points"] // 2 if n["doubled"] else n["points"]))
        elif n["what"] == "feature_tied":
            got.append((n["type"], n["size"], None, None))
    want = [
        (t, size, scorer, None if scorer is None else points)
        for t, size, scorer, points in expected_scoring(before, board, followers)
    ]
    assert sorted(got, key=repr) == sorted(want, key=repr)
    check_marker_and_keep(before, notes)
    return True


CORNER_AT = {n: c["id"] for c in BOARD["corner_towers"] if c["holds_wall_tile"] for n in c["numbers"]}


def check_marker_and_keep(before: dict, notes: list) -> None:
    """7.5: each scored feature moves its scorer once; ending on a corner number (score
    mod 100) whose tile is still there takes it; a scored house takes the keep if the
    scorer has none or a smaller one. Replayed note by note from the turn's start."""
    score, frame = list(before["score"]), dict(before["frame"])
    keep = [None if k is None else k["size"] for k in before["keep"]]
    expected = []
    for n in notes:
        if n["what"] != "feature_scored":
            continue
        seat = n["seat"]
        score[seat] += n["points"]
        expected.append(("feature_scored", seat))
        corner = CORNER_AT.get(score[seat] % 100)
        if corner is not None and frame.get(corner) is not None:
            expected.append(("wall_tile_taken", seat, corner, frame[corner]))
            frame[corner] = None
        if n["type"] == "house" and (keep[seat] is None or n["size"] > keep[seat]):
            keep[seat] = n["size"]
            expected.append(("keep_placed", seat))
    seen = []
    for n in notes:
        if n["what"] in ("feature_scored", "keep_placed"):
            seen.append((n["what"], n["seat"]))
        elif n["what"] == "wall_tile_taken":
            seen.append((n["what"], n["seat"], n["corner"], n["kind"]))
    assert seen == expected
