"""Edge cases the digest names that the phase-by-phase modules do not reach: a Rival
crowned from supply, the old emperor pushing a knight, one holder of both church cards,
the gray eminence and Church Influence (G11), the 2-player removals' consequences,
descendants of declined and Trier actions (S14.5, G8), a son with no baron left."""

from __future__ import annotations

from projections.games.shadow_of_the_emperor import GAME

from .helpers import act, assert_refused, blank, card, everyone_passes, put


def ev(seat, type_, **payload):
    return {"type": type_, "seat": seat, "payload": payload}


def privilege(seat, electorate, **kw):
    return ev(
        seat,
        "use_privilege",
        **{"electorate": electorate, "card": None, "target": None, "space": None, "side": None, **kw},
    )


def test_a_rival_with_no_noble_on_an_aristocrat_space_mounts_a_supply_baron_45_and_the_old_emperor_pushes_a_knight():
    """S6 VI 6.1: the winning Rival moves a noble from an aristocrat space -- never his
    elector -- and only with none there places a supply Baron 45. S6 VI 6.3 / S9.2: the old
    emperor tile goes anywhere its owner chooses; in a full electorate it may push out a
    knight, in one with an empty aristocrat space it may not; a noble is never pushed."""
    state = blank(4, emperor=0)  # seat 0's baron 45 on the throne
    put(state, "trier/elector", 1, age=25)  # seat 1: 1 vote, no noble on an aristocrat space
    put(state, "pfalz/elector", 2, age=25)  # Pfalz full: seat 2 has 1 + 2 + 1 = 4 influence,
    put(state, "pfalz/a0", 2, couple=True, age=35)  # seat 3 baron 1 + knight 1 = 2: the
    put(state, "pfalz/a1", 2, age=25)  # elector keeps his seat in phase V (S6 V 3)
    put(state, "pfalz/a2", 3, age=15)
    put(state, "pfalz/a3", 3, knight=True)
    put(state, "koeln/a0", 3, knight=True)  # Koeln: seat 3 leads with a knight, no noble -> stays empty
    state = act(state, 0, "pass")
    state = card(state, 1, "rival")
    state = everyone_passes(state)
    # S6 VI 2: seat 0 has 0 votes, seat 1 Trier 1, seat 2 Pfalz 1, seat 3 none -> only seat 2 votes.
    assert state["await"] == {"kind": "vote", "seats": [2]}
    state = act(state, 2, "vote", side="rival")
    assert state["election"]["totals"] == {"rival": 2, "emperor": 0} and state["election"]["winner"] == "rival"
    assert state["throne"] == {"owner": 1, "couple": False, "age": 45}  # from supply, not the Trier elector
    assert state["electorates"]["trier"]["elector"] == {"owner": 1, "couple": False, "age": 25}
    assert state["emperor"] == 1 and state["players"][1]["nobles"] == 5
    assert state["await"] == {"kind": "place_displaced", "seat": 0, "electorate": None}
    assert_refused(GAME, state, ev(0, "place_displaced", space="pfalz/a2"), "space_occupied")
    assert_refused(GAME, state, ev(0, "place_displaced", space="koeln/a0"), "space_available")
    assert_refused(GAME, state, ev(0, "place_displaced", space="pfalz/castle0"), "not_an_aristocrat_space")
    state = act(state, 0, "place_displaced", space="pfalz/a3")
    assert state["electorates"]["pfalz"]["nobles"][3] == {"owner": 0, "couple": False, "age": 45}
    assert state["players"][3]["knights"] == 2  # 3 - 2 placed + 1 pushed back
    # S6 VI 5: seat 2 voted for the winner (+1); S6 VII round 1: the new emperor +2.
    assert [p["vp"] for p in state["players"]] == [0, 2, 1, 0]
    assert state["await"] == {"kind": "empire_city", "seat": 1}


def test_one_holder_of_both_church_cards_names_church_influence_first_and_a_gray_eminence_does_not_count_for_it():
    """S6 VI 1: targets clockwise from the emperor, Church Influence first for one holder of
    both [R]. S7.6 / G11: Church Influence counts the elector's colour on aristocrat spaces,
    not the elector and not a gray eminence. S3.1: an elector whose privilege was used still
    votes. S7.7: an excommunicated Bohemia gives no vote, so its owner does not vote."""
    state = blank(4, emperor=0)
    put(state, "pfalz/elector", 0, age=25)
    put(state, "trier/elector", 1, age=25)
    put(state, "trier/a0", 1, couple=True, age=15)
    put(state, "brandenburg/elector", 1, age=25)
    put(state, "boehmen/elector", 2, age=25)
    state = act(state, 0, "pass")
    state = act(state, 1, "use_privilege", electorate="brandenburg", card=None, target=None, space=None, side=None)
    state = act(state, 2, "pass")
    state = card(state, 3, "church_influence")
    state = act(state, 1, "pass")
    state = card(state, 3, "excommunication")
    state = card(state, 3, "rival")
    # S7.13: the gray eminence is placed first in phase V, beside Trier.
    assert state["await"] == {"kind": "place_gray_eminence", "seat": 1}
    state = act(state, 1, "place_gray_eminence", electorate="trier")
    # Every elector keeps his seat; Mainz has no elector, so nobody scores for it (S8).
    assert [p["vp"] for p in state["players"]] == [0, 0, 0, 0]
    assert state["await"] == {"kind": "name_target", "seat": 3, "card": "church_influence"}
    state = act(state, 3, "name_target", electorate="trier")
    assert state["await"] == {"kind": "name_target", "seat": 3, "card": "excommunication"}
    assert_refused(GAME, state, ev(3, "name_target", electorate="koeln"), "wrong_electorate_type")
    state = act(state, 3, "name_target", electorate="boehmen")
    # seat 0: Pfalz 1; seat 1: Trier 1 + Brandenburg 1 (privilege used) + Church Influence 1
    # (the couple; not the elector, not the gray eminence); seat 2: Bohemia excommunicated 0.
    assert GAME.view(state, None)["voting"]["counts"] == [1, 3, 0, 0]
    assert state["await"] == {"kind": "vote", "seats": [1]}
    state = act(state, 1, "vote", side="emperor")
    assert state["election"]["totals"] == {"rival": 0, "emperor": 4}
    assert [p["vp"] for p in state["players"]] == [2, 1, 0, 0]  # emperor track 2; voter 1
    assert [p["thalers"] for p in state["players"]] == [7, 6, 7, 4]  # GE 1; CI 2 + Ex 1


def test_two_players_without_brandenburg_and_mainz_have_no_gray_eminence_and_no_mainz_vp():
    """S14.6: with Brandenburg out the Gray Eminence is unobtainable; with Mainz out nobody
    scores its VP; cards name only electorates in play (S9.3)."""
    state = blank(2, emperor=0, seed="g")
    assert state["removed"] == ["mainz", "brandenburg"]
    assert_refused(GAME, state, privilege(0, "brandenburg"), "electorate_out_of_play")
    assert_refused(
        GAME,
        state,
        ev(0, "take_card", card="gray_eminence", target=None, space=None, side=None, decline=False),
        "brandenburg_only",
    )
    put(state, "trier/elector", 0, age=25)
    put(state, "boehmen/elector", 1, age=25)
    state = card(state, 0, "excommunication")
    state = card(state, 1, "rival")
    state = act(state, 0, "pass")
    # Phase V: both electors keep their seats (0 VP); no Mainz point.
    assert [p["vp"] for p in state["players"]] == [0, 0]
    assert state["await"] == {"kind": "name_target", "seat": 0, "card": "excommunication"}
    targets = {a["payload"]["electorate"] for a in GAME.legal_actions(state, 0) if a["type"] == "name_target"}
    assert targets == {"pfalz", "sachsen", "boehmen"}
    assert_refused(GAME, state, ev(0, "name_target", electorate="brandenburg"), "electorate_out_of_play")
    state = act(state, 0, "name_target", electorate="boehmen")
    # Seat 1's 2 Bohemian votes are cancelled: rival 0 against emperor 1 (Trier).
    assert state["election"]["totals"] == {"rival": 0, "emperor": 1}


def test_a_declined_two_player_card_counts_for_descendants_and_a_trier_action_does_not():
    """S14.5: a card taken and declined still lies in front of its taker -> round 2, phase
    III, blue > pink gives a son. G8: Trier takes no card, so its user has no child."""
    state = blank(2, emperor=0)  # seed "t": Mainz and Saxony are out
    put(state, "trier/elector", 1, age=25)
    state["stacks"]["indulgence"] = 0
    state = card(state, 0, "promotion", decline=True)  # blue, 2 thalers, nothing happens
    state = act(state, 1, "use_privilege", electorate="trier", card="indulgence", target=None, space=None, side=None)
    assert state["players"][1]["vp"] == 1 and state["players"][1]["display"] == []
    state = everyone_passes(state)
    state = act(state, 0, "skip_empire_city")
    # Round 2: the 45 emperor dies and a supply 45 replaces him; seat 0 then has a son.
    assert state["round"] == 2 and state["await"] == {"kind": "son", "seat": 0}
    state = act(state, 0, "place_son", space="pfalz/a0")
    assert state["electorates"]["pfalz"]["nobles"][0] == {"owner": 0, "couple": False, "age": 15}
    assert state["phase"] == "actions" and state["await"] == {"kind": "turn", "seat": 0}  # seat 1: no child
    assert state["stacks"]["promotion"] == 1 and state["stacks"]["indulgence"] == 1


def test_a_son_with_no_baron_left_in_supply_has_no_effect():
    """S6 III / G15: no baron tile in supply -> the son is not placed (no decision)."""
    state = blank(2, emperor=0)
    put(state, "throne", 0, age=25)
    state["players"][0]["display"] = ["doctor"]
    state["players"][0]["nobles"] = 0
    state["players"][1]["display"] = ["move"]
    state.update(phase="emperor_actions", active=None)
    state["await"] = {"kind": "empire_city", "seat": 0}
    state = act(state, 0, "skip_empire_city")
    assert state["await"] == {"kind": "son", "seat": 1}  # seat 0 skipped, seat 1 asked
    assert [a["type"] for a in GAME.legal_actions(state, 0)] == []


def test_each_named_refusal_has_its_own_code():
    """Refusals not reached elsewhere: a vote for neither side, a Permit without a side, a
    Doctor on no noble, an elector that is not the winner's noble."""
    state = blank(4, emperor=0)
    assert_refused(
        GAME,
        state,
        ev(0, "take_card", card="permit", target=None, space="pfalz/a0", side=None, decline=False),
        "invalid_side",
    )
    assert_refused(
        GAME,
        state,
        ev(0, "take_card", card="doctor", target="pfalz/a0", space=None, side=None, decline=False),
        "invalid_target",
    )
    assert_refused(
        GAME,
        state,
        ev(0, "take_card", card="doctor", target="nowhere", space=None, side=None, decline=False),
        "invalid_target",
    )

    state = blank(4, emperor=0)
    put(state, "pfalz/a0", 1, age=25)
    put(state, "pfalz/a1", 1, age=15)
    put(state, "pfalz/a2", 2, age=35)
    state = everyone_passes(state)
    assert state["await"] == {"kind": "choose_elector", "seat": 1, "electorate": "pfalz"}
    assert_refused(GAME, state, ev(1, "choose_elector", space="pfalz/a2"), "not_eligible")
    assert_refused(GAME, state, ev(1, "choose_elector", space="trier/a0"), "not_eligible")
    state = act(state, 1, "choose_elector", space="pfalz/a1")
    assert state["electorates"]["pfalz"]["elector"] == {"owner": 1, "couple": False, "age": 15}

    state = blank(4, emperor=0)
    put(state, "pfalz/elector", 2, age=25)
    state = act(state, 0, "pass")
    state = card(state, 1, "rival")
    state = everyone_passes(state)
    assert state["await"] == {"kind": "vote", "seats": [2]}
    assert_refused(GAME, state, ev(2, "vote", side="abstain"), "invalid_side")


def test_a_card_type_may_be_taken_again_until_its_stack_runs_out_then_only_trier_reproduces_it():
    """S6 IV (a): several cards of one type in a phase; S7.1: an empty stack is closed for
    the round, except through Trier (S8), which pays the cost and takes no card."""
    state = blank(3, emperor=0)  # 3 players: 2 Doctor cards
    put(state, "trier/elector", 0, age=25)
    put(state, "pfalz/a0", 1, age=15)
    state = card(state, 0, "doctor", target="pfalz/a0")  # 15 -> 25
    state = act(state, 1, "pass")
    state = act(state, 2, "pass")
    state = card(state, 0, "doctor", target="pfalz/a0")  # 25 -> 35: a second Doctor
    assert state["players"][0]["display"] == ["doctor", "doctor"] and state["stacks"]["doctor"] == 0
    assert_refused(
        GAME,
        state,
        ev(0, "take_card", card="doctor", target="pfalz/a0", space=None, side=None, decline=False),
        "stack_empty",
    )
    state = act(state, 0, "use_privilege", electorate="trier", card="doctor", target="pfalz/a0", space=None, side=None)
    assert state["electorates"]["pfalz"]["nobles"][0] == {"owner": 1, "couple": False, "age": 45}
    assert state["players"][0]["thalers"] == 7 - 1 - 1 - 1 and state["players"][0]["display"] == ["doctor", "doctor"]


def test_two_players_without_bohemia_have_no_elector_worth_two_votes():
    """S14.6: with Bohemia out of play every elector is worth 1 vote."""
    state = blank(2, emperor=0, seed="f")
    assert state["removed"] == ["mainz", "boehmen"]
    put(state, "pfalz/elector", 1, age=25)
    put(state, "sachsen/elector", 1, age=25)
    put(state, "trier/elector", 0, age=25)
    state = act(state, 0, "pass")
    state = card(state, 1, "rival")
    # Rival 1 + 1 = 2 against the emperor's 1: the Rival is crowned (a supply 45).
    assert state["election"]["counts"] == [1, 2] and state["election"]["winner"] == "rival"
    assert state["emperor"] == 1 and state["throne"] == {"owner": 1, "couple": False, "age": 45}


def test_option_brandenburg_pays_off_gives_the_gray_eminence_for_nothing():
    """G9 as an option: without the payment the privilege needs no thaler."""
    state = blank(3, emperor=0, brandenburg_pays=False)
    put(state, "brandenburg/elector", 0, age=25)
    state["players"][0]["thalers"] = 0
    offered = privilege(0, "brandenburg")
    assert {"type": offered["type"], "payload": offered["payload"]} in GAME.legal_actions(state, 0)
    state = act(state, 0, "use_privilege", electorate="brandenburg", card=None, target=None, space=None, side=None)
    assert state["players"][0]["display"] == ["gray_eminence"] and state["players"][0]["thalers"] == 0
    paying = blank(3, emperor=0)
    put(paying, "brandenburg/elector", 0, age=25)
    paying["players"][0]["thalers"] = 0
    assert_refused(GAME, paying, privilege(0, "brandenburg"), "not_enough_money")


def test_option_cap_every_gain_off_lets_the_convent_pass_12_but_income_stays_capped():
    """G12 / S17.14 as an option: income is capped at 12 by the seed itself; with the
    option off, a later gain (the convent's thaler) may go past it."""
    for cap, expected in ((True, 12), (False, 13)):
        state = blank(2, emperor=0, cap_every_gain=cap)
        put(state, "throne", 0, couple=True, age=25)  # no single baron: no husband anywhere
        state["players"][1]["display"] = ["pope"]  # pink: a daughter
        state.update(phase="emperor_actions", active=None)
        state["await"] = {"kind": "empire_city", "seat": 0}
        state = act(state, 0, "skip_empire_city")
        # 7 + 6 income = 13 -> 12 (always), then the convent +1.
        assert state["players"][1]["thalers"] == expected
        assert state["players"][0]["thalers"] == 12
