"""Every illegal action the rules name is refused with a specific code, the state untouched."""

from __future__ import annotations

import pytest

from projections.games.age_of_rome import GAME
from tests.games.harness import assert_refused

from .helpers import at, board, ev, new_game

PLACE = {"op": "place", "seat": 0}
BUILD = {"op": "build_turn", "seat": 0}
PLOT = {"op": "plot_turn", "seat": 0}


def four():
    return board(4, "marcus_antonius", "caius_octavius", "fulvia", "aemilius_lepidus")


def test_out_of_turn_and_system_events_are_refused():
    state = at(four(), BUILD)
    assert_refused(GAME, state, ev(1, "build", building="military"), "not_your_turn")
    assert_refused(GAME, state, ev(None, "rival_card"), "not_your_turn")


def test_wrong_and_unknown_action_types():
    state = at(four(), BUILD)
    assert_refused(GAME, state, ev(0, "place_follower", location="colosseum"), "wrong_action")
    assert_refused(GAME, state, ev(0, "bribe_senator"), "unknown_action")


def test_nothing_after_the_game_ends():
    state = dict(four(), result={"scores": [1, 1, 1, 1], "ranking": [1, 1, 1, 1], "tiebreak": None})
    assert_refused(GAME, state, ev(0, "pass"), "game_over")


@pytest.mark.parametrize(
    "setup, payload, code",
    [
        ({}, {"location": "building:military"}, "no_building"),
        ({"full": True}, {"location": "building:military"}, "building_full"),
        ({"level": True}, {"location": "building:political", "use_token": True}, "token_covered"),
        ({"level": True, "used": True}, {"location": "building:military", "use_token": True}, "token_used"),
        ({"level": True}, {"location": "building:religious", "use_token": True}, "no_bonus_token"),
        ({}, {"location": "colosseum", "use_token": True}, "no_bonus_token"),
        ({"plot": True}, {"location": "plot:0"}, "space_occupied"),
        ({"markers": 0}, {"location": "plot:1"}, "no_plot_marker"),
        ({}, {"location": "forum"}, "unknown_location"),
    ],
)
def test_follower_placements_the_rules_forbid(setup, payload, code):
    state = four()
    italia = state["provinces"]["italia"]
    if setup.get("level"):
        italia["levels"].update(military=1, political=1, religious=1)
    if setup.get("full"):
        italia["levels"]["military"] = 1
        italia["followers"]["military"] = [1]
    if setup.get("used"):
        state["players"][0]["tokens_used"] = ["military"]
    if setup.get("plot"):
        italia["plots"][0] = {"owner": 1, "up": True}
    if "markers" in setup:
        state["players"][0]["plot_markers"] = setup["markers"]
    assert_refused(GAME, at(state, PLACE), ev(0, "place_follower", **{"use_token": False, **payload}), code)


def test_builds_the_rules_forbid():
    state = four()
    state["players"][0]["denarii"] = 2  # Italia's military slot costs 3
    assert_refused(GAME, at(state, BUILD), ev(0, "build", building="military"), "not_enough_denarii")
    state["provinces"]["italia"]["levels"]["military"] = 3
    assert_refused(GAME, at(state, BUILD), ev(0, "build", building="military"), "slot_complete")
    state["provinces"]["italia"]["levels"]["military"] = 0
    state["tiles"]["military"][0] = 0
    assert_refused(GAME, at(state, BUILD), ev(0, "build", building="military"), "no_tile_left")


def test_double_taxation_that_would_drop_below_one_glory():
    state = four()
    state["provinces"]["italia"]["population"] = 3  # red number 2; Antonius has 1 glory
    assert_refused(GAME, at(state, {"op": "tax", "seat": 0}), ev(0, "tax", mode="double"), "glory_too_low")


def test_card_uses_the_rules_forbid():
    state = four()
    state["players"][0]["hand"] = ["A1", "T01", "W01", "C01"]
    tax = at(state, {"op": "tax", "seat": 0})
    assert_refused(GAME, tax, ev(0, "sell_card", card="A1"), "anchor_card")
    assert_refused(GAME, tax, ev(0, "discard_card", card="A1"), "anchor_card")
    assert_refused(GAME, tax, ev(0, "sell_card", card="J01"), "card_not_in_hand")
    assert_refused(GAME, tax, ev(0, "form_set", cards=["T01", "W01", "C01"], as_type="tool"), "not_a_set")
    assert_refused(GAME, tax, ev(0, "exchange", count=1), "no_religious_medal")
    state["players"][0]["sets"] = [{"type": "tool", "cards": []}] * 3
    assert_refused(
        GAME,
        at(state, {"op": "tax", "seat": 0}),
        ev(0, "form_set", cards=["T01", "W01", "C01"], as_type="tool"),
        "too_many_sets",
    )
    window = at(state, {"op": "window", "seat": 0, "trigger": "on_tax", "filter": {"mode": "normal"}})
    assert_refused(GAME, window, ev(0, "play_card", card="W01"), "wrong_trigger")
    reaction = at(state, {"op": "window", "seat": 0, "trigger": "on_targeted_by_plot", "filter": {}})
    assert_refused(GAME, reaction, ev(0, "sell_card", card="T01"), "wrong_action")


def plot_board(province="gallia"):
    state = four()
    state["provinces"][province]["plots"][0] = {"owner": 0, "up": True}
    state["players"][1]["glory"] = 3
    return state


def launch(**payload):
    return ev(0, "launch_plot", **{"province": "gallia", "space": 0, "action": "disrupt", "victim": 1, **payload})


def test_plots_the_rules_forbid():
    state = plot_board("italia")  # Italia faces the launcher himself
    assert_refused(GAME, at(state, PLOT), launch(province="italia"), "no_target")
    state = plot_board()
    state["players"][1]["vendetta"] = 5
    assert_refused(GAME, at(state, PLOT), launch(), "track_full")
    state = plot_board()
    state["players"][0]["vendetta"] = 0
    assert_refused(GAME, at(state, PLOT), launch(), "no_vendetta_marker")
    state = plot_board()
    state["players"][1]["glory"] = 1
    assert_refused(GAME, at(state, PLOT), launch(), "no_effect")
    assert_refused(GAME, at(plot_board(), PLOT), launch(victim=2), "wrong_victim")
    assert_refused(GAME, at(plot_board(), PLOT), launch(action="lure"), "not_your_plot_action")
    assert_refused(GAME, at(plot_board(), PLOT), launch(space=1), "no_plot_marker")


def test_two_player_plots_in_front_of_an_empty_seat_have_no_target():
    state = board(2, "marcus_antonius", "fulvia")
    state["provinces"]["gallia"]["plots"][0] = {"owner": 0, "up": True}  # Gallia faces empty table seat 1
    assert_refused(GAME, at(state, PLOT), launch(), "no_target")


def test_choices_outside_the_offer_are_refused():
    state = new_game(2)
    dealt = state["players"][0]["dealt"]
    assert_refused(GAME, state, ev(0, "keep_missions", keep=[dealt[0], "M99"]), "illegal_choice")
    state = at(four(), {"op": "legion_move", "seat": 0})
    assert_refused(GAME, state, ev(0, "move_legion", **{"from": "thrace", "to": "epirus"}), "illegal_choice")


def test_tariff_with_a_full_hand_has_no_effect():
    state = board(4, "junia", "caius_octavius", "fulvia", "aemilius_lepidus", optional_characters=True)
    state["provinces"]["gallia"]["plots"][0] = {"owner": 0, "up": True}
    state["players"][0]["hand"] = ["T01", "T02", "T03", "T04", "T05"]
    state["players"][1]["hand"] = ["W01"]
    assert_refused(GAME, at(state, PLOT), launch(action="tariff"), "no_effect")
