"""A scripted 2-player opening through round 1 and into round 2, every figure worked out
by hand from the digest (section numbers in the comments). Seed "t" removes Mainz and Saxony."""
from __future__ import annotations

from projections.games.shadow_of_the_emperor import GAME

from .helpers import act, card, new_game


def noble(owner, couple, age):
    return {"owner": owner, "couple": couple, "age": age}


def test_two_player_opening_round_one_and_the_start_of_round_two():
    state = new_game(2, seed="t", first_emperor=0)
    assert state["removed"] == ["mainz", "sachsen"]  # S14: one archdiocese, one secular
    setup = [
        (0, "boehmen/city0"),  # S5.6.1 the emperor's empire city (the throne 45 is automatic)
        (1, "boehmen/elector"),  # S5.6.3 the only other player's 45 elector
        (0, "pfalz/a0"), (1, "boehmen/a0"),  # couples 35
        (0, "trier/a0"), (1, "boehmen/a1"),  # barons 25
        (0, "boehmen/a2"), (1, "koeln/a0"),  # couples 15
        (0, "boehmen/castle0"), (1, "pfalz/a1"),  # knights
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
