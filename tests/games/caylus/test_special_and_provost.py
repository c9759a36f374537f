"""Phase 3, the special buildings (§5.3), and phase 4, the provost (§5.4), with the
rulebook's Stables, Inn and provost examples (§16.2-4)."""

from projections.games.caylus import GAME
from tests.games.harness import assert_refused

from .helpers import act, asked, at_phase, own, position, worker


def test_trading_post_gives_three_deniers_and_returns_the_worker():
    state = position(3)
    state["special"]["trading_post"] = 1
    state["players"][1]["workers"] = 5
    before = state["players"][1]["deniers"]
    state = at_phase(state, "special")
    assert state["players"][1]["deniers"] == before + 3 and state["players"][1]["workers"] == 6


def test_rulebook_stables_example():
    # §16.2: order Red(0) Green(1) Orange(2) Blue(3); Blue on spot 1, Red on spot 2 -> Blue, Red, Green, Orange.
    state = position(4)
    state["special"]["stables"] = [3, 0]
    state = at_phase(state, "special")
    assert state["order"] == [3, 0, 1, 2]


def test_rulebook_inn_example_expels_the_right_worker():
    # §16.3: Blue(0) on the right spot, Green(1) enters left; in phase 3 Blue goes home, Green moves right.
    state = position(3)
    state["special"].update(inn_right=0, inn_left=1)
    state["players"][0]["workers"] = 5
    state["players"][1]["workers"] = 5
    state = at_phase(state, "special")
    assert state["special"]["inn_right"] == 1 and state["special"]["inn_left"] is None
    assert state["players"][0]["workers"] == 6 and state["players"][1]["workers"] == 5


def test_inn_resident_may_stay_or_leave_when_nobody_enters():
    state = position(3)
    state["special"]["inn_right"] = 2
    state["players"][2]["workers"] = 5
    state = at_phase(state, "special")
    assert asked(state) == (2, "inn")
    stayed = act(state, 2, "inn_keep", keep=True)
    assert stayed["special"]["inn_right"] == 2 and stayed["players"][2]["workers"] == 5
    left = act(state, 2, "inn_keep", keep=False)
    assert left["special"]["inn_right"] is None and left["players"][2]["workers"] == 6


def test_gate_moves_the_worker_for_free_and_the_owner_scores():
    # §5.3a: free move to any legal target; another player's building gives its owner 1 PP.
    state = position(3)
    own(state, 9, "w_sawmill", 2)
    state["special"]["gate"] = 0
    state["players"][0]["workers"] = 5
    state = at_phase(state, "special")
    assert asked(state) == (0, "gate")
    before = state["players"][0]["deniers"]
    state = act(state, 0, "gate_move", target="road:9")
    assert state["road"][8]["worker"] == 0 and state["players"][2]["pp"] == 1
    assert state["players"][0]["deniers"] == before


def test_gate_to_castle_takes_the_last_castle_spot():
    # G9: after all phase-2 castle placements, so it builds last.
    state = position(3)
    state["castle_workers"] = [1, 2]
    state["special"]["gate"] = 0
    state = at_phase(state, "special")
    state = act(state, 0, "gate_move", target="castle")
    assert state["castle_workers"] == [1, 2, 0]


def test_gate_to_trading_post_is_activated_later_in_the_phase():
    state = position(3)
    state["special"]["gate"] = 0
    state = at_phase(state, "special")
    before = state["players"][0]["deniers"]
    state = act(state, 0, "gate_move", target="trading_post")
    assert state["players"][0]["deniers"] == before + 3


def test_gate_refuses_where_the_player_already_is():
    state = position(3)
    state["castle_workers"] = [0]
    state["special"]["gate"] = 0
    state = at_phase(state, "special")
    assert_refused(GAME, state, {"type": "gate_move", "seat": 0, "payload": {"target": "castle"}}, "already_there")
    assert_refused(GAME, state, {"type": "gate_move", "seat": 0, "payload": {"target": "gate"}}, "space_occupied")
    state = act(state, 0, "gate_recall")
    assert state["special"]["gate"] is None and state["players"][0]["workers"] == 7


def test_merchants_guild_moves_the_provost_up_to_three_for_free():
    state = position(3)
    state["special"]["merchants_guild"] = 1
    state = at_phase(state, "special")
    assert_refused(GAME, state, {"type": "guild_move_provost", "seat": 1, "payload": {"delta": 4}}, "bad_delta")
    before = state["players"][1]["deniers"]
    state = act(state, 1, "guild_move_provost", delta=3)
    assert state["provost"] == 9 and state["players"][1]["deniers"] == before


def test_joust_field_costs_one_denier_and_one_cloth_for_a_favour():
    state = position(3)
    state["special"]["joust_field"] = 2
    state["players"][2]["cloth"] = 1
    state = at_phase(state, "special")
    before = state["players"][2]["deniers"]
    state = act(state, 2, "joust", pay=True)
    assert state["players"][2]["deniers"] == before - 1 and state["players"][2]["cloth"] == 0
    assert asked(state) == (2, "favour")


def test_joust_without_cloth_is_skipped():
    # §5.3d: the cloth must already be in hand.
    state = position(3)
    state["special"]["joust_field"] = 2
    state = at_phase(state, "special")
    assert state["phase"] == "provost"


def test_rulebook_provost_example():
    # §16.4: passing order Blue(0), Orange(2), Red(3), Green(1): 0, -2, +2, -1 -> one space behind.
    state = position(4)
    worker(state, 1, 0)  # a Farm worker holds the game in phase 5 so the provost can be read
    state = at_phase(state, "provost", passed=[0, 2, 3, 1])
    money = [p["deniers"] for p in state["players"]]
    for seat, delta in [(0, 0), (2, -2), (3, 2), (1, -1)]:
        assert asked(state)[0] == seat
        state = act(state, seat, "move_provost", delta=delta)
    assert state["provost"] == 5 and asked(state) == (0, "produce")
    assert [p["deniers"] for p in state["players"]] == [money[0], money[1] - 1, money[2] - 2, money[3] - 2]


def test_provost_refusals():
    state = position(3)
    state["provost"] = 27
    state = at_phase(state, "provost")
    assert_refused(GAME, state, {"type": "move_provost", "seat": 0, "payload": {"delta": 2}}, "provost_off_road")
    state["players"][0]["deniers"] = 1
    assert_refused(GAME, state, {"type": "move_provost", "seat": 0, "payload": {"delta": -2}}, "not_enough_money")
    assert {a["payload"]["delta"] for a in GAME.legal_actions(state, 0)} == {-1, 0, 1}


def test_a_player_without_money_is_not_asked_to_move_the_provost():
    state = position(3)
    state["players"][0]["deniers"] = 0
    state = at_phase(state, "provost")
    assert asked(state) == (1, "provost")
