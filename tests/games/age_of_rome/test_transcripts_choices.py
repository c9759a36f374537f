"""The rulebook's permissions (能, 可) that are the player's choice, each shown offered with its
decline through ``legal_actions`` (the concordance in docs/rules/age_of_rome.md cites these)."""

from __future__ import annotations

from projections.games.age_of_rome import GAME
from projections.games.age_of_rome.effects import gain_glory, lose_glory

from .helpers import act, at, board, launch_plot

PLACE = {"op": "place", "seat": 0}


def four() -> dict:
    """Antonius (seat 0, facing Italia, military token active), Octavius, Fulvia, Lepidus."""
    return board(4, "marcus_antonius", "caius_octavius", "fulvia", "aemilius_lepidus")


def offered(state: dict, kind: str, seat: int = 0) -> list[dict]:
    return [a["payload"] for a in GAME.legal_actions(state, seat) if a["type"] == kind]


def test_a_follower_goes_to_the_faced_province_or_the_colosseum_and_the_token_is_optional():
    """「玩家只能將追隨者放在「自己面前行省的建築板塊或密謀欄位」或「羅馬競技場」」 -- only on the
    buildings or plot spaces of the province in front of you, or in the Colosseum; 「每位玩家皆能在此
    放置任意數量的追隨者」 -- any number in the Colosseum; 「每輪遊戲玩家能使用 1 次啟用狀態的標記能力」
    -- an active token *may* be used once a round: placing with it and without it are both offered.

    Antonius already has a follower in the Colosseum; Gallia's military building (not his) is not
    offered; his political token is covered, his military one active."""
    state = four()
    state["provinces"]["italia"]["levels"].update(military=2, political=1)
    state["provinces"]["gallia"]["levels"]["military"] = 1
    state["colosseum"] = [0]
    assert offered(at(state, PLACE), "place_follower") == [
        {"location": "colosseum", "use_token": False},
        {"location": "building:military", "use_token": False},
        {"location": "building:military", "use_token": True},
        {"location": "building:political", "use_token": False},
        {"location": "plot:0", "use_token": False},
        {"location": "plot:1", "use_token": False},
        {"location": "plot:2", "use_token": False},
    ]


def test_a_token_placed_with_a_follower_takes_no_space_and_is_used_once_a_round():
    """「與加成標記一起放置追隨者不會影響建築板塊所能容納的追隨者數量。」 -- placing a token with a
    follower does not change how many followers the building holds. Antonius places with his
    military token on a level-2 building: one space is left, offered without the token (used)."""
    state = four()
    state["provinces"]["italia"]["levels"]["military"] = 2
    state = act(at(state, PLACE), 0, "place_follower", location="building:military", use_token=True)
    again = at(state, PLACE)
    military = [p for p in offered(again, "place_follower") if p["location"] == "building:military"]
    assert military == [{"location": "building:military", "use_token": False}]


def test_a_legion_moves_from_the_supply_or_between_areas_or_not_at_all():
    """「移動時,玩家能將自己玩家圖板上的軍團移動至主遊戲圖板的戰鬥區域,或將戰鬥區域內的軍團移動到另一個
    區域。」 -- a move takes a legion from the player board to a battle area, or from one area to
    another. Fulvia has legions in supply and one in Thrace: both kinds are offered, and (rules
    version 3) declining the move."""
    state = board(2, "fulvia", "marcus_antonius")
    state["areas"]["thrace"] = [1, 0]
    state["players"][0]["legions"] -= 1
    state["provinces"]["italia"]["levels"]["military"] = 1
    state = act(at(state, PLACE), 0, "place_follower", location="building:military", use_token=False)
    assert offered(state, "move_legion") == [
        {"from": "supply", "to": "epirus"},
        {"from": "supply", "to": "macedonia"},
        {"from": "supply", "to": "thrace"},
        {"from": "thrace", "to": "epirus"},
        {"from": "thrace", "to": "macedonia"},
    ]
    assert offered(state, "decline_legion_move") == [{}]
    state = act(state, 0, "move_legion", **{"from": "thrace", "to": "epirus"})
    assert state["areas"]["thrace"] == [0, 0] and state["areas"]["epirus"] == [1, 0]


def test_the_plot_turn_offers_each_plot_action_with_an_effect_and_launching_none():
    """「玩家每成功發動 1 次密謀,能執行自己玩家圖板左側其中 1 項密謀行動。」 -- each launched plot
    lets the player carry out *one* of their plot actions; 「任意發動自己的密謀」 -- launch at will.

    Antonius's marker in Gallia targets Octavius (3 glory, a Pantheon piece, a legion in Thrace):
    Disrupt, Sabotage and Defect are each offered, and so is ending the turn. Ending it leaves the
    marker face up on the board for a later round."""
    state = four()
    state["provinces"]["gallia"]["plots"][0] = {"owner": 0, "up": True}
    state["players"][1].update(glory=3)
    state["players"][1]["pantheon"]["foundation"]["own"] = 1
    state["areas"]["thrace"] = [0, 1, 0, 0]
    state["players"][1]["legions"] -= 1
    state = at(state, {"op": "plot_turn", "seat": 0})
    assert {p["action"] for p in offered(state, "launch_plot")} == {"disrupt", "sabotage", "defect"}
    assert offered(state, "end_plot_turn") == [{}]
    state = act(state, 0, "end_plot_turn")
    assert state["provinces"]["gallia"]["plots"][0] == {"owner": 0, "up": True}
    assert state["players"][1]["vendetta"] == 2


def test_defect_offers_removing_the_legion_or_replacing_it():
    """變節: 「以 1 名對手置於任意戰鬥區域的軍團為目標,能單純移除對手的軍團,或以自己的軍團取代該軍團。」
    -- aim at an opponent's legion in any battle area: *either* just remove it, *or* replace it with
    one's own. Both are offered for each area the target holds."""
    state = four()
    state["provinces"]["gallia"]["plots"][0] = {"owner": 0, "up": True}
    state["areas"]["thrace"] = [0, 1, 0, 0]
    state["areas"]["epirus"] = [0, 1, 0, 0]
    state["players"][1]["legions"] -= 2
    state = launch_plot(state, "defect")
    assert offered(state, "defect") == [
        {"area": "epirus", "mode": "remove"},
        {"area": "epirus", "mode": "replace"},
        {"area": "thrace", "mode": "remove"},
        {"area": "thrace", "mode": "replace"},
    ]
    state = act(state, 0, "defect", area="epirus", mode="remove")
    assert state["areas"]["epirus"] == [0, 0, 0, 0] and state["players"][0]["legions"] == 8


def test_the_build_turn_offers_any_number_of_affordable_tiles_and_stopping():
    """「只要玩家擁有足夠的第納里能支付建造費用,能拿取與放置任意數量的建築板塊」 -- as long as they can
    pay, a player may take and place any number of tiles (the turn is 「決定是否…拿取與放置」, whether
    to build at all). Fulvia (6 denarii) is offered every tile she can pay for and ending the turn;
    after a tile, she is asked again."""
    state = at(board(2, "fulvia", "marcus_antonius"), {"op": "build_turn", "seat": 0})
    builds = {p["building"] for p in offered(state, "build")}
    assert builds and offered(state, "end_build_turn") == [{}]
    state = act(state, 0, "build", building="political")
    assert state["queue"][0]["op"] == "build_turn" and offered(state, "end_build_turn") == [{}]
    state = act(state, 0, "end_build_turn")
    assert state["queue"] == []


def test_a_trigger_window_takes_any_number_of_its_cards_or_none():
    """「滿足商業卡的發動條件時,玩家能使用任意數量且擁有相同發動條件的商業卡」 -- when a trigger is met
    the player may use any number of cards with that trigger. Fulvia taxes holding Abacus (T05) and
    Amber Necklace (J04), both on taxation: she plays one, the window stays open for the other, and
    she passes."""
    state = board(2, "fulvia", "marcus_antonius")
    state["players"][0]["hand"] = ["T05", "J04"]
    for card in ("T05", "J04"):
        state["commerce_deck"].remove(card)
    state = act(at(state, {"op": "tax", "seat": 0}), 0, "tax", mode="normal")
    assert offered(state, "play_card") == [{"card": "J04"}, {"card": "T05"}] and offered(state, "pass") == [{}]
    state = act(state, 0, "play_card", card="T05")
    assert offered(state, "play_card") == [{"card": "J04"}] and offered(state, "pass") == [{}]
    state = act(state, 0, "pass")
    assert state["players"][0]["hand"] == ["J04"] and state["players"][0]["denarii"] == 6 + 1 + 2


def test_a_milestone_passed_again_gives_no_second_follower():
    """「玩家不會因此失去已獲得的追隨者,再次通過相同的里程碑也不能重複獲得追隨者。」 -- a player who
    drops below a milestone keeps the follower it gave, and passing it again gives none."""
    state = board(2, "fulvia", "marcus_antonius")
    state["players"][0]["glory"] = 4
    gain_glory(state, 0, 2)
    assert state["players"][0]["followers"] == 2
    lose_glory(state, 0, 3)
    assert state["players"][0]["glory"] == 3 and state["players"][0]["followers"] == 2
    gain_glory(state, 0, 3)
    assert state["players"][0]["followers"] == 2 and state["players"][0]["milestones"] == [0]
