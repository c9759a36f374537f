"""The pictures beside the wall's numbers (the start spaces) take any terrain (rules version 3).

The rulebook, 遊戲進行 (1), first says what may meet the pictures, then what a tile must
do against the tiles already placed:

    玩家在放置城堡板塊時,無論道路(黃)、城塔(灰)、房屋(紅)、庭院(綠)皆可與城牆框架上數字旁邊的圖案相連接。
    "When placing a castle tile, whether path (yellow), tower (grey), house (red) or court
    (green), each may join the picture beside a number on the wall frame."

    玩家在放置城堡板塊時須與原置放城堡板塊邊與邊相連、角與角相接,且道路須與道路連接,但城塔、房屋、庭院相互之間則可任意相接
    "When placing a castle tile, it must meet the castle tiles already placed side to side
    and corner to corner, and paths must join paths, but towers, houses and courts may meet
    one another freely."

So the path-to-path rule binds a tile against placed tiles; against a picture any terrain
is allowed. Versions 1 and 2 applied the path rule to the pictures too (on an empty castle
528 of the 1,008 tile type x rotation x picture placements were refused); that reading stays
as the option ``start_pictures=paths_match`` and is how games recorded under versions 1 and 2
fold.
"""

from __future__ import annotations

from projections.games.carcassonne_castle import GAME
from projections.games.carcassonne_castle.components import START_SPACES, TILE_TYPES
from projections.games.carcassonne_castle.features import features_of
from tests.games.harness import assert_refused

from .helpers import act, ev, given, happened

START_CELLS = sorted(tuple(s["faces_cell"]) for s in START_SPACES.values())


def placements(state, seat=0):
    return [a["payload"] for a in GAME.legal_actions(state, seat) if a["type"] == "place_tile"]


def test_a_path_may_run_into_a_court_picture_and_ends_there():
    """「玩家在放置城堡板塊時,無論道路(黃)、城塔(灰)、房屋(紅)、庭院(綠)皆可與城牆框架上數字旁邊的圖案相連接。」
    "Whether path, tower, house or court, each may join the picture beside a wall number."

    Given an empty castle and the drawn tile CT20 (a path from the south ending at a house
    door), when seat 0 turns it 90 degrees so that its path points west into SS1's court
    picture at (1,9), then the placement is offered and accepted. The path ends at the
    picture as at the wall (完整道路: a path is complete when the wall, a square, a tower or
    a house blocks it): with a herald on it, it is one tile, closed at both ends, and pays
    1 point at once; the court picture is no part of it.
    """
    state = given(tile="CT20")
    assert {"x": 1, "y": 9, "rotation": 90} in placements(state)
    state = act(state, 0, "place_tile", x=1, y=9, rotation=90)
    assert state["phase"] == "follower"
    assert {"type": "place_follower", "payload": {"feature": 0}} in GAME.legal_actions(state, 0)
    state = act(state, 0, "place_follower", feature=0)
    assert [(r["seat"], r["type"], r["size"], r["points"]) for r in happened(state, "feature_scored")] == [
        (0, "path", 1, 1)
    ]
    assert state["score"] == [1, 0] and state["supply"] == [6, 6]


def test_a_tile_without_a_path_may_close_a_path_picture():
    """「無論道路(黃)、城塔(灰)、房屋(紅)、庭院(綠)皆可與城牆框架上數字旁邊的圖案相連接」
    "Path, tower, house or court: each may join the picture beside a wall number."

    Given an empty castle and the drawn court CT31, when seat 0 lays it before SS7 at
    (3,11), whose picture shows a path between two courts, then it is offered and accepted:
    the tile's court joins both of the picture's courts, and the picture's path, which
    now faces a court, is closed there and belongs to nothing else.
    """
    state = given(tile="CT31")
    assert {"x": 3, "y": 11, "rotation": 0} in placements(state)
    state = act(state, 0, "place_tile", x=3, y=11, rotation=0)
    assert state["board"]["3,11"] == ["CT31", 0]
    feats = features_of(state["board"])
    court = feats.group_of("3,11,0")
    assert {"SS7:0", "SS7:2"} <= set(court["nodes"]) and "SS7:1" not in court["nodes"]
    picture_path = feats.group_of("SS7:1")
    assert picture_path["nodes"] == ["SS7:1"] and not picture_path["open"]


def test_on_an_empty_board_every_tile_fits_every_start_picture_in_every_rotation():
    """「第1個城堡板塊須放置在城牆框架上數字旁邊的圖案相鄰處」 with 「...皆可與城牆框架上數字旁邊的圖案相連接」
    "The first castle tile must be placed next to a picture beside a wall number", and any
    terrain may join those pictures.

    Given an empty castle, whichever of the 36 tile types is drawn, the offer is exactly
    the 7 cells before the pictures, each in all four rotations (28 placements).
    """
    state = given()
    for tid in TILE_TYPES:
        state["tile"] = tid
        offered = placements(state)
        assert len(offered) == 28, tid
        assert sorted({(p["x"], p["y"]) for p in offered}) == START_CELLS, tid


def test_paths_still_meet_paths_between_placed_tiles():
    """「玩家在放置城堡板塊時須與原置放城堡板塊邊與邊相連、角與角相接,且道路須與道路連接」
    "A tile must meet the castle tiles already placed side to side, and paths must join paths."

    Given the court CT31 already on (3,11), when seat 0 lays the straight path CT01 on
    (3,10) with its path running south into that court, then it is refused
    ``path_mismatch``, and that placement is not offered; turned a quarter (path east-west,
    court to the south) it is.
    """
    state = given(board={(3, 11): ("CT31", 0)}, tile="CT01")
    assert_refused(GAME, state, ev(0, "place_tile", x=3, y=10, rotation=0), "path_mismatch")
    assert {"x": 3, "y": 10, "rotation": 0} not in placements(state)
    assert {"x": 3, "y": 10, "rotation": 90} in placements(state)


def test_games_of_rules_version_2_keep_paths_meeting_paths_at_the_pictures():
    """Versions 1 and 2 read 「道路須與道路連接」 as binding at the pictures too; a game
    recorded under them folds as it did: CT20's path into SS1's court picture is refused
    ``path_mismatch`` and not offered, and a court before SS7's path picture is not offered.
    The version decides, whatever ``start_pictures`` says (a version 2 ``game.created``
    never carries it; here the schema's default ``any`` is filled in and ignored).
    """
    state = given(tile="CT20", options={"rules_version": 2})
    assert GAME.version(state) == 2 and state["options"]["start_pictures"] == "any"
    assert_refused(GAME, state, ev(0, "place_tile", x=1, y=9, rotation=90), "path_mismatch")
    assert {"x": 1, "y": 9, "rotation": 90} not in placements(state)
    state = given(tile="CT31", options={"rules_version": 2})
    assert sorted({(p["x"], p["y"]) for p in placements(state)}) == [(1, 9), (3, 0), (3, 5)]


def test_the_paths_match_option_keeps_the_old_reading_in_new_games():
    """The option ``start_pictures=paths_match`` plays versions 1 and 2's reading in a new
    game: a path must meet a path at a picture, and a pathless side must not face a
    picture's path."""
    state = given(tile="CT20", options={"start_pictures": "paths_match"})
    assert GAME.version(state) == GAME.rules_version
    assert_refused(GAME, state, ev(0, "place_tile", x=1, y=9, rotation=90), "path_mismatch")
    state = given(tile="CT31", options={"start_pictures": "paths_match"})
    assert_refused(GAME, state, ev(0, "place_tile", x=3, y=11, rotation=0), "path_mismatch")
    assert sorted({(p["x"], p["y"]) for p in placements(state)}) == [(1, 9), (3, 0), (3, 5)]


def test_after_the_first_tile_a_tile_may_go_before_a_picture_or_beside_a_placed_tile():
    """「第1個城堡板塊須放置在城牆框架上數字旁邊的圖案相鄰處,第1個之後的城堡板塊擇可放置在城牆框架上數字旁邊的圖案相鄰處或放置在已置放城堡板塊的相鄰處」
    "The first castle tile must be placed next to a picture beside a wall number; after the
    first, a castle tile may be placed either next to such a picture or next to a castle
    tile already placed."

    Given the court CT31 already on (1,9) before SS1, when the next tile (another CT31) is
    to be placed, then both kinds of cell are offered: the six other cells before the
    pictures, and the free cells beside (1,9); a cell touching neither is refused
    ``not_adjacent``.
    """
    state = given(board={(1, 9): ("CT31", 0)}, tile="CT31")
    cells = {(p["x"], p["y"]) for p in placements(state)}
    assert set(START_CELLS) - {(1, 9)} <= cells
    assert {(1, 8), (2, 9), (1, 10)} <= cells
    assert cells == (set(START_CELLS) - {(1, 9)}) | {(1, 8), (2, 9), (1, 10)}
    state = act(state, 0, "place_tile", x=1, y=8, rotation=0)
    assert state["board"]["1,8"] == ["CT31", 0]
    assert_refused(
        GAME, given(board={(1, 9): ("CT31", 0)}, tile="CT31"), ev(0, "place_tile", x=5, y=5, rotation=0), "not_adjacent"
    )
