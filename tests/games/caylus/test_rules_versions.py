"""Rules version 2: two readings of the rulebook that version 1 took from the reference text.

1. With two players the castle keeps the bridge number after the opponent passed: the
   rulebook's 2.(2) lists the castle (case E) apart from the buildings (cases B-D), and its
   6.(1)C raises the price to 3 only for 「非己方建築物」 (buildings not one's own).
2. A royal favour pays any column from 1 to the marker, in every row (4.(1)); version 1
   paid only the highest usable column in the prestige and deniers rows.

Each test drives the game through its public protocol (``GAME.apply``, ``GAME.legal_actions``,
``GAME.to_act``, ``GAME.view``) from the positions of ``helpers.position``: turn 1, phase 2,
turn order 0..n-1, income paid (2 players: 7 deniers each).
"""

from projections.games.caylus import GAME
from tests.games.harness import assert_refused

from .helpers import act, at_phase, give, own, position


def ev(seat, kind, **payload):
    return {"type": kind, "seat": seat, "payload": payload}


def place(target):
    return {"type": "place_worker", "payload": {"target": target}}


def favour(row, column):
    return {"type": "choose_favour", "payload": {"row": row, "column": column}}


# -- 1. two players: the castle after a pass ----------------------------------------------
def test_two_players_the_castle_costs_the_bridge_number_after_the_opponent_passed():
    """2.(2)E: 「玩家須支付等同石橋圖像下方最小圓圈空格數字的金錢至公區,才能將自家工人置於城堡上。」
    -- a player must pay the lowest free number under the bridge to put a worker on the castle.
    6.(1)C: 「當其中1位玩家放棄指派工人,另1位玩家須支付3元才能指派工人置非己方建築物上,「客棧」效能不變」
    -- once one player has passed, the other must pay 3 to put a worker on a building not
    their own; the Inn's effect is unchanged.

    Seat 0 passes (bridge space 1 taken, +1 denier). Seat 1 holds exactly 2 deniers: the
    castle, at the lowest free bridge number 2, is offered; the Peddler (a building nobody
    owns) at 3 is not. Seat 1 places in the castle and pays 2."""
    state = position(2)
    own(state, 9, "w_sawmill", 1)
    state = act(state, 0, "pass")
    assert GAME.to_act(state) == {1}
    give(state, 1, deniers=2)
    offers = GAME.legal_actions(state, 1)
    assert place("castle") in offers
    assert place("road:7") not in offers and place("trading_post") not in offers
    assert place("road:9") in offers  # one's own building: 1
    assert_refused(GAME, state, ev(1, "place_worker", target="road:7"), "not_enough_money")
    state = act(state, 1, "place_worker", target="castle")
    assert state["players"][1]["deniers"] == 0
    assert GAME.view(state, 1)["castle"]["workers"] == [1]


def test_two_players_other_buildings_still_cost_three_after_a_pass():
    """6.(1)C: 「另1位玩家須支付3元才能指派工人置非己方建築物上」 -- 3 for a building not one's
    own. With 7 deniers after seat 0 passed: the castle costs 2 (7 -> 5), a neutral building 3
    (5 -> 2), one's own building 1 (2 -> 1)."""
    state = position(2)
    own(state, 9, "w_sawmill", 1)
    state = act(state, 0, "pass")
    state = act(state, 1, "place_worker", target="castle")
    assert state["players"][1]["deniers"] == 5
    state = act(state, 1, "place_worker", target="road:1")
    assert state["players"][1]["deniers"] == 2
    state = act(state, 1, "place_worker", target="road:9")
    assert state["players"][1]["deniers"] == 1


def test_rules_version_1_two_players_the_castle_costs_three_after_a_pass():
    """Version 1 (digest G3): every bridge-cost placement, the castle too, costs 3 once the
    opponent passed, so 2 deniers do not buy the castle."""
    state = position(2, {"rules_version": 1})
    assert GAME.version(state) == 1
    state = act(state, 0, "pass")
    give(state, 1, deniers=2)
    assert place("castle") not in GAME.legal_actions(state, 1)
    assert_refused(GAME, state, ev(1, "place_worker", target="castle"), "not_enough_money")


# -- 2. favours: any column up to the marker ----------------------------------------------
def favour_position(**options):
    """Three players, every column open; seat 0 owes one favour in phase 2. Its prestige
    marker is in column 3 and its deniers marker in column 2, so a favour moves either to
    column 4 or 3."""
    state = position(3, options or None)
    state["columns_open"], state["sections_scored"] = 5, 2
    state["favour_markers"][0] = [3, 2, 0, 0]
    state["favours"] = [0]
    return state


def test_a_favour_in_the_prestige_row_pays_any_column_up_to_the_marker():
    """4.(1): 「若獲得國王的賞賜,可立即從「國王賞賜」區的四種獎賞列中任選一列,將自家顏色代表物往右移動1格,
    並領取符合條件(第1格至玩家代表物所在格間的任1格)的格內對應獎賞。」 -- on gaining a royal favour
    a player may at once choose any one of the four rows, move their marker one column right,
    and take the reward of any one column from column 1 to the column the marker is in.

    The prestige marker moves 3 -> 4: columns 1 to 4 are offered (1 to 4 PP), column 5 is
    not. Seat 0 takes column 2: +2 PP, the marker stays in column 4."""
    state = favour_position()
    assert GAME.to_act(state) == {0}
    offers = GAME.legal_actions(state, 0)
    assert [a["payload"]["column"] for a in offers if a["payload"]["row"] == "prestige"] == [1, 2, 3, 4]
    assert favour("prestige", 5) not in offers
    assert_refused(GAME, state, ev(0, "choose_favour", row="prestige", column=5), "column_not_reached")
    state = act(state, 0, "choose_favour", row="prestige", column=2)
    assert state["players"][0]["pp"] == 2
    assert GAME.view(state, 0)["favours"]["markers"][0] == [4, 2, 0, 0]


def test_a_favour_in_the_deniers_row_pays_any_column_up_to_the_marker():
    """4.(1) 「(第1格至玩家代表物所在格間的任1格)」 -- any column from 1 to the marker -- and
    4.(2)B 「獲得金錢收入:玩家可獲得3~7元收入(第1級~第5級)」 -- 3 to 7 deniers (columns 1 to 5).
    The deniers marker moves 2 -> 3: columns 1 to 3 are offered; seat 0 takes column 1,
    3 deniers (7 -> 10), and the marker stays in column 3."""
    state = favour_position()
    offers = GAME.legal_actions(state, 0)
    assert [a["payload"]["column"] for a in offers if a["payload"]["row"] == "deniers"] == [1, 2, 3]
    state = act(state, 0, "choose_favour", row="deniers", column=1)
    assert state["players"][0]["deniers"] == 7 + 3
    assert GAME.view(state, 0)["favours"]["markers"][0] == [3, 3, 0, 0]


def test_a_lower_prestige_column_during_a_scoring_with_locked_columns():
    """4.(3): 「第1~2級可立即取得,第3~4級須於主樓建城結算後才能取得」 -- columns 1-2 at once,
    columns 3-4 only after the Dungeon scoring. During the Dungeon scoring a prestige marker in
    column 1 moves to 2: columns 1 and 2 are offered, and column 1 pays 1 PP."""
    state = position(3)
    state["castle"] = [[0, 0], [], []]
    state["favour_markers"][0][0] = 1
    state["bailiff"] = state["provost"] = 11
    state = at_phase(state, "end")
    assert GAME.to_act(state) == {0}
    prestige = [a["payload"] for a in GAME.legal_actions(state, 0) if a["payload"]["row"] == "prestige"]
    assert prestige == [{"row": "prestige", "column": 1}, {"row": "prestige", "column": 2}]
    state = act(state, 0, "choose_favour", row="prestige", column=1)
    assert state["players"][0]["pp"] == 1 and state["favour_markers"][0][0] == 2


def test_rules_version_1_prestige_and_deniers_rows_pay_only_the_highest_column():
    """Version 1 (an engine simplification): the prestige and deniers rows pay only the
    highest usable column; a lower one is refused with ``column_not_reached``."""
    state = favour_position(rules_version=1)
    offers = GAME.legal_actions(state, 0)
    assert [a["payload"]["column"] for a in offers if a["payload"]["row"] == "prestige"] == [4]
    assert [a["payload"]["column"] for a in offers if a["payload"]["row"] == "deniers"] == [3]
    assert_refused(GAME, state, ev(0, "choose_favour", row="prestige", column=2), "column_not_reached")
    assert_refused(GAME, state, ev(0, "choose_favour", row="deniers", column=1), "column_not_reached")
