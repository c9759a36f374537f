"""Every illegal action the rules name is refused with its own code and leaves the state as it was."""

from __future__ import annotations

import pytest

from projections.games.sultans_of_karaya import GAME
from tests.games.harness import assert_refused

from .tables import act, event, rd, respond_all, table

FIVE = ["sultan", "guard", "assassin", "slave", "slave"]
SEVEN = ["slaver", "slave", "slave", "slave", "sultan", "guard", "assassin"]


def fresh():
    return table(FIVE, "slave", first=0)


@pytest.mark.parametrize(
    "bad, code",
    [
        (event(1, "investigate", target=2), "not_your_turn"),
        (event(None, "investigate", target=2), "not_your_turn"),
        (event(0, "fly", target=2), "unknown_action"),
        (event(0, "respond", window=1, choice="pass"), "wrong_action"),
        (event(0, "predict", side="rebels"), "wrong_action"),
        (event(0, "investigate", target=0), "invalid_target"),
        (event(0, "investigate", target=9), "invalid_target"),
        (event(0, "hide", with_=None), "actor_hidden"),
        (event(0, "assassinate", target=2), "wrong_role"),
        (event(0, "execute", target=3), "not_executable"),
        (event(1, "royal_claim"), "not_hidden_sultan"),
        (event(None, "window_timeout", window=1), "no_open_window"),
    ],
)
def test_refusals_on_a_fresh_table(bad, code):
    assert_refused(GAME, fresh(), bad, code)


def test_rules_version_1_a_revealed_target_cannot_be_investigated_nor_swapped_with():
    state = table(FIVE, "slave", first=0, rules_version=1)
    state = act(act(state, 0, "royal_claim"), 0, "investigate", target=1)
    assert_refused(GAME, state, event(1, "investigate", target=0), "target_revealed")
    assert_refused(GAME, state, event(1, "swap", with_=0), "target_revealed")


def test_a_revealed_target_cannot_be_swapped_with():
    """Version 2 lets a revealed seat be investigated (test_transcripts_versions), never swapped with."""
    state = act(act(fresh(), 0, "royal_claim"), 0, "investigate", target=1)
    assert_refused(GAME, state, event(1, "swap", with_=0), "target_revealed")


def test_a_revealed_seat_hides_instead_of_swapping():
    state = act(fresh(), 0, "royal_claim")
    assert_refused(GAME, state, event(0, "swap", with_=1), "actor_revealed")


def test_dead_and_detained_seats_are_refused_targets():
    state = act(table(["guard", "slave", "assassin", "slave", "sultan"], "slave", first=0), 0, "detain", target=1)
    state = respond_all(state)  # seat 1 detained, seat 1's turn served, now seat 2
    state = act(state, 2, "assassinate", target=3)  # the only Guard is face up: nobody to ask
    assert not rd(state)["alive"][3]
    assert_refused(GAME, state, event(4, "investigate", target=3), "target_dead")


def test_no_swap_with_a_detained_seat_and_no_second_detention():
    state = act(
        table(["guard", "slave", "sultan", "assassin", "slave"], "slave", first=0, rounds=1), 0, "detain", target=2
    )
    state = respond_all(state)
    assert rd(state)["prison"][2] and rd(state)["owner"] == 1
    assert_refused(GAME, state, event(1, "swap", with_=2), "target_detained")


def test_revealed_sultan_or_guard_cannot_be_detained():
    """Rules versions 1 and 2 (G4); version 3 lets the Guard name them (test_transcripts_rulebook)."""
    cards = ["guard", "sultan", "slave", "assassin", "slave"]
    state = act(table(cards, "slave", first=1, rules_version=2), 1, "royal_claim")
    state = act(state, 1, "investigate", target=2)
    for seat, target in [(2, 3), (3, 4), (4, 0)]:
        state = act(state, seat, "investigate", target=target)
    assert_refused(GAME, state, event(0, "detain", target=1), "target_protected")


def test_no_prison_card_left():
    state = fresh()
    rd(state)["prison"] = [False, False, True, True, True]
    assert_refused(GAME, state, event(1, "detain", target=0), "not_your_turn")
    rd(state)["owner"], rd(state)["pending"] = 1, {"kind": "action", "seat": 1, "mode": "normal"}
    assert_refused(GAME, state, event(1, "detain", target=0), "no_prison_card")


def test_slaver_refusals():
    state = act(table(SEVEN, "dancer"), 0, "capture", target=2)
    assert_refused(GAME, state, event(0, "capture", target=2), "not_capturable")
    rd(state)["captured"] = [False, True, True, True, False, False, False]
    assert_refused(GAME, state, event(0, "capture", target=4), "no_capture_card")


def test_dancer_and_oracle_abilities_only_when_hidden():
    cards = ["dancer", "oracle", "slave", "slave", "sultan", "guard", "assassin"]
    state = act(table(cards, "slave"), 0, "dance")
    state = act(state, 1, "foretell")
    for target in (2, 3, 4):
        if target == 3:
            assert_refused(GAME, state, event(1, "look", target=2), "already_looked")
        state = act(state, 1, "look", target=target)
    assert_refused(GAME, state, event(1, "predict", side="sultans"), "invalid_side")
    state = act(state, 1, "predict", side="loyalists")
    for seat in (2, 3, 4, 5, 6):
        state = act(state, seat, "investigate", target=2 if seat != 2 else 3)
    assert_refused(GAME, state, event(0, "dance"), "already_revealed")


def test_vizier_side_rules():
    cards = ["vizier", "guard", "slave", "sultan", "assassin", "slave", "slave"]
    state = table(cards, "oracle")
    assert_refused(GAME, state, event(0, "manipulate", side=None, target=1), "side_required")
    state = act(state, 0, "manipulate", side="rebels", target=2)
    state = respond_all(state)
    for seat in range(1, 7):
        state = act(state, seat, "investigate", target=3 if seat != 3 else 4)
    assert_refused(GAME, state, event(0, "manipulate", side="loyalists", target=1), "side_fixed")


def test_window_answers_are_checked():
    state = act(table(["assassin", "slave", "sultan", "slave", "guard"], "slave"), 0, "assassinate", target=2)
    assert_refused(GAME, state, event(1, "respond", window=1, choice="block"), "invalid_choice")
    assert_refused(GAME, state, event(1, "respond", window=7, choice="pass"), "wrong_window")
    assert_refused(GAME, state, event(0, "respond", window=1, choice="pass"), "not_your_turn")
    state = act(state, 1, "respond", window=1, choice="pass")
    assert_refused(GAME, state, event(1, "respond", window=1, choice="pass"), "not_your_turn")
    assert_refused(GAME, state, event(3, "window_timeout", window=1), "not_your_turn")


def test_nothing_after_the_game_is_over():
    state = table(["slave", "slave", "slave", "sultan", "guard"], "assassin", first=1, rounds=1)
    state = respond_all(act(state, 1, "call_revolt"), {0: "join", 2: "join"})
    assert state["finished"] and GAME.to_act(state) == set() and GAME.legal_actions(state, 3) == []
    assert_refused(GAME, state, event(3, "royal_claim"), "game_over")


def test_an_out_of_turn_revolt_is_refused_unless_a_face_down_slave_may_call_now():
    """G2 variant: only a face-down Slave, never while another window is open; off by default."""
    assert_refused(GAME, fresh(), event(3, "call_revolt"), "not_your_turn")  # the default: own turn only
    state = table(FIVE, "slave", first=0, slave_call_any_time=True)
    assert_refused(GAME, state, event(1, "call_revolt"), "not_hidden_slave")  # a face-down Guard
    state = act(state, 3, "call_revolt")
    state = respond_all(state)
    assert_refused(GAME, state, event(3, "call_revolt"), "not_hidden_slave")  # already face up
    state = act(state, 0, "investigate", target=1)
    state = act(state, 1, "investigate", target=2)
    state = act(state, 2, "assassinate", target=0)  # a BLOCK window asks 1 and 4, beside the Sultan
    assert rd(state)["pending"]["window"] == "block" and GAME.to_act(state) == {1, 4}
    assert GAME.legal_actions(state, 4) == [{"type": "respond", "payload": {"window": 2, "choice": "pass"}}]
    assert_refused(GAME, state, event(4, "call_revolt"), "window_open")


def test_a_detained_slave_calls_out_of_turn_only_when_detained_slaves_may_join():
    """G2 variant with G6: the call is a reveal, like a join; option detained_may_join = false forbids it."""
    cards = ["guard", "assassin", "sultan", "slave", "slave"]
    for may_join in (True, False):
        state = act(table(cards, "slave", slave_call_any_time=True, detained_may_join=may_join), 0, "detain", target=4)
        state = respond_all(state)  # a face-down Slave may only accept
        assert rd(state)["prison"][4] and not rd(state)["revealed"][4] and rd(state)["owner"] == 1
        if may_join:
            assert GAME.legal_actions(state, 4) == [{"type": "call_revolt", "payload": {}}]
        else:
            assert GAME.legal_actions(state, 4) == []
            assert_refused(GAME, state, event(4, "call_revolt"), "detained")
