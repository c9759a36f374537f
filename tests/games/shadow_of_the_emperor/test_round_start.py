"""Phases I-III of rounds 2-5: income, aging (with a dead emperor), descendants."""

from __future__ import annotations

from projections.games.shadow_of_the_emperor import GAME

from .helpers import act, assert_refused, blank, put


def end_of_round(state: dict, round_: int = 1) -> dict:
    """Wait for the emperor's phase-VII empire-city choice; skipping it starts the next round."""
    state.update(phase="emperor_actions", round=round_, active=None)
    state["await"] = {"kind": "empire_city", "seat": state["emperor"]}
    return state


def test_income_counts_own_cities_other_cities_under_own_elector_and_saxony_capped_at_12():
    """S6 phase I: 6 + own cities + other players' cities where he holds the elector
    + 2 for Saxony; empire cities pay nothing; the track ends at 12."""
    state = blank(4, emperor=0)
    put(state, "sachsen/elector", 1, age=25)
    put(state, "trier/elector", 3, age=25)
    put(state, "sachsen/city0", 1)
    put(state, "sachsen/city1", 2)
    put(state, "trier/city0", 2)
    put(state, "trier/city1", "empire")
    put(state, "throne", 0, age=25)
    for seat, money in enumerate([10, 0, 3, 0]):
        state["players"][seat]["thalers"] = money
    state = act(end_of_round(state), 0, "skip_empire_city")
    assert state["round"] == 2
    # seat 0: 10 + 6 = 16 -> 12; seat 1: 0 + 6 + 1 own + 1 (seat 2's city in Saxony) + 2 Saxony = 10;
    # seat 2: 3 + 6 + 2 own cities = 11; seat 3: 0 + 6 + 1 (seat 2's city in Trier) = 7
    assert [p["thalers"] for p in state["players"]] == [12, 10, 11, 7]
    assert [p["chip"] for p in state["players"]] == [12, 10, 11, 7]  # phase IV sets the chip


def test_aging_kills_the_45s_ages_the_rest_and_the_dead_emperors_owner_must_refill_the_throne():
    """S6 phase II: gray eminences leave, every 45 on the board returns to supply, others age
    one step; the dead emperor's owner must move one of his nobles from an aristocrat space
    (keeping its new age) to the throne; emptied elector spaces stay empty."""
    state = blank(4, emperor=0)  # the throne holds seat 0's 45 baron
    put(state, "pfalz/a0", 0, couple=True, age=25)
    put(state, "koeln/a0", 0, age=35)
    put(state, "koeln/elector", 0, age=15)
    put(state, "trier/elector", 3, age=45)
    put(state, "sachsen/elector", 1, couple=True, age=25)
    state["players"][2]["nobles"] -= 1
    state["gray_eminences"] = [{"owner": 2, "electorate": "mainz", "age": 45}]
    state = act(end_of_round(state), 0, "skip_empire_city")
    assert state["throne"] is None
    assert state["await"] == {"kind": "enthrone", "seat": 0}
    assert state["gray_eminences"] == [] and state["players"][2]["nobles"] == 7
    assert state["electorates"]["trier"]["elector"] is None and state["players"][3]["nobles"] == 7
    assert state["electorates"]["sachsen"]["elector"] == {"owner": 1, "couple": True, "age": 35}
    assert_refused(
        GAME, state, {"type": "enthrone", "seat": 0, "payload": {"space": "koeln/elector"}}, "not_on_aristocrat_space"
    )
    state = act(state, 0, "enthrone", space="koeln/a0")
    assert state["throne"] == {"owner": 0, "couple": False, "age": 45}
    assert state["electorates"]["koeln"]["nobles"][0] is None
    assert state["electorates"]["pfalz"]["nobles"][0] == {"owner": 0, "couple": True, "age": 35}
    assert state["phase"] == "actions" and state["await"] == {"kind": "turn", "seat": 0}


def test_dead_emperor_with_no_noble_on_an_aristocrat_space_is_replaced_by_a_supply_baron_45():
    state = blank(3, emperor=1)
    put(state, "throne", 1, couple=True, age=45)
    put(state, "mainz/elector", 1, age=25)
    state = act(end_of_round(state, 2), 1, "skip_empire_city")
    assert state["round"] == 3
    assert state["throne"] == {"owner": 1, "couple": False, "age": 45}
    assert state["emperor"] == 1


def test_a_blue_majority_gives_a_son_placed_as_a_baron_15_pushing_a_knight_in_a_full_electorate():
    """S6 phase III: more blue than pink cards -> a son, a baron aged 15 on an empty
    aristocrat space, or pushing a knight (any colour) when the chosen electorate is full."""
    state = blank(3, emperor=0)
    put(state, "throne", 0, age=25)
    for i, owner in enumerate([1, 2]):
        put(state, f"trier/a{i}", owner, age=25)
    put(state, "trier/a2", 2, knight=True)
    state["players"][0]["display"] = ["doctor", "move", "pope"]
    state = act(end_of_round(state), 0, "skip_empire_city")
    assert state["await"] == {"kind": "son", "seat": 0}
    assert_refused(GAME, state, {"type": "place_son", "seat": 0, "payload": {"space": "trier/a0"}}, "space_occupied")
    state = act(state, 0, "place_son", space="trier/a2")
    assert state["electorates"]["trier"]["nobles"][2] == {"owner": 0, "couple": False, "age": 15}
    assert state["players"][2]["knights"] == 3
    assert state["players"][0]["display"] == [] and state["stacks"]["doctor"] == 2


def test_a_knight_may_not_be_pushed_while_an_empty_aristocrat_space_remains():
    state = blank(3, emperor=0)
    put(state, "trier/a0", 1, knight=True)
    state["players"][0]["display"] = ["doctor"]
    state = act(end_of_round(state), 0, "skip_empire_city")
    assert_refused(GAME, state, {"type": "place_son", "seat": 0, "payload": {"space": "trier/a0"}}, "space_available")
    state = act(state, 0, "decline_son")
    assert state["players"][0]["nobles"] == 6  # declined: the throne holds the only one on the board


def test_a_tie_gives_a_daughter_whose_accepted_marriage_scores_1_vp_and_flips_the_baron():
    """S6 phase III: pink >= blue -> a daughter; a proposal to another player's single baron
    (never an archdiocese elector); the owner accepts (couple, same age, +1 VP to the
    proposer) or refuses (+1 thaler, the convent); with no target, straight to the convent."""
    state = blank(4, emperor=0)
    put(state, "throne", 0, age=25)
    put(state, "pfalz/elector", 2, age=25)
    put(state, "trier/elector", 3, age=25)
    put(state, "koeln/a0", 3, age=15)
    state["players"][1]["display"] = ["pope", "doctor"]
    state["players"][2]["display"] = ["indulgence"]
    state["players"][3]["display"] = ["ordinance", "rival", "church_influence"]
    state = act(end_of_round(state), 0, "skip_empire_city")
    assert state["await"] == {"kind": "daughter", "seat": 1}
    offers = {a["payload"].get("target") for a in GAME.legal_actions(state, 1)}
    assert offers == {"throne", "pfalz/elector", "koeln/a0", None}  # ages 35/35/25; never Trier's elector
    assert_refused(
        GAME,
        state,
        {"type": "propose_marriage", "seat": 1, "payload": {"target": "trier/elector"}},
        "archdiocese_elector",
    )
    state = act(state, 1, "propose_marriage", target="pfalz/elector")
    assert GAME.to_act(state) == {2}
    state = act(state, 2, "answer_marriage", accept=True)
    assert state["electorates"]["pfalz"]["elector"] == {"owner": 2, "couple": True, "age": 35}
    assert state["players"][1]["vp"] == 1
    assert state["await"] == {"kind": "daughter", "seat": 2}
    state = act(state, 2, "propose_marriage", target="koeln/a0")
    state = act(state, 3, "answer_marriage", accept=False)
    assert state["players"][2]["thalers"] == 12 and state["players"][2]["vp"] == 0  # 7 + 6 income = 13 -> 12, +1 capped
    assert state["await"] == {"kind": "daughter", "seat": 3}
    state = act(state, 3, "send_to_convent")
    assert state["players"][3]["thalers"] == 12
    assert state["phase"] == "actions"


def test_a_daughter_with_no_possible_husband_goes_to_the_convent_automatically():
    state = blank(2, emperor=0)
    put(state, "throne", 0, couple=True, age=25)
    state["players"][1]["display"] = ["pope"]
    state["players"][1]["thalers"] = 0
    state = act(end_of_round(state), 0, "skip_empire_city")
    assert state["players"][1]["thalers"] == 7  # 0 + 6 income + 1 convent
    assert state["phase"] == "actions"


def test_no_cards_no_child():
    state = blank(2, emperor=0)
    state = act(end_of_round(state), 0, "skip_empire_city")
    assert (
        state["phase"] == "actions" and state["players"][0]["nobles"] == 6
    )  # the 45 died; a supply 45 took the throne
    assert state["players"][1]["thalers"] == 13 - 1  # 7 + 6, capped
