"""Rules version 3: what the rulebook leaves to the player, and the board's last turn.

Two readings of the English digest are corrected from the rulebook's own words:

- the four building actions are permissions (能, "may"): a follower on a military, political,
  commercial or religious building lets its player move a legion, place a vote, draw a card
  or place a Pantheon piece, and each one (each of the two a bonus token gives) may be
  declined on its own;
- the province board turns at the end of every round, the ninth included, before final
  scoring.

Games recorded under versions 1 and 2 keep the old readings (the last tests here).
"""

from __future__ import annotations

from projections.games.age_of_rome import GAME
from tests.games.harness import assert_refused

from .helpers import act, at, board, ev

PLACE = {"op": "place", "seat": 0}


def placed(state: dict, building: str, use_token: bool = False) -> dict:
    """Seat 0 (facing Italia) puts a follower on its level-1 ``building``."""
    state["provinces"]["italia"]["levels"][building] = 1
    return act(at(state, PLACE), 0, "place_follower", location=f"building:{building}", use_token=use_token)


def kinds(state: dict, seat: int = 0) -> set[str]:
    return {a["type"] for a in GAME.legal_actions(state, seat)}


def test_a_follower_on_the_military_building_may_move_no_legion():
    """軍事: 「將追隨者放在軍事建築時,玩家能移動 1 名軍團。」
    -- "When a follower is placed on a military building, the player *may* (能) move 1 legion."

    Fulvia (7 legions in supply) places on Italia's military building: every move is offered
    and so is declining it. She declines: no legion moves, the follower stays on the building.
    """
    state = placed(board(2, "fulvia", "marcus_antonius"), "military")
    assert GAME.version(state) == 3
    assert state["queue"][0]["op"] == "legion_move" and GAME.to_act(state) == {0}
    offers = GAME.legal_actions(state, 0)
    assert {"type": "move_legion", "payload": {"from": "supply", "to": "thrace"}} in offers
    assert {"type": "decline_legion_move", "payload": {}} in offers
    after = act(state, 0, "decline_legion_move")
    assert after["areas"] == state["areas"] and after["players"][0]["legions"] == 7
    assert after["provinces"]["italia"]["followers"]["military"] == [0]
    assert after["queue"] == []  # an empty hand opens no trigger window; nothing else waits


def test_each_move_the_military_token_gives_may_be_declined_on_its_own():
    """軍事: 「若啟用軍事加成標記,將標記連同追隨者一起放在軍事建築,則能移動 2 名軍團。」
    -- "If the military bonus token is active and placed with the follower on a military
    building, the player *may* (能) move 2 legions."

    Fulvia's military token is active (2 vendetta markers cover spaces 4 and 5; it lies on 3).
    She declines the first move and is still offered the second; she sends that legion to
    Thrace. With another token play she takes the first move and declines the second.
    """
    state = placed(board(2, "fulvia", "marcus_antonius"), "military", use_token=True)
    assert state["players"][0]["tokens_used"] == ["military"]
    state = act(state, 0, "decline_legion_move")
    assert state["queue"][0]["op"] == "legion_move"
    assert {"move_legion", "decline_legion_move"} <= kinds(state)
    state = act(state, 0, "move_legion", **{"from": "supply", "to": "thrace"})
    assert state["areas"]["thrace"] == [1, 0] and state["players"][0]["legions"] == 6
    assert state["queue"] == []

    other = placed(board(2, "fulvia", "marcus_antonius"), "military", use_token=True)
    other = act(other, 0, "move_legion", **{"from": "supply", "to": "epirus"})
    assert {"move_legion", "decline_legion_move"} <= kinds(other)
    other = act(other, 0, "decline_legion_move")
    assert other["areas"]["epirus"] == [1, 0] and other["queue"] == []


def test_a_follower_on_the_political_building_may_place_no_vote():
    """政治: 「將追隨者放在政治建築時,玩家能將 1 張選票放在元老院。若啟用政治加成標記,將標記連同
    追隨者一起放在政治建築,則能放置 2 張選票。」
    -- "When a follower is placed on a political building, the player *may* (能) put 1 vote in
    the Senate. With the political bonus token, they *may* place 2 votes."

    Lepidus (5 votes, his political token active) places with the token: each of the two
    votes is offered with its decline. He places the first and declines the second.
    """
    state = placed(board(2, "aemilius_lepidus", "fulvia"), "political", use_token=True)
    assert state["queue"][0]["op"] == "vote"
    assert GAME.legal_actions(state, 0) == [
        {"type": "place_vote", "payload": {}},
        {"type": "decline_vote", "payload": {}},
    ]
    state = act(state, 0, "place_vote")
    assert state["senate"] == [0] and state["players"][0]["votes"] == 4
    assert state["queue"][0]["op"] == "vote" and kinds(state) == {"place_vote", "decline_vote"}
    state = act(state, 0, "decline_vote")
    assert state["senate"] == [0] and state["players"][0]["votes"] == 4 and state["queue"] == []
    # without the token: one vote, and declining it leaves the Senate as it was
    alone = placed(board(2, "aemilius_lepidus", "fulvia"), "political")
    alone = act(alone, 0, "decline_vote")
    assert alone["senate"] == [] and alone["players"][0]["votes"] == 5 and alone["queue"] == []


def test_a_follower_on_the_commercial_building_may_draw_no_card():
    """商業: 「將追隨者放在商業建築時,玩家能從商業卡牌庫抽取 1 張卡片。若啟用商業加成標記,將標記
    連同追隨者一起放在商業建築,則能抽取 2 張商業卡。」
    -- "When a follower is placed on a commercial building, the player *may* (能) draw 1 card
    from the commerce deck. With the commercial bonus token, they *may* draw 2."

    Octavius (empty hand, his commercial token active) places with the token: each draw is
    offered with its decline (``forfeit_draw``). He draws the first and gives up the second:
    one card left the deck, the next one is still on top.
    """
    state = placed(board(2, "caius_octavius", "fulvia"), "commercial", use_token=True)
    first, second = state["commerce_deck"][:2]
    assert state["queue"][0]["op"] == "draw" and state["players"][0]["hand"] == []
    assert GAME.legal_actions(state, 0) == [
        {"type": "forfeit_draw", "payload": {}},
        {"type": "draw_card", "payload": {}},
    ]
    state = act(state, 0, "draw_card")
    assert state["players"][0]["hand"] == [first]
    assert state["queue"][0]["op"] == "draw" and {"draw_card", "forfeit_draw"} <= kinds(state)
    state = act(state, 0, "forfeit_draw")
    assert state["players"][0]["hand"] == [first] and state["commerce_deck"][0] == second


def test_a_follower_on_the_religious_building_may_place_no_pantheon_piece():
    """宗教: 「將追隨者放在宗教建築時,玩家能將 1 個萬神殿配件放在萬神殿圖板。」
    -- "When a follower is placed on a religious building, the player *may* (能) put 1 Pantheon
    piece on their Pantheon board."

    Fulvia places on Italia's religious building: the piece is offered with its decline. Declined,
    her Pantheon stays empty; taken, her foundation holds one piece of her colour.
    """
    state = placed(board(2, "fulvia", "marcus_antonius"), "religious")
    assert state["queue"][0]["op"] == "pantheon"
    assert GAME.legal_actions(state, 0) == [
        {"type": "place_pantheon_piece", "payload": {}},
        {"type": "decline_pantheon_piece", "payload": {}},
    ]
    declined = act(state, 0, "decline_pantheon_piece")
    assert declined["players"][0]["pantheon"]["foundation"] == {"own": 0, "metal": None}
    assert declined["queue"] == []
    taken = act(state, 0, "place_pantheon_piece")
    assert taken["players"][0]["pantheon"]["foundation"] == {"own": 1, "metal": None}
    assert taken["queue"] == []


def test_a_building_action_with_nothing_to_take_asks_nothing():
    """A permission with nothing behind it is no decision: a political building with no vote
    in supply, or a religious one with a finished Pantheon, ends the action at once."""
    state = board(2, "aemilius_lepidus", "fulvia")
    state["players"][0]["votes"] = 0
    state["players"][0]["vote_reserve"] += 5
    assert placed(state, "political")["queue"] == []
    state = board(2, "fulvia", "marcus_antonius")
    state["players"][0]["pantheon"] = {
        "foundation": {"own": 2, "metal": "gold"},
        "building": {"own": 3, "metal": "gold"},
    }
    assert placed(state, "religious")["queue"] == []


def test_declines_are_refused_where_nothing_is_offered():
    """The new decisions answer only their own step: no vote to decline during a build turn."""
    state = at(board(2, "fulvia", "marcus_antonius"), {"op": "build_turn", "seat": 0})
    assert_refused(GAME, state, ev(0, "decline_vote"), "wrong_action")
    assert_refused(GAME, state, ev(0, "place_pantheon_piece"), "wrong_action")
    military = placed(board(2, "fulvia", "marcus_antonius"), "military")
    assert_refused(GAME, military, ev(1, "decline_legion_move"), "not_your_turn")


def test_the_board_turns_after_the_ninth_round_before_final_scoring():
    """結束一輪遊戲: 「完成收入階段後,查看本輪所翻開的事件卡,依照卡片指示將行省圖板旋轉 90 度或
    180 度後,接著進行下一輪遊戲或進入最終計分。」
    -- "After the income phase, look at this round's event card and turn the province board
    90 or 180 degrees as it shows; *then* go on to the next round or to final scoring."

    Round 9's event is E04 (two clockwise steps). The last tax is paid: the board turns 180
    degrees and the game is scored. Fulvia (table seat 0) faced Italia and now faces Hispania;
    the view shows the board as it lies on the table. Scoring does not read the orientation.
    """
    state = board(2, "fulvia", "marcus_antonius")
    state.update(round=9, event="E04", phase="income")
    waiting = at(state, {"op": "tax", "seat": 0}, {"op": "round_end"})
    assert GAME.view(waiting, None)["players"][0]["faces"] == "italia"
    state = act(waiting, 0, "tax", mode="normal")
    assert state["result"] is not None and state["round"] == 9
    assert state["orientation"] == 2
    view = GAME.view(state, None)
    assert view["orientation"] == 2 and view["players"][0]["faces"] == "hispania"
    assert view["facing"]["hispania"] == 0
    # the same ending under version 2 skipped the turn; the scores are the same
    old = board(2, "fulvia", "marcus_antonius", rules_version=2)
    old.update(round=9, event="E04", phase="income")
    old = act(at(old, {"op": "tax", "seat": 0}, {"op": "round_end"}), 0, "tax", mode="normal")
    assert old["orientation"] == 0 and old["result"] == state["result"]


def test_the_solo_board_turns_after_the_ninth_round_too():
    """The same sentence in a solo game: the rival's round glory is gained, the board turns
    (E08: two counter-clockwise steps), then the game is scored."""
    from .helpers import new_game

    state = new_game(1)
    state.update(round=9, event="E08", phase="income")
    state["players"][0]["hand"] = []
    glory = state["rival"]["glory"]
    state = act(at(state, {"op": "tax", "seat": 0}, {"op": "round_end"}), 0, "tax", mode="normal")
    assert state["result"] is not None and state["orientation"] == 2
    assert state["rival"]["glory"] > glory


def test_rules_version_2_carries_out_building_actions_without_asking():
    """Games recorded under versions 1 and 2 fold as they were: the vote, the draw and the
    Pantheon piece happen at once and a military move offers no decline."""
    state = placed(board(2, "aemilius_lepidus", "fulvia", rules_version=2), "political")
    assert state["senate"] == [0] and state["queue"] == []
    state = placed(board(2, "caius_octavius", "fulvia", rules_version=2), "commercial")
    assert len(state["players"][0]["hand"]) == 1 and [s["op"] for s in state["queue"]] == ["window"]
    state = placed(board(2, "fulvia", "marcus_antonius", rules_version=2), "religious")
    assert state["players"][0]["pantheon"]["foundation"]["own"] == 1 and state["queue"] == []
    state = placed(board(2, "fulvia", "marcus_antonius", rules_version=1), "military")
    assert kinds(state) == {"move_legion"}
    assert_refused(GAME, state, ev(0, "decline_legion_move"), "illegal_choice")
