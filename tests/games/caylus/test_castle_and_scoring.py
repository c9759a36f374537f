"""Phase 6, the castle (§5.6), phase 7 and section scoring (§5.7, §6), favours (§7) and the
end of the game (§9), with the rulebook's examples §16.5-9."""

from projections.games.caylus import GAME
from tests.games.harness import assert_refused

from .helpers import act, asked, at_phase, give, own, position, worker


def castle(state, workers):
    state["castle_workers"] = list(workers)
    for seat in workers:
        state["players"][seat]["workers"] -= 1
    return at_phase(state, "castle")


def test_rulebook_castle_overflow_and_best_builder():
    # §16.5: Red(0) 1 batch in the Dungeon: +5. Green(1) 2 batches with 1 Dungeon place left: +5 +4; Green's favour.
    state = position(4)
    state["castle"][0] = [2, 2, 3, 3]
    give(state, 0, wood=1, stone=1)
    give(state, 1, food=2, wood=2, stone=1, cloth=1)
    state = castle(state, [0, 1])
    state = act(state, 0, "give_batch", cubes=["wood", "stone"])
    assert state["players"][0]["pp"] == 5 and state["players"][0]["food"] == 1
    assert asked(state) == (1, "castle")  # Red can give no more: his castle turn ends by itself
    state = act(state, 1, "give_batch", cubes=["wood", "stone"])
    state = act(state, 1, "give_batch", cubes=["wood", "cloth"])
    assert state["castle"][0] == [2, 2, 3, 3, 0, 1] and state["castle"][1] == [1]
    assert state["players"][1]["pp"] == 9
    assert asked(state) == (1, "favour")


def test_best_builder_tie_goes_to_the_earlier_castle_spot():
    # §16.5, second half: had Green given 1 batch, Red (castle spot 1) would take the favour.
    state = position(4)
    give(state, 0, wood=1, stone=1)
    give(state, 1, wood=1, stone=1)
    state = castle(state, [0, 1])
    state = act(state, 0, "give_batch", cubes=["wood", "stone"])
    state = act(state, 1, "give_batch", cubes=["wood", "stone"])
    assert asked(state) == (0, "favour")


def test_no_batch_costs_two_prestige_floored_at_zero():
    state = position(3)
    give(state, 0, pp=1, wood=1, stone=1)
    state["players"][1]["pp"] = 5
    state = castle(state, [0, 1])
    state = act(state, 0, "castle_done")  # by choice
    assert state["players"][0]["pp"] == 0
    assert state["players"][1]["pp"] == 3  # by inability (only food and wood): automatic


def test_no_penalty_when_the_castle_is_full():
    state = position(3)
    state["castle"] = [[0] * 6, [0] * 10, [0] * 14]
    state["players"][0]["pp"] = 5
    give(state, 0, wood=1, stone=1)
    state = castle(state, [0])
    assert state["players"][0]["pp"] == 5 and state["players"][0]["food"] == 2
    assert state["phase"] == "end" and asked(state) == (0, "favour")  # the Dungeon is scored next


def test_batch_refusals():
    state = position(3)
    give(state, 0, wood=1, stone=1)
    state = castle(state, [0])
    for cubes in (["wood", "wood"], ["food", "wood"], ["wood"]):
        assert_refused(GAME, state, {"type": "give_batch", "seat": 0, "payload": {"cubes": cubes}}, "bad_batch")
    assert_refused(
        GAME, state, {"type": "give_batch", "seat": 0, "payload": {"cubes": ["gold", "stone"]}}, "not_enough_resources"
    )
    state["castle"] = [[1] * 6, [1] * 10, [1] * 14]  # not reachable in play: a full castle asks nobody
    assert_refused(
        GAME, state, {"type": "give_batch", "seat": 0, "payload": {"cubes": ["wood", "stone"]}}, "castle_full"
    )


def test_bailiff_moves_two_when_the_provost_is_ahead_else_one():
    # §5.7: then the provost is put on the bailiff's space.
    state = position(3)
    state["provost"] = 9
    state = at_phase(state, "end")
    assert (state["bailiff"], state["provost"], state["turn"]) == (8, 8, 2)
    state = position(3)
    state["provost"] = 4
    state = at_phase(state, "end")
    assert (state["bailiff"], state["provost"]) == (7, 7)


def dungeon_scoring_position():
    # §16.6: order Red(0) Blue(1) Orange(2) Green(3); Dungeon houses 2, 3, 0, 1; Green also has a Walls house.
    state = position(4)
    state["castle"] = [[0, 0, 1, 1, 1, 3], [3], []]
    state["players"][2]["pp"] = 1
    state["bailiff"] = state["provost"] = 11
    return at_phase(state, "end")


def test_rulebook_dungeon_scoring():
    state = dungeon_scoring_position()
    assert state["sections_scored"] == 1 and state["bailiff"] == 12
    assert state["players"][2]["pp"] == 0  # -2, floored at 0
    assert state["favours"] == [0, 1]  # Red then Blue, in turn order; Green nothing
    state = act(state, 0, "choose_favour", row="prestige", column=1)
    state = act(state, 1, "choose_favour", row="deniers", column=1)
    assert state["columns_open"] == 4 and state["turn"] == 2


def test_rulebook_favour_during_the_dungeon_scoring_stays_in_column_two():
    # §16.7 (a published example, so the published option): Orange's prestige marker is in
    # column 2; column 3 opens only after the scoring: 2 PP, and the marker stays in column 2.
    state = position(4, {"locked_favour_columns": "blocked"})
    state["castle"] = [[2, 2], [], []]
    state["favour_markers"][2][0] = 2
    state["bailiff"] = state["provost"] = 11
    state = at_phase(state, "end")
    assert asked(state) == (2, "favour")
    assert_refused(
        GAME,
        state,
        {"type": "choose_favour", "seat": 2, "payload": {"row": "prestige", "column": 3}},
        "column_not_reached",
    )
    state = act(state, 2, "choose_favour", row="prestige", column=2)
    assert state["players"][2]["pp"] == 2 and state["favour_markers"][2][0] == 2


def test_by_default_the_dungeon_favour_marker_enters_locked_column_three_but_pays_column_two():
    # §16.7's position under the seed's reading (§14 item 3, the default): the marker moves on
    # into column 3, still locked during the Dungeon scoring, so its reward cannot yet be taken
    # and column 2 pays 2 PP. Once columns 3-4 are open, the next prestige favour moves the
    # marker 3 -> 4 and pays column 4: 4 PP, 2 + 4 = 6 in all.
    state = position(4)
    state["castle"] = [[2, 2], [], []]
    state["favour_markers"][2][0] = 2
    state["bailiff"] = state["provost"] = 11
    state = at_phase(state, "end")
    assert asked(state) == (2, "favour")
    assert_refused(
        GAME,
        state,
        {"type": "choose_favour", "seat": 2, "payload": {"row": "prestige", "column": 3}},
        "column_not_reached",
    )
    state = act(state, 2, "choose_favour", row="prestige", column=2)
    assert state["players"][2]["pp"] == 2 and state["favour_markers"][2][0] == 3
    assert state["columns_open"] == 4 and state["turn"] == 2
    state["favours"] = [2]
    state = act(state, 2, "choose_favour", row="prestige", column=4)
    assert state["players"][2]["pp"] == 6 and state["favour_markers"][2][0] == 4


def test_rulebook_favour_mason_column_during_the_walls():
    # §16.8: Joust favour, row 4 from column 2 to 3 (Mason): the Park for 1 food, first free lot, 3 PP.
    state = position(3)
    state["columns_open"], state["sections_scored"] = 4, 1
    state["favour_markers"][1][3] = 2
    own(state, 9, "w_sawmill", 0)
    state["special"]["joust_field"] = 1
    give(state, 1, cloth=1, stone=0)
    state = at_phase(state, "special")
    state = act(state, 1, "joust", pay=True)
    state = act(state, 1, "choose_favour", row="buildings", column=3, building="s_park")
    assert state["road"][9] == {"building": "s_park", "owner": 1, "worker": None, "convert_to": None}
    assert state["players"][1]["pp"] == 3 and state["players"][1]["food"] == 1
    assert state["favour_markers"][1][3] == 3


def test_rulebook_favour_lower_column_during_the_towers():
    # §16.9: Blue builds the Church, row 3 from column 2 to 3, and takes column 1: 1 food.
    state = position(3)
    state["columns_open"], state["sections_scored"] = 5, 2
    state["favour_markers"][0][2] = 2
    own(state, 9, "w_mason", 1)
    give(state, 0, stone=1, cloth=1)
    worker(state, 9, 0)
    state["provost"] = 9
    state["castle_workers"] = [2]
    give(state, 2, wood=1, stone=1)
    state = at_phase(state, "road")
    state = act(state, 0, "build", building="s_church")
    state = act(state, 0, "choose_favour", row="resources", column=1)
    assert state["players"][0]["food"] == 2 + 1 - 0 and state["favour_markers"][0][2] == 3


def test_favour_rows_must_differ_within_a_phase():
    # §7: two favours in one phase go to different rows.
    state = position(3)
    own(state, 9, "w_mason", 1)
    give(state, 0, stone=1, cloth=1)
    worker(state, 9, 0)
    state["provost"] = 9
    state["favours"] = []
    state = at_phase(state, "road")
    state = act(state, 0, "build", building="s_church")
    state["favours"] = [0, 0]  # as if the build had earned two
    state = act(state, 0, "choose_favour", row="prestige", column=1)
    assert_refused(
        GAME,
        state,
        {"type": "choose_favour", "seat": 0, "payload": {"row": "prestige", "column": 1}},
        "row_used_this_phase",
    )
    assert all(a["payload"]["row"] != "prestige" for a in GAME.legal_actions(state, 0))


def test_favour_resources_exchange_and_lawyer_and_architect_columns():
    # the favour Lawyer at the published board's price (its option): 1 cloth, no denier
    state = position(3, {"favour_lawyer_payment": "cloth"})
    state["columns_open"] = 5
    state["favour_markers"][0] = [0, 0, 3, 4]
    own(state, 9, "residence", 0)
    give(state, 0, gold=1, stone=2, cloth=1)
    state["favours"] = [0, 0, 0]
    state = act(state, 0, "choose_favour", row="resources", column=4, pay=["gold"], gain=["wood", "wood"])
    assert state["players"][0]["gold"] == 0 and state["players"][0]["wood"] == 3
    assert_refused(
        GAME,
        state,
        {
            "type": "choose_favour",
            "seat": 0,
            "payload": {"row": "buildings", "column": 5, "space": 9, "building": "p_statue"},
        },
        "not_enough_resources",
    )
    state = act(state, 0, "choose_favour", row="buildings", column=4, space=1)  # favour Lawyer: 1 cloth only
    assert state["road"][0]["building"] == "residence" and state["players"][0]["deniers"] == 7
    assert state["players"][0]["cloth"] == 0 and state["players"][0]["pp"] == 2
    state = act(state, 0, "choose_favour", row="prestige", column=1)
    assert state["favours"] == [] and state["players"][0]["pp"] == 3


def test_a_fifth_favour_in_one_phase_is_lost():
    state = position(3)
    state["favours"] = [0] * 5
    for row in ("prestige", "deniers", "resources", "buildings"):
        state = act(state, 0, "choose_favour", row=row, column=1)
    assert state["favours"] == [] and asked(state) == (0, "place")


def test_beginner_variant_every_favour_is_three_prestige():
    # §11: no table; 3 PP each, no cap per phase.
    state = position(3, {"beginner_favours": True})
    state["castle"] = [[0, 0], [], []]
    state["bailiff"] = state["provost"] = 11
    state = at_phase(state, "end")
    assert state["players"][0]["pp"] == 3 and state["favours"] == [] and state["turn"] == 2


def test_full_sections_score_in_one_turn_and_the_game_ends_after_the_towers():
    # G2 and §9: Dungeon due (bailiff 12), Walls and Towers full: all three scored in order, then the end.
    state = position(3)
    state["castle"] = [[0, 0, 1, 1, 1, 1], [0] * 5 + [1] * 5, [0] * 2 + [1] * 12]
    state["favour_markers"][0][1] = 2
    state["bailiff"] = state["provost"] = 11
    state = at_phase(state, "end")
    assert state["favours"] == [0, 1]  # Dungeon: 2 and 4 houses
    state = act(state, 0, "choose_favour", row="prestige", column=1)
    state = act(state, 1, "choose_favour", row="prestige", column=1)
    assert state["favours"] == [0, 0, 0, 1, 1, 1]  # Walls: 5 houses each
    assert state["players"][2]["pp"] == 0  # -2 and -3 from nothing, floored
    state = act(state, 0, "choose_favour", row="deniers", column=3)  # columns 3-4 open after the Dungeon
    assert_refused(
        GAME,
        state,
        {"type": "choose_favour", "seat": 0, "payload": {"row": "deniers", "column": 3}},
        "row_used_this_phase",
    )
    for row in ("resources", "buildings"):
        state = act(state, 0, "choose_favour", row=row, column=1)
    for row in ("deniers", "resources", "buildings"):
        state = act(state, 1, "choose_favour", row=row, column=1)
    # Towers: seat 0 has 2 houses (1 favour, but all four rows are used: lost), seat 1 has 12 (3 favours, lost)
    assert state["result"] is not None and state["sections_scored"] == 3


def test_final_conversion_and_shared_win():
    # §9: 3 PP per gold, 1 per 3 other cubes, 1 per 4 deniers; ties for first share the win.
    from projections.games.caylus.scoring import finish_game

    state = position(3)
    for seat in range(3):
        state["players"][seat].update(food=0, wood=0, stone=0, cloth=0, gold=0, deniers=0, pp=10)
    state["players"][0].update(gold=2, food=2, wood=3, cloth=1, deniers=7)  # 6 + 2 + 1
    state["players"][1].update(pp=19)
    state["players"][2].update(stone=2, deniers=3)  # 0 + 0
    finish_game(state)
    assert state["result"] == {"scores": [19, 19, 10], "ranking": [1, 1, 3], "tiebreak": None}
    assert state["final"][0] == {"before": 10, "gold": 6, "cubes": 2, "deniers": 1}
    assert GAME.to_act(state) == set() and GAME.legal_actions(state, 0) == []
    assert_refused(GAME, state, {"type": "pass", "seat": 0, "payload": {}}, "game_over")


def test_house_limit_option_blocks_construction_and_batches():
    # G1: with a limit of 20, a player with no house left cannot construct or give batches.
    state = position(3, {"house_limit": 20})
    state["players"][0]["houses"] = 20
    give(state, 0, wood=1, stone=1)
    state = castle(state, [0])
    assert state["players"][0]["pp"] == 0 and state["turn"] == 2  # could not give: penalised, floored
    state = position(3, {"house_limit": 20})
    state["players"][0]["houses"] = 20
    worker(state, 8, 0)
    state["provost"] = 8
    state["castle_workers"] = [2]
    give(state, 2, wood=1, stone=1)
    state = at_phase(state, "road")
    assert asked(state) == (2, "castle")  # nothing to build with: not even asked


def test_bailiff_passing_a_trigger_scores_the_section():
    # §5.7: reached *or passed*: the bailiff goes 11 -> 13 with the provost ahead; the Dungeon is scored.
    state = position(3)
    state["bailiff"], state["provost"] = 11, 14
    state["castle"][0] = [1]
    state = at_phase(state, "end")
    assert state["bailiff"] == 13 and state["sections_scored"] == 1 and state["columns_open"] == 4


def test_batches_after_a_scoring_go_to_the_next_section_and_empty_places_stay_empty():
    # §5.6 and §6: places left empty in a scored section stay empty; the Walls pay 4 PP per house.
    state = position(3)
    state["castle"][0] = [1, 1]
    state["sections_scored"] = 1
    give(state, 0, wood=1, stone=1)
    state = castle(state, [0])
    state = act(state, 0, "give_batch", cubes=["stone", "wood"])
    assert state["castle"] == [[1, 1], [0], []] and state["players"][0]["pp"] == 4


def test_walls_and_towers_reward_tables():
    # §6: Walls 3-4 houses -> 2 favours, 0 -> -3; Towers 4-5 -> 2 favours, 6+ -> 3, 0 -> -4.
    from projections.games.caylus.castle import reward

    assert [reward(1, n) for n in (0, 1, 2, 3, 4, 5, 9)] == [(-3, 0), (0, 0), (0, 1), (0, 2), (0, 2), (0, 3), (0, 3)]
    assert [reward(2, n) for n in (0, 1, 3, 4, 5, 6)] == [(-4, 0), (0, 0), (0, 1), (0, 2), (0, 2), (0, 3)]
    assert [reward(0, n) for n in (0, 1, 2, 6)] == [(-2, 0), (0, 0), (0, 1), (0, 1)]


def test_walls_scoring_opens_column_five():
    # the published option: a marker never enters a locked column
    state = position(3, {"locked_favour_columns": "blocked"})
    state["sections_scored"], state["columns_open"] = 1, 4
    state["castle"] = [[0] * 6, [1] * 3, []]
    state["favour_markers"][1][2] = 4
    state["bailiff"] = state["provost"] = 17
    state = at_phase(state, "end")
    assert state["favours"] == [1, 1]
    assert_refused(
        GAME,
        state,
        {
            "type": "choose_favour",
            "seat": 1,
            "payload": {"row": "resources", "column": 4, "pay": ["food"], "gain": ["cloth", "gold"]},
        },
        "bad_payload",
    )
    state = act(state, 1, "choose_favour", row="resources", column=4, pay=["food"], gain=["cloth", "stone"])
    assert state["favour_markers"][1][2] == 4  # column 5 still locked during the Walls scoring
    state = act(state, 1, "choose_favour", row="prestige", column=1)
    assert state["columns_open"] == 5


def test_by_default_a_walls_favour_marker_enters_column_five_which_pays_only_after_the_scoring():
    # §14 item 3, the seed's reading (the default). Dungeon scored (columns 1-4 open); seat 1 has
    # 3 Walls houses: 2 favours; seats 0 and 2 have none there: -3, floored at 0.
    # Favour 1, resources row, marker 4 -> 5 although column 5 is still locked: column 5 (gold)
    # is refused, column 4 is taken: 1 food (2 -> 1) for 1 cloth + 1 stone. Favour 2: prestige
    # column 1, 1 PP. Then column 5 opens; a later resources favour keeps the marker on 5 and
    # pays column 5: 1 gold.
    state = position(3)
    state["sections_scored"], state["columns_open"] = 1, 4
    state["castle"] = [[0] * 6, [1] * 3, []]
    state["favour_markers"][1][2] = 4
    state["bailiff"] = state["provost"] = 17
    state = at_phase(state, "end")
    assert state["favours"] == [1, 1]
    assert_refused(
        GAME,
        state,
        {"type": "choose_favour", "seat": 1, "payload": {"row": "resources", "column": 5}},
        "column_not_reached",
    )
    state = act(state, 1, "choose_favour", row="resources", column=4, pay=["food"], gain=["cloth", "stone"])
    assert state["favour_markers"][1][2] == 5  # the marker entered locked column 5
    p1 = state["players"][1]
    assert (p1["food"], p1["cloth"], p1["stone"], p1["gold"]) == (1, 1, 1, 0)
    state = act(state, 1, "choose_favour", row="prestige", column=1)
    assert state["columns_open"] == 5 and state["players"][1]["pp"] == 1
    assert [p["pp"] for p in state["players"]] == [0, 1, 0]
    state["favours"] = [1]
    state = act(state, 1, "choose_favour", row="resources", column=5)
    assert state["favour_markers"][1][2] == 5 and state["players"][1]["gold"] == 1
