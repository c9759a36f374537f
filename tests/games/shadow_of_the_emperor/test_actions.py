"""Phase IV: action cards (S7), privileges (S8), the knight action and passing (S6 IV)."""

from __future__ import annotations

from projections.games.shadow_of_the_emperor import GAME

from .helpers import act, assert_refused, blank, card, put, turn


def ev(seat, type_, **payload):
    return {"type": type_, "seat": seat, "payload": payload}


def take(seat, name, target=None, space=None, side=None, decline=False):
    return ev(seat, "take_card", card=name, target=target, space=space, side=side, decline=decline)


def test_turns_go_clockwise_from_the_emperor_skipping_passed_players_and_passing_is_final():
    state = blank(4, emperor=2)
    state = act(state, 2, "pass")
    assert state["await"]["seat"] == 3
    state = act(state, 3, "knight", source="supply", space="trier/a0")
    state = act(state, 0, "pass")
    state = act(state, 1, "pass")
    assert state["await"] == {"kind": "turn", "seat": 3}  # 2, 0 and 1 have passed
    assert_refused(GAME, state, ev(2, "pass"), "not_your_turn")
    state = act(state, 3, "pass")
    assert state["phase"] != "actions"


def test_knight_action_costs_1_places_or_moves_to_an_empty_space_and_never_pushes():
    """S6 IV (c): 1 thaler; a supply knight to any empty aristocrat or castle space, or an own
    board knight to another empty one; unlimited; never taken as a card."""
    state = blank(3, emperor=0)
    put(state, "pfalz/a0", 1, age=25)
    state = act(state, 0, "knight", source="supply", space="pfalz/castle0")
    assert state["electorates"]["pfalz"]["castles"] == [0]
    assert state["players"][0]["thalers"] == 6 and state["players"][0]["display"] == []
    state = turn(state, 0)
    assert_refused(GAME, state, ev(0, "knight", source="pfalz/castle0", space="pfalz/a0"), "space_occupied")
    assert_refused(GAME, state, ev(0, "knight", source="koeln/a0", space="pfalz/a1"), "not_your_piece")
    state = act(state, 0, "knight", source="pfalz/castle0", space="koeln/a2")
    assert state["electorates"]["koeln"]["nobles"][2] == {"owner": 0, "knight": True}
    assert state["electorates"]["pfalz"]["castles"] == [None]
    state = turn(state, 0)
    state["players"][0]["thalers"] = 0
    assert_refused(GAME, state, ev(0, "knight", source="supply", space="pfalz/a1"), "not_enough_money")


def test_doctor_rejuvenates_own_and_ages_opponents_killing_a_45_elector():
    """S7.3: own noble one stage younger (not below 15); an opponent's one stage older, a 45
    dies to supply; a dead elector leaves the seat empty until phase V (G10)."""
    state = blank(3, emperor=0)
    put(state, "pfalz/a0", 0, age=35)
    put(state, "pfalz/a1", 0, age=15)
    put(state, "sachsen/elector", 1, age=45)
    assert_refused(GAME, state, take(0, "doctor", target="pfalz/a1"), "too_young")
    state = card(state, 0, "doctor", target="pfalz/a0")
    assert state["electorates"]["pfalz"]["nobles"][0]["age"] == 25
    assert state["players"][0]["thalers"] == 6 and state["players"][0]["display"] == ["doctor"]
    state = card(turn(state, 0), 0, "doctor", target="sachsen/elector")
    assert state["electorates"]["sachsen"]["elector"] is None
    assert state["players"][1]["nobles"] == 7
    assert state["stacks"]["doctor"] == 0


def test_doctor_killing_the_emperor_makes_his_owner_refill_the_throne_at_once():
    """G10 / decision 22: a dead emperor is replaced at once by the phase II rule."""
    state = blank(3, emperor=1)
    put(state, "throne", 1, age=45)
    put(state, "mainz/a0", 1, age=25)
    put(state, "mainz/a1", 1, couple=True, age=35)
    state = turn(state, 0)
    state = card(state, 0, "doctor", target="throne")
    assert state["throne"] is None and GAME.to_act(state) == {1}
    state = act(state, 1, "enthrone", space="mainz/a1")
    assert state["throne"] == {"owner": 1, "couple": True, "age": 35}
    assert state["await"] == {"kind": "turn", "seat": 1}


def test_move_takes_an_own_noble_from_an_aristocrat_space_to_a_different_electorate_pushing_a_knight():
    """S7.4: never an elector or the emperor; a different electorate; a knight pushed out
    only if the destination has no empty aristocrat space."""
    state = blank(3, emperor=0)
    put(state, "pfalz/a0", 0, couple=True, age=25)
    put(state, "pfalz/elector", 0, age=25)
    for i in range(2):
        put(state, f"trier/a{i}", 1, age=25)
    put(state, "trier/a2", 2, knight=True)
    assert_refused(GAME, state, take(0, "move", target="pfalz/elector", space="koeln/a0"), "not_on_aristocrat_space")
    assert_refused(GAME, state, take(0, "move", target="pfalz/a0", space="pfalz/a1"), "same_electorate")
    assert_refused(GAME, state, take(0, "move", target="pfalz/a0", space="trier/a0"), "space_occupied")
    state = card(state, 0, "move", target="pfalz/a0", space="trier/a2")
    assert state["electorates"]["trier"]["nobles"][2] == {"owner": 0, "couple": True, "age": 25}
    assert state["electorates"]["pfalz"]["nobles"][0] is None
    assert state["players"][2]["knights"] == 3


def test_permit_places_a_15_as_baron_for_3_or_couple_for_5():
    state = blank(3, emperor=0)
    state["players"][0]["thalers"] = 4
    assert_refused(GAME, state, take(0, "permit", space="pfalz/a0", side="couple"), "not_enough_money")
    state = card(state, 0, "permit", space="pfalz/a0", side="baron")
    assert state["electorates"]["pfalz"]["nobles"][0] == {"owner": 0, "couple": False, "age": 15}
    assert state["players"][0]["thalers"] == 1
    state = turn(state, 0)
    state["players"][0]["thalers"] = 5
    state = card(state, 0, "permit", space="pfalz/a1", side="couple")
    assert state["electorates"]["pfalz"]["nobles"][1]["couple"] and state["players"][0]["thalers"] == 0


def test_ordinance_scores_1_1_2_for_the_first_second_third_city():
    state = blank(3, emperor=0)
    state["players"][0]["thalers"] = 12
    state["stacks"]["ordinance"] = 3
    vp = []
    for space in ("trier/city0", "koeln/city1", "boehmen/city0"):
        state = card(turn(state, 0), 0, "ordinance", space=space)
        vp.append(state["players"][0]["vp"])
    assert vp == [1, 2, 4]
    assert state["players"][0]["cities"] == 0 and state["players"][0]["thalers"] == 12 - 9


def test_ordinance_needs_an_empty_city_space_and_a_city_in_supply():
    state = blank(3, emperor=0)
    put(state, "trier/city0", "empire")
    assert_refused(GAME, state, take(0, "ordinance", space="trier/city0"), "space_occupied")
    state["players"][0]["cities"] = 0
    assert_refused(GAME, state, take(0, "ordinance", space="trier/city1"), "no_supply")


def test_promotion_turns_an_own_knight_on_an_aristocrat_space_into_a_baron_15():
    state = blank(3, emperor=0)
    put(state, "pfalz/a2", 0, knight=True)
    put(state, "pfalz/castle0", 0)
    assert_refused(GAME, state, take(0, "promotion", target="pfalz/castle0"), "knight_in_castle")
    state = card(state, 0, "promotion", target="pfalz/a2")
    assert state["electorates"]["pfalz"]["nobles"][2] == {"owner": 0, "couple": False, "age": 15}
    assert state["players"][0]["knights"] == 2 and state["players"][0]["thalers"] == 5


def test_foreign_kings_daughter_flips_an_own_single_baron_but_not_an_archdiocese_elector():
    state = blank(3, emperor=0)
    put(state, "mainz/elector", 0, age=25)
    put(state, "boehmen/elector", 0, age=35)
    assert_refused(GAME, state, take(0, "foreign_kings_daughter", target="mainz/elector"), "archdiocese_elector")
    state = card(state, 0, "foreign_kings_daughter", target="boehmen/elector")
    assert state["electorates"]["boehmen"]["elector"] == {"owner": 0, "couple": True, "age": 35}


def test_indulgence_costs_2_and_scores_1_vp():
    state = card(blank(3, emperor=0), 0, "indulgence")
    assert state["players"][0]["vp"] == 1 and state["players"][0]["thalers"] == 5


def test_rival_is_free_ends_the_takers_phase_and_is_refused_to_the_emperor():
    """S7.2: cost 0; taking it passes; the emperor's owner may not take it."""
    state = blank(3, emperor=0)
    assert_refused(GAME, state, take(0, "rival"), "emperor_cannot_challenge")
    state = act(state, 0, "pass")
    state = card(state, 1, "rival")
    assert state["players"][1]["passed"] and state["players"][1]["thalers"] == 7
    assert state["await"]["seat"] == 2
    assert_refused(GAME, state, take(2, "rival"), "stack_empty")


def test_a_card_whose_action_cannot_be_carried_out_cannot_be_taken():
    """S6 IV (a): not even if affordable (outside the 2-player game)."""
    state = blank(3, emperor=0)
    assert not any(a["payload"].get("card") == "promotion" for a in GAME.legal_actions(state, 0))
    assert_refused(GAME, state, take(0, "promotion", target="pfalz/a0"), "not_your_piece")
    assert_refused(GAME, state, take(0, "doctor", decline=True), "cannot_decline")


def test_two_players_may_take_a_phase_four_card_and_decline_its_action():
    """S14.5: the card is paid and lies in front of him (it counts for descendants)."""
    state = blank(2, emperor=0)
    offered = [a for a in GAME.legal_actions(state, 0) if a["payload"].get("decline")]
    assert {a["payload"]["card"] for a in offered} == {
        "doctor",
        "move",
        "indulgence",
        "permit",
        "ordinance",
        "promotion",
        "foreign_kings_daughter",
    }
    state = card(state, 0, "promotion", decline=True)
    assert state["players"][0]["display"] == ["promotion"] and state["players"][0]["thalers"] == 5


def test_trier_reproduces_an_exhausted_phase_four_card_paying_its_cost_without_taking_it():
    """S8 Trier: only a phase-IV card whose stack is empty; normal cost; no card taken (G8)."""
    state = blank(3, emperor=0)
    put(state, "trier/elector", 0, age=25)

    def use(**kw):
        return ev(
            0,
            "use_privilege",
            **{"electorate": "trier", "card": None, "target": None, "space": None, "side": None, **kw},
        )

    assert_refused(GAME, state, use(card="indulgence"), "stack_not_empty")
    assert_refused(GAME, state, use(card="pope"), "not_a_phase4_card")
    state["stacks"]["indulgence"] = 0
    state = act(state, 0, "use_privilege", electorate="trier", card="indulgence", target=None, space=None, side=None)
    assert state["players"][0]["vp"] == 1 and state["players"][0]["thalers"] == 5
    assert state["players"][0]["display"] == [] and state["electorates"]["trier"]["used"]
    state = turn(state, 0)
    assert_refused(GAME, state, use(card="indulgence"), "privilege_used")


def test_koeln_gives_a_free_doctor_and_pfalz_a_free_baron_15_once_per_round_each():
    state = blank(3, emperor=0)
    put(state, "koeln/elector", 0, age=25)
    put(state, "pfalz/elector", 0, age=25)
    put(state, "sachsen/a0", 1, age=35)
    state = act(state, 0, "use_privilege", electorate="koeln", card=None, target="sachsen/a0", space=None, side=None)
    assert state["electorates"]["sachsen"]["nobles"][0]["age"] == 45 and state["players"][0]["thalers"] == 7
    state = act(
        turn(state, 0), 0, "use_privilege", electorate="pfalz", card=None, target=None, space="sachsen/a1", side=None
    )
    assert state["electorates"]["sachsen"]["nobles"][1] == {"owner": 0, "couple": False, "age": 15}
    assert state["players"][0]["thalers"] == 7
    state = turn(state, 0)
    privileges = {a["payload"]["electorate"] for a in GAME.legal_actions(state, 0) if a["type"] == "use_privilege"}
    assert privileges == set()


def test_only_the_elector_uses_a_privilege():
    state = blank(3, emperor=0)
    put(state, "koeln/elector", 1, age=25)
    assert_refused(
        GAME,
        state,
        ev(0, "use_privilege", electorate="koeln", card=None, target="koeln/elector", space=None, side=None),
        "not_your_elector",
    )
    assert_refused(
        GAME,
        state,
        ev(0, "use_privilege", electorate="pfalz", card=None, target=None, space="pfalz/a0", side=None),
        "not_your_elector",
    )
    assert_refused(
        GAME,
        state,
        ev(0, "use_privilege", electorate="mainz", card=None, target=None, space=None, side=None),
        "no_such_privilege",
    )


def test_brandenburg_takes_the_gray_eminence_for_1_thaler():
    """S8 Brandenburg, G9: the only way to the Gray Eminence; it pays the card's cost."""
    state = blank(3, emperor=0)
    assert_refused(GAME, state, take(0, "gray_eminence"), "brandenburg_only")
    put(state, "brandenburg/elector", 0, age=25)
    state = act(state, 0, "use_privilege", electorate="brandenburg", card=None, target=None, space=None, side=None)
    assert state["players"][0]["display"] == ["gray_eminence"] and state["players"][0]["thalers"] == 6
    assert state["stacks"]["gray_eminence"] == 0


def test_the_rival_needs_a_noble_that_could_mount_the_throne():
    """G13: a noble on an aristocrat space or one in supply."""
    state = blank(3, emperor=0)
    state = act(state, 0, "pass")
    state["players"][1]["nobles"] = 0
    for _i, eid in enumerate(["trier", "koeln", "mainz", "pfalz", "sachsen", "brandenburg", "boehmen"]):
        state["electorates"][eid]["elector"] = {"owner": 1, "couple": False, "age": 25}
    assert_refused(GAME, state, take(1, "rival"), "cannot_carry_out")
    assert not any(a["payload"].get("card") == "rival" for a in GAME.legal_actions(state, 1))


def test_a_phase_four_turn_offers_every_card_privilege_and_the_knight_beside_pass():
    """The rulebook, 玩家行動 Actions: 「玩家可依行動牌的價值支付費用」 (a player *may* pay for an
    action card), 「支付 1 個塔勒,玩家即可將 1 名騎士放到圖板上空的權貴或城堡位置上」 (the knight
    action), the privileges (特里爾 「玩家可行使一項經已全數被揀選的行動」, 科隆, 萊茵伯國, 布蘭登堡
    「玩家可購買長老」) and 「棄權」 (pass): each card's and privilege's "may" is one offer among the
    turn's others, and passing is always one of them, so none is forced."""
    state = blank(3, emperor=0)
    for electorate in ("trier", "koeln", "pfalz", "brandenburg"):
        put(state, f"{electorate}/elector", 0, age=25)
    put(state, "sachsen/a0", 0, age=25)  # Doctor, Move and the Foreign King's Daughter
    put(state, "sachsen/a1", 0, knight=True)  # Promotion
    put(state, "sachsen/a2", 1, age=35)  # Köln's Doctor on an opponent
    state["stacks"]["indulgence"] = 0  # Trier reproduces it
    offered = GAME.legal_actions(state, 0)
    assert {a["type"] for a in offered} == {"take_card", "use_privilege", "knight", "pass"}
    assert offered[-1] == {"type": "pass", "payload": {}}
    cards = {a["payload"]["card"] for a in offered if a["type"] == "take_card"}
    assert cards == {
        "doctor",
        "move",
        "permit",
        "ordinance",
        "promotion",
        "foreign_kings_daughter",
        "pope",
        "church_influence",
        "excommunication",
    }  # no Indulgence (stack empty), no Rival (the emperor), no Gray Eminence (Brandenburg's)
    privileges = {a["payload"]["electorate"] for a in offered if a["type"] == "use_privilege"}
    assert privileges == {"trier", "koeln", "pfalz", "brandenburg"}
    trier = [a["payload"]["card"] for a in offered if a["payload"].get("electorate") == "trier"]
    assert trier == ["indulgence"]
    passed = act(state, 0, "pass")
    assert passed["players"][0]["passed"] and passed["players"][0]["display"] == []
    assert passed["players"][0]["thalers"] == 7


def test_permit_and_pfalz_may_push_a_knight_only_from_a_full_electorate_and_may_go_elsewhere():
    """The rulebook, 許可 Permit and 萊茵伯國 County Palatine: 「玩家可將 1 名 15 歲的貴族…放到任何選帝侯領
    內。若玩家選擇的選帝侯領並無空的權貴位置,則玩家可將 1 名放在權貴位置上的騎士(不論敵我)移離圖板」 --
    the player *may* place the baron in any electorate and, if the one he chose is full, *may*
    remove a knight (friend or foe). Trier is full (two barons and seat 2's knight): its knight's
    space is offered, the barons' are not, and every other empty aristocrat space is offered
    beside it, so the push is never forced; Pfalz's privilege offers the same spaces."""
    state = blank(3, emperor=0)
    put(state, "pfalz/elector", 0, age=25)
    put(state, "trier/a0", 1, age=25)
    put(state, "trier/a1", 1, age=35)
    put(state, "trier/a2", 2, knight=True)
    offered = GAME.legal_actions(state, 0)
    permits = {a["payload"]["space"] for a in offered if a["payload"].get("card") == "permit"}
    pfalz = {a["payload"]["space"] for a in offered if a["payload"].get("electorate") == "pfalz"}
    assert "trier/a2" in permits and not {"trier/a0", "trier/a1"} & permits
    assert "koeln/a0" in permits and len(permits) == 1 + 2 * 3 + 4 * 4  # Trier's knight, Köln, Mainz, 4 secular
    assert pfalz == permits
    pushed = act(state, 0, "use_privilege", electorate="pfalz", card=None, target=None, space="trier/a2", side=None)
    assert pushed["electorates"]["trier"]["nobles"][2] == {"owner": 0, "couple": False, "age": 15}
    assert pushed["players"][2]["knights"] == 3
    elsewhere = card(state, 0, "permit", space="koeln/a0", side="baron")
    assert elsewhere["electorates"]["trier"]["nobles"][2] == {"owner": 2, "knight": True}
