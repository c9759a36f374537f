"""Final scoring (digest section 8), worked by hand. Each position is played to its end
by placing the last tile of the pile on (1,9), before start space SS1, with no follower."""

from __future__ import annotations

from projections.games.carcassonne_castle import GAME
from tests.games.harness import assert_refused

from .helpers import act, ev, given


def finish(state):
    """Place the last tile (CT31 on (1,9)) and skip the follower: the game ends (8)."""
    state = act(state, state["active"], "place_tile", x=1, y=9, rotation=0)
    if state["phase"] == "follower":
        state = act(state, state["active"], "skip_follower")
    return state


def last_turn(**kwargs):
    kwargs.setdefault("pile", [])
    kwargs.setdefault("tile", "CT31")
    return given(**kwargs)


def test_game_ends_after_the_turn_that_empties_the_pile():
    state = finish(last_turn())
    assert state["phase"] == "over" and GAME.to_act(state) == set()
    assert GAME.result(state) == {"scores": [0, 0], "ranking": [1, 1], "tiebreak": None}


def test_larger_keep_scores_the_largest_empty_area():
    # 8.2: one tile on (1,9), the rest of the 76 cells empty and joined: L = 75.
    state = finish(last_turn(keep=(("8,0,0", 3), ("8,1,0", 2))))
    assert state["breakdown"]["largest_empty_area"] == 75
    assert state["score"] == [75, 0]


def test_keep_plus_two_tiles_add_to_the_keep_value():
    # 8.2 with tile 8: 2 + 2 = 4 beats 3; two tiles 8 add 4 (G8).
    state = finish(last_turn(keep=(("8,0,0", 3), ("8,1,0", 2)), held=([], [(8, 1)])))
    assert state["breakdown"]["keep_values"] == [3, 4] and state["score"] == [0, 75]
    state = finish(last_turn(keep=(("8,0,0", 5), ("8,1,0", 2)), held=([], [(8, 1), (8, 2)])))
    assert state["breakdown"]["keep_values"] == [5, 6] and state["score"] == [0, 75]


def test_equal_keeps_score_nothing():
    # G4: equal keep values: nobody scores the area.
    state = finish(last_turn(keep=(("8,0,0", 3), ("8,1,0", 1)), held=([], [(8, 1)])))
    assert state["score"] == [0, 0]


def test_no_keep_cannot_win_the_area_even_with_keep_plus_two():
    # G4: a player who never scored a house has no keep value.
    state = finish(last_turn(keep=(("8,0,0", 1), None), held=([], [(8, 1)])))
    assert state["score"] == [75, 0]


def test_court_pays_three_per_market_to_the_merchant_majority():
    # 8.4: SS1 (1 market) + CT31 on (1,9) (1 market) + CT31 on (1,8) (1 market) = 3 markets x 3.
    board = {(1, 8): ("CT31", 0)}
    state = finish(last_turn(board=board, followers=[(0, "1,8,0", "merchant")]))
    assert state["breakdown"]["courts"] == [9, 0] and state["score"] == [9, 0]


def test_court_tie_pays_nobody():
    board = {(1, 8): ("CT31", 0), (1, 7): ("CT31", 0)}
    followers = [(0, "1,8,0", "merchant"), (1, "1,7,0", "merchant")]
    state = finish(last_turn(board=board, followers=followers))
    assert state["breakdown"]["courts"] == [0, 0]


def test_court_four_names_a_won_court_and_pays_four_per_market():
    # 8.4 with tile 7: the holder names the court: 3 markets x 4 = 12.
    board = {(1, 8): ("CT31", 0)}
    state = finish(last_turn(board=board, followers=[(0, "1,8,0", "merchant")], held=([(7, 1)], [])))
    assert state["phase"] == "final" and GAME.to_act(state) == {0}
    assert GAME.legal_actions(state, 0) == [
        {"type": "final_target", "payload": {"wall_tile": 7, "target": {"x": 1, "y": 8, "feature": 0}}},
        {"type": "final_target", "payload": {"wall_tile": 7, "target": None}},
    ]
    done = act(state, 0, "final_target", wall_tile=7, target={"x": 1, "y": 9, "feature": 0})
    assert done["phase"] == "over" and done["score"] == [12, 0]
    declined = act(state, 0, "final_target", wall_tile=7, target=None)
    assert declined["score"] == [9, 0]


# An open tower: CT30 on (3,0) joined with SS3, its east and south sides still open: size 2.
OPEN_TOWER = {(3, 0): ("CT30", 0)}


def test_unfinished_tower_tile_scores_two_per_tile():
    # 8.3 with tile 5: 2 tiles x 2 = 4.
    state = finish(last_turn(board=OPEN_TOWER, followers=[(0, "3,0,0", "knight")], held=([(5, 1)], [])))
    assert state["phase"] == "final"
    state = act(state, 0, "final_target", wall_tile=5, target={"x": 3, "y": 0, "feature": 0})
    assert state["breakdown"]["unfinished"] == [4, 0]
    # every follower left on an unfinished feature goes home without points
    assert state["followers"] == [] and state["supply"] == [6, 6]


def test_unfinished_feature_needs_the_majority_under_the_option():
    # 8.3 / G9, option unfinished_needs_majority=true (the default of games created before the
    # seed's reading became the default; their game.created names it): seat 0 holds tile 5 but
    # the only open tower is seat 1's: no target, no choice.
    state = finish(
        last_turn(
            board=OPEN_TOWER,
            followers=[(1, "3,0,0", "knight")],
            held=([(5, 1)], []),
            options={"unfinished_needs_majority": True},
        )
    )
    assert state["phase"] == "over" and state["score"] == [0, 0]
    assert state["final_choices"][0] == [{"kind": 5, "target": None}]


def test_a_game_created_before_the_option_existed_keeps_the_majority_reading():
    # A game.created without the key folds as it always did: the majority is needed.
    state = last_turn(board=OPEN_TOWER, followers=[(1, "3,0,0", "knight")], held=([(5, 1)], []))
    del state["options"]["unfinished_needs_majority"]
    state = finish(state)
    assert state["phase"] == "over" and state["final_choices"][0] == [{"kind": 5, "target": None}]


def test_unfinished_feature_tiles_choose_any_unfinished_feature_by_default():
    # The seed's wall-tile table (4.城牆板塊介紹): 未完成的城塔 「玩家選擇一個未完成的城塔,每格可得2分」
    # -- the holder chooses an unfinished tower, 2 per tile, no follower condition -- and final
    # scoring (3.遊戲結束 (3)) 「計算持有「未完成的道路」、「未完成的城塔」、「未完成的房屋」...等城牆
    # 板塊所獲得的分數」. Seat 0 holds tile 5; the only open tower (3,0)+SS3 carries seat 1's knight:
    # seat 0 may name it, 2 tiles x 2 = 4; the knight goes home without points.
    state = finish(last_turn(board=OPEN_TOWER, followers=[(1, "3,0,0", "knight")], held=([(5, 1)], [])))
    assert state["options"]["unfinished_needs_majority"] is False
    assert state["phase"] == "final" and GAME.to_act(state) == {0}
    assert GAME.legal_actions(state, 0) == [
        {"type": "final_target", "payload": {"wall_tile": 5, "target": {"x": 3, "y": 0, "feature": 0}}},
        {"type": "final_target", "payload": {"wall_tile": 5, "target": None}},
    ]
    state = act(state, 0, "final_target", wall_tile=5, target={"x": 3, "y": 0, "feature": 0})
    assert state["breakdown"]["unfinished"] == [4, 0] and state["score"] == [4, 0]
    assert state["followers"] == [] and state["supply"] == [6, 6]


def test_an_unfinished_feature_with_no_follower_may_be_named():
    # 未完成的道路 「玩家選擇一個未完成的道路,每格可得1分(若有水井,每格可得2分)」: path SS7 + CT03
    # (a well), nobody on it: 2 tiles x 2 = 4 for the holder of tile 4.
    state = finish(last_turn(board={(3, 11): ("CT03", 0)}, held=([], [(4, 1)])))
    assert GAME.to_act(state) == {1}
    state = act(state, 1, "final_target", wall_tile=4, target={"x": 3, "y": 11, "feature": 0})
    assert state["breakdown"]["unfinished"] == [0, 4] and state["score"] == [0, 4]


def test_unfinished_path_and_house_tiles_may_name_a_feature_or_none():
    # The seed's wall-tile table: 未完成的道路 「玩家選擇一個未完成的道路,每格可得1分」 and 未完成的房屋
    # 「玩家選擇一個未完成的房屋,每格可得1分」 -- the holder chooses; naming none is offered too.
    # Open path SS7 + CT03 (well) and open house SS2 + CT25: each tile offers its feature or
    # null; declining both leaves seat 0 with nothing from them.
    board = {(3, 11): ("CT03", 0), (3, 5): ("CT25", 0)}
    state = finish(last_turn(board=board, held=([(4, 1), (6, 1)], [])))
    assert state["phase"] == "final" and GAME.to_act(state) == {0}
    assert GAME.legal_actions(state, 0) == [
        {"type": "final_target", "payload": {"wall_tile": 4, "target": {"x": 3, "y": 11, "feature": 0}}},
        {"type": "final_target", "payload": {"wall_tile": 4, "target": None}},
        {"type": "final_target", "payload": {"wall_tile": 6, "target": {"x": 3, "y": 5, "feature": 0}}},
        {"type": "final_target", "payload": {"wall_tile": 6, "target": None}},
    ]
    declined = act(act(state, 0, "final_target", wall_tile=4, target=None), 0, "final_target", wall_tile=6, target=None)
    assert declined["phase"] == "over" and declined["breakdown"]["unfinished"] == [0, 0]
    named = act(state, 0, "final_target", wall_tile=6, target={"x": 3, "y": 5, "feature": 0})
    named = act(named, 0, "final_target", wall_tile=4, target=None)
    assert named["breakdown"]["unfinished"] == [2, 0]


def test_unfinished_path_with_a_well_and_unfinished_house():
    # 8.3 tiles 4 and 6: path SS7 + CT03 (well) = 2 tiles x 2 = 4; house SS2 + CT25 = 2 x 1 = 2.
    board = {(3, 11): ("CT03", 0), (3, 5): ("CT25", 0)}
    followers = [(0, "3,11,0", "herald"), (0, "3,5,0", "squire")]
    state = finish(last_turn(board=board, followers=followers, held=([(4, 1), (6, 1)], [])))
    assert GAME.to_act(state) == {0}
    state = act(state, 0, "final_target", wall_tile=4, target={"x": 3, "y": 11, "feature": 0})
    state = act(state, 0, "final_target", wall_tile=6, target={"x": 3, "y": 5, "feature": 0})
    assert state["breakdown"]["unfinished"] == [6, 0] and state["score"] == [6, 0]


def test_two_tiles_of_one_kind_score_two_different_features():
    # G14: the second tile 5 may not name the tower the first one named.
    board = {(3, 0): ("CT30", 0), (5, 5): ("CT30", 0), (4, 5): ("CT31", 0)}
    followers = [(0, "3,0,0", "knight"), (0, "5,5,0", "knight")]
    state = finish(last_turn(board=board, followers=followers, held=([(5, 1), (5, 2)], [])))
    state = act(state, 0, "final_target", wall_tile=5, target={"x": 3, "y": 0, "feature": 0})
    assert_refused(
        GAME, state, ev(0, "final_target", wall_tile=5, target={"x": 3, "y": 0, "feature": 0}), "target_taken"
    )
    state = act(state, 0, "final_target", wall_tile=5, target={"x": 5, "y": 5, "feature": 0})
    # (3,0)+SS3 = 2 tiles x 2 = 4; (5,5) alone = 1 tile x 2 = 2
    assert state["score"] == [6, 0]


def test_final_target_refusals():
    board = {(3, 0): ("CT30", 0), (3, 11): ("CT03", 0)}
    followers = [(0, "3,0,0", "knight"), (1, "3,11,0", "herald")]
    state = finish(last_turn(board=board, followers=followers, held=([(5, 1)], [(4, 1)])))
    assert GAME.to_act(state) == {0, 1}
    assert_refused(GAME, state, ev(0, "final_target", wall_tile=6, target=None), "not_held")
    # a court is no tower
    assert_refused(GAME, state, ev(0, "final_target", wall_tile=5, target={"x": 1, "y": 9, "feature": 0}), "bad_target")
    # a path without seat 0's majority
    assert_refused(GAME, state, ev(1, "final_target", wall_tile=4, target={"x": 3, "y": 0, "feature": 0}), "bad_target")
    assert_refused(
        GAME, state, ev(0, "final_target", wall_tile=5, target={"x": 7, "y": 7, "feature": 0}), "unknown_feature"
    )


def test_five_point_tiles_and_shared_first_place():
    # 8.5: tile 9 scores 5; 9: no tie-breaker exists, so 15-15 ranks both first.
    state = finish(last_turn(score=(10, 15), held=([(9, 1)], [])))
    assert state["score"] == [15, 15]
    assert GAME.result(state) == {"scores": [15, 15], "ranking": [1, 1], "tiebreak": None}


def test_unused_in_game_tiles_are_worth_nothing_at_the_end():
    # 8: tiles 1, 2 and 3 left unused score nothing.
    state = finish(last_turn(held=([(1, 1), (2, 1), (3, 1)], [])))
    assert state["score"] == [0, 0]


def test_largest_empty_area_joins_cells_side_to_side_only():
    # 8.2: L is the largest group of empty cells joined side to side (4-connected).
    # Courts on (3,5)..(6,5) and (7,4) cut the castle: north of them rows 0-4 hold
    # 6+6+9+8+5 = 34 cells less (7,4) = 33; south, (7,5) and rows 6-11 (5+7+7+7+7+4 = 37)
    # = 38, less the last tile on (1,9) = 37. (6,4) and (7,5) touch only at a corner, so
    # the two parts stay apart (joined diagonally they would make 70): L = 37.
    board = {(x, 5): ("CT31", 0) for x in range(3, 7)}
    board[(7, 4)] = ("CT31", 0)
    state = finish(last_turn(board=board, keep=(("8,0,0", 2), ("8,1,0", 1))))
    assert state["breakdown"]["largest_empty_area"] == 37
    assert state["breakdown"]["keep"] == [37, 0] and state["score"] == [37, 0]


def test_a_finished_feature_is_no_target_for_an_unfinished_tile():
    # 8.3: tiles 4/5/6 score an *unfinished* feature. Even without the majority rule, the
    # closed tower (3,0)+SS3 (courts on (4,0) and (3,1)) is not offered; the open tower on
    # (5,5) is: 1 tile x 2 = 2.
    board = {(3, 0): ("CT30", 0), (4, 0): ("CT31", 0), (3, 1): ("CT31", 0), (5, 5): ("CT30", 0), (4, 5): ("CT31", 0)}
    state = finish(last_turn(board=board, held=([(5, 1)], []), options={"unfinished_needs_majority": False}))
    assert GAME.legal_actions(state, 0) == [
        {"type": "final_target", "payload": {"wall_tile": 5, "target": {"x": 5, "y": 5, "feature": 0}}},
        {"type": "final_target", "payload": {"wall_tile": 5, "target": None}},
    ]
    assert_refused(GAME, state, ev(0, "final_target", wall_tile=5, target={"x": 3, "y": 0, "feature": 0}), "bad_target")
    state = act(state, 0, "final_target", wall_tile=5, target={"x": 5, "y": 5, "feature": 0})
    assert state["breakdown"]["unfinished"] == [2, 0]


def test_court_four_only_on_a_court_the_holder_wins():
    # 8.4: tile 7 names "one court they win". Seat 1's merchant holds the court SS1 + (1,9)
    # + (1,8) (3 markets); seat 0's holds the one-market court on (3,5). Seat 0's tile 7
    # may name only (3,5): 1 x 4 = 4, while seat 1 scores 3 x 3 = 9. Without a court of
    # its own, seat 0's tile 7 has no target and resolves to null by itself.
    board = {(1, 8): ("CT31", 0), (3, 5): ("CT31", 0)}
    followers = [(1, "1,8,0", "merchant"), (0, "3,5,0", "merchant")]
    state = finish(last_turn(board=board, followers=followers, held=([(7, 1)], [])))
    assert [a["payload"]["target"] for a in GAME.legal_actions(state, 0)] == [{"x": 3, "y": 5, "feature": 0}, None]
    assert_refused(GAME, state, ev(0, "final_target", wall_tile=7, target={"x": 1, "y": 8, "feature": 0}), "bad_target")
    state = act(state, 0, "final_target", wall_tile=7, target={"x": 3, "y": 5, "feature": 0})
    # seat 0: 1 market x 4 = 4; seat 1: 3 markets x 3 = 9
    assert state["breakdown"]["courts"] == [4, 9]
    alone = finish(last_turn(board={(1, 8): ("CT31", 0)}, followers=[(1, "1,8,0", "merchant")], held=([(7, 1)], [])))
    assert alone["phase"] == "over" and alone["final_choices"][0] == [{"kind": 7, "target": None}]
    assert alone["score"] == [0, 9]


def test_the_finished_view_shows_what_was_hidden():
    # 12: wall tiles left face down on the frame and the 5 set aside are hidden from every
    # seat during play and may be shown once the game is over.
    state = last_turn(frame={"K12": 4, "K16": 7})
    state["set_aside"] = [1, 2, 3, 5, 6]
    for viewer in (0, 1, None):
        view = GAME.view(state, viewer)
        assert view["frame"]["K12"] == "face_down" and view["set_aside"] == 5 and "pile" not in view
    state = finish(state)
    for viewer in (0, 1, None):
        view = GAME.view(state, viewer)
        assert view["frame"]["K12"] == 4 and view["frame"]["K16"] == 7
        assert view["set_aside"] == [1, 2, 3, 5, 6]


def test_without_the_majority_rule_both_players_may_name_one_feature():
    # engine flag unfinished_needs_majority=false; the digest is silent on two holders
    # naming one feature, so each tile acts on its own: both score the open tower
    # (3,0)+SS3 = 2 tiles x 2 = 4, whoever's knight stands on it.
    state = finish(
        last_turn(
            board=OPEN_TOWER,
            followers=[(1, "3,0,0", "knight")],
            held=([(5, 1)], [(5, 1)]),
            options={"unfinished_needs_majority": False},
        )
    )
    assert GAME.to_act(state) == {0, 1}
    state = act(state, 1, "final_target", wall_tile=5, target={"x": 3, "y": 0, "feature": 0})
    state = act(state, 0, "final_target", wall_tile=5, target={"x": 3, "y": 0, "feature": 0})
    assert state["breakdown"]["unfinished"] == [4, 4] and state["score"] == [4, 4]
