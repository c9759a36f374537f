"""A scripted 2-player opening through round 1 and into round 2, every figure worked out
by hand from the digest (section numbers in the comments). Seed "t" removes Mainz and Saxony."""

from __future__ import annotations

import pytest

from projections.games.shadow_of_the_emperor import GAME

from .helpers import act, blank, card, new_game, put


def noble(owner, couple, age):
    return {"owner": owner, "couple": couple, "age": age}


def test_two_player_opening_round_one_and_the_start_of_round_two():
    state = new_game(2, seed="t", first_emperor=0)
    assert state["removed"] == ["mainz", "sachsen"]  # S14: one archdiocese, one secular
    setup = [
        (0, "boehmen/city0"),  # S5.6.1 the emperor's empire city (the throne 45 is automatic)
        (1, "boehmen/elector"),  # S5.6.3 the only other player's 45 elector
        (0, "pfalz/a0"),
        (1, "boehmen/a0"),  # couples 35
        (0, "trier/a0"),
        (1, "boehmen/a1"),  # barons 25
        (0, "boehmen/a2"),
        (1, "koeln/a0"),  # couples 15
        (0, "boehmen/castle0"),
        (1, "pfalz/a1"),  # knights
    ]
    for seat, space in setup:
        state = act(state, seat, "place_start_piece", space=space)
    assert state["throne"] == noble(0, False, 45)
    assert state["phase"] == "actions" and state["await"] == {"kind": "turn", "seat": 0}

    # Phase IV (S6 IV), round 1: the emperor first, alternating, skipping who passed.
    state = card(state, 0, "ordinance", space="trier/city0")  # 3 thalers, 1st city: 1 VP
    state = card(state, 1, "permit", space="trier/a1", side="baron")  # 3 thalers, baron 15
    state = card(state, 0, "indulgence")  # 2 thalers, 1 VP
    state = card(state, 1, "rival")  # free; seat 1 has passed
    state = act(state, 0, "knight", source="supply", space="trier/a2")  # 1 thaler
    state = act(state, 0, "pass")
    assert [p["thalers"] for p in state["players"]] == [1, 4]

    # Phase V in canonical order (S6 V). Trier: seat 0 baron 1 + knight 1 + city 1 = 3 > 1
    # -> the baron 25 is elector (+2). Koeln: seat 1's couple 2 wins but a couple cannot sit
    # in an archdiocese -> stays empty. Pfalz: couple 2 > knight 1 -> elector (+2).
    # Bohemia: seat 1 elector 1 + couple 2 + baron 1 = 4, seat 0 couple 2 + castle knight 1
    # + empire city 1 (he is emperor) = 4: the emperor breaks the tie for himself (+2); the
    # displaced 45 elector chooses between the vacated space and the free one.
    assert state["await"] == {"kind": "break_tie", "seat": 0, "electorate": "boehmen", "tied": [0, 1]}
    state = act(state, 0, "break_tie", winner=0)
    assert state["await"] == {"kind": "place_displaced", "seat": 1, "electorate": "boehmen"}
    state = act(state, 1, "place_displaced", space="boehmen/a3")
    areas = state["electorates"]
    assert areas["trier"]["elector"] == noble(0, False, 25)
    assert areas["koeln"]["elector"] is None
    assert areas["pfalz"]["elector"] == noble(0, True, 35)
    assert areas["boehmen"]["elector"] == noble(0, True, 15)
    assert areas["boehmen"]["nobles"][3] == noble(1, False, 45)

    # Phase VI (S6 VI): seat 0 has 1 + 1 + 2 = 4 votes, the Rival none; nobody else votes;
    # 0 < 4 keeps the emperor. Phase VII round 1: +2 VP and a new empire city.
    assert state["election"]["totals"] == {"rival": 0, "emperor": 4}
    assert state["await"] == {"kind": "empire_city", "seat": 0}
    assert [p["vp"] for p in state["players"]] == [1 + 1 + 2 + 2 + 2 + 2, 0]
    state = act(state, 0, "place_empire_city", space="koeln/city0")

    # Round 2, phase I: seat 0: 1 + 6 + 1 own city = 8; seat 1: 4 + 6 = 10.
    # Phase II: the emperor (45) and seat 1's displaced 45 die; the rest age. Seat 0 has no
    # noble on an aristocrat space, so a supply baron 45 takes the throne.
    assert state["round"] == 2
    assert [p["thalers"] for p in state["players"]] == [8, 10]
    assert state["throne"] == noble(0, False, 45)
    assert areas["boehmen"]["nobles"][3] is not None  # (the round-1 state is untouched)
    areas = state["electorates"]
    assert areas["pfalz"]["elector"] == noble(0, True, 45)
    assert areas["boehmen"]["nobles"] == [noble(1, True, 45), noble(1, False, 35), None, None]
    assert areas["trier"]["nobles"][1] == noble(1, False, 25)

    # Phase III from the emperor: seat 0 holds two pink cards -> a daughter; seat 1 two
    # blue -> a son. The marriage is accepted: +1 VP, the baron becomes a couple aged 35.
    assert state["await"] == {"kind": "daughter", "seat": 0}
    state = act(state, 0, "propose_marriage", target="boehmen/a1")
    state = act(state, 1, "answer_marriage", accept=True)
    assert state["electorates"]["boehmen"]["nobles"][1] == noble(1, True, 35)
    assert state["await"] == {"kind": "son", "seat": 1}
    state = act(state, 1, "place_son", space="brandenburg/a0")
    assert state["electorates"]["brandenburg"]["nobles"][0] == noble(1, False, 15)

    # Cards are back in their stacks; phase IV of round 2 opens with the emperor.
    assert state["phase"] == "actions" and state["await"] == {"kind": "turn", "seat": 0}
    assert [p["display"] for p in state["players"]] == [[], []]
    assert state["stacks"]["rival"] == 1 and state["stacks"]["permit"] == 2
    assert [p["vp"] for p in state["players"]] == [11, 0]
    assert [p["nobles"] for p in state["players"]] == [3, 2]
    assert GAME.view(state, 1)["scores"] == [None, 0]


def test_four_player_opening_round_one_with_a_winning_rival_and_phases_one_to_three_of_round_two():
    """A 4-player game from setup to the first turn of round 2, every figure by hand."""
    state = new_game(4, seed="t", first_emperor=0)
    assert state["removed"] == []  # S14: only the 2-player game removes electorates
    setup = [
        (0, "mainz/city0"),  # S5.6.1 the emperor's empire city; the throne 45 is automatic
        (1, "mainz/elector"),
        (2, "boehmen/elector"),
        (3, "sachsen/elector"),  # S5.6.3 45 electors, clockwise
        (0, "pfalz/a0"),
        (1, "mainz/a0"),
        (2, "boehmen/a0"),
        (3, "sachsen/a0"),  # couples 35
        (0, "trier/a0"),
        (1, "mainz/a1"),
        (2, "koeln/a0"),
        (3, "boehmen/a1"),  # barons 25
        (0, "boehmen/a2"),
        (1, "brandenburg/a0"),
        (2, "pfalz/a1"),
        (3, "sachsen/a1"),  # couples 15
        (0, "pfalz/castle0"),
        (1, "brandenburg/castle0"),
        (2, "koeln/a1"),
        (3, "boehmen/a3"),  # knights
    ]
    for seat, space in setup:
        assert state["await"]["seat"] == seat
        state = act(state, seat, "place_start_piece", space=space)
    assert state["await"] == {"kind": "turn", "seat": 0} and state["round"] == 1  # S5.8
    assert [p["nobles"] for p in state["players"]] == [3, 3, 3, 3]

    # Round 1, phase IV (S6 IV), clockwise from the emperor, skipping who passed.
    state = card(state, 0, "ordinance", space="trier/city0")  # 3; 1st city: 1 VP (S7.10)
    state = card(state, 1, "permit", space="koeln/a2", side="couple")  # 5; couple 15 (S7.9)
    state = card(state, 2, "church_influence")  # 2
    state = card(state, 3, "rival")  # 0; seat 3 has passed (S7.2)
    state = card(state, 0, "doctor", target="mainz/elector")  # 1; seat 1's 45 elector dies (S7.3, G10)
    assert state["electorates"]["mainz"]["elector"] is None
    state = card(state, 1, "move", target="mainz/a0", space="boehmen/a3")  # 1; Bohemia is full:
    assert state["players"][3]["knights"] == 3  # seat 3's knight is pushed out (S9.2)
    state = act(state, 2, "knight", source="koeln/a1", space="trier/a1")  # 1 (S6 IV c)
    state = card(state, 0, "indulgence")  # 2; 1 VP (S7.8)
    state = act(state, 1, "pass")
    state = card(state, 2, "pope")  # 1
    state = act(state, 0, "pass")
    assert [p["thalers"] for p in state["players"]] == [1, 1, 3, 7]
    state = act(state, 2, "pass")  # the last seat passes: phase IV ends

    # Phase V (S6 V), canonical order, the elector counting (G7):
    #   Trier: seat 0 baron 1 + city 1 = 2 > seat 2 knight 1 -> the baron 25 is seated (+2).
    #   Koeln: seat 1 couple 2 > seat 2 baron 1, but a couple cannot sit there -> stays empty.
    #   Mainz: seat 1 baron 1 = seat 0 empire city 1 (he is emperor) -> the emperor breaks the tie.
    assert state["await"] == {"kind": "break_tie", "seat": 0, "electorate": "mainz", "tied": [0, 1]}
    state = act(state, 0, "break_tie", winner=1)  # seat 1's only baron is seated (+2)
    #   Pfalz: seat 0 couple 2 + castle knight 1 = 3 > seat 2 couple 2 -> couple 35 seated (+2).
    #   Saxony: seat 3's elector 1 + two couples 4 keeps his seat (no VP, S6 V 3).
    #   Brandenburg: seat 1 couple 2 + castle knight 1 -> the couple 15 is seated (+2).
    #   Bohemia: seat 2 elector 1 + couple 2 = 3 > seat 0 2, seat 1 2, seat 3 1 -> kept.
    #   Then the Mainz elector's owner, seat 1, scores 1 (S8).
    areas = state["electorates"]
    assert areas["trier"]["elector"] == noble(0, False, 25)
    assert areas["koeln"]["elector"] is None
    assert areas["mainz"]["elector"] == noble(1, False, 25)
    assert areas["pfalz"]["elector"] == noble(0, True, 35)
    assert areas["sachsen"]["elector"] == noble(3, False, 45)
    assert areas["brandenburg"]["elector"] == noble(1, True, 15)
    assert areas["boehmen"]["elector"] == noble(2, False, 45)
    assert [p["vp"] for p in state["players"]] == [1 + 1 + 2 + 2, 2 + 2 + 1, 0, 0]

    # Phase VI (S6 VI): Church Influence on Trier adds nothing -- the elector's colour is
    # seat 0 and the only piece on a Trier aristocrat space is seat 2's knight.
    assert state["await"] == {"kind": "name_target", "seat": 2, "card": "church_influence"}
    state = act(state, 2, "name_target", electorate="trier")
    # Votes: seat 0 Trier + Pfalz = 2; seat 1 Mainz + Brandenburg = 2; seat 2 Bohemia 2 +
    # Pope 1 = 3; seat 3 Saxony 1. Seats 1 and 2 vote in secret.
    assert GAME.view(state, None)["voting"]["counts"] == [2, 2, 3, 1]
    assert state["await"] == {"kind": "vote", "seats": [1, 2]}
    state = act(state, 1, "vote", side="rival")
    assert GAME.view(state, 2)["voting"]["own_vote"] is None and GAME.view(state, 2)["last_election"] is None
    state = act(state, 2, "vote", side="rival")
    assert state["election"]["totals"] == {"rival": 6, "emperor": 2}  # 1 + 2 + 3 against 2
    # The Rival chooses among his three nobles on aristocrat spaces (S6 VI 6.1).
    assert state["await"] == {"kind": "enthrone", "seat": 3}
    state = act(state, 3, "enthrone", space="sachsen/a1")
    assert state["throne"] == noble(3, True, 15) and state["emperor"] == 3
    assert state["await"] == {"kind": "place_displaced", "seat": 0, "electorate": None}
    state = act(state, 0, "place_displaced", space="pfalz/a0")  # vacated by the Pfalz elector
    # Phase VII, round 1: the new emperor scores 2 and places a second empire city.
    assert state["await"] == {"kind": "empire_city", "seat": 3}
    state = act(state, 3, "place_empire_city", space="koeln/city0")
    assert [p["vp"] for p in state["players"]] == [6, 6, 1, 2]

    # Round 2, phase I: seat 0 1 + 6 + 1 city = 8; seat 1 1 + 6 = 7; seat 2 3 + 6 = 9;
    # seat 3 7 + 6 + 2 Saxony = 15 -> 12. Empire cities pay nothing.
    assert state["round"] == 2
    # Phase II: the 45s die (Bohemia's and Saxony's electors, the old emperor on Pfalz a0);
    # the rest age one step. The throne (15 -> 25) stays filled.
    areas = state["electorates"]
    assert state["throne"] == noble(3, True, 25)
    assert areas["boehmen"]["elector"] is None and areas["sachsen"]["elector"] is None
    assert areas["pfalz"]["elector"] == noble(0, True, 45)
    assert areas["boehmen"]["nobles"] == [
        noble(2, True, 45),
        noble(3, False, 35),
        noble(0, True, 25),
        noble(1, True, 45),
    ]
    assert areas["sachsen"]["nobles"] == [noble(3, True, 45), None, None, None]
    # Phase III, clockwise from the new emperor (seat 3): seat 3 one blue card -> a son.
    assert state["await"] == {"kind": "son", "seat": 3}
    state = act(state, 3, "place_son", space="sachsen/a1")
    # Seat 0: Doctor blue, Ordinance and Indulgence pink -> a daughter. Husbands: other
    # seats' single barons, never the Mainz (archdiocese) elector.
    assert state["await"] == {"kind": "daughter", "seat": 0}
    husbands = {a["payload"].get("target") for a in GAME.legal_actions(state, 0)}
    assert husbands == {"koeln/a0", "sachsen/a1", "boehmen/a1", None}
    state = act(state, 0, "propose_marriage", target="boehmen/a1")
    state = act(state, 3, "answer_marriage", accept=False)  # refused: the convent, +1 thaler
    # Seat 1: Permit and Move, both blue -> a son.
    assert state["await"] == {"kind": "son", "seat": 1}
    state = act(state, 1, "place_son", space="pfalz/a0")
    # Seat 2: Church Influence and Pope, both pink -> a daughter; seat 3 accepts.
    assert state["await"] == {"kind": "daughter", "seat": 2}
    state = act(state, 2, "propose_marriage", target="sachsen/a1")
    state = act(state, 3, "answer_marriage", accept=True)
    areas = state["electorates"]
    assert areas["sachsen"]["nobles"][1] == noble(3, True, 15)
    assert areas["pfalz"]["nobles"][0] == noble(1, False, 15)

    # Phase IV of round 2 opens with the new emperor; cards are back; chips = thalers.
    assert state["phase"] == "actions" and state["await"] == {"kind": "turn", "seat": 3}
    assert [p["thalers"] for p in state["players"]] == [9, 7, 9, 12]
    assert [p["chip"] for p in state["players"]] == [9, 7, 9, 12]
    assert [p["vp"] for p in state["players"]] == [6, 6, 2, 2]
    assert [p["nobles"] for p in state["players"]] == [4, 2, 4, 3]
    assert [p["knights"] for p in state["players"]] == [2, 2, 2, 3]
    assert all(p["display"] == [] for p in state["players"])
    assert state["stacks"]["doctor"] == 3 and state["stacks"]["permit"] == 4
    assert GAME.view(state, 2)["scores"] == [None, None, 2, None]


@pytest.mark.parametrize("tiebreak,ranking", [("shared", [1, 1, 3]), ("thalers_then_emperor", [2, 1, 3])])
def test_three_player_endgame_round_five_to_the_final_ranking(tiebreak, ranking):
    """Round 5 from phase IV to the end (S12): a third city scores 2, a new elector 2,
    Mainz 1, a vote 1, the emperor track 1; 14 all between seats 0 and 1."""
    state = blank(3, emperor=1, round_=5, tiebreak=tiebreak)
    put(state, "throne", 1, couple=True, age=25)
    put(state, "trier/city0", 1)
    put(state, "koeln/city0", 1)
    put(state, "mainz/elector", 0, age=25)
    put(state, "pfalz/elector", 2, age=25)
    put(state, "pfalz/a0", 0, age=35)
    for seat, vp in enumerate([10, 11, 8]):
        state["players"][seat]["vp"] = vp
    assert state["await"] == {"kind": "turn", "seat": 1}
    state = card(state, 1, "ordinance", space="pfalz/city0")  # 3; his 3rd city: 2 VP
    state = card(state, 2, "rival")
    state = card(state, 0, "permit", space="pfalz/a1", side="baron")  # 3
    state = act(state, 1, "pass")
    state = act(state, 0, "pass")
    # Phase V: Trier and Koeln: seat 1's city 1 leads, but he has no noble there -> empty.
    # Mainz: seat 0 keeps. Pfalz: seat 0 barons 2 > seat 2 elector 1, seat 1 city 1.
    assert state["await"] == {"kind": "choose_elector", "seat": 0, "electorate": "pfalz"}
    state = act(state, 0, "choose_elector", space="pfalz/a0")  # +2
    assert state["await"] == {"kind": "place_displaced", "seat": 2, "electorate": "pfalz"}
    state = act(state, 2, "place_displaced", space="pfalz/a3")
    # Mainz +1. Phase VI: seat 0 (Mainz 1 + Pfalz 1) alone votes; for the emperor: +1.
    assert state["await"] == {"kind": "vote", "seats": [0]}
    assert GAME.view(state, 2)["scores"] == [None, None, 8]
    state = act(state, 0, "vote", side="emperor")
    assert state["election"]["totals"] == {"rival": 0, "emperor": 2}
    # Phase VII round 5: the emperor +1 VP, no thalers, no city; the game ends.
    assert state["phase"] == "finished" and GAME.to_act(state) == set()
    assert [p["thalers"] for p in state["players"]] == [4, 4, 7]
    result = GAME.result(state)
    assert result["scores"] == [10 + 2 + 1 + 1, 11 + 2 + 1, 8]
    assert result["ranking"] == ranking  # G6: shared, or thalers (4 = 4) then the emperor
    assert GAME.view(state, 2)["scores"] == [14, 14, 8]  # everything is shown at the end
