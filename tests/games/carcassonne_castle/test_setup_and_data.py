"""Setup (digest 6) and the component data (digest 3, 4, 10, 11), checked against the
numbers the digest prints."""

from __future__ import annotations

from collections import Counter

from events.rng import SeededRng
from projections.games.carcassonne_castle import GAME
from projections.games.carcassonne_castle.components import (
    ALL_CASTLE_TILES,
    BOARD,
    CORNER_OF_SPACE,
    INTERIOR,
    START_SPACES,
    TILE_TYPES,
    TILES,
    WALL_TILE_CORNERS,
)
from tests.games.harness import load_options


def test_setup_gives_each_player_six_followers_and_lays_thirteen_wall_tiles_face_down():
    # 6: 7 followers each, one of them the score marker on 0 -> 6 in supply; 18 wall tiles
    # (9 kinds x 2), 13 face down on every corner but 0/1, the other 5 out of the game
    # unseen; the 60 castle tiles shuffled, the first one drawn face up for seat 0 (G11).
    state = GAME.setup(load_options(GAME, {}), 2, SeededRng("setup", 0))
    assert state["supply"] == [6, 6] and state["score"] == [0, 0] and state["followers"] == []
    assert state["keep"] == [None, None] and state["held"] == [[], []]
    assert sorted(state["frame"]) == sorted(WALL_TILE_CORNERS) and "K00" not in state["frame"]
    assert len(state["frame"]) == 13 and len(state["set_aside"]) == 5
    assert Counter([*state["frame"].values(), *state["set_aside"]]) == Counter({k: 2 for k in range(1, 10)})
    assert Counter([state["tile"], *state["pile"]]) == Counter(ALL_CASTLE_TILES) and len(state["pile"]) == 59
    assert state["phase"] == "place" and state["active"] == 0 and state["turn"] == 1
    view = GAME.view(state, None)
    assert view["tile"]["tile"] == state["tile"] and view["pile_count"] == 59
    assert set(view["frame"].values()) == {"face_down"} and view["set_aside"] == 5


def test_castle_has_76_cells_seven_start_spaces_and_26_wall_tile_spaces():
    # 3 / 4.3-4.6: 76 interior cells; start spaces in front of (1,9) (3,5) (3,0) (6,0) (8,2)
    # (7,7) (3,11); the 26 track spaces that win a wall tile.
    assert len(INTERIOR) == 76
    assert sorted(tuple(s["faces_cell"]) for s in START_SPACES.values()) == sorted(
        [(1, 9), (3, 5), (3, 0), (6, 0), (8, 2), (7, 7), (3, 11)]
    )
    assert sorted(CORNER_OF_SPACE) == [
        12,
        13,
        16,
        17,
        20,
        21,
        26,
        27,
        32,
        33,
        38,
        39,
        42,
        43,
        56,
        57,
        64,
        65,
        66,
        67,
        82,
        83,
        88,
        89,
        90,
        91,
    ]
    assert len(BOARD["track"]) == 100


def test_reconstructed_values_stay_marked_in_the_data():
    # 16 G1 / G2: the castle tiles and the start-space artwork are reconstructions and
    # say so in the JSON; the set still has 36 types, 60 tiles, 11 markets on tiles
    # (+1 on SS1), 5 wells and 6 tiles with a square (digest 11.1 summary).
    assert TILES["reconstructed"] is True and all(t["reconstructed"] for t in TILES["tiles"])
    assert all(s["reconstructed"] for s in BOARD["start_spaces"])
    assert len(TILE_TYPES) == 36 and len(ALL_CASTLE_TILES) == 60
    count = Counter(ALL_CASTLE_TILES)
    features = [(tid, f) for tid in ALL_CASTLE_TILES for f in TILE_TYPES[tid]["features"]]
    assert sum(f.get("markets", 0) for _, f in features) == 11
    assert sum(f["markets"] for s in START_SPACES.values() for f in s["features"] if f.get("markets")) == 1
    assert sum(1 for _, f in features if f.get("well")) == 5
    squares = {tid for tid, tile in TILE_TYPES.items() if any(f.get("inner_end") == "square" for f in tile["features"])}
    assert sum(count[tid] for tid in squares) == 6
