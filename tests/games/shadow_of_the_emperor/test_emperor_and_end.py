"""Phase VII (the emperor's reward per round), phase VIII and the end of the game (S6 VII, S12)."""

from __future__ import annotations

from projections.games.shadow_of_the_emperor import GAME

from .helpers import act, assert_refused, blank, everyone_passes, put


def test_round_one_the_emperor_scores_2_and_places_a_new_empire_city():
    state = everyone_passes(blank(3, emperor=1))
    assert state["await"] == {"kind": "empire_city", "seat": 1}
    assert state["players"][1]["vp"] == 2
    kinds = {a["type"] for a in GAME.legal_actions(state, 1)}
    assert kinds == {"place_empire_city", "skip_empire_city"}  # nothing on the board to move yet
    state = act(state, 1, "place_empire_city", space="mainz/city1")
    assert state["electorates"]["mainz"]["cities"][1] == "empire" and state["empire_in_box"] == 2
    assert state["round"] == 2


def test_round_two_the_emperor_may_instead_move_an_empire_city():
    state = blank(3, emperor=0, round_=2)
    put(state, "throne", 0, couple=True, age=15)
    put(state, "trier/city0", "empire")
    state = everyone_passes(state)
    assert_refused(
        GAME,
        state,
        {"type": "move_empire_city", "seat": 0, "payload": {"source": "trier/city1", "space": "koeln/city0"}},
        "not_an_empire_city",
    )
    state = act(state, 0, "move_empire_city", source="trier/city0", space="koeln/city0")
    assert state["electorates"]["koeln"]["cities"][0] == "empire" and state["electorates"]["trier"]["cities"][0] is None
    assert state["empire_in_box"] == 2


def test_round_three_2_vp_1_thaler_and_only_a_move():
    state = blank(3, emperor=0, round_=3)
    put(state, "throne", 0, couple=True, age=15)
    put(state, "trier/city0", "empire")
    state["players"][0]["thalers"] = 3
    state = everyone_passes(state)
    assert state["players"][0]["vp"] == 2 and state["players"][0]["thalers"] == 4
    assert_refused(
        GAME, state, {"type": "place_empire_city", "seat": 0, "payload": {"space": "koeln/city0"}}, "no_empire_city"
    )
    state = act(state, 0, "skip_empire_city")
    assert state["round"] == 4


def test_round_four_1_vp_and_2_thalers_capped_at_12_then_round_five_1_vp_ends_the_game():
    state = blank(2, emperor=0, round_=4)
    put(state, "throne", 0, couple=True, age=15)
    state["players"][0]["thalers"] = 11
    state = act(act(state, 0, "pass"), 1, "pass")
    assert state["round"] == 5 and state["phase"] == "actions"
    assert state["players"][0]["vp"] == 1
    assert state["players"][0]["thalers"] == 12  # 11 + 2 -> 12, then income 6 -> 12
    assert GAME.result(state) is None
    state = everyone_passes(state)
    assert state["phase"] == "finished" and GAME.to_act(state) == set()
    assert GAME.result(state) == {"scores": [2, 0], "ranking": [1, 2], "tiebreak": None}


def test_game_end_ties_share_the_victory_or_use_the_configured_tiebreak():
    """G6: tied players share the victory; option: most thalers, then the emperor."""
    for tiebreak, ranking in (("shared", [1, 1, 3]), ("thalers_then_emperor", [2, 1, 3])):
        state = blank(3, emperor=0, round_=5, tiebreak=tiebreak)
        put(state, "throne", 0, couple=True, age=15)
        state["players"][0]["vp"] = 4  # + 1 emperor reward = 5
        state["players"][1]["vp"] = 5
        state["players"][1]["thalers"] = 9
        state = everyone_passes(state)
        result = GAME.result(state)
        assert result["scores"] == [5, 5, 0] and result["ranking"] == ranking


def test_victory_points_are_hidden_from_the_other_seats_until_the_end():
    """S15.1: opponents' totals are unknown; each seat sees its own; all are shown at the end."""
    state = blank(3, emperor=0)
    state["players"][1]["vp"] = 4
    assert GAME.view(state, 1)["scores"] == [None, 4, None]
    assert GAME.view(state, 0)["scores"] == [0, None, None]
    assert GAME.view(state, None)["scores"] == [None, None, None]
    assert GAME.view(state, "referee")["scores"] == [0, 4, 0]
    state = everyone_passes(blank(3, emperor=0, round_=5))
    assert GAME.view(state, None)["scores"] == [1, 0, 0]
