"""Phase V (digest S6 V): gray eminence, influence, ties, seating, displaced electors, Mainz."""

from __future__ import annotations

from projections.games.shadow_of_the_emperor import GAME

from .helpers import act, assert_refused, blank, everyone_passes, put


def area(state, eid):
    return state["electorates"][eid]


def test_the_strict_leader_seats_his_only_eligible_noble_scores_2_and_the_old_elector_takes_the_vacated_space():
    """S6 V 2: influence couple 2 + castle knight 1 = 3 beats elector 1 + knight 1 = 2 and
    baron 1 + knight 1 = 2; the couple (keeping age) becomes elector, +2 VP; the displaced
    elector returns to the only empty aristocrat space of Pfalz."""
    state = blank(4, emperor=0)
    put(state, "pfalz/elector", 1, age=25)
    put(state, "pfalz/a0", 2, couple=True, age=35)
    put(state, "pfalz/castle0", 2)
    put(state, "pfalz/a1", 3, age=15)
    put(state, "pfalz/a2", 3, knight=True)
    put(state, "pfalz/a3", 1, knight=True)
    state = everyone_passes(state)
    assert area(state, "pfalz")["elector"] == {"owner": 2, "couple": True, "age": 35}
    assert area(state, "pfalz")["nobles"][0] == {"owner": 1, "couple": False, "age": 25}
    assert state["players"][2]["vp"] == 2 and state["players"][1]["vp"] == 0
    assert state["phase"] == "emperor_actions"


def test_a_tie_is_broken_by_the_emperor_who_may_choose_himself():
    state = blank(4, emperor=0)
    put(state, "sachsen/a0", 0, age=25)
    put(state, "sachsen/a1", 3, age=25)
    state = everyone_passes(state)
    assert state["await"] == {"kind": "break_tie", "seat": 0, "electorate": "sachsen", "tied": [0, 3]}
    assert_refused(GAME, state, {"type": "break_tie", "seat": 0, "payload": {"winner": 1}}, "not_tied")
    state = act(state, 0, "break_tie", winner=0)
    assert area(state, "sachsen")["elector"] == {"owner": 0, "couple": False, "age": 25}
    assert state["players"][0]["vp"] == 2 + 2  # elector, then the round-1 emperor reward


def test_the_winner_chooses_among_several_eligible_nobles():
    state = blank(3, emperor=0)
    put(state, "boehmen/a0", 1, age=25)
    put(state, "boehmen/a1", 1, couple=True, age=15)
    state = everyone_passes(state)
    assert state["await"] == {"kind": "choose_elector", "seat": 1, "electorate": "boehmen"}
    state = act(state, 1, "choose_elector", space="boehmen/a1")
    assert area(state, "boehmen")["elector"] == {"owner": 1, "couple": True, "age": 15}


def test_an_archdiocese_seats_only_a_single_baron_otherwise_the_seat_empties_and_nobody_scores():
    """S6 V 4.3 and S3.1: a winner with only couples there leaves the seat empty; the old
    elector returns to an aristocrat space, pushing a knight when none is empty. Rules
    version 2 pushes the knight without asking; from version 3 the owner chooses
    (test_displaced_nobles.py::test_a_displaced_elector_pushes_a_knight_only_if_his_owner_chooses_to)."""
    state = blank(4, emperor=0, rules_version=2)
    put(state, "trier/elector", 1, age=25)
    put(state, "trier/a0", 2, couple=True, age=25)
    put(state, "trier/a1", 2, couple=True, age=35)
    put(state, "trier/a2", 3, knight=True)
    state = everyone_passes(state)
    assert area(state, "trier")["elector"] is None
    assert area(state, "trier")["nobles"][2] == {"owner": 1, "couple": False, "age": 25}
    assert state["players"][3]["knights"] == 3
    assert state["players"][2]["vp"] == 0


def test_a_displaced_elector_with_no_space_and_no_knight_to_push_goes_back_to_supply():
    state = blank(4, emperor=0)
    put(state, "koeln/elector", 1, age=25)
    for i in range(3):
        put(state, f"koeln/a{i}", 2, couple=True, age=25)
    state = everyone_passes(state)
    assert area(state, "koeln")["elector"] is None
    assert state["players"][1]["nobles"] == 7


def test_the_choice_of_archdiocese_elector_refuses_a_couple():
    state = blank(3, emperor=0)
    put(state, "mainz/a0", 1, age=25)
    put(state, "mainz/a1", 1, age=15)
    put(state, "mainz/a2", 1, couple=True, age=15)
    state = everyone_passes(state)
    assert state["await"]["kind"] == "choose_elector"
    assert_refused(
        GAME, state, {"type": "choose_elector", "seat": 1, "payload": {"space": "mainz/a2"}}, "archdiocese_needs_baron"
    )


def test_an_elector_who_keeps_his_seat_scores_nothing_and_mainz_scores_1_after_all_electorates():
    """S6 V 3 and S8 Mainz: no change, no VP; the Mainz elector's owner gains 1 VP."""
    state = blank(3, emperor=0)
    put(state, "mainz/elector", 1, age=25)
    put(state, "mainz/a0", 1, age=25)
    put(state, "mainz/a1", 2, age=25)
    state = everyone_passes(state)
    assert state["players"][1]["vp"] == 1
    assert area(state, "mainz")["elector"]["owner"] == 1


def test_empire_cities_count_for_the_emperor_and_the_gray_eminence_for_its_holder():
    """S6 V 2.1: an empire city is 1 influence for the throne's owner; S7.13: the gray
    eminence, a supply baron 45 beside the electorate, is 1 influence and occupies no space."""
    state = blank(4, emperor=0)
    put(state, "koeln/a0", 1, age=25)
    put(state, "koeln/a1", 0, age=25)
    put(state, "koeln/city0", "empire")
    put(state, "boehmen/a0", 1, age=25)
    put(state, "boehmen/a1", 3, age=25)
    state["players"][3]["display"] = ["gray_eminence"]
    state["stacks"]["gray_eminence"] = 0
    state = everyone_passes(state)
    assert state["await"] == {"kind": "place_gray_eminence", "seat": 3}
    state = act(state, 3, "place_gray_eminence", electorate="boehmen")
    assert state["gray_eminences"] == [{"owner": 3, "electorate": "boehmen", "age": 45}]
    assert state["players"][3]["nobles"] == 5
    assert area(state, "koeln")["elector"]["owner"] == 0
    assert area(state, "boehmen")["elector"] == {"owner": 3, "couple": False, "age": 25}


def test_option_the_elector_does_not_count_for_influence():
    """G7 is an option: without the elector's own influence the challenger wins outright."""
    for counts, expected in ((True, "break_tie"), (False, None)):
        state = blank(3, emperor=0, elector_counts_for_influence=counts)
        put(state, "pfalz/elector", 1, age=25)
        put(state, "pfalz/a0", 2, age=25)
        state = everyone_passes(state)
        if expected:
            assert state["await"]["kind"] == expected
        else:
            assert area(state, "pfalz")["elector"]["owner"] == 2


def test_a_gray_eminence_without_a_noble_in_supply_has_no_effect():
    """S7.13: with no tile in supply at the start of phase V the card does nothing."""
    state = blank(3, emperor=0)
    state["players"][2]["display"] = ["gray_eminence"]
    state["players"][2]["nobles"] = 0
    state["electorates"]["trier"]["nobles"] = [{"owner": 2, "couple": True, "age": 15}] * 3
    state["electorates"]["koeln"]["nobles"] = [{"owner": 2, "couple": True, "age": 15}] * 3
    state["electorates"]["mainz"]["nobles"][0] = {"owner": 2, "couple": True, "age": 15}
    state = everyone_passes(state)
    assert state["gray_eminences"] == [] and state["phase"] == "emperor_actions"
