"""Scripted transcripts of the round flow, worked out by hand from the digest (section cited)."""

from __future__ import annotations

import pytest

from projections.games.age_of_rome import GAME
from projections.games.age_of_rome.content import COMMERCE, MISSIONS

from .helpers import act, at, board, new_game, take_building_actions, with_characters


def test_two_player_setup_applies_the_removals():
    # §10 / §5.1 steps 4, 5, 14, 16: opposite seats, 4/2/1 tiles, no starred cards, 1/1/0 metals
    state = new_game(2)
    assert sorted(state["table"]) == [0, 2]  # seats drawn at random, always opposite
    assert state["tiles"]["military"] == [4, 2, 1]
    assert len(state["commerce_deck"]) == 28 and not any(COMMERCE[c]["starred"] for c in state["commerce_deck"])
    assert len(state["mission_deck"]) == 16 - 6
    assert not any(MISSIONS[m]["starred"] for m in state["mission_deck"] + state["players"][0]["dealt"])
    assert state["pantheon_supply"] == {
        "foundation": {"gold": 1, "silver": 1, "bronze": 0},
        "building": {"gold": 1, "silver": 1, "bronze": 0},
    }


def test_three_and_four_player_supplies():
    # §8.9 metal supply by player count; §5.1 step 4: 4/3/2 tiles from 3 players up
    three, four = new_game(3), new_game(4)
    assert three["pantheon_supply"]["foundation"] == {"gold": 1, "silver": 1, "bronze": 1}
    assert four["pantheon_supply"]["building"] == {"gold": 1, "silver": 1, "bronze": 2}
    assert four["tiles"]["religious"] == [4, 3, 2] and sorted(three["table"]) == [0, 1, 2]
    assert len(four["commerce_deck"]) == 36  # anchors are dealt from their own pile, not the deck


def test_vendetta_pool_holds_the_markers_not_on_boards():
    state = new_game(4)
    assert state["vendetta_pool"] + sum(p["vendetta"] for p in state["players"]) == 20


def opening(version: int):
    """2 players: Fulvia (seat 0, table 0) and Marcus Antonius (seat 1, table 2)."""
    state = with_characters(new_game(2, rules_version=version), "fulvia", "marcus_antonius")
    state["players"][0]["hand"] = ["A1"]  # Fulvia's board shows the anchor (§6)
    state["unused_anchors"] = ["A2", "A3"]
    state["start_province"] = "italia"
    state["event_deck"] = ["E01", "E04"] + [e for e in state["event_deck"] if e not in ("E01", "E04")]
    for seat in (0, 1):
        state = act(state, seat, "keep_missions", keep=state["players"][seat]["dealt"][:2])
    return state


@pytest.mark.parametrize("version", [2, 3])
def test_opening_round_of_two_players(version):
    """The same opening under rules version 2 (building actions happen at once) and 3 (each
    is offered: Fulvia places her vote, Antonius makes both moves his token gives)."""
    state = opening(version)
    # §7.1: E01 "fewest denarii +3": Fulvia 6, Antonius 5 -> Antonius 8
    assert state["event"] == "E01" and state["players"][1]["denarii"] == 8
    # §4: seat 0 faces Italia (start marker) so starts; round 1 skips plot launches; build phase
    assert state["turn_order"] == [0, 1] and state["phase"] == "build"
    assert GAME.to_act(state) == {0}
    # §7.2 / §16.2: Italia political level 1 costs 2 and gives 1 glory; population +1
    state = act(state, 0, "build", building="political")
    p0 = state["players"][0]
    assert (p0["denarii"], p0["glory"], state["provinces"]["italia"]["population"]) == (4, 3, 2)
    assert state["queue"][0]["trigger"] == "on_build"  # a window: her hand is not empty
    state = act(state, 0, "pass")
    state = act(state, 0, "end_build_turn")
    # Antonius faces Hispania: commercial 2/1 then military 3/1
    state = act(state, 1, "build", building="commercial")
    state = act(state, 1, "build", building="military")
    p1 = state["players"][1]
    assert (p1["denarii"], p1["glory"], state["provinces"]["hispania"]["population"]) == (3, 3, 3)
    state = act(state, 1, "end_build_turn")
    # §7.3 action phase: one follower each
    assert state["phase"] == "action"
    state = act(state, 0, "place_follower", location="building:political", use_token=False)
    state = take_building_actions(state, 0)
    assert state["senate"] == [0]
    state = act(state, 0, "pass")
    # Antonius's military token is active (position 2, 3 markers cover 3-5): two moves
    state = act(state, 1, "place_follower", location="building:military", use_token=True)
    state = act(state, 1, "move_legion", **{"from": "supply", "to": "macedonia"})
    state = act(state, 1, "move_legion", **{"from": "supply", "to": "macedonia"})
    assert state["areas"]["macedonia"] == [0, 2] and state["players"][1]["legions"] == 6
    # §7.4: Fulvia doubles population 2 (penalty 1), Antonius taxes population 3 normally
    assert state["phase"] == "income"
    state = act(state, 0, "tax", mode="double")
    assert (state["players"][0]["denarii"], state["players"][0]["glory"]) == (8, 2)
    state = act(state, 0, "pass")
    state = act(state, 1, "tax", mode="normal")
    assert state["players"][1]["denarii"] == 6
    # §7.5: E01 turns the board one step clockwise; the followers and tokens came home
    assert state["round"] == 2 and state["orientation"] == 1
    assert state["provinces"]["italia"]["followers"]["political"] == [] and state["players"][1]["tokens_used"] == []
    # round 2: E04 "lowest glory +2": Fulvia 2 < 3 -> 4
    assert state["event"] == "E04" and state["players"][0]["glory"] == 4
    # §4: Italia now faces table seat 1 (empty); stepping clockwise reaches table 2 = Antonius
    assert state["turn_order"] == [1, 0]
    assert {s: GAME.view(state, None)["players"][s]["faces"] for s in (0, 1)} == {0: "africa", 1: "gallia"}
    assert GAME.to_act(state) == {1} and state["phase"] == "build"


def test_counter_clockwise_event_reverses_turn_order():
    # §4: the arrows set the round's direction; turn order runs from the start player that way
    state = with_characters(new_game(4), "fulvia", "marcus_antonius", "caius_octavius", "aemilius_lepidus")
    state["start_province"] = "gallia"  # faces table seat 1 at orientation 0
    state["event_deck"] = ["E02"] + [e for e in state["event_deck"] if e != "E02"]
    for seat in range(4):
        state = act(state, seat, "keep_missions", keep=state["players"][seat]["dealt"][1:])
    assert state["turn_order"] == [1, 0, 3, 2]


def test_plot_launch_order_option():
    # §15 G2: plot launches go clockwise by default, or in turn order with the option
    from projections.games.age_of_rome.flow import plot_order

    state = board(4, "fulvia", "marcus_antonius", "caius_octavius", "aemilius_lepidus")
    state["turn_order"] = [1, 0, 3, 2]
    assert plot_order(state) == [1, 2, 3, 0]
    state["options"] = dict(state["options"], plot_launch_order="turn_order")
    assert plot_order(state) == [1, 0, 3, 2]


def test_followers_come_home_and_launched_markers_return_at_action_end():
    # §7.3 end of action phase: launched (face-down) markers return, face-up ones stay
    state = board(2, "fulvia", "marcus_antonius")
    state["provinces"]["gallia"]["plots"] = [{"owner": 0, "up": False}, {"owner": 0, "up": True}, None]
    state["players"][0]["plot_markers"] = 1
    state["players"][0]["tokens_used"] = ["military"]
    state["players"][0]["placed"] = 1  # her only follower is already out
    state = at(state, {"op": "place", "seat": 1}, {"op": "action_next", "index": 0})
    state["turn_order"] = [0, 1]
    state = act(state, 1, "place_follower", location="colosseum", use_token=False)
    assert state["provinces"]["gallia"]["plots"] == [None, {"owner": 0, "up": True}, None]
    assert state["players"][0]["plot_markers"] == 2 and state["players"][0]["tokens_used"] == []
    assert state["colosseum"] == []


def test_options_schema_defaults_are_the_digests():
    # §15: each open question is an option whose default is the digest's reading
    from projections.games.age_of_rome.options import DEFAULTS
    from projections.games.age_of_rome.schemas import OptionsSchema

    assert OptionsSchema().load({}) == DEFAULTS
    assert GAME.min_seats == 1 and GAME.max_seats == 4


def test_a_build_turn_nobody_could_pay_for_is_skipped():
    # §7.2: build any number of tiles, or none. Italia's cheapest slot (political) costs 2; a
    # turn is only asked for if denarii plus the hand (each card sells for 1) could reach it
    from projections.games.age_of_rome.flow import run

    state = board(2, "fulvia", "marcus_antonius")
    state["players"][0].update(denarii=0, hand=["T01"])
    state = at(state, {"op": "build_turn", "seat": 0})
    run(state, None)
    assert GAME.to_act(state) == set() and state["queue"] == []
    state["players"][0]["hand"] = ["T01", "T02"]
    state = at(state, {"op": "build_turn", "seat": 0})
    run(state, None)
    assert GAME.to_act(state) == {0}
