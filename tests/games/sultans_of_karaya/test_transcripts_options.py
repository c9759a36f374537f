"""Transcripts of team changes, forced abilities and the options of the digest's gaps."""

from __future__ import annotations

from projections.games.sultans_of_karaya import GAME
from projections.games.sultans_of_karaya.scoring import final_result, revolution
from tests.games.harness import assert_refused

from .tables import act, event, rd, respond_all, table

TEAMS = ["slaver", "assassin", "sultan", "slave", "dancer", "guard", "slave"]


def test_hidden_slaver_is_a_rebel_and_hidden_dancer_a_loyalist():
    """7.5/7.6/12.1: a hidden Slaver scores with the Rebels, a hidden Dancer does not."""
    state = act(table(TEAMS, "slave", first=1), 1, "assassinate", target=2)
    assert rd(state)["pending"]["eligible"] == [0, 2, 3]  # the target, beside the Assassin, is asked too (G5)
    state = respond_all(state)
    assert state["history"][0]["points"] == [1, 2, 0, 1, 0, 0, 1]


def test_revealed_slaver_turns_loyalist_and_revealed_dancer_rebel():
    state = act(table(TEAMS, "slave", first=4), 4, "dance")
    state = act(state, 5, "investigate", target=6)
    state = act(state, 6, "investigate", target=0)
    state = act(state, 0, "capture", target=3)
    state = act(state, 0, "investigate", target=2)  # the bonus action
    state = act(state, 1, "assassinate", target=2)
    assert rd(state)["pending"]["eligible"] == [2]
    state = respond_all(state)
    # slaver (loyal now) 0, assassin 2, sultan dead, captive slave revealed 2, dancer revealed 2,
    # guard 0, hidden slave 1
    assert state["history"][0]["points"] == [0, 2, 0, 2, 2, 0, 1]


def test_captured_slaves_do_not_count_for_the_revolution():
    """7.4/10: only free Slaves make the row of three."""
    state = table(["slave", "slave", "slave", "sultan", "guard", "slaver", "assassin"], "slave", first=5)
    state = act(state, 5, "capture", target=0)
    r = rd(state)
    r["revealed"][1] = r["revealed"][2] = True
    assert not revolution(r)
    r["captured"][0] = False
    assert revolution(r)


def test_a_target_beside_the_assassin_is_not_asked_when_the_option_is_off():
    """G5 option target_may_block = false (the reference implementation)."""
    state = act(table(TEAMS, "slave", first=1, target_may_block=False), 1, "assassinate", target=2)
    assert rd(state)["pending"]["eligible"] == [0, 3]


def test_a_detained_dancer_stops_nobody():
    """G7: the effect needs a free Dancer; it is a pure function of the state."""
    cards = ["dancer", "guard", "assassin", "slave", "slave", "slave", "sultan"]
    state = act(table(cards, "vizier", first=0), 0, "dance")
    state = act(state, 1, "investigate", target=2)
    state = act(state, 2, "investigate", target=3)
    rd(state)["prison"][0] = True
    rd(state)["owner"], rd(state)["pending"] = 1, {"kind": "action", "seat": 1, "mode": "normal"}
    assert {"type": "detain", "payload": {"target": 2}} in GAME.legal_actions(state, 1)


VIZ = ["vizier", "slaver", "slave", "sultan", "assassin", "slave", "guard"]


def test_a_forced_slaver_gets_its_bonus_and_fatigue_comes_after():
    """G12: the bonus is granted even when forced; fatigue once everything has resolved."""
    state = act(table(VIZ, "slave"), 0, "manipulate", side="rebels", target=1)
    assert rd(state)["pending"] == {"kind": "forced", "seat": 1, "ability": "capture"}
    state = act(state, 1, "capture", target=2)
    assert rd(state)["pending"] == {"kind": "action", "seat": 1, "mode": "bonus"} and not rd(state)["fatigue"][1]
    state = act(state, 1, "investigate", target=3)
    assert rd(state)["fatigue"][1] and rd(state)["owner"] == 1
    assert_refused(GAME, state, event(1, "capture", target=3), "fatigued")


def test_without_the_forced_bonus_option_the_turn_moves_on():
    state = act(table(VIZ, "slave", forced_slaver_gets_bonus=False), 0, "manipulate", side="rebels", target=1)
    state = act(state, 1, "capture", target=2)
    assert rd(state)["fatigue"][1] and rd(state)["owner"] == 1


def test_whole_turn_fatigue_costs_the_forced_seat_its_turn():
    """G8 option fatigue_scope = whole_turn."""
    state = act(table(VIZ, "slave", fatigue_scope="whole_turn"), 0, "manipulate", side="rebels", target=1)
    state = act(state, 1, "capture", target=3)  # not a Slave: no bonus
    assert rd(state)["owner"] == 2 and not rd(state)["fatigue"][1]


def test_a_forced_oracle_looks_predicts_and_must_still_hide():
    """7.7 forced Oracle; 7.8 the obligation applies even when the Vizier forced the prediction."""
    cards = ["vizier", "oracle", "slave", "sultan", "assassin", "slave", "guard"]
    state = act(table(cards, "slave"), 0, "manipulate", side="loyalists", target=1)
    assert rd(state)["pending"] == {"kind": "looks", "seat": 1, "left": 3, "looked": []}
    for target in (2, 3, 4):
        state = act(state, 1, "look", target=target)
    state = act(state, 1, "predict", side="loyalists")
    assert rd(state)["pending"] == {"kind": "action", "seat": 1, "mode": "forced_hide"}


def test_a_revealed_vizier_scores_with_her_chosen_side():
    """7.7/12.1: revealed -> the side on her faction card."""
    cards = ["vizier", "guard", "assassin", "sultan", "slave", "slave", "slave"]
    state = act(table(cards, "oracle"), 0, "manipulate", side="rebels", target=2)
    state = act(state, 2, "assassinate", target=3)
    state = respond_all(state)
    # vizier (rebels, revealed) 2, guard 0, assassin 2, sultan dead, slaves hidden 1
    assert state["history"][0]["points"] == [2, 0, 2, 0, 1, 1, 1]


def history(points_by_round):
    return [{"round": i + 1, "points": p} for i, p in enumerate(points_by_round)]


def test_tie_break_latest_round_with_two_points():
    """12.2 / G19: equal totals -> the latest round with exactly 2 points wins; else shared."""
    rounds = [[2, 0, 1], [0, 2, 1], [1, 1, 1], [0, 0, 0]]
    state = {"totals": [3, 3, 3], "history": history(rounds), "options": {"tiebreak_lookback": "any_round"}}
    result = final_result(state)
    assert result["ranking"] == [2, 1, 3] and result["tiebreak"]
    state["options"]["tiebreak_lookback"] = "last_round_only"
    assert final_result(state)["ranking"] == [1, 1, 1]


def test_target_score_ends_after_the_round_that_reaches_it():
    """12.2 variant: play to a target score."""
    state = table(["slave", "slave", "slave", "sultan", "guard"], "assassin", first=1, target_score=2, rounds=9)
    state = respond_all(act(state, 1, "call_revolt"), {0: "join", 2: "join"})
    assert state["finished"] and state["result"]["scores"] == [2, 2, 2, 0, 0]
    assert state["result"]["ranking"] == [1, 1, 1, 4, 4]


def test_a_claim_that_removes_the_oracles_last_choice_moves_her_to_the_prediction():
    """13.3: a claim changes no step, but a look with no card left to look at cannot be awaited."""
    cards = ["oracle", "sultan", "slave", "guard", "assassin", "slave", "slave"]
    state = table(cards, "vizier")
    rd(state)["revealed"] = [False, False, True, True, True, True, True]
    state = act(state, 0, "foretell")
    assert rd(state)["pending"] == {"kind": "looks", "seat": 0, "left": 1, "looked": []}
    state = act(state, 1, "royal_claim")
    assert rd(state)["pending"] == {"kind": "prediction", "seat": 0} and rd(state)["crown"] == 0
    assert GAME.legal_actions(state, 0)


# -- G2 variant: slave_call_any_time = true ------------------------------------------------
ANY_TIME = {"slave_call_any_time": True}
CALL = {"type": "call_revolt", "payload": {}}


def test_a_hidden_slave_calls_a_revolt_out_of_turn_and_the_turn_owner_still_acts():
    """G2 variant, 13.2 REVOLT, 13.3 (interrupt): seat 3 calls on the Sultan's turn; the window asks
    every other face-down seat; one joins; then the interrupted turn carries on where it was."""
    state = table(["sultan", "guard", "assassin", "slave", "slave"], "slave", first=0, **ANY_TIME)
    assert GAME.to_act(state) == {0}  # never awaited
    assert CALL in GAME.legal_actions(state, 3) and CALL in GAME.legal_actions(state, 4)
    assert all(CALL not in GAME.legal_actions(state, s) for s in (1, 2))
    assert CALL not in GAME.legal_actions(state, 0)  # the Sultan's own turn offers no Slave ability
    state = act(state, 3, "call_revolt")
    r = rd(state)
    assert r["revealed"] == [False, False, False, True, False] and r["owner"] == 0
    assert r["pending"]["window"] == "revolt" and r["pending"]["eligible"] == [0, 1, 2, 4]
    assert r["pending"]["context"] == {"caller": 3}
    assert {"kind": "revolt_called", "seat": 3, "out_of_turn": True} in state["notes"]
    assert GAME.to_act(state) == {0, 1, 2, 4}
    assert GAME.legal_actions(state, 4) == [
        {"type": "respond", "payload": {"window": 1, "choice": "join"}},
        {"type": "respond", "payload": {"window": 1, "choice": "pass"}},
    ]
    state = respond_all(state, {4: "join"})
    r = rd(state)
    # 3, 4 face up; 4-0-1 or 2-3-4 is no row of three Slaves: the round goes on, seat 0 still to act
    assert state["round"] == 1 and r["revealed"] == [False, False, False, True, True]
    assert r["pending"] == {"kind": "action", "seat": 0, "mode": "normal"} and r["stack"] == [] and r["turns"] == 1
    state = act(state, 0, "execute", target=3)
    r = rd(state)
    assert not r["alive"][3] and r["crown"] == 0 and r["owner"] == 1


def test_a_revolution_completed_out_of_turn_wins_when_the_window_closes():
    """G2 variant with 11.1 R2, 11.3 / G15 (scored at the window's close), G18 (the turn owner ended it)."""
    state = table(["slave", "slave", "sultan", "guard", "slave"], "assassin", first=2, **ANY_TIME)
    state = act(state, 0, "call_revolt")
    assert state["round"] == 1 and rd(state)["pending"]["eligible"] == [1, 2, 3, 4]
    state = act(state, 1, "respond", window=1, choice="join")
    state = act(state, 4, "respond", window=1, choice="join")
    assert state["round"] == 1  # answers are sealed; nothing is scored before the window closes
    state = respond_all(state)
    h = state["history"][0]
    # Slaves 4-0-1 face up and free: Rebels; revealed winners 2, the Sultan and the Guard 0
    assert h["winner"] == "rebels" and h["points"] == [2, 2, 0, 0, 2]
    assert h["ender"] == 2 and state["round"] == 2 and rd(state)["owner"] == 3


def test_a_revolt_called_during_the_oracles_looks_comes_back_to_her_looks():
    """G2 variant: the interrupted step resumes after the window (13.1: one window at a time, nested)."""
    cards = ["oracle", "slave", "sultan", "slave", "guard", "assassin", "slave"]
    state = act(table(cards, "vizier", **ANY_TIME), 0, "foretell")
    state = act(state, 0, "look", target=2)
    assert CALL in GAME.legal_actions(state, 1)
    state = act(state, 1, "call_revolt")
    assert rd(state)["pending"]["eligible"] == [2, 3, 4, 5, 6]
    state = respond_all(state, {3: "join", 6: "join"})
    r = rd(state)
    # Slaves 1, 3, 6 face up, none three in a row (6-0-1: the Oracle sits between)
    assert state["round"] == 1 and r["revealed"] == [True, True, False, True, False, False, True]
    assert r["pending"] == {"kind": "looks", "seat": 0, "left": 2, "looked": [2]}
    state = act(state, 0, "look", target=4)
    state = act(state, 0, "look", target=5)
    assert rd(state)["pending"] == {"kind": "prediction", "seat": 0}


def test_a_revolt_that_turns_up_the_oracles_last_unseen_card_moves_her_to_the_prediction():
    """G2 variant, like the claim (13.3): a look with no face-down card left cannot be awaited."""
    cards = ["oracle", "slave", "slave", "guard", "assassin", "sultan", "slave"]
    state = table(cards, "vizier", **ANY_TIME)
    rd(state)["revealed"] = [False, False, False, True, True, False, True]
    state = act(state, 0, "foretell")
    state = act(state, 0, "look", target=5)
    state = act(state, 1, "call_revolt")
    assert rd(state)["pending"]["eligible"] == [2, 5]
    state = respond_all(state, {2: "join"})
    assert rd(state)["pending"] == {"kind": "prediction", "seat": 0} and state["round"] == 1


def test_an_out_of_turn_revolt_during_a_forced_ability_keeps_the_fatigue_for_later():
    """G2 variant with 7.7: the forced seat still chooses its ability afterwards, fatigue comes last."""
    state = act(table(VIZ, "slave", **ANY_TIME), 0, "manipulate", side="rebels", target=1)
    assert rd(state)["pending"] == {"kind": "forced", "seat": 1, "ability": "capture"}
    state = act(state, 5, "call_revolt")
    assert rd(state)["pending"]["eligible"] == [2, 3, 4, 6]
    state = respond_all(state)
    assert rd(state)["pending"] == {"kind": "forced", "seat": 1, "ability": "capture"} and not rd(state)["fatigue"][1]
    state = act(state, 1, "capture", target=5)  # the revealed Slave: no bonus
    assert rd(state)["captured"][5] and rd(state)["fatigue"][1] and rd(state)["owner"] == 1
