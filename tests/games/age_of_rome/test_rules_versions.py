"""Rules version 2: the religious medal's exchange at any time, a standing interrupt.

The seed, 建築勳章 (the building medals), 宗教: 「於遊戲過程中,你能隨時將 3 第納里換成 1 點榮耀點數。」
-- during the game the holder may exchange 3 denarii for 1 glory *at any time* (隨時). Rules
version 1 allowed it only as a free action of the holder's own decision steps.
"""

from __future__ import annotations

from projections.games.age_of_rome import GAME
from tests.games.harness import assert_refused

from .helpers import act, at, board, ev

TAX = {"op": "tax", "seat": 0}
REACTION = {"op": "window", "seat": 1, "trigger": "on_targeted_by_plot", "filter": {}}


def medal_to_seat_1(**options) -> dict:
    """Fulvia (seat 0: 2 glory) and Antonius (seat 1: 1 glory, holds the religious medal, 7 denarii)."""
    state = board(2, "fulvia", "marcus_antonius", **options)
    state["medals"]["religious"] = 1
    state["players"][1]["denarii"] = 7
    return state


def test_the_medal_holder_exchanges_while_another_seat_is_awaited():
    """Seat 0 is taxing; seat 1, not awaited, may still exchange: 7 denarii pay for 1 or 2
    exchanges (3 each). Exchanging 2: 7 - 6 = 1 denarius, 1 + 2 = 3 glory (the first milestone
    is at 5). ``to_act`` stays seat 0, whose choices are untouched."""
    state = at(medal_to_seat_1(), TAX)
    assert GAME.version(state) >= 2  # the exchange at any time holds from version 2 on
    assert GAME.to_act(state) == {0}
    assert GAME.legal_actions(state, 1) == [
        {"type": "exchange", "payload": {"count": 1}},
        {"type": "exchange", "payload": {"count": 2}},
    ]
    before = GAME.legal_actions(state, 0)
    state = act(state, 1, "exchange", count=2)
    assert (state["players"][1]["denarii"], state["players"][1]["glory"]) == (1, 3)
    assert GAME.to_act(state) == {0} and state["queue"] == [TAX]
    assert GAME.legal_actions(state, 0) == before
    # 1 denarius left: nothing to offer, and the exchange is refused
    assert GAME.legal_actions(state, 1) == []
    assert_refused(GAME, state, ev(1, "exchange", count=1), "not_enough_denarii")


def test_the_medal_holder_exchanges_in_a_step_that_allows_no_free_action():
    """A reaction window to a plot allows no free action (selling is refused), yet 隨時 covers it:
    the holder exchanges once, 7 - 3 = 4 denarii, 1 + 1 = 2 glory, and the window still waits."""
    state = at(medal_to_seat_1(), REACTION)
    state["players"][1]["hand"] = ["T01"]
    assert_refused(GAME, state, ev(1, "sell_card", card="T01"), "wrong_action")
    assert {"type": "exchange", "payload": {"count": 1}} in GAME.legal_actions(state, 1)
    state = act(state, 1, "exchange", count=1)
    assert (state["players"][1]["denarii"], state["players"][1]["glory"]) == (4, 2)
    assert state["queue"] == [REACTION] and GAME.to_act(state) == {1}


def test_only_the_holder_and_only_a_seat_may_exchange_out_of_turn():
    state = at(medal_to_seat_1(), TAX)
    assert [a for a in GAME.legal_actions(state, 0) if a["type"] == "exchange"] == []
    assert_refused(GAME, state, ev(0, "exchange", count=1), "no_religious_medal")
    assert_refused(GAME, state, ev(None, "exchange", count=1), "not_your_turn")
    assert_refused(GAME, state, ev(1, "exchange", count=3), "not_enough_denarii")


def test_rules_version_1_exchanges_only_on_the_holders_own_steps():
    state = at(medal_to_seat_1(rules_version=1), TAX)
    assert GAME.version(state) == 1
    assert GAME.legal_actions(state, 1) == []
    assert_refused(GAME, state, ev(1, "exchange", count=1), "not_your_turn")
    reaction = at(medal_to_seat_1(rules_version=1), REACTION)
    assert_refused(GAME, reaction, ev(1, "exchange", count=1), "wrong_action")
    own = at(medal_to_seat_1(rules_version=1), {"op": "tax", "seat": 1})
    assert [a for a in GAME.legal_actions(own, 1) if a["type"] == "exchange"] == [
        {"type": "exchange", "payload": {"count": 1}},
        {"type": "exchange", "payload": {"count": 2}},
    ]
