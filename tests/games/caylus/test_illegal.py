"""Refusals not shown elsewhere: each with its code, the state left unchanged."""

from projections.games.caylus import GAME
from tests.games.harness import assert_refused

from .helpers import act, at_phase, give, own, position, worker


def ev(seat, kind, **payload):
    return {"type": kind, "seat": seat, "payload": payload}


def test_the_system_actor_and_other_seats_are_refused():
    state = position(3)
    assert_refused(GAME, state, ev(None, "pass"), "not_your_turn")
    assert_refused(GAME, state, ev(2, "pass"), "not_your_turn")


def test_favour_refusals():
    state = position(3)
    own(state, 9, "w_sawmill", 1)
    state["favours"] = [0]
    assert_refused(GAME, state, ev(0, "choose_favour", row="magic", column=1), "unknown_row")
    assert_refused(GAME, state, ev(0, "choose_favour", row="resources", column=1, gain=["wood"]), "bad_payload")
    assert_refused(GAME, state, ev(0, "choose_favour", row="prestige", column=1, gain=["food"]), "bad_payload")
    assert_refused(
        GAME, state, ev(0, "choose_favour", row="buildings", column=2, building="w_sawmill"), "column_not_reached"
    )
    state["favour_markers"][0][3] = 1
    assert_refused(
        GAME, state, ev(0, "choose_favour", row="buildings", column=2, building="w_sawmill"), "not_in_supply"
    )
    assert_refused(GAME, state, ev(0, "pass"), "wrong_action")


def test_conversion_pending_and_house_limit_refusals():
    state = position(3, {"house_limit": 20})
    own(state, 9, "w_lawyer", 1)
    own(state, 10, "w_sawmill", 0)
    state["road"][9]["convert_to"] = 0
    state["provost"] = 10
    give(state, 0, cloth=2)
    worker(state, 9, 0)
    worker(state, 10, 2)
    state["castle_workers"] = [2]
    give(state, 2, wood=1, stone=1)
    state = at_phase(state, "road")
    assert_refused(GAME, state, ev(0, "convert", space=10), "conversion_pending")
    state["players"][0]["houses"] = 20
    assert_refused(GAME, state, ev(0, "convert", space=1), "no_house_left")
    assert_refused(GAME, state, ev(0, "convert", space=40), "no_such_space")


def test_payload_type_refusals():
    state = position(3)
    state["special"]["inn_right"] = 0
    state = at_phase(state, "special")
    assert_refused(GAME, state, ev(0, "inn_keep", keep="yes"), "bad_payload")
    state = position(3)
    worker(state, 1, 0)
    state["castle_workers"] = [2]
    give(state, 2, wood=1, stone=1)
    state = at_phase(state, "road")
    assert_refused(GAME, state, ev(0, "produce", option=2), "unknown_option")
    assert_refused(GAME, state, ev(0, "produce", option=True), "unknown_option")
    state = act(state, 0, "produce", option=0)
    assert_refused(GAME, state, ev(2, "give_batch", cubes=["wood", 3]), "bad_batch")


def test_a_boolean_is_not_a_road_space():
    # JSON true is not the number 1: apply refuses it even without the schema in front.
    state = position(3)
    state["columns_open"] = 4
    state["favour_markers"][0][3] = 3
    state["favours"] = [0]
    give(state, 0, cloth=1)
    assert_refused(GAME, state, ev(0, "choose_favour", row="buildings", column=4, space=True), "no_such_space")
    state["road"][0].update(building="residence", owner=0)
    state["favour_markers"][0][3] = 4
    state["columns_open"] = 5
    give(state, 0, stone=2, gold=1)
    assert_refused(
        GAME, state, ev(0, "choose_favour", row="buildings", column=5, space=True, building="p_statue"), "no_such_space"
    )
    act(state, 0, "choose_favour", row="buildings", column=5, space=1, building="p_statue")
