"""Refusals the protocol and the rules name, each with its code and the state unchanged."""

from __future__ import annotations

from projections.games.shadow_of_the_emperor import GAME

from .helpers import act, assert_refused, blank, everyone_passes, put


def ev(seat, type_, **payload):
    return {"type": type_, "seat": seat, "payload": payload}


def test_a_seat_that_is_not_asked_is_refused_with_not_your_turn():
    state = blank(3, emperor=0)
    assert_refused(GAME, state, ev(1, "pass"), "not_your_turn")
    assert_refused(GAME, state, ev(None, "pass"), "not_your_turn")


def test_an_action_of_the_wrong_kind_is_refused():
    state = blank(3, emperor=0)
    assert_refused(GAME, state, ev(0, "vote", side="rival"), "wrong_action")
    assert_refused(GAME, state, ev(0, "place_son", space="trier/a0"), "wrong_action")


def test_a_finished_game_refuses_everything():
    state = everyone_passes(blank(2, emperor=0, round_=5))
    assert_refused(GAME, state, ev(0, "pass"), "game_over")


def test_money_stacks_and_supply_are_checked():
    state = blank(3, emperor=0)
    state["players"][0]["thalers"] = 1
    assert_refused(
        GAME,
        state,
        ev(0, "take_card", card="indulgence", target=None, space=None, side=None, decline=False),
        "not_enough_money",
    )
    state["players"][0]["thalers"] = 7
    state["stacks"]["pope"] = 0
    assert_refused(
        GAME, state, ev(0, "take_card", card="pope", target=None, space=None, side=None, decline=False), "stack_empty"
    )
    assert_refused(
        GAME, state, ev(0, "take_card", card="joker", target=None, space=None, side=None, decline=False), "unknown_card"
    )
    state["players"][0]["nobles"] = 0
    assert_refused(
        GAME,
        state,
        ev(0, "take_card", card="permit", target=None, space="pfalz/a0", side="baron", decline=False),
        "no_supply",
    )
    state["players"][0]["knights"] = 0
    assert_refused(GAME, state, ev(0, "knight", source="supply", space="pfalz/a0"), "no_supply")


def test_a_phase_six_card_takes_no_target_and_spaces_must_exist():
    state = blank(3, emperor=0)
    assert_refused(
        GAME,
        state,
        ev(0, "take_card", card="pope", target="throne", space=None, side=None, decline=False),
        "invalid_choice",
    )
    assert_refused(
        GAME,
        state,
        ev(0, "take_card", card="permit", target=None, space="pfalz/a9", side="baron", decline=False),
        "invalid_space",
    )
    assert_refused(
        GAME,
        state,
        ev(0, "take_card", card="permit", target=None, space="pfalz/castle0", side="baron", decline=False),
        "not_an_aristocrat_space",
    )
    assert_refused(GAME, state, ev(0, "knight", source="supply", space="pfalz/city0"), "invalid_space")


def test_a_removed_electorate_cannot_be_named_or_entered():
    state = blank(2, emperor=0)
    gone = state["removed"][1]
    assert_refused(
        GAME,
        state,
        ev(0, "take_card", card="permit", target=None, space=f"{gone}/a0", side="baron", decline=False),
        "electorate_out_of_play",
    )


def test_knights_in_castles_are_never_pushed():
    """S9.2: a castle knight can never be pushed; nothing pushes a noble."""
    state = blank(3, emperor=0)
    for i in range(4):
        put(state, f"pfalz/a{i}", 1, age=25)
    put(state, "pfalz/castle0", 2)
    assert_refused(
        GAME,
        state,
        ev(0, "take_card", card="permit", target=None, space="pfalz/castle0", side="baron", decline=False),
        "not_an_aristocrat_space",
    )
    assert_refused(
        GAME,
        state,
        ev(0, "take_card", card="permit", target=None, space="pfalz/a0", side="baron", decline=False),
        "space_occupied",
    )


def test_a_displaced_elector_returns_to_its_own_electorate():
    state = blank(4, emperor=0)
    put(state, "pfalz/elector", 1, age=25)
    put(state, "pfalz/a0", 2, couple=True, age=25)
    put(state, "pfalz/a1", 2, age=25)
    state = everyone_passes(state)
    state = act(state, 2, "choose_elector", space="pfalz/a1")
    assert state["await"] == {"kind": "place_displaced", "seat": 1, "electorate": "pfalz"}
    assert_refused(GAME, state, ev(1, "place_displaced", space="sachsen/a0"), "wrong_electorate")
    state = act(state, 1, "place_displaced", space="pfalz/a3")
    assert state["electorates"]["pfalz"]["nobles"][3] == {"owner": 1, "couple": False, "age": 25}


def test_marriage_is_not_proposed_to_ones_own_family_or_a_couple():
    state = blank(3, emperor=0)
    put(state, "throne", 0, couple=True, age=25)
    put(state, "pfalz/a0", 1, age=25)
    put(state, "pfalz/a1", 2, couple=True, age=25)
    put(state, "pfalz/a2", 2, age=25)
    state.update(phase="descendants", queue=[])
    state["await"] = {"kind": "daughter", "seat": 1}
    assert_refused(GAME, state, ev(1, "propose_marriage", target="pfalz/a0"), "own_noble")
    assert_refused(GAME, state, ev(1, "propose_marriage", target="pfalz/a1"), "already_couple")
    assert_refused(GAME, state, ev(1, "propose_marriage", target="throne"), "already_couple")
