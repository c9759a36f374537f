"""Hand-worked positions for how features join and close (digest 5.3, 7.2, 7.4, 7.5).

Each test cites the digest section it shows; the expected numbers are worked out in
the comments from the tile catalogue (digest 11.2) and the board map (4.3-4.7).
"""

from __future__ import annotations

from projections.games.carcassonne_castle import GAME
from projections.games.carcassonne_castle.features import features_of

from .helpers import act, given, happened


def scored(state):
    return [(r["seat"], r["type"], r["size"], r["points"]) for r in happened(state, "feature_scored")]


def test_path_into_an_inward_corner_tower_is_closed_there():
    # 7.2 rule 4 / 4.7: the west side of (3,4) faces corner tower K20 (an inward bend),
    # which closes a path like plain wall. CT14 on (4,4) ends its west branch at a square.
    # CT01 turned 90 (path W-E) on (3,4): path = (3,4) + (4,4)'s west branch = 2 tiles,
    # closed at K20 and at the square: 2 x 1 = 2 points (7.5), though (3,3) and (3,5) are empty.
    state = given(board={(4, 4): ("CT14", 0)}, tile="CT01")
    state = act(state, 0, "place_tile", x=3, y=4, rotation=90)
    state = act(state, 0, "place_follower", feature=0)
    assert scored(state) == [(0, "path", 2, 2)]
    assert state["score"] == [2, 0] and state["supply"] == [6, 6]


def test_path_closing_on_itself_in_a_loop_is_complete():
    # 7.4: a path that forms a loop has no end facing an empty cell. Four curves (CT10,
    # path E-S turned 0/90/180/270) on (4,7) (5,7) (5,8) (4,8) make a ring of 4 tiles:
    # 4 x 1 = 4 points to the herald on (4,7), scored on the turn the last curve goes down.
    board = {(4, 7): ("CT10", 0), (5, 7): ("CT10", 90), (5, 8): ("CT10", 180)}
    state = given(board=board, followers=[(0, "4,7,0", "herald")], tile="CT10")
    state = act(state, 0, "place_tile", x=4, y=8, rotation=270)
    assert state["phase"] == "follower"  # the courts of the new tile are still free
    state = act(state, 0, "skip_follower")
    assert scored(state) == [(0, "path", 4, 4)]
    assert state["score"] == [4, 0] and state["followers"] == []


def test_junction_without_a_square_keeps_one_path_and_its_well_doubles_it():
    # 5.1 / 5.3: a junction with no square joins its branches. CT19 (E-S-W junction with
    # a well) on (3,11): south meets SS7's path, east and west meet CT20s whose paths end
    # at house doors. One path of SS7 + (2,11) + (3,11) + (4,11) = 4 tiles, with a well:
    # 4 x 2 = 8 points (7.5; the start space counts as a tile and is doubled too).
    board = {(4, 11): ("CT20", 90), (2, 11): ("CT20", 270)}
    state = given(board=board, tile="CT19")
    state = act(state, 0, "place_tile", x=3, y=11, rotation=0)
    state = act(state, 0, "place_follower", feature=0)
    assert scored(state) == [(0, "path", 4, 8)]


def test_two_wells_on_one_path_do_not_add_up():
    # 7.5: "2 per tile if there is at least one well anywhere on it (wells do not add up)".
    # SS7 + CT03 (well) on (3,11) + CT03 (well) on (3,10) + CT14 (square) on (3,9):
    # 4 tiles x 2 = 8, not more for the second well.
    board = {(3, 10): ("CT03", 0), (3, 9): ("CT14", 0)}
    state = given(board=board, tile="CT03")
    state = act(state, 0, "place_tile", x=3, y=11, rotation=0)
    state = act(state, 0, "place_follower", feature=0)
    assert scored(state) == [(0, "path", 4, 8)]


def test_a_square_cuts_a_crossroads_into_four_paths():
    # 5.1 / 5.3: a square ends every path reaching it. CT16 on (3,11): its four paths are
    # four features, all free for a herald; the south one (feature 2) is closed at once by
    # SS7 and the square: SS7 + (3,11) = 2 tiles = 2 points. The other three stay open.
    state = given(tile="CT16")
    state = act(state, 0, "place_tile", x=3, y=11, rotation=0)
    assert [a["payload"]["feature"] for a in GAME.legal_actions(state, 0) if a["type"] == "place_follower"] == list(
        range(8)
    )
    state = act(state, 0, "place_follower", feature=2)
    assert scored(state) == [(0, "path", 2, 2)]
    feats = features_of(state["board"])
    roots = {feats.find(f"3,11,{i}") for i in range(4)}
    assert len(roots) == 4
    assert [feats.group_of(f"3,11,{i}")["open"] for i in range(4)] == [True, True, False, True]


def test_a_tile_counts_once_when_a_feature_passes_through_it_twice():
    # 5.3: size counts distinct tiles. CT34 turned 90 on (3,1) shows two houses (east and
    # west) split by a court band; both touch its north side, where CT25 (all house) on
    # (3,0) joins them into one house. That house is (3,0) + (3,1) = 2 tiles, closed by
    # the wall, the courts on (4,0) (4,1) (3,2) and SS3's tower: 2 x 1 = 2 points, and the
    # keep notes 2 tiles (7.5 keep), not 3.
    board = {(3, 0): ("CT25", 0), (4, 0): ("CT31", 0), (4, 1): ("CT31", 0), (3, 2): ("CT31", 0)}
    state = given(board=board, tile="CT34")
    state = act(state, 0, "place_tile", x=3, y=1, rotation=90)
    feats = features_of(state["board"])
    assert feats.find("3,1,0") == feats.find("3,1,2") != feats.find("3,1,1")
    state = act(state, 0, "place_follower", feature=2)
    assert scored(state) == [(0, "house", 2, 2)]
    assert state["keep"][0] == {"node": "3,0,0", "size": 2}


def test_house_beside_a_tower_does_not_join_it():
    # 5.3: different types touch without joining. CT25 (all house) on (3,0) faces SS3's
    # tower on its west side: the house is (3,0) alone, and SS3's tower stays a
    # one-piece feature of its own, closed now that its cell is filled.
    state = given(board={(4, 0): ("CT31", 0), (3, 1): ("CT31", 0)}, tile="CT25")
    state = act(state, 0, "place_tile", x=3, y=0, rotation=0)
    feats = features_of(state["board"])
    assert feats.find("3,0,0") != feats.find("SS3:0")
    assert feats.group_of("SS3:0")["type"] == "tower" and feats.group_of("SS3:0")["open"] is False
    state = act(state, 0, "place_follower", feature=0)
    assert scored(state) == [(0, "house", 1, 1)]
