"""Transcripts of swaps, knowledge and the four neutral roles, worked out by hand."""

from __future__ import annotations

import pytest

from projections.games.base import REFEREE
from projections.games.sultans_of_karaya import GAME
from tests.games.harness import assert_refused

from .tables import act, event, kinds, rd, respond_all, table

FIVE = ["sultan", "guard", "assassin", "slave", "slave"]


def test_investigation_is_private_to_the_investigator():
    """6.1: the actor secretly looks; the log and other views say only who looked at whom."""
    state = act(table(FIVE, "slave"), 0, "investigate", target=2)
    assert GAME.view(state, 0)["you"]["known"] == {"2": {"role": "assassin", "status": "current"}}
    assert GAME.view(state, 1)["you"]["known"] == {}
    assert {"kind": "investigated", "seat": 0, "target": 2} in GAME.view(state, None)["notes"]


def test_an_open_swap_informs_both_parties_and_forbids_the_swap_back():
    """6.2 case A; G9 no swap with a seat that openly swapped with you since your last turn."""
    state = act(table(FIVE, "slave"), 0, "swap", with_=1)
    assert rd(state)["cards"][:2] == ["guard", "sultan"]
    assert GAME.view(state, 0)["you"] == {
        "seat": 0,
        "card": "guard",
        "known": {"1": {"role": "sultan", "status": "current"}},
    }
    assert GAME.view(state, 1)["you"]["known"] == {"0": {"role": "guard", "status": "current"}}
    assert_refused(GAME, state, event(1, "swap", with_=0), "swap_back")
    state = act(state, 1, "swap", with_="spare")
    # seat 0 follows the Sultan it saw into the spare; seat 1 knows what it put there
    assert GAME.view(state, 0)["you"]["known"] == {"spare": {"role": "sultan", "status": "current"}}
    assert GAME.view(state, 1)["you"]["known"]["spare"] == {"role": "sultan", "status": "current"}
    assert rd(state)["incoming"][1] == []  # cleared at the end of seat 1's turn


def test_an_eyes_closed_swap_leaves_no_trace_of_its_target():
    """6.2 case B: only the actor knows the partner; an uninvolved seat sees the same either way."""
    state = act(table(FIVE, "slave"), 0, "royal_claim")
    with_two = act(state, 0, "hide", with_=2)
    alone = act(state, 0, "hide", with_=None)
    assert rd(with_two)["cards"][2] == "sultan" and rd(with_two)["crown"] is None
    for viewer in (1, 3, 4, None):
        assert GAME.view(with_two, viewer) == GAME.view(alone, viewer)
        assert GAME.redact(event(0, "hide", with_=2), viewer) == GAME.redact(event(0, "hide", with_=None), viewer)
    assert GAME.view(with_two, 3)["you"]["known"]["0"] == {"role": "sultan", "status": "possibly_changed"}
    assert GAME.view(with_two, 0)["you"]["known"]["2"] == {"role": "sultan", "status": "current"}
    assert GAME.view(with_two, 2)["you"]["card"] == "sultan"  # everyone looks at their own card (G1)
    assert GAME.redact(event(0, "hide", with_=2), 0)["payload"] == {"with": 2}
    assert GAME.redact(event(0, "hide", with_=2), REFEREE)["payload"] == {"with": 2}


SEVEN = ["slaver", "slave", "slave", "slave", "sultan", "guard", "assassin"]


def test_capturing_a_hidden_slave_reveals_it_and_grants_a_bonus_action():
    """7.5 (b): the Slave reveals and is captured; the Slaver acts once more this turn."""
    state = act(table(SEVEN, "dancer"), 0, "capture", target=2)
    r = rd(state)
    assert r["revealed"][0] and r["revealed"][2] and r["captured"][2]
    assert r["pending"] == {"kind": "action", "seat": 0, "mode": "bonus"}
    state = act(state, 0, "investigate", target=4)
    assert rd(state)["owner"] == 1
    state = act(state, 1, "investigate", target=4)
    assert rd(state)["owner"] == 3 and "turn_skipped" in kinds(state)  # a captive takes no turn


def test_capturing_a_non_slave_only_says_so():
    """7.5 (b): not a Slave -> no reveal, the public fact 'not a Slave', the action ends."""
    state = act(table(SEVEN, "dancer"), 0, "capture", target=4)
    assert not rd(state)["revealed"][4] and rd(state)["owner"] == 1
    assert {"kind": "not_a_slave", "seat": 0, "target": 4} in state["notes"]


def test_when_the_slaver_hides_every_captive_is_freed():
    """7.5 special: hiding returns all capture cards."""
    state = act(table(SEVEN, "dancer"), 0, "capture", target=2)
    state = act(state, 0, "hide", with_=None)
    assert not any(rd(state)["captured"]) and rd(state)["owner"] == 1


def test_an_active_belly_dancer_stops_the_guards_beside_her():
    """7.6: no Detain and no Block for a Guard adjacent to a revealed, free Dancer."""
    cards = ["dancer", "guard", "assassin", "slave", "slave", "slave", "sultan"]
    state = act(table(cards, "vizier", first=0), 0, "dance")
    assert_refused(GAME, state, event(1, "detain", target=2), "dancer_forbids")
    state = act(state, 1, "investigate", target=2)
    state = act(state, 2, "assassinate", target=3)
    assert 1 not in rd(state)["pending"]["eligible"]  # beside the Dancer: never asked


VIZIER_TABLE = ["vizier", "guard", "slave", "sultan", "assassin", "slave", "slave"]


@pytest.mark.parametrize("version", [2, 3])
def test_the_vizier_forces_an_ability_and_fatigue_follows(version):
    """7.7 manipulate; 8 fatigue forbids the action ability on the forced seat's next turn only.
    Version 2 detains the face-up Vizier at once; from version 3 the hidden seats may forbid it
    first (the Sultan among them, 禁止拘留), and fatigue still waits for the window to close."""
    state = act(table(VIZIER_TABLE, "oracle", rules_version=version), 0, "manipulate", side="loyalists", target=1)
    r = rd(state)
    assert r["revealed"][0] and r["faction"][0] == "loyalists" and r["revealed"][1]
    assert r["pending"] == {"kind": "forced", "seat": 1, "ability": "detain"}
    state = act(state, 1, "detain", target=0)  # the forced seat chooses; detaining the Vizier is legal
    if version >= 3:
        assert rd(state)["pending"]["eligible"] == [2, 3, 4, 5, 6] and not rd(state)["fatigue"][1]
        state = respond_all(state)
    r = rd(state)
    assert r["prison"][0] and r["fatigue"][1] and r["owner"] == 1
    assert_refused(GAME, state, event(1, "detain", target=2), "fatigued")
    state = act(state, 1, "investigate", target=2)
    assert not rd(state)["fatigue"][1]
    for seat in (2, 3, 4, 5, 6):
        state = act(state, seat, "investigate", target=2 if seat != 2 else 3)
    # the prison placed during the Vizier's own turn costs her next one
    assert rd(state)["owner"] == 1 and not rd(state)["prison"][0]


def test_a_forced_slave_calls_a_revolt_at_once():
    """7.7 forced uses: the Slave's revolt needs no choice, its window opens."""
    state = act(table(VIZIER_TABLE, "oracle"), 0, "manipulate", side="rebels", target=2)
    pending = rd(state)["pending"]
    assert pending["window"] == "revolt" and pending["eligible"] == [1, 3, 4, 5, 6]
    state = respond_all(state, {5: "join", 6: "join"})
    assert rd(state)["fatigue"][2] and rd(state)["owner"] == 1


def test_the_oracle_looks_predicts_and_must_hide_next_turn():
    """7.8 foretell: min(3, h) looks, a public prediction, then the forced hide."""
    cards = ["oracle", "guard", "slave", "sultan", "slave", "assassin", "slave"]
    state = act(table(cards, "vizier"), 0, "foretell")
    for target in (1, 2, 3):
        state = act(state, 0, "look", target=target)
    assert GAME.view(state, 0)["you"]["known"]["3"] == {"role": "sultan", "status": "current"}
    state = act(state, 0, "predict", side="rebels")
    assert rd(state)["faction"][0] == "rebels" and rd(state)["owner"] == 1
    for seat in range(1, 7):
        state = act(state, seat, "investigate", target=2 if seat != 2 else 1)
    assert rd(state)["pending"] == {"kind": "action", "seat": 0, "mode": "forced_hide"}
    assert_refused(GAME, state, event(0, "investigate", target=1), "must_hide")
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"hide"}
    state = act(state, 0, "hide", with_=None)
    assert rd(state)["faction"][0] is None and not rd(state)["must_hide"][0]


def test_a_correct_revealed_oracle_scores_two_and_a_hidden_vizier_one_beside_a_two():
    """12.1: Oracle 2 iff her prediction names the winners; hidden Vizier 1 beside a 2-point seat."""
    cards = ["oracle", "assassin", "slave", "sultan", "slave", "guard", "vizier"]
    state = act(table(cards, "dancer", first=0), 0, "foretell")
    for target in (1, 2, 3):
        state = act(state, 0, "look", target=target)
    state = act(state, 0, "predict", side="rebels")
    state = act(state, 1, "assassinate", target=3)
    assert rd(state)["pending"]["eligible"] == [2, 4]  # the revealed Oracle is no Guard
    state = respond_all(state)
    h = state["history"][0]
    assert h["winner"] == "rebels"
    # oracle 2, assassin revealed 2, hidden slaves 1, sultan dead 0, guard 0,
    # hidden vizier (seat 6) beside the oracle (seat 0, 2 points) scores 1
    assert h["points"] == [2, 2, 1, 0, 1, 0, 1]
