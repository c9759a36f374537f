"""Setup (§4), income (§5.1) and placing workers (§5.2), with the rulebook's passing example (§16.1)."""

from projections.games.caylus import GAME
from tests.games.harness import assert_refused, load_options, start

from .helpers import act, asked, own, position


def test_setup_gives_deniers_by_turn_position_plus_first_income():
    # §4.5: 5, 6, 6, 7, 7 by turn-order position; §5.1: 2 deniers income on turn 1 too.
    state, _, _ = start(GAME, 5, "setup")
    for position_index, seat in enumerate(state["order"]):
        assert state["players"][seat]["deniers"] == [5, 6, 6, 7, 7][position_index] + 2


def test_two_players_both_start_with_five_deniers():
    # §10: with 2 players both take 5 (then the turn-1 income of 2).
    state, _, _ = start(GAME, 2, "two")
    assert [p["deniers"] for p in state["players"]] == [7, 7]


def test_setup_cubes_road_and_markers():
    # §4.6 1 wood + 2 food; §4.2 six neutral tiles on 1..6; §3.1 fixed Peddler 7, Carpenter 8, Gold Mine 16;
    # §4.7 bailiff and provost on space 6; 6 workers; 19 empty lots.
    state, _, _ = start(GAME, 3, "layout")
    assert all((p["wood"], p["food"], p["workers"]) == (1, 2, 6) for p in state["players"])
    assert sorted(sp["building"] for sp in state["road"][:6]) == sorted(
        ["n_farm", "n_forest", "n_sawmill", "n_quarry", "n_marketplace", "n_carpenter"]
    )
    assert [state["road"][n - 1]["building"] for n in (7, 8, 16)] == ["f_peddler", "f_carpenter", "f_gold_mine"]
    assert sum(1 for sp in state["road"] if sp["building"] is None) == 19
    assert state["bailiff"] == state["provost"] == 6
    assert len(state["supply"]) == 8 + 9 + 9  # wood, stone (2 Architects, no Jeweller), prestige


def test_jeweller_option_adds_the_tile():
    state, _, _ = start(GAME, 3, "j", {"include_jeweller": True})
    assert "s_jeweller" in state["supply"] and len(state["supply"]) == 27


def test_setup_is_a_function_of_the_seed():
    a, _, _ = start(GAME, 4, "same")
    b, _, _ = start(GAME, 4, "same")
    assert a == b


def test_rulebook_passing_example_costs_and_owner_prestige():
    # §16.1: Blue(0) Green(1) Orange(2) Red(3). Green owns the Mason, Red a wood Farm.
    state = position(4)
    own(state, 9, "w_mason", 1)
    own(state, 10, "w_farm_food", 3)
    deniers = [p["deniers"] for p in state["players"]]
    state = act(state, 0, "pass")  # Blue passes first: +1 denier
    assert state["players"][0]["deniers"] == deniers[0] + 1
    state = act(state, 1, "place_worker", target="road:7")  # Green on the fixed Peddler: 2
    assert state["players"][1]["deniers"] == deniers[1] - 2
    state = act(state, 2, "pass")  # Orange passes: bridge space 2
    state = act(state, 3, "place_worker", target="road:9")  # Red on Green's Mason: 3, Green +1 PP
    assert state["players"][3]["deniers"] == deniers[3] - 3 and state["players"][1]["pp"] == 1
    assert asked(state) == (1, "place")  # Blue has passed: skipped
    state = act(state, 1, "pass")
    assert state["players"][1]["deniers"] == deniers[1] - 2  # no bonus for a later pass
    state = act(state, 3, "place_worker", target="road:10")  # Red on his own Farm: 1
    assert state["players"][3]["deniers"] == deniers[3] - 4
    state = act(state, 3, "place_worker", target="castle")  # three have passed: 4
    assert state["players"][3]["deniers"] == deniers[3] - 8
    assert state["passed"] == [0, 2, 1] and state["castle_workers"] == [3]
    assert state["players"][3]["workers"] == 3


def test_inn_right_occupant_pays_one_for_every_placement():
    # §5.2: 1 denier for any target while on the Inn's right spot.
    state = position(3)
    state["special"]["inn_right"] = 0
    state["players"][0]["workers"] = 5
    state["passed"] = [1, 2]
    before = state["players"][0]["deniers"]
    state = act(state, 0, "place_worker", target="castle")
    assert state["players"][0]["deniers"] == before - 1


def test_own_building_gives_no_prestige():
    state = position(3)
    own(state, 9, "w_sawmill", 0)
    state = act(state, 0, "place_worker", target="road:9")
    assert state["players"][0]["pp"] == 0 and state["players"][0]["deniers"] == 7 - 1


def test_stables_take_the_lowest_free_spot_and_inn_the_left_spot():
    state = position(3)
    state = act(state, 0, "place_worker", target="stables")
    state = act(state, 1, "place_worker", target="stables")
    state = act(state, 2, "place_worker", target="inn")
    assert state["special"]["stables"] == [0, 1] and state["special"]["inn_left"] == 2


def test_rules_version_1_two_player_placement_costs_three_after_the_opponent_passed():
    # §10 and G3, as rules version 1 reads them: 1 before any pass, 3 for every bridge-cost
    # placement after (the castle too), 1 on one's own building. Version 2 keeps the bridge
    # number for the castle (test_rules_versions).
    state = position(2, {"rules_version": 1})
    own(state, 9, "w_sawmill", 1)
    state = act(state, 0, "pass")
    before = state["players"][1]["deniers"]
    state = act(state, 1, "place_worker", target="castle")
    assert state["players"][1]["deniers"] == before - 3
    state = act(state, 1, "place_worker", target="road:9")
    assert state["players"][1]["deniers"] == before - 4


def test_two_players_cannot_use_the_stables():
    state = position(2)
    assert {"type": "place_worker", "payload": {"target": "stables"}} not in GAME.legal_actions(state, 0)
    assert_refused(
        GAME, state, {"type": "place_worker", "seat": 0, "payload": {"target": "stables"}}, "stables_unusable"
    )


def test_two_player_turn_order_alternates():
    # §10: the two players swap at the start of every turn after the first.
    state = position(2)
    state = act(state, 0, "pass")
    state = act(state, 1, "pass")
    while state["turn"] == 1:
        seat, _ = asked(state)
        state = act(
            state, seat, GAME.legal_actions(state, seat)[0]["type"], **GAME.legal_actions(state, seat)[0]["payload"]
        )
    assert state["order"] == [1, 0]


def test_placement_refusals():
    state = position(4)
    own(state, 9, "w_mason", 1)
    state["road"][8]["worker"] = 2
    for target, code in [("road:9", "space_occupied"), ("road:12", "empty_lot"), ("road:99", "unknown_target")]:
        assert_refused(GAME, state, {"type": "place_worker", "seat": 0, "payload": {"target": target}}, code)
    state["castle_workers"] = [0]
    assert_refused(GAME, state, {"type": "place_worker", "seat": 0, "payload": {"target": "castle"}}, "already_there")
    state["road"][9].update(building="residence", owner=1)
    assert_refused(GAME, state, {"type": "place_worker", "seat": 0, "payload": {"target": "road:10"}}, "not_placeable")
    assert_refused(GAME, state, {"type": "place_worker", "seat": 1, "payload": {"target": "gate"}}, "not_your_turn")
    assert_refused(GAME, state, {"type": "move_provost", "seat": 0, "payload": {"delta": 1}}, "wrong_action")
    assert_refused(GAME, state, {"type": "fly", "seat": 0, "payload": {}}, "unknown_action")
    state["players"][0]["deniers"] = 0
    assert_refused(GAME, state, {"type": "place_worker", "seat": 0, "payload": {"target": "gate"}}, "not_enough_money")
    assert GAME.legal_actions(state, 0) == [{"type": "pass", "payload": {}}]
    state["players"][0].update(deniers=9, workers=0)
    assert_refused(GAME, state, {"type": "place_worker", "seat": 0, "payload": {"target": "gate"}}, "no_worker_left")


def test_stables_refusals():
    state = position(5)
    state["special"]["stables"] = [1, 2, 3]
    assert_refused(GAME, state, {"type": "place_worker", "seat": 0, "payload": {"target": "stables"}}, "space_occupied")
    state["special"]["stables"] = [0]
    assert_refused(GAME, state, {"type": "place_worker", "seat": 0, "payload": {"target": "stables"}}, "already_there")


def test_options_default_to_the_first_edition_and_the_seeds_readings():
    # the seed is the authority: its explicit readings (§14 items 1-3) are the defaults, the
    # published rules are options
    assert load_options(GAME, {}) == {
        "include_jeweller": False,
        "lawyer_prestige": 4,
        "church_payment": "cloth",
        "beginner_favours": False,
        "house_limit": None,
        "favour_lawyer_payment": "deniers",
        "locked_favour_columns": "enter",
    }
    published = {"church_payment": "deniers", "favour_lawyer_payment": "cloth", "locked_favour_columns": "blocked"}
    assert load_options(GAME, published) == {**load_options(GAME, {}), **published}
