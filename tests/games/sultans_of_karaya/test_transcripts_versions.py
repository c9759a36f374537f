"""Rules version 2: investigating any other living seat, as the seed's own text says.

The seed, section 2.遊戲進行, action (1)調查身分: 「玩家可任選其他任何1名玩家,秘密察看該玩家
的角色卡內容。玩家不能察看置於桌面中央的角色卡內容」 -- the player may choose *any other* player
and secretly look at that player's card; only the spare in the centre is out of reach. Rules
version 1 offered only face-down seats, so a face-up player whose rivals were all face up could
only hide.
"""

from __future__ import annotations

from projections.games.sultans_of_karaya import GAME, versions
from tests.games.harness import assert_refused

from .tables import act, event, rd, table

# Seat 0 holds the Belly Dancer, already dancing: her one ability is spent (check_dance), and
# every other seat is face up as well, so no swap partner is left but the spare.
CARDS = ["dancer", "guard", "assassin", "slaver", "slave"]


def all_face_up(**options) -> dict:
    state = table(CARDS, "sultan", first=0, **options)
    rd(state)["revealed"] = [True] * 5
    return state


def test_a_face_up_player_may_investigate_a_face_up_rival_and_stay_face_up():
    state = all_face_up()
    assert GAME.version(state) == GAME.rules_version >= versions.INVESTIGATE_ANY_SEAT
    offered = GAME.legal_actions(state, 0)
    # 調查身分: any other living seat, never the spare; and hiding (with the spare, or no swap)
    assert [a["payload"]["target"] for a in offered if a["type"] == "investigate"] == [1, 2, 3, 4]
    assert [a["payload"]["with"] for a in offered if a["type"] == "hide"] == ["spare", None]
    assert {a["type"] for a in offered} == {"investigate", "hide"}
    state = act(state, 0, "investigate", target=3)
    assert rd(state)["known"][0] == {}  # a face-up card is public: no private note about it
    assert rd(state)["revealed"] == [True] * 5  # the Dancer keeps dancing: nobody hid
    assert rd(state)["owner"] == 1 and GAME.to_act(state) == {1}
    assert [n["kind"] for n in state["notes"]][0] == "investigated"


def test_the_spare_and_oneself_stay_out_of_reach():
    state = all_face_up()
    assert_refused(GAME, state, event(0, "investigate", target=0), "invalid_target")
    assert_refused(GAME, state, event(0, "investigate", target="spare"), "invalid_target")


def test_rules_version_1_offers_only_hiding_once_every_rival_is_face_up():
    state = all_face_up(rules_version=1)
    assert GAME.version(state) == 1
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"hide"}
    assert_refused(GAME, state, event(0, "investigate", target=3), "target_revealed")
