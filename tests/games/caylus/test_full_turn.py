"""One whole turn for 3 players, every phase, worked out by hand from §5 (layout of helpers:
1 Farm, 2 Forest, 3 Sawmill, 4 Quarry, 5 Marketplace, 6 Carpenter; 7 Peddler, 8 Carpenter)."""

from .helpers import act, asked, position


def test_a_complete_first_turn_for_three_players():
    state = position(3)  # deniers 7, 8, 8 after income; 1 wood + 2 food each
    state = act(state, 0, "place_worker", target="road:1")  # bridge cost 1 -> 6
    state = act(state, 1, "place_worker", target="road:8")  # beyond the provost, still legal -> 7
    state = act(state, 2, "place_worker", target="trading_post")  # -> 7
    state = act(state, 0, "place_worker", target="castle")  # -> 5
    state = act(state, 1, "pass")  # first to pass: +1 -> 8
    state = act(state, 2, "place_worker", target="merchants_guild")  # cost now 2 -> 5
    state = act(state, 0, "pass")
    assert asked(state) == (2, "place")
    state = act(state, 2, "pass")
    # phase 3: Trading Post +3 (-> 8), then the Guild's worker decides
    assert asked(state) == (2, "guild") and state["players"][2]["deniers"] == 8
    state = act(state, 2, "guild_move_provost", delta=2)  # provost 6 -> 8, free
    # phase 4 in passing order: 1, 0, 2
    for seat in (1, 0, 2):
        assert asked(state) == (seat, "provost")
        state = act(state, seat, "move_provost", delta=0)
    # phase 5: the Farm (space 1) asks its worker; then the Carpenter (space 8, now reached)
    assert asked(state) == (0, "produce")
    state = act(state, 0, "produce", option=0)  # 1 food
    assert asked(state) == (1, "activate")
    state = act(state, 1, "build", building="w_sawmill")  # 1 wood + 1 food, 2 PP, lot 9
    # phase 6: seat 0 has food and wood only, so no batch: -2, floored at 0
    # phase 7: provost (8) ahead of the bailiff (6): bailiff +2 -> 8, provost onto it; turn 2 income +2
    assert state["turn"] == 2 and (state["bailiff"], state["provost"]) == (8, 8)
    assert state["road"][8] == {"building": "w_sawmill", "owner": 1, "worker": None, "convert_to": None}
    players = state["players"]
    assert [p["deniers"] for p in players] == [5 + 2, 8 + 2, 8 + 2]
    assert [p["pp"] for p in players] == [0, 2, 0]
    assert [(p["food"], p["wood"]) for p in players] == [(3, 1), (1, 0), (2, 1)]
    assert [p["workers"] for p in players] == [6, 6, 6]
    assert state["order"] == [0, 1, 2] and asked(state) == (0, "place") and state["passed"] == []
