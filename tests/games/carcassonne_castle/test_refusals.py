"""Every illegal action the rules name is refused with its own code, state unchanged."""

from __future__ import annotations

from projections.games.carcassonne_castle import GAME
from tests.games.harness import assert_refused

from .helpers import act, ev, given


def test_wrong_seat_is_not_your_turn():
    state = given(tile="CT31")
    assert_refused(GAME, state, ev(1, "place_tile", x=1, y=9, rotation=0), "not_your_turn")


def test_action_of_another_step_is_wrong_action():
    state = given(tile="CT31")
    assert_refused(GAME, state, ev(0, "skip_follower"), "wrong_action")
    assert_refused(GAME, state, ev(0, "use_extra_turn"), "wrong_action")


def test_placement_refusals():
    state = given(board={(1, 9): ("CT31", 0)}, tile="CT31")
    assert_refused(GAME, state, ev(0, "place_tile", x=0, y=0, rotation=0), "outside_castle")
    assert_refused(GAME, state, ev(0, "place_tile", x=1, y=9, rotation=0), "cell_occupied")
    assert_refused(GAME, state, ev(0, "place_tile", x=5, y=5, rotation=0), "not_adjacent")
    assert_refused(GAME, state, ev(0, "place_tile", x=1, y=8, rotation=45), "bad_rotation")
    # a path may not run into a neighbour's non-path side (7.2 rule 3)
    path = given(board={(1, 9): ("CT31", 0)}, tile="CT01")
    assert_refused(GAME, path, ev(0, "place_tile", x=1, y=8, rotation=0), "path_mismatch")
    # nor may a pathless side face a neighbour's path
    state = given(board={(3, 11): ("CT01", 0)}, tile="CT31")
    assert_refused(GAME, state, ev(0, "place_tile", x=3, y=10, rotation=0), "path_mismatch")


def test_follower_refusals():
    state = given(board={(1, 9): ("CT31", 0)}, followers=[(1, "1,9,0", "merchant")], tile="CT22")
    state = act(state, 0, "place_tile", x=1, y=8, rotation=0)
    assert_refused(GAME, state, ev(0, "place_follower", feature=1), "feature_occupied")
    assert_refused(GAME, state, ev(0, "place_follower", feature=7), "unknown_feature")
    assert_refused(GAME, state, ev(1, "place_follower", feature=0), "not_your_turn")
    # an empty supply (forced here into the follower step) refuses every follower
    state["supply"] = [0, 5]
    assert_refused(GAME, state, ev(0, "place_follower", feature=0), "no_followers_left")


def test_scoring_refusals():
    # the tower (seat 0's knight) and seat 1's house close together; seat 0 holds tower x2,
    # so seat 0 chooses. Seat 1's house may not go first, nor be doubled by seat 0.
    board = {(3, 0): ("CT30", 0), (4, 0): ("CT31", 0), (4, 1): ("CT25", 0), (5, 1): ("CT31", 0), (4, 2): ("CT31", 0)}
    followers = [(0, "3,0,0", "knight"), (1, "4,1,0", "squire")]
    state = given(board=board, followers=followers, tile="CT22", held=([(2, 1)], []))
    state = act(act(state, 0, "place_tile", x=3, y=1, rotation=0), 0, "skip_follower")
    assert state["phase"] == "score"
    assert [(e["x"], e["y"], e["scorer"]) for e in GAME.view(state, 0)["pending"]] == [(3, 0, 0), (3, 1, 1)]
    assert_refused(GAME, state, ev(0, "score_feature", x=3, y=1, feature=0, use_wall_tile=False), "scoring_order")
    assert_refused(GAME, state, ev(0, "score_feature", x=6, y=6, feature=0, use_wall_tile=False), "unknown_feature")
    assert_refused(GAME, state, ev(1, "score_feature", x=3, y=0, feature=0, use_wall_tile=False), "not_your_turn")
    state = act(state, 0, "score_feature", x=3, y=0, feature=0, use_wall_tile=True)
    # then seat 1's house (CT22's house + CT25 = 2 tiles) scores by itself: 2 points, keep
    assert state["score"] == [8, 2]
    assert state["keep"][1] == {"node": "3,1,0", "size": 2}


def test_doubling_someone_elses_feature_is_refused():
    # 7.6: wall tiles are used on one's own scoring only.
    board = {(3, 0): ("CT30", 0), (4, 0): ("CT31", 0), (4, 1): ("CT25", 0), (5, 1): ("CT31", 0), (4, 2): ("CT31", 0)}
    followers = [(0, "3,0,0", "knight"), (1, "4,1,0", "squire")]
    state = given(board=board, followers=followers, tile="CT22", held=([(2, 1), (3, 1)], []))
    state = act(act(state, 0, "place_tile", x=3, y=1, rotation=0), 0, "skip_follower")
    assert all(a["payload"]["y"] == 0 for a in GAME.legal_actions(state, 0))
    state = act(state, 0, "score_feature", x=3, y=0, feature=0, use_wall_tile=False)
    assert state["score"] == [4, 2]
    assert state["held"][0][1]["used"] is False  # house x2 could not apply to seat 1's house


def test_extra_turn_refusals():
    state = given(tile="CT31", held=([(1, 2)], []), pile=["CT31"])
    state = act(act(state, 0, "place_tile", x=1, y=9, rotation=0), 0, "skip_follower")
    assert_refused(GAME, state, ev(1, "use_extra_turn"), "not_your_turn")
    state["held"][0][0]["used"] = True
    assert_refused(GAME, state, ev(0, "use_extra_turn"), "no_wall_tile")


def test_confirming_twice_is_refused():
    # CT16 (four paths) fits nowhere once (1,9) is filled: see test_transcripts.NO_CROSSING
    board = {
        (6, 0): ("CT20", 180),
        (8, 2): ("CT20", 270),
        (7, 7): ("CT20", 270),
        (3, 11): ("CT20", 0),
        (3, 5): ("CT31", 0),
        (3, 0): ("CT31", 0),
    }
    state = given(board=board, tile="CT31", pile=["CT16", "CT01"], options={"unplaceable_tile": "confirm"})
    state = act(act(state, 0, "place_tile", x=1, y=9, rotation=0), 0, "skip_follower")
    assert_refused(GAME, state, ev(1, "place_tile", x=4, y=5, rotation=0), "wrong_action")
    state = act(state, 1, "confirm_remove_tile")
    assert_refused(GAME, state, ev(1, "confirm_remove_tile"), "not_your_turn")


def test_actions_after_the_end_are_refused():
    state = given(tile="CT31", pile=[])
    state = act(act(state, 0, "place_tile", x=1, y=9, rotation=0), 0, "skip_follower")
    assert_refused(GAME, state, ev(0, "place_tile", x=1, y=8, rotation=0), "game_over")


def test_unknown_and_malformed_actions():
    state = given(tile="CT31")
    assert_refused(GAME, state, ev(0, "fly"), "unknown_action")
    assert_refused(GAME, state, ev(0, "place_tile", x="1", y=9, rotation=0), "bad_payload")
