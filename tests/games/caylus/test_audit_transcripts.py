"""Transcripts added by the review: rules the first suite did not show on their own.

Each expectation was worked out by hand from the digest (sections cited). The positions
come from ``helpers.position``: turn 1, phase 2, turn order 0..n-1, income paid, so with
3 players the deniers are 7 / 8 / 8, every seat holds 2 food + 1 wood, 0 PP, 6 workers;
neutral tiles 1 Farm, 2 Forest, 3 Sawmill, 4 Quarry, 5 Marketplace, 6 Carpenter.
"""

from projections.games.caylus import GAME
from tests.games.harness import assert_refused

from .helpers import act, asked, at_phase, give, own, position, worker


def ev(seat, kind, **payload):
    return {"type": kind, "seat": seat, "payload": payload}


def everyone_leaves_the_provost(state):
    """Phase 4 in passing order: nobody moves the provost (delta 0 = do nothing)."""
    while asked(state) and asked(state)[1] == "provost":
        state = act(state, asked(state)[0], "move_provost", delta=0)
    return state


def test_towers_filled_during_phase_six_finish_the_phase_then_score_and_end():
    # §14 item 4 (published, adopted by the digest) and §9. Dungeon and Walls already scored,
    # the Towers hold 13 of 14 houses (all seat 2's). Castle order: seat 0, then seat 1.
    state = position(3)
    state["sections_scored"], state["columns_open"] = 2, 5
    state["castle"] = [[0, 0, 0, 1, 1, 1], [0] * 5 + [1] * 5, [2] * 13]
    state["bailiff"] = state["provost"] = 15
    give(state, 0, stone=1)  # food 2, wood 1, stone 1: one batch
    give(state, 1, cloth=1, pp=5)  # food 2, wood 1, cloth 1: could give one batch too
    state["castle_workers"] = [0, 1]
    for seat in (0, 1):
        state["players"][seat]["workers"] -= 1
    state = at_phase(state, "castle")
    assert asked(state) == (0, "castle")
    state = act(state, 0, "give_batch", cubes=["wood", "stone"])
    # §5.6: the house lands in the last Towers place: +3 PP. The castle is now full, so seat 1
    # gives nothing, is not asked, keeps its cubes and takes no -2 penalty. Phase 6 still
    # ends with the best builder's favour (seat 0, 1 house).
    assert state["castle"][2] == [2] * 13 + [0] and state["players"][0]["pp"] == 3
    assert state["players"][1]["pp"] == 5 and state["players"][1]["cloth"] == 1
    assert asked(state) == (0, "favour") and state["phase"] == "castle"
    assert state["result"] is None  # the game does not end at once
    state = act(state, 0, "choose_favour", row="prestige", column=1)  # marker 0 -> 1: +1 PP
    # Phase 7: the provost is on the bailiff, so the bailiff moves 1 (15 -> 16), far from 24;
    # the full Towers are scored anyway (§5.7). Turn order 0, 1, 2: seat 0 one house (nothing),
    # seat 1 none (-4 PP: 5 -> 1), seat 2 thirteen (3 favours, resolved in distinct rows).
    assert state["bailiff"] == state["provost"] == 16 and state["sections_scored"] == 3
    assert state["players"][1]["pp"] == 1 and state["favours"] == [2, 2, 2]
    state = act(state, 2, "choose_favour", row="prestige", column=1)  # +1 PP
    state = act(state, 2, "choose_favour", row="deniers", column=1)  # +3 deniers
    state = act(state, 2, "choose_favour", row="resources", column=1)  # +1 food
    # §9 final conversion: 3 PP per gold, 1 per 3 other cubes, 1 per 4 deniers.
    # seat 0: 4 PP; food 1 -> 0; 7 deniers -> 1            = 5
    # seat 1: 1 PP; food 2 + wood 1 + cloth 1 = 4 -> 1; 8 -> 2 = 4
    # seat 2: 1 PP; food 3 + wood 1 = 4 -> 1; 11 deniers -> 2   = 4
    assert state["final"] == [
        {"before": 4, "gold": 0, "cubes": 0, "deniers": 1},
        {"before": 1, "gold": 0, "cubes": 1, "deniers": 2},
        {"before": 1, "gold": 0, "cubes": 1, "deniers": 2},
    ]
    assert state["result"] == {"scores": [5, 4, 4], "ranking": [1, 2, 2], "tiebreak": None}
    assert GAME.to_act(state) == set()


def test_favour_lawyer_in_phase_three_waits_for_the_targets_activation():
    # G4, second bullet: the Joust Field's favour, buildings row column 4 (the Lawyer; here the
    # published board's price, 1 cloth and no denier, by its option), aimed at the Forest (space 2)
    # where seat 1 has a worker: paid and scored at once, converted only after the Forest is
    # activated in phase 5.
    state = position(3, {"favour_lawyer_payment": "cloth"})
    state["sections_scored"], state["columns_open"] = 1, 4  # columns 3-4 open
    state["favour_markers"][0][3] = 3
    state["special"]["joust_field"] = 0
    state["players"][0]["workers"] -= 1
    give(state, 0, cloth=2)
    worker(state, 2, 1)
    state = at_phase(state, "special")
    state = act(state, 0, "joust", pay=True)  # 1 denier + 1 cloth: 7 -> 6
    state = act(state, 0, "choose_favour", row="buildings", column=4, space=2)
    p0 = state["players"][0]
    assert (p0["deniers"], p0["cloth"], p0["pp"], p0["houses"]) == (6, 0, 2, 1)
    assert state["favour_markers"][0][3] == 4
    assert state["road"][1] == {"building": "n_forest", "owner": None, "worker": 1, "convert_to": 0}
    state = everyone_leaves_the_provost(state)
    assert asked(state) == (1, "produce")  # the Forest still works for seat 1
    state = act(state, 1, "produce", option=0)  # 1 wood
    assert state["players"][1]["wood"] == 2
    assert state["road"][1] == {"building": "residence", "owner": 0, "worker": None, "convert_to": None}
    assert state["discarded"] == ["n_forest"]  # a neutral tile leaves the game
    # No castle worker: phase 6 and 7 pass; turn 2's income pays seat 0 2 + 1 for the residence.
    assert state["turn"] == 2 and state["players"][0]["deniers"] == 6 + 3
    assert state["players"][1]["deniers"] == 8 + 2


def test_an_inn_worker_entering_sends_home_the_same_players_resident():
    # §5.3f: a worker on the left spot moves right; the one there goes home, even the same player's.
    state = position(3)
    state["special"].update(inn_left=1, inn_right=1)
    state["players"][1]["workers"] = 4
    state = at_phase(state, "special")
    assert state["special"]["inn_right"] == 1 and state["special"]["inn_left"] is None
    assert state["players"][1]["workers"] == 5
    assert asked(state) == (0, "provost")  # no keep-or-leave question


def test_gate_to_the_stables_takes_the_next_spot_and_reorders_the_turn():
    # §5.3a: the Gate's worker may go to the Stables (later in phase 3), taking the next
    # spot there; §5.3e: spots first, the rest keep their order. 4 players, order 0 1 2 3.
    state = position(4)
    state["special"]["gate"] = 3
    state["special"]["stables"] = [1]
    state["players"][3]["workers"] = 5
    state["players"][1]["workers"] = 5
    state = at_phase(state, "special")
    before = state["players"][3]["deniers"]
    state = act(state, 3, "gate_move", target="stables")
    assert state["order"] == [1, 3, 0, 2] and state["special"]["stables"] == []
    assert state["players"][3]["deniers"] == before and state["players"][3]["workers"] == 6


def test_gate_to_the_inn_enters_the_left_spot_and_then_moves_right():
    # §5.3a + §5.3f: the Gate's worker enters the Inn's left spot; the Inn then moves it
    # right and sends the resident (seat 0) home.
    state = position(3)
    state["special"].update(gate=2, inn_right=0)
    state["players"][2]["workers"] = 5
    state["players"][0]["workers"] = 5
    state = at_phase(state, "special")
    state = act(state, 2, "gate_move", target="inn")
    assert state["special"]["inn_right"] == 2 and state["special"]["inn_left"] is None
    assert state["players"][0]["workers"] == 6 and state["players"][2]["workers"] == 5


def test_merchants_guild_zero_declines():
    # G7: a delta of 0 is the Guild's "decline"; the worker still goes home.
    state = position(3)
    state["special"]["merchants_guild"] = 1
    state["players"][1]["workers"] = 5
    state = at_phase(state, "special")
    assert {"type": "guild_move_provost", "payload": {"delta": 0}} in GAME.legal_actions(state, 1)
    state = act(state, 1, "guild_move_provost", delta=0)
    assert state["provost"] == 6 and state["players"][1]["workers"] == 6
    assert_refused(GAME, position(3), ev(0, "guild_move_provost", delta=0), "wrong_action")


def test_two_player_inn_resident_still_pays_one_after_the_opponent_passed():
    # §10: "the Inn is unchanged": 1 denier per placement, not the 3 of the 2-player rule.
    state = position(2)
    state["special"]["inn_right"] = 1
    state["players"][1]["workers"] = 5
    state = act(state, 0, "pass")  # first to pass: +1 denier
    assert state["players"][0]["deniers"] == 8
    state = act(state, 1, "place_worker", target="castle")
    state = act(state, 1, "place_worker", target="road:1")
    assert state["players"][1]["deniers"] == 7 - 2


def test_beginner_variant_has_no_cap_of_four_favours_per_phase():
    # §11 and G11: every favour is 3 PP and more than 4 in one phase all count. The bailiff
    # reaches 12 (Dungeon due) and the Walls and Towers are full: all three scored in phase 7.
    state = position(3, {"beginner_favours": True})
    state["castle"] = [[0, 0, 1, 1, 1, 1], [0] * 5 + [1] * 5, [0] * 2 + [1] * 12]
    state["bailiff"] = state["provost"] = 11
    state = at_phase(state, "end")
    # seat 0: Dungeon 2 (1), Walls 5 (3), Towers 2 (1) = 5 favours = 15 PP
    # seat 1: Dungeon 4 (1), Walls 5 (3), Towers 12 (3) = 7 favours = 21 PP
    # seat 2: no house anywhere: -2, -3, -4, floored at 0
    # final: 7 or 8 deniers -> 1 or 2 PP, food 2 + wood 1 -> 1 PP
    assert state["final"] == [
        {"before": 15, "gold": 0, "cubes": 1, "deniers": 1},
        {"before": 21, "gold": 0, "cubes": 1, "deniers": 2},
        {"before": 0, "gold": 0, "cubes": 1, "deniers": 2},
    ]
    assert state["result"]["scores"] == [17, 24, 3] and state["result"]["ranking"] == [2, 1, 3]
    assert state["favour_markers"] == [[0, 0, 0, 0]] * 3  # the table is not used


def test_bailiff_is_capped_at_the_last_road_space():
    # G10: 27 + 2 (provost ahead on 28) stops at 28; the Towers are due (28 >= 24): game over.
    state = position(3)
    state["sections_scored"], state["columns_open"] = 2, 5
    state["bailiff"], state["provost"] = 27, 28
    state = at_phase(state, "end")
    assert state["bailiff"] == state["provost"] == 28
    assert state["result"] is not None and [p["pp"] for p in state["players"]] == [2, 3, 3]


def test_a_favour_column_that_cannot_be_carried_out_is_not_offered():
    # G8: with no cube at all, the buildings row's Carpenter column (marker on 2) cannot be
    # built: only column 1 ("nothing") of that row is offered, and column 2 is refused.
    state = position(3)
    state["favour_markers"][0][3] = 1
    give(state, 0, food=0, wood=0)
    state["favours"] = [0]
    offers = [a["payload"] for a in GAME.legal_actions(state, 0) if a["payload"]["row"] == "buildings"]
    assert offers == [{"row": "buildings", "column": 1}]
    assert_refused(
        GAME, state, ev(0, "choose_favour", row="buildings", column=2, building="w_sawmill"), "not_enough_resources"
    )
    state = act(state, 0, "choose_favour", row="buildings", column=1)
    assert state["favour_markers"][0][3] == 2 and asked(state) == (0, "place")


# -- the seed's readings where the digest adopted the published rule (§14): the defaults ---------
def test_by_default_the_favour_lawyer_pays_a_denier_as_the_seed_says():
    # §14 item 2: the seed (the authority, so the default) says the favour's Lawyer column costs
    # "1 cloth less (only 1 denier)"; the published board, an option, crosses out the coin instead.
    # Seat 0: 7 deniers, no cloth.
    state = position(3)
    state["columns_open"] = 4
    state["favour_markers"][0][3] = 3
    state["favours"] = [0]
    assert {"row": "buildings", "column": 4, "space": 1} in [a["payload"] for a in GAME.legal_actions(state, 0)]
    state = act(state, 0, "choose_favour", row="buildings", column=4, space=1)
    p0 = state["players"][0]
    assert (p0["deniers"], p0["cloth"], p0["pp"]) == (6, 0, 2)
    assert state["road"][0] == {"building": "residence", "owner": 0, "worker": None, "convert_to": None}
    # the published option: 1 cloth and no denier, so without cloth column 4 is not offered
    state = position(3, {"favour_lawyer_payment": "cloth"})
    state["columns_open"] = 4
    state["favour_markers"][0][3] = 3
    state["favours"] = [0]
    assert [
        a
        for a in GAME.legal_actions(state, 0)
        if a["payload"].get("column") == 4 and a["payload"]["row"] == "buildings"
    ] == []
    assert_refused(GAME, state, ev(0, "choose_favour", row="buildings", column=4, space=1), "not_enough_resources")


def test_by_default_markers_enter_locked_columns_but_pay_only_open_ones_as_the_seed_says():
    # §14 item 3: in the seed (the default) the marker always moves right (up to column 5) and a
    # reward whose column is still locked "cannot yet be taken": any open column up to the marker
    # is used. Columns 1-2 open (nothing scored yet).
    state = position(3)
    state["favour_markers"][0] = [2, 0, 2, 0]
    state["favours"] = [0, 0]
    assert_refused(GAME, state, ev(0, "choose_favour", row="resources", column=3), "column_not_reached")
    state = act(state, 0, "choose_favour", row="resources", column=2, gain=["stone"])
    assert state["favour_markers"][0][2] == 3 and state["players"][0]["stone"] == 1
    state = act(state, 0, "choose_favour", row="prestige", column=2)  # marker 3, column 2 pays 2
    assert state["favour_markers"][0][0] == 3 and state["players"][0]["pp"] == 2
    # once the Dungeon is scored, the marker already on 3 moves to 4 and column 4 pays
    state["columns_open"] = 4
    state["favours"] = [0]
    state["favour_rows_used"][0] = []
    state = act(state, 0, "choose_favour", row="prestige", column=4)
    assert state["favour_markers"][0][0] == 4 and state["players"][0]["pp"] == 2 + 4
    # the published option: the marker stops at the last open column
    state = position(3, {"locked_favour_columns": "blocked"})
    state["favour_markers"][0] = [2, 0, 2, 0]
    state["favours"] = [0]
    state = act(state, 0, "choose_favour", row="prestige", column=2)
    assert state["favour_markers"][0][0] == 2


# -- openings for the player counts the 3- and 4-player transcripts do not show -----------------
def test_five_player_opening_bridge_costs_run_to_five():
    # §5.2: the bridge cost is 1 + the number of players who passed, so 1..5 with 5 players.
    # Deniers after turn-1 income: 7, 8, 8, 9, 9 (§4.5 + §5.1).
    state = position(5)
    state = act(state, 0, "pass")  # first to pass: +1 -> 8
    state = act(state, 1, "place_worker", target="gate")  # cost 2 -> 6
    state = act(state, 2, "pass")
    state = act(state, 3, "place_worker", target="road:1")  # cost 3 -> 6
    state = act(state, 4, "pass")
    state = act(state, 1, "pass")
    state = act(state, 3, "place_worker", target="castle")  # four have passed: cost 5 -> 1
    assert [p["deniers"] for p in state["players"]] == [8, 6, 8, 1, 9]
    assert GAME.legal_actions(state, 3) == [{"type": "pass", "payload": {}}]  # 1 denier, cost 5
    state = act(state, 3, "pass")
    assert state["passed"] == [0, 2, 4, 1, 3]
    assert asked(state) == (1, "gate")  # phase 3 begins with the Gate
    state = act(state, 1, "gate_recall")
    assert asked(state) == (0, "provost")  # phase 4 in passing order


def test_two_player_complete_first_turn():
    # §10 with §5: both start with 5 (+2 income = 7); placements cost 1 until one player passes,
    # then 3; the first to pass takes 1 denier; order swaps at the start of turn 2.
    state = position(2)
    state = act(state, 0, "place_worker", target="road:1")  # Farm, 1 -> 6
    state = act(state, 1, "place_worker", target="castle")  # 1 -> 6
    state = act(state, 0, "pass")  # +1 -> 7
    state = act(state, 1, "place_worker", target="road:2")  # Forest, 3 -> 3
    state = act(state, 1, "place_worker", target="road:3")  # Sawmill, 3 -> 0
    assert GAME.legal_actions(state, 1) == [{"type": "pass", "payload": {}}]
    state = act(state, 1, "pass")
    # phase 3: nobody there. Phase 4: seat 0 decides, seat 1 has no denier and is skipped.
    assert asked(state) == (0, "provost")
    state = act(state, 0, "move_provost", delta=0)
    # phase 5, spaces 1..6: the Farm asks seat 0, the Forest seat 1, the Sawmill gives 1 wood.
    state = act(state, 0, "produce", option=0)  # 1 food
    state = act(state, 1, "produce", option=0)  # 1 wood
    # phase 6: seat 1 holds food and wood only, so no batch: -2 PP, floored at 0.
    # phase 7: provost on the bailiff: bailiff 6 -> 7, provost onto it. Turn 2: order 1, 0; +2 each.
    assert state["turn"] == 2 and state["order"] == [1, 0] and asked(state) == (1, "place")
    assert (state["bailiff"], state["provost"]) == (7, 7)
    players = state["players"]
    assert [(p["deniers"], p["food"], p["wood"], p["pp"], p["workers"]) for p in players] == [
        (7 + 2, 3, 1, 0, 6),
        (0 + 2, 2, 3, 0, 6),
    ]


def test_a_pending_residence_takes_no_prestige_building():
    # G4, last bullet. Seat 0 stands on the Lawyer (9) and an Architect (10); seat 2 on seat 0's
    # Sawmill (11). Seat 0 owns a residence on 13. Provost on 13.
    state = position(3)
    own(state, 9, "w_lawyer", 1)
    own(state, 10, "s_architect_1", 1)
    own(state, 11, "w_sawmill", 0)
    own(state, 13, "residence", 0)
    state["provost"] = 13
    give(state, 0, cloth=1, stone=2, gold=1)
    worker(state, 9, 0)
    worker(state, 10, 0)
    worker(state, 11, 2)
    state = at_phase(state, "road")
    state = act(state, 0, "convert", space=11)  # 1 cloth + 1 denier: 7 -> 6, +2 PP
    assert state["road"][10]["convert_to"] == 0 and state["players"][0]["pp"] == 2
    # the Architect: only the finished residence (13) can take the Statue, not the pending one (11)
    assert asked(state) == (0, "activate")
    assert [a["payload"] for a in GAME.legal_actions(state, 0) if a["type"] == "build_prestige"] == [
        {"space": 13, "building": "p_statue"}
    ]
    assert_refused(GAME, state, ev(0, "build_prestige", space=11, building="p_statue"), "not_your_residence")
    state = act(state, 0, "decline")
    # the Sawmill gives seat 2 its 2 wood, then becomes seat 0's residence; the tile returns to the supply
    assert state["players"][2]["wood"] == 3 and "w_sawmill" in state["supply"]
    assert state["road"][10] == {"building": "residence", "owner": 0, "worker": None, "convert_to": None}
    # turn 2 income for seat 0: 2 + 2 residences
    assert state["turn"] == 2 and state["players"][0]["deniers"] == 6 + 4
