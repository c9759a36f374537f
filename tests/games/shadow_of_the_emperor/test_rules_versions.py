"""Rules version 2: the choices the seed leaves to a card's holder may be declined.

Rules version 1 forced them; games recorded under it still fold that way (the tests named
``..._rules_version_1_...`` below, and the older tests that pass ``rules_version=1``).
"""

from __future__ import annotations

from projections.games.shadow_of_the_emperor import GAME

from .helpers import act, assert_refused, blank, card, everyone_passes, put

DECLINE = {"type": "decline_target", "payload": {}}


def excommunication_would_flip(rules_version: int | None = None) -> dict:
    """Emperor seat 0 (Pfalz 1), seat 1 Rival (Trier, Cologne, Mainz: 3, and Church Influence
    on Trier: +1 for the baron on trier/a0, +1 for the knight on trier/a1 = 5), seat 2 (Bohemia 2
    + Brandenburg 1 = 3) holds Excommunication, seat 3 (Saxony 1). Every secular elector is on
    the emperor's side: seats 0, 2 and 3 give him 1 + 3 + 1 = 5 against the Rival's 5, and a tie
    keeps the emperor (票數打和則由原皇帝繼續擔任皇帝). Naming any secular electorate costs him
    at least 1 vote, and the throne."""
    opts = {} if rules_version is None else {"rules_version": rules_version}
    state = blank(4, emperor=0, **opts)
    put(state, "pfalz/elector", 0, age=25)
    put(state, "trier/elector", 1, age=25)
    put(state, "trier/a0", 1, age=15)
    put(state, "trier/a1", 1, knight=True)
    put(state, "koeln/elector", 1, age=25)
    put(state, "mainz/elector", 1, age=25)
    put(state, "boehmen/elector", 2, age=25)
    put(state, "brandenburg/elector", 2, age=25)
    put(state, "sachsen/elector", 3, age=25)
    state = act(state, 0, "pass")
    state = card(state, 1, "church_influence")
    state = card(state, 2, "excommunication")
    state = act(state, 3, "pass")
    state = card(state, 1, "rival")
    state = everyone_passes(state)
    # phase V: every elector alone in his electorate keeps his seat; Mainz's holder scores 1
    assert [p["vp"] for p in state["players"]] == [0, 1, 0, 0]
    assert state["await"] == {"kind": "name_target", "seat": 1, "card": "church_influence"}
    return act(state, 1, "name_target", electorate="trier")


def test_the_excommunication_holder_may_decline_and_the_tie_keeps_the_emperor():
    """The seed, 行動牌 Action card, 革除教籍 Excommunication: 「點算各玩家的選票前,玩家可選擇
    1個選帝侯領(非大主教邦)。該選帝侯之選票將不獲計算」 -- the player *may* choose (可選擇) an
    electorate. Declining keeps every vote: 5 against 5, the emperor stays; seats 2 and 3, who
    voted for him, score 1 each (投票予贏得皇位者,玩家可獲得 1 分)."""
    state = excommunication_would_flip()
    assert GAME.version(state) >= 2
    assert state["await"] == {"kind": "name_target", "seat": 2, "card": "excommunication"}
    offered = GAME.legal_actions(state, 2)
    assert [a["payload"].get("electorate") for a in offered] == ["pfalz", "sachsen", "brandenburg", "boehmen", None]
    assert offered[-1] == DECLINE
    state = act(state, 2, "decline_target")
    assert state["targets"] == {"church_influence": "trier", "excommunication": None}
    assert GAME.view(state, None)["voting"]["counts"] == [1, 5, 3, 1]
    state = act(state, 2, "vote", side="emperor")
    state = act(state, 3, "vote", side="emperor")
    assert state["election"]["totals"] == {"rival": 5, "emperor": 5}
    assert state["election"]["winner"] == "emperor" and state["emperor"] == 0
    # Mainz 1 for seat 1; the kept emperor scores round 1's 2 (皇帝權威, 第 1 或第 2 回合)
    assert [p["vp"] for p in state["players"]] == [2, 1, 1, 1]


def test_rules_version_1_forces_a_naming_that_hands_the_throne_to_the_rival():
    """Version 1: the holder must name one of the four secular electorates, and each of them
    costs the emperor the tie: Pfalz, Saxony or Brandenburg leave him 4, Bohemia 3, against 5."""
    state = excommunication_would_flip(rules_version=1)
    assert GAME.version(state) == 1
    offered = GAME.legal_actions(state, 2)
    assert DECLINE not in offered and len(offered) == 4
    assert_refused(GAME, state, {"type": "decline_target", "seat": 2, "payload": {}}, "wrong_action")
    for action in offered:
        named = act(state, 2, "name_target", **action["payload"])
        for seat in sorted(GAME.to_act(named)):
            named = act(named, seat, "vote", side="emperor")
        assert named["election"]["winner"] == "rival" and named["election"]["totals"]["emperor"] < 5


def test_the_church_influence_holder_may_decline():
    """The seed, 行動牌 Action card, 教會幹涉 Church influence: 「點算各玩家的選票前,玩家可選擇
    1 個大主教邦」 -- *may* choose an archdiocese. Declined, Trier's baron and knight add nothing:
    the Rival (seat 1) counts Trier, Cologne and Mainz, 3."""
    state = blank(4, emperor=0)
    put(state, "pfalz/elector", 0, age=25)
    put(state, "trier/elector", 1, age=25)
    put(state, "trier/a0", 1, age=15)
    put(state, "koeln/elector", 1, age=25)
    put(state, "mainz/elector", 1, age=25)
    put(state, "boehmen/elector", 2, age=25)
    state = act(state, 0, "pass")
    state = card(state, 1, "church_influence")
    state = card(state, 2, "rival")
    state = everyone_passes(state)
    assert state["await"] == {"kind": "name_target", "seat": 1, "card": "church_influence"}
    assert GAME.legal_actions(state, 1)[-1] == DECLINE
    state = act(state, 1, "decline_target")
    assert state["targets"]["church_influence"] is None
    assert GAME.view(state, None)["voting"]["counts"] == [1, 3, 2, 0]
    assert state["await"] == {"kind": "vote", "seats": [1]}


def gray_eminence_turn(rules_version: int | None = None) -> dict:
    """Seat 3 holds the Gray Eminence; in Bohemia seat 1's baron and seat 3's baron tie 1-1."""
    opts = {} if rules_version is None else {"rules_version": rules_version}
    state = blank(4, emperor=0, **opts)
    put(state, "boehmen/a0", 1, age=25)
    put(state, "boehmen/a1", 3, age=25)
    state["players"][3]["display"] = ["gray_eminence"]
    state["stacks"]["gray_eminence"] = 0
    state = everyone_passes(state)
    assert state["await"] == {"kind": "place_gray_eminence", "seat": 3}
    assert state["players"][3]["nobles"] == 6
    return state


def test_the_gray_eminence_holder_may_keep_the_baron_in_supply():
    """The seed, 行動牌 Action card, 長老 Gray eminence: 「在第 5 階段「新選帝侯」開始時,玩家可將 1 名
    45 歲的己方獨身貴族放到任何 1 個選帝侯領內」 -- the player *may* (可) place the 45 baron.
    Declined, nothing is placed: seat 3 keeps 6 barons in supply, and Bohemia stays tied 1-1, so
    the emperor (seat 0) breaks the tie (由掌控皇帝的玩家裁判) between seats 1 and 3; placed
    there, the baron would have given seat 3 the electorate outright (2 against 1)."""
    state = gray_eminence_turn()
    offered = GAME.legal_actions(state, 3)
    assert offered[-1] == {"type": "decline_gray_eminence", "payload": {}}
    assert [a["payload"]["electorate"] for a in offered[:-1]] == [
        "trier",
        "koeln",
        "mainz",
        "pfalz",
        "sachsen",
        "brandenburg",
        "boehmen",
    ]
    declined = act(state, 3, "decline_gray_eminence")
    assert declined["gray_eminences"] == [] and declined["players"][3]["nobles"] == 6
    assert declined["await"] == {"kind": "break_tie", "seat": 0, "electorate": "boehmen", "tied": [1, 3]}
    placed = act(state, 3, "place_gray_eminence", electorate="boehmen")
    assert placed["players"][3]["nobles"] == 5
    assert placed["electorates"]["boehmen"]["elector"] == {"owner": 3, "couple": False, "age": 25}


def test_rules_version_1_forces_the_gray_eminence_onto_the_board():
    state = gray_eminence_turn(rules_version=1)
    offered = GAME.legal_actions(state, 3)
    assert {a["type"] for a in offered} == {"place_gray_eminence"} and len(offered) == 7
    assert_refused(GAME, state, {"type": "decline_gray_eminence", "seat": 3, "payload": {}}, "wrong_action")
