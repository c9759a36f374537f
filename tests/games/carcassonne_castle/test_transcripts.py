"""Hand-worked positions, each citing the digest rule it shows (section numbers of
carcassonne-the-castle.md). Expected numbers are worked out in the comments."""

from __future__ import annotations

from projections.games.carcassonne_castle import GAME
from projections.games.carcassonne_castle.placement import legal_placements

from .helpers import act, given, happened

# A tower on (3,0) joined with start space SS3's tower, closed by courts on (4,0) and
# (3,1): size 2 (one tile + the start space), 2 points per tile (digest 11.3 example 2).
TOWER_CORNER = {(3, 0): ("CT30", 0), (4, 0): ("CT31", 0)}


def test_under_version_2_the_first_tile_must_also_match_the_start_pictures_path():
    # 7.2 rule 2: with no tile placed, only the 7 cells before start spaces qualify.
    # Rules versions 1 and 2 also made paths meet paths at the start pictures (the current
    # version does not: test_start_pictures).
    state = given(tile="CT31", options={"rules_version": 2})
    offered = [a["payload"] for a in GAME.legal_actions(state, 0)]
    cells = {(p["x"], p["y"]) for p in offered}
    # CT31 has no path, so only SS1-SS3 (no path at their middle) accept it.
    assert cells == {(1, 9), (3, 5), (3, 0)}
    assert cells == {(x, y) for x, y, _ in legal_placements(state["board"], "CT31", True)}
    state["tile"] = "CT16"
    cells = {(p["x"], p["y"]) for p in (a["payload"] for a in GAME.legal_actions(state, 0))}
    assert cells == {(6, 0), (8, 2), (7, 7), (3, 11)}


def test_worked_example_one_path_closed_by_start_space_and_square():
    # 11.3 example 1: CT01 on (3,11) continues SS7's path; CT22 / CT14 turned 180 cannot.
    state = given(tile="CT01", pile=["CT14", "CT31", "CT31"])
    state = act(state, 0, "place_tile", x=3, y=11, rotation=0)
    state = act(state, 0, "place_follower", feature=0)  # a herald on the path
    assert state["active"] == 1 and state["tile"] == "CT14"
    state = act(state, 1, "place_tile", x=3, y=10, rotation=0)
    state = act(state, 1, "skip_follower")
    # SS7 + (3,11) + (3,10) = 3 tiles, no well: 3 points to the herald's owner (7.5).
    assert state["score"] == [3, 0]
    assert state["supply"] == [6, 6] and state["followers"] == []
    scored = happened(state, "feature_scored")
    assert scored == [
        {
            "what": "feature_scored",
            "seat": 0,
            "type": "path",
            "size": 3,
            "points": 3,
            "doubled": False,
            "node": "3,10,1",
        }
    ]


def test_under_version_2_a_path_must_meet_a_path_at_a_start_space():
    # Rules versions 1 and 2 (and the option start_pictures=paths_match): SS7 shows a path
    # in the middle of its side, so a pathless side (CT22) or a path-less middle (CT14
    # turned 180, its court to the south) is refused before it.
    from tests.games.harness import assert_refused

    from .helpers import ev

    state = given(tile="CT22", options={"rules_version": 2})
    assert_refused(GAME, state, ev(0, "place_tile", x=3, y=11, rotation=0), "path_mismatch")
    state = given(tile="CT14", options={"rules_version": 2})
    assert_refused(GAME, state, ev(0, "place_tile", x=3, y=11, rotation=180), "path_mismatch")


def test_path_with_a_well_scores_two_per_tile():
    # 7.5: a path with at least one well pays 2 per tile. SS7 + CT03 (well) + CT14 = 3 tiles.
    state = given(board={(3, 10): ("CT14", 0)}, tile="CT03")
    state = act(state, 0, "place_tile", x=3, y=11, rotation=0)
    state = act(state, 0, "place_follower", feature=0)
    assert state["score"] == [6, 0]


def test_worked_example_two_tower_with_start_space_scores_four():
    # 11.3 example 2: the tower (3,0)+SS3 closes when (3,1) is filled: 2 tiles x 2 = 4.
    state = given(board=TOWER_CORNER, followers=[(0, "3,0,0", "knight")], tile="CT31")
    state = act(state, 0, "place_tile", x=3, y=1, rotation=0)
    assert state["phase"] == "follower"
    state = act(state, 0, "skip_follower")
    assert state["score"] == [4, 0] and state["followers"] == [] and state["supply"] == [6, 6]


def test_tower_double_wall_tile_is_a_choice_and_pays_four_per_tile():
    # 7.6: tower x2 taken in an earlier turn doubles the tower: 2 tiles x 4 = 8, one move.
    state = given(board=TOWER_CORNER, followers=[(0, "3,0,0", "knight")], tile="CT31", held=([(2, 3)], []))
    state = act(state, 0, "place_tile", x=3, y=1, rotation=0)
    state = act(state, 0, "skip_follower")
    assert state["phase"] == "score"
    offers = GAME.legal_actions(state, 0)
    assert offers == [
        {"type": "score_feature", "payload": {"x": 3, "y": 0, "feature": 0, "use_wall_tile": False}},
        {"type": "score_feature", "payload": {"x": 3, "y": 0, "feature": 0, "use_wall_tile": True}},
    ]
    doubled = act(state, 0, "score_feature", x=3, y=0, feature=0, use_wall_tile=True)
    assert doubled["score"] == [8, 0] and doubled["held"][0][0]["used"] is True
    plain = act(state, 0, "score_feature", x=3, y=0, feature=0, use_wall_tile=False)
    assert plain["score"] == [4, 0] and plain["held"][0][0]["used"] is False


# Two features closed by one tile: the tower above, and the house of CT22 on (3,1)
# (north side against the tower, east side against a court on (4,1), west side the wall).
TWO_FEATURES = {(3, 0): ("CT30", 0), (4, 0): ("CT31", 0), (4, 1): ("CT31", 0)}


def _two_features(score, frame):
    state = given(board=TWO_FEATURES, followers=[(0, "3,0,0", "knight")], tile="CT22", score=score, frame=frame)
    state = act(state, 0, "place_tile", x=3, y=1, rotation=0)
    return act(state, 0, "place_follower", feature=0)  # a squire on the one-tile house


def test_active_player_orders_own_scoring_and_landing_takes_wall_tiles():
    # 7.5 order + marker: from 11, house first (1) lands on 12 (K12), tower (4) then on 16 (K16);
    # tower first lands on 15 then 16: only K16's tile is taken. Passing over 12 gives nothing.
    frame = {"K12": 9, "K16": 5}
    state = _two_features((11, 0), frame)
    assert state["phase"] == "score"
    assert [a["payload"] for a in GAME.legal_actions(state, 0)] == [
        {"x": 3, "y": 0, "feature": 0, "use_wall_tile": False},
        {"x": 3, "y": 1, "feature": 0, "use_wall_tile": False},
    ]
    house_first = act(state, 0, "score_feature", x=3, y=1, feature=0, use_wall_tile=False)
    # the tower is then the only event left: it resolves without another decision
    assert house_first["score"] == [16, 0] and house_first["phase"] != "score"
    assert sorted(t["kind"] for t in house_first["held"][0]) == [5, 9]
    assert house_first["frame"]["K12"] is None and house_first["frame"]["K16"] is None
    tower_first = act(state, 0, "score_feature", x=3, y=0, feature=0, use_wall_tile=False)
    assert tower_first["score"] == [16, 0]
    assert [t["kind"] for t in tower_first["held"][0]] == [5]
    assert tower_first["frame"]["K12"] == 9


def test_first_scored_house_carries_the_keep():
    # 7.5 keep: the first house a player scores takes their keep; its value is its tile count.
    state = _two_features((11, 0), {})
    state = act(state, 0, "score_feature", x=3, y=1, feature=0, use_wall_tile=False)
    assert state["keep"][0] == {"node": "3,1,0", "size": 1}


def test_wall_tile_taken_this_turn_waits():
    # 7.6: the house lands on 12 and takes tower x2 from K12; it may not double the tower
    # scored right after, so that tower resolves at its plain 4 points and the tile stays.
    state = _two_features((11, 0), {"K12": 2})
    state = act(state, 0, "score_feature", x=3, y=1, feature=0, use_wall_tile=False)
    assert state["score"] == [16, 0]
    assert state["held"][0][0]["kind"] == 2 and state["held"][0][0]["used"] is False


def test_using_a_wall_tile_taken_this_turn_is_refused():
    # 7.6: a tile taken in this turn (turn 5) is not offered and is refused if posted.
    from tests.games.harness import assert_refused

    from .helpers import ev

    state = _two_features((0, 0), {})
    state["held"][0] = [{"kind": 2, "turn": 5, "used": False, "corner": "K12"}]
    assert all(a["payload"]["use_wall_tile"] is False for a in GAME.legal_actions(state, 0))
    assert_refused(GAME, state, ev(0, "score_feature", x=3, y=0, feature=0, use_wall_tile=True), "wall_tile_not_ready")


# A tower row: (0,2), (2,2) and (1,3) are whole towers, closed all round by courts and the
# wall; the tile on (1,2) joins them into one tower of 4 tiles (8 points).
TOWER_ROW = {
    (0, 2): ("CT30", 0),
    (2, 2): ("CT30", 0),
    (1, 3): ("CT30", 0),
    (3, 2): ("CT31", 0),
    (0, 3): ("CT31", 0),
    (2, 3): ("CT31", 0),
}


def test_majority_scores_all_even_on_the_opponents_turn():
    # 7.5: seat 0 has 2 knights, seat 1 one: seat 0 takes all 8 points on seat 1's tile.
    followers = [(0, "0,2,0", "knight"), (0, "1,3,0", "knight"), (1, "2,2,0", "knight")]
    state = given(board=TOWER_ROW, followers=followers, tile="CT30", active=1)
    state = act(state, 1, "place_tile", x=1, y=2, rotation=0)
    assert state["phase"] == "post" or state["active"] == 0
    assert state["score"] == [8, 0]
    assert state["supply"] == [6, 6]


def test_a_tile_may_join_features_that_carry_followers_of_both_players():
    # The seed: 「玩家可透過放置城堡板塊,將原本分隔的區域相連,使得同一區域內出現2個以上(包括自家或對家)
    # 的人偶代表物」 -- by placing a tile a player may join features that were apart, so that one
    # feature holds two or more followers, one's own or the opponent's. Seat 1 holds CT30 with
    # seat 0's knights on (0,2) and (1,3) and its own on (2,2): joining them on (1,2) is offered
    # beside every other placement (placing elsewhere leaves them apart), and is accepted.
    followers = [(0, "0,2,0", "knight"), (0, "1,3,0", "knight"), (1, "2,2,0", "knight")]
    state = given(board=TOWER_ROW, followers=followers, tile="CT30", active=1)
    offered = [a["payload"] for a in GAME.legal_actions(state, 1) if a["type"] == "place_tile"]
    assert {"x": 1, "y": 2, "rotation": 0} in offered
    assert {(p["x"], p["y"]) for p in offered} - {(1, 2)}
    joined = act(state, 1, "place_tile", x=1, y=2, rotation=0)
    # one tower of 4 tiles with three knights: seat 0's majority scores it (8)
    assert joined["score"] == [8, 0] and joined["followers"] == []


def test_tie_on_a_feature_pays_nobody_and_frees_the_followers():
    # 7.5: equal followers: nobody scores (unlike classic Carcassonne); all go home.
    followers = [(0, "0,2,0", "knight"), (1, "2,2,0", "knight")]
    state = given(board=TOWER_ROW, followers=followers, tile="CT30", active=1)
    state = act(state, 1, "place_tile", x=1, y=2, rotation=0)  # CT30's one feature is taken
    assert state["score"] == [0, 0] and state["followers"] == [] and state["supply"] == [6, 6]
    assert happened(state, "feature_tied")


def test_follower_on_a_feature_the_tile_completes_scores_at_once():
    # 7.3: placing on a feature the tile just completed is legal; it scores and comes back.
    state = given(board={(3, 4): ("CT31", 0), (4, 5): ("CT31", 0), (3, 6): ("CT31", 0)}, tile="CT25")
    state = act(state, 0, "place_tile", x=3, y=5, rotation=0)
    state = act(state, 0, "place_follower", feature=0)
    # CT25 house + SS2 house = 2 tiles x 1 point.
    assert state["score"] == [2, 0] and state["supply"][0] == 6
    assert state["keep"][0] == {"node": "3,5,0", "size": 2}


HOUSE_AT_SS2 = {(3, 4): ("CT31", 0), (4, 5): ("CT31", 0), (3, 6): ("CT31", 0)}


def test_keep_moves_only_to_a_strictly_larger_house():
    # 7.5 keep: a larger house takes the keep; an equal one leaves it where it is.
    bigger = given(board=HOUSE_AT_SS2, tile="CT25", keep=(("8,0,0", 1), None))
    bigger = act(act(bigger, 0, "place_tile", x=3, y=5, rotation=0), 0, "place_follower", feature=0)
    assert bigger["keep"][0] == {"node": "3,5,0", "size": 2}
    equal = given(board=HOUSE_AT_SS2, tile="CT25", keep=(("8,0,0", 2), None))
    equal = act(act(equal, 0, "place_tile", x=3, y=5, rotation=0), 0, "place_follower", feature=0)
    assert equal["keep"][0] == {"node": "8,0,0", "size": 2}


def test_keep_follows_the_scorer_not_the_placer():
    # 7.5 keep: seat 1's squire wins seat 0's tile's house: seat 1 gets the keep.
    board = dict(HOUSE_AT_SS2)
    del board[(3, 6)]
    board[(3, 6)] = ("CT25", 0)  # a house joining (3,5) from the south
    board[(3, 7)] = ("CT31", 0)
    board[(4, 6)] = ("CT31", 0)
    state = given(board=board, followers=[(1, "3,6,0", "squire")], tile="CT25", active=0)
    state = act(state, 0, "place_tile", x=3, y=5, rotation=0)  # the house is taken: no follower step
    # SS2 + (3,5) + (3,6): a house of 3 tiles, 3 points to seat 1, whose keep it carries.
    assert state["score"] == [0, 3]
    assert state["keep"] == [None, {"node": "3,5,0", "size": 3}]


def test_house_double_pays_two_per_tile():
    # 7.6: house x2 (tile 3) on the active player's own house: 2 tiles x 2 = 4.
    state = given(board=HOUSE_AT_SS2, tile="CT25", held=([(3, 1)], []))
    state = act(state, 0, "place_tile", x=3, y=5, rotation=0)
    state = act(state, 0, "place_follower", feature=0)
    state = act(state, 0, "score_feature", x=3, y=5, feature=0, use_wall_tile=True)
    assert state["score"] == [4, 0]
    # the keep counts tiles, never the doubled points
    assert state["keep"][0]["size"] == 2


def test_house_double_wall_tile_is_a_choice():
    # The seed: 「玩家在計算分數後,可使用符合該完成區域的對應城牆板塊(如「城塔2X」、「房屋2X)」以加倍計分」
    # -- after scoring, a player *may* use the matching wall tile to double. Seat 0 closes its
    # own house SS2 + CT25 holding house x2 from an earlier turn: both the plain and the
    # doubled scoring are offered; the plain one keeps the tile (unused) for later.
    state = given(board=HOUSE_AT_SS2, tile="CT25", held=([(3, 1)], []))
    state = act(act(state, 0, "place_tile", x=3, y=5, rotation=0), 0, "place_follower", feature=0)
    assert state["phase"] == "score"
    assert GAME.legal_actions(state, 0) == [
        {"type": "score_feature", "payload": {"x": 3, "y": 5, "feature": 0, "use_wall_tile": False}},
        {"type": "score_feature", "payload": {"x": 3, "y": 5, "feature": 0, "use_wall_tile": True}},
    ]
    plain = act(state, 0, "score_feature", x=3, y=5, feature=0, use_wall_tile=False)
    assert plain["score"] == [2, 0] and plain["held"][0][0]["used"] is False
    doubled = act(state, 0, "score_feature", x=3, y=5, feature=0, use_wall_tile=True)
    assert doubled["score"] == [4, 0] and doubled["held"][0][0]["used"] is True


def test_merchants_stay_on_the_board():
    # 7.3: merchants are permanent; a follower leaves the supply.
    state = given(tile="CT31")
    state = act(state, 0, "place_tile", x=1, y=9, rotation=0)
    state = act(state, 0, "place_follower", feature=0)
    assert state["followers"] == [{"seat": 0, "node": "1,9,0", "role": "merchant"}]
    assert state["supply"] == [5, 6]


def test_occupied_feature_cannot_take_another_follower():
    # 7.3 occupancy: CT22's court joins the court seat 1's merchant holds on (1,9)+SS1;
    # only CT22's house (feature 0) is free.
    state = given(board={(1, 9): ("CT31", 0)}, followers=[(1, "1,9,0", "merchant")], tile="CT22")
    state = act(state, 0, "place_tile", x=1, y=8, rotation=0)
    assert GAME.legal_actions(state, 0) == [
        {"type": "skip_follower", "payload": {}},
        {"type": "place_follower", "payload": {"feature": 0}},
    ]


def test_empty_supply_skips_the_follower_step():
    # 7.3: with no follower in supply the step has no choice and passes by itself.
    state = given(tile="CT31", supply=(0, 6))
    state = act(state, 0, "place_tile", x=1, y=9, rotation=0)
    assert state["active"] == 1 and state["phase"] == "place"


def test_extra_turn_gives_another_full_turn():
    # 7.6: extra turn (tile 1) from an earlier turn: after scoring, the same player goes again.
    state = given(tile="CT31", held=([(1, 2)], []), pile=["CT31", "CT31"])
    state = act(state, 0, "place_tile", x=1, y=9, rotation=0)
    state = act(state, 0, "skip_follower")
    assert state["phase"] == "post"
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"end_turn", "use_extra_turn"}
    again = act(state, 0, "use_extra_turn")
    assert again["active"] == 0 and again["turn"] == 6 and again["phase"] == "place"
    assert again["held"][0][0]["used"] is True and GAME.reveals(state, {}, again)
    passed = act(state, 0, "end_turn")
    assert passed["active"] == 1


def test_extra_turn_is_not_offered_once_the_pile_is_empty():
    # 7.6 / 8: with the pile empty the game ends after this turn; tile 1 is useless.
    state = given(tile="CT31", held=([(1, 2)], []), pile=[])
    state = act(state, 0, "place_tile", x=1, y=9, rotation=0)
    state = act(state, 0, "skip_follower")
    assert state["phase"] == "over"


# Four cells before the path start spaces hold dead-end tiles whose other sides show no
# path, and plain courts lie before SS2 and SS3, so a four-way crossing (CT16) fits nowhere:
# every free side next to a tile is pathless, and once the test's court goes before SS1 no
# start space has a free cell left (since rules version 3 any terrain may meet a start
# picture, so an empty cell before one would take CT16).
NO_CROSSING = {
    (6, 0): ("CT20", 180),
    (8, 2): ("CT20", 270),
    (7, 7): ("CT20", 270),
    (3, 11): ("CT20", 0),
    (3, 5): ("CT31", 0),
    (3, 0): ("CT31", 0),
}


def test_by_default_both_seats_agree_then_the_unplaceable_tile_is_removed_and_another_drawn():
    # 7.1 / 15 #2: the seed is the authority. It says (translated) a castle tile that cannot be
    # placed may be removed from the game once both players agree, and another is drawn.
    # That reading is the default option (unplaceable_tile="confirm").
    state = given(board=NO_CROSSING, tile="CT31", pile=["CT16", "CT01"])
    assert state["options"]["unplaceable_tile"] == "confirm"
    # CT16 fits only before SS1 (1,9), where the court now goes (under either start-picture reading)
    assert {(x, y) for x, y, _ in legal_placements(state["board"], "CT16", False)} == {(1, 9)}
    assert legal_placements(state["board"], "CT16", True) == []
    # Seat 0 lays the plain court CT31 before SS1 at (1,9): nothing completes, so no
    # scoring; the turn passes to seat 1 (turn 5 -> 6), who draws the crossing CT16.
    state = act(act(state, 0, "place_tile", x=1, y=9, rotation=0), 0, "skip_follower")
    assert state["active"] == 1 and state["turn"] == 6 and state["tile"] == "CT16"
    assert state["score"] == [0, 0] and state["removed"] == [] and state["pile"] == ["CT01"]
    # CT16 fits nowhere: both seats are asked, each with exactly the one agreeing action.
    assert state["phase"] == "confirm_remove" and GAME.to_act(state) == {0, 1}
    agree = [{"type": "confirm_remove_tile", "payload": {}}]
    assert GAME.legal_actions(state, 0) == agree and GAME.legal_actions(state, 1) == agree
    assert GAME.view(state, 0)["to_act"] == [0, 1]
    # The opponent agrees first: the tile stays until the drawer agrees too.
    before = state
    state = act(state, 0, "confirm_remove_tile")
    assert GAME.to_act(state) == {1} and GAME.legal_actions(state, 0) == []
    assert state["confirmed"] == [0] and state["removed"] == [] and state["tile"] == "CT16"
    assert not GAME.reveals(before, {}, state)
    before = state
    state = act(state, 1, "confirm_remove_tile")
    # Both agreed: CT16 leaves the game face up, seat 1 draws CT01 (the last tile) and
    # places it in the same turn 6; nothing else changed hands.
    assert state["removed"] == ["CT16"] and state["tile"] == "CT01" and state["pile"] == []
    assert state["phase"] == "place" and state["active"] == 1 and state["turn"] == 6
    assert state["confirmed"] == [] and state["score"] == [0, 0]
    assert [r["what"] for r in state["recent"]] == ["tile_removed", "tile_drawn"]
    assert GAME.reveals(before, {}, state)
    assert GAME.legal_actions(state, 1) and GAME.to_act(state) == {1}


def test_with_the_auto_option_an_unplaceable_tile_is_removed_at_once_and_another_drawn():
    # 7.1 (published reading, unplaceable_tile=auto): the tile leaves the game face up with
    # nobody asked; the player draws again.
    state = given(board=NO_CROSSING, tile="CT31", pile=["CT16", "CT01"], options={"unplaceable_tile": "auto"})
    # CT16 fits only before SS1 (1,9), where the court now goes (under either start-picture reading)
    assert {(x, y) for x, y, _ in legal_placements(state["board"], "CT16", False)} == {(1, 9)}
    assert legal_placements(state["board"], "CT16", True) == []
    state = act(state, 0, "place_tile", x=1, y=9, rotation=0)
    state = act(state, 0, "skip_follower")
    assert state["removed"] == ["CT16"] and state["tile"] == "CT01" and state["active"] == 1
    assert state["phase"] == "place" and GAME.to_act(state) == {1}


def test_with_the_auto_option_the_pile_running_out_while_redrawing_ends_the_game():
    # 16 G13: the last tile is unplaceable: the game ends at once.
    state = given(board=NO_CROSSING, tile="CT31", pile=["CT16"], options={"unplaceable_tile": "auto"})
    state = act(act(state, 0, "place_tile", x=1, y=9, rotation=0), 0, "skip_follower")
    assert state["phase"] == "over" and state["removed"] == ["CT16"]
    assert GAME.result(state) is not None


def test_by_default_an_agreed_removal_of_the_last_tile_ends_the_game():
    # 16 G13 under the default: both seats agree to remove the last tile; the pile is
    # then empty, so the game ends (no final wall tiles are held: straight to over).
    state = given(board=NO_CROSSING, tile="CT31", pile=["CT16"])
    state = act(act(state, 0, "place_tile", x=1, y=9, rotation=0), 0, "skip_follower")
    assert state["phase"] == "confirm_remove" and GAME.result(state) is None
    state = act(act(state, 1, "confirm_remove_tile"), 0, "confirm_remove_tile")
    assert state["phase"] == "over" and state["removed"] == ["CT16"]
    assert GAME.result(state) is not None


def test_path_ending_at_a_house_door_is_closed():
    # 5.3 / 7.4: a path that dead-ends at a building door is closed there: SS7 + CT20 = 2 tiles.
    state = given(tile="CT20")
    state = act(state, 0, "place_tile", x=3, y=11, rotation=0)
    state = act(state, 0, "place_follower", feature=0)
    assert state["score"] == [2, 0]


def test_one_wall_tile_per_feature():
    # G5: two tower x2 tiles held, one tower scored: only one is spent, 2 tiles x 4 = 8.
    state = given(board=TOWER_CORNER, followers=[(0, "3,0,0", "knight")], tile="CT31", held=([(2, 1), (2, 2)], []))
    state = act(act(state, 0, "place_tile", x=3, y=1, rotation=0), 0, "skip_follower")
    state = act(state, 0, "score_feature", x=3, y=0, feature=0, use_wall_tile=True)
    assert state["score"] == [8, 0] and [t["used"] for t in state["held"][0]] == [True, False]


def test_marker_laps_and_still_collects_a_corner():
    # G12: from 108 a 4-point tower ends on 112, space 12: K12's tile is still there.
    state = given(board=TOWER_CORNER, followers=[(0, "3,0,0", "knight")], tile="CT31", score=(108, 0), frame={"K12": 9})
    state = act(act(state, 0, "place_tile", x=3, y=1, rotation=0), 0, "skip_follower")
    assert state["score"] == [112, 0] and [t["kind"] for t in state["held"][0]] == [9]


def test_extra_turns_chain():
    # G7: the extra turn is a new turn; a second extra-turn tile is offered again after it.
    state = given(tile="CT31", held=([(1, 1), (1, 2)], []), pile=["CT31"] * 3)
    state = act(act(state, 0, "place_tile", x=1, y=9, rotation=0), 0, "skip_follower")
    state = act(state, 0, "use_extra_turn")
    state = act(act(state, 0, "place_tile", x=3, y=5, rotation=0), 0, "skip_follower")
    assert state["phase"] == "post" and state["active"] == 0
    state = act(state, 0, "use_extra_turn")
    assert state["active"] == 0 and state["turn"] == 7


def test_paths_separate_courts():
    # 5.3: courts are separated by paths: CT01's east and west courts are two features,
    # so all three features of the tile are free for a follower.
    state = given(tile="CT01")
    state = act(state, 0, "place_tile", x=3, y=11, rotation=0)
    assert GAME.legal_actions(state, 0) == [
        {"type": "skip_follower", "payload": {}},
        {"type": "place_follower", "payload": {"feature": 0}},
        {"type": "place_follower", "payload": {"feature": 1}},
        {"type": "place_follower", "payload": {"feature": 2}},
    ]


def test_tiles_touching_at_a_corner_do_not_join():
    # 11.3 example 2: the courts of CT31 on (4,0) and on (3,1) touch only diagonally.
    from projections.games.carcassonne_castle.features import features_of

    state = given(board=TOWER_CORNER, tile="CT31")
    state = act(state, 0, "place_tile", x=3, y=1, rotation=0)
    feats = features_of(state["board"])
    assert feats.find("4,0,0") != feats.find("3,1,0")
