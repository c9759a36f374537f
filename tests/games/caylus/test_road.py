"""Phase 5, the road buildings (§5.5, §8): production, owner bonus, the provost's cut-off,
construction, trades, the Lawyer and the Architect. Layout: 1 Farm, 2 Forest, 3 Sawmill,
4 Quarry, 5 Marketplace, 6 Carpenter (neutral), 7 Peddler, 8 Carpenter, 16 Gold Mine."""

import pytest

from projections.games.caylus import GAME
from tests.games.harness import assert_refused

from .helpers import act, asked, at_phase, give, own, position, worker


def road(state):
    """Run phase 5, with seat 2 in the castle (food + stone + cloth) so the turn waits there after it."""
    state["castle_workers"] = [2]
    state["players"][2]["workers"] -= 1
    give(state, 2, stone=state["players"][2]["stone"] + 1, cloth=state["players"][2]["cloth"] + 1)
    return at_phase(state, "road")


def test_production_with_a_choice_is_asked_and_mandatory():
    # Neutral Farm: 1 food or 1 cloth; production cannot be declined (§5.5).
    state = position(3)
    worker(state, 1, 0)
    state = road(state)
    assert asked(state) == (0, "produce")
    assert {a["type"] for a in GAME.legal_actions(state, 0)} == {"produce"}
    state = act(state, 0, "produce", option=1)
    assert state["players"][0]["cloth"] == 1 and state["players"][0]["workers"] == 6


def test_single_output_production_is_automatic():
    state = position(3)
    worker(state, 3, 1)
    worker(state, 4, 2)
    state = road(state)
    assert state["players"][1]["wood"] == 2 and state["players"][2]["stone"] == 1 + 1  # +1 given for the castle hold


def test_workers_beyond_the_provost_return_without_effect_but_the_owner_keeps_the_point():
    # §5.5: beyond the provost nothing happens; the 1 PP given at placement stays.
    state = position(3)
    own(state, 9, "w_sawmill", 1)
    state["provost"] = 8
    state = act(state, 0, "place_worker", target="road:9")
    assert state["players"][1]["pp"] == 1
    state = road(state)
    assert state["players"][0]["wood"] == 1 and state["players"][1]["pp"] == 1
    assert state["road"][8]["worker"] is None and state["players"][0]["workers"] == 6


def test_gold_mine_at_the_provost_space_is_activated():
    state = position(3)
    state["provost"] = 16
    worker(state, 16, 2)
    state = road(state)
    assert state["players"][2]["gold"] == 1


def test_stone_production_owner_bonus_for_another_user_only():
    # §5.5: the owner of the Park takes one wood or food when someone else uses it.
    state = position(3)
    own(state, 5, "s_park", 1)
    worker(state, 5, 0)
    state = road(state)
    assert state["players"][0]["wood"] == 3 and state["players"][0]["food"] == 3
    assert asked(state) == (1, "owner_bonus")
    assert_refused(GAME, state, {"type": "owner_bonus", "seat": 1, "payload": {"cube": "gold"}}, "unknown_option")
    state = act(state, 1, "owner_bonus", cube="food")
    assert state["players"][1]["food"] == 3


def test_no_owner_bonus_on_ones_own_building():
    state = position(3)
    own(state, 5, "s_workshop", 0)
    worker(state, 5, 0)
    state = road(state)
    assert state["players"][0]["stone"] == 2 and state["players"][0]["cloth"] == 1
    assert state["phase"] != "road"


def test_carpenter_builds_a_wood_building_on_the_first_empty_lot():
    # §5.5: pay the cost, first free lot, owner's house, printed PP at once.
    state = position(3)
    worker(state, 8, 0)
    state["provost"] = 8
    state = road(state)
    assert asked(state) == (0, "activate")
    state = act(state, 0, "build", building="w_quarry")
    assert state["road"][8] == {"building": "w_quarry", "owner": 0, "worker": None, "convert_to": None}
    assert state["players"][0]["pp"] == 2 and state["players"][0]["wood"] == 0 and state["players"][0]["food"] == 1
    assert "w_quarry" not in state["supply"]


def test_any_cube_part_of_a_cost_is_named():
    state = position(3)
    give(state, 0, gold=1)
    worker(state, 6, 0)
    state = road(state)
    assert_refused(GAME, state, {"type": "build", "seat": 0, "payload": {"building": "w_peddler"}}, "any_cube_required")
    state = act(state, 0, "build", building="w_peddler", any="gold")
    assert state["players"][0]["gold"] == 0 and state["players"][0]["pp"] == 4


def test_construction_refusals():
    state = position(3)
    worker(state, 8, 0)
    state["provost"] = 8
    state = road(state)
    assert_refused(
        GAME, state, {"type": "build", "seat": 0, "payload": {"building": "s_bank"}}, "wrong_building_colour"
    )
    assert_refused(
        GAME, state, {"type": "build", "seat": 0, "payload": {"building": "w_lawyer"}}, "not_enough_resources"
    )
    assert_refused(GAME, state, {"type": "trade", "seat": 0, "payload": {"option": 0}}, "wrong_action")
    assert_refused(GAME, state, {"type": "build", "seat": 0, "payload": {"building": "w_castle"}}, "unknown_building")
    assert_refused(
        GAME, state, {"type": "build", "seat": 0, "payload": {"building": "w_sawmill", "any": "food"}}, "no_any_cube"
    )
    state["supply"].remove("w_mason")
    assert_refused(GAME, state, {"type": "build", "seat": 0, "payload": {"building": "w_mason"}}, "not_in_supply")
    for sp in state["road"]:
        if sp["building"] is None:
            sp["building"] = "residence"
    assert_refused(GAME, state, {"type": "build", "seat": 0, "payload": {"building": "w_sawmill"}}, "no_empty_lot")


def test_mason_builds_stone_and_the_church_gives_a_favour():
    state = position(3)
    own(state, 9, "w_mason", 1)
    give(state, 0, stone=1, cloth=1)
    worker(state, 9, 0)
    state["provost"] = 9
    state = road(state)
    state = act(state, 0, "build", building="s_church")
    assert state["road"][9]["building"] == "s_church" and state["players"][0]["pp"] == 3
    assert asked(state) == (0, "favour")


PRINTED_TILE_OPTIONS = {"s_church": {"church_payment": "deniers"}}


@pytest.mark.parametrize(
    "building, payload, before, after",
    [
        ("n_marketplace", {"option": 0, "cubes": ["gold"]}, {"gold": 1}, {"gold": 0, "deniers": 11}),
        ("w_marketplace", {"option": 0, "cubes": ["food"]}, {}, {"food": 1, "deniers": 13}),
        ("f_peddler", {"option": 0, "cubes": ["cloth"]}, {}, {"cloth": 1, "deniers": 5}),
        ("w_peddler", {"option": 1, "cubes": ["stone", "wood"]}, {}, {"stone": 1, "wood": 2, "deniers": 5}),
        ("s_bank", {"option": 1, "cubes": []}, {}, {"gold": 2, "deniers": 2}),
        ("s_tailor", {"option": 1, "cubes": []}, {"cloth": 3}, {"cloth": 0, "pp": 6}),
        ("s_church", {"option": 1, "cubes": []}, {}, {"deniers": 3, "pp": 5}),
        (
            "s_alchemist",
            {"option": 1, "cubes": ["food", "food", "wood", "wood"]},
            {"wood": 2},
            {"gold": 2, "food": 0, "wood": 0},
        ),
    ],
)
def test_trade_buildings(building, payload, before, after):
    # §8: one exchange per activation, at the rates printed on the tile (for the Church that is
    # the published option, deniers; the seed's cloth is the default). Seat 0 starts with 7 deniers.
    state = position(3, PRINTED_TILE_OPTIONS.get(building))
    if building in ("n_marketplace", "f_peddler"):
        number = 5 if building == "n_marketplace" else 7
        state["provost"] = 7
    else:
        number = 9
        own(state, 9, building, 1)
        state["provost"] = 9
    give(state, 0, **before)
    worker(state, number, 0)
    state = road(state)
    state = act(state, 0, "trade", **payload)
    for key, value in after.items():
        assert state["players"][0][key] == value, key


def test_by_default_the_church_takes_cloth_as_the_seed_says():
    # §14 item 1: the seed (the default) pays 2 cloth for 3 PP or 4 cloth for 5 PP; the deniers
    # are not touched. Seat 0: 7 deniers. With 2 cloth: tier 1 -> 0 cloth, 7 deniers, 3 PP.
    state = position(3)
    own(state, 9, "s_church", 1)
    state["provost"] = 9
    give(state, 0, cloth=2)
    worker(state, 9, 0)
    state = road(state)
    assert_refused(
        GAME, state, {"type": "trade", "seat": 0, "payload": {"option": 1, "cubes": []}}, "not_enough_resources"
    )
    state = act(state, 0, "trade", option=0, cubes=[])
    assert state["players"][0]["cloth"] == 0 and state["players"][0]["deniers"] == 7 and state["players"][0]["pp"] == 3
    # with 4 cloth: tier 2 -> 0 cloth, still 7 deniers, 5 PP
    state = position(3)
    own(state, 9, "s_church", 1)
    state["provost"] = 9
    give(state, 0, cloth=4)
    worker(state, 9, 0)
    state = road(state)
    state = act(state, 0, "trade", option=1, cubes=[])
    assert state["players"][0]["cloth"] == 0 and state["players"][0]["deniers"] == 7 and state["players"][0]["pp"] == 5
    # with 7 deniers but no cloth the Church cannot be used: the worker goes home unasked
    state = position(3)
    own(state, 9, "s_church", 1)
    state["provost"] = 9
    worker(state, 9, 0)
    state = road(state)
    assert asked(state) == (2, "castle") and state["players"][0]["pp"] == 0
    assert state["players"][0]["deniers"] == 7


def test_jeweller_under_its_option():
    state = position(3, {"include_jeweller": True})
    own(state, 9, "s_jeweller", 1)
    state["provost"] = 9
    give(state, 0, gold=2)
    worker(state, 9, 0)
    state = road(state)
    state = act(state, 0, "trade", option=1, cubes=[])
    assert state["players"][0]["pp"] == 9 and state["players"][0]["gold"] == 0


def test_trade_refusals():
    state = position(3)
    own(state, 9, "s_tailor", 1)
    state["provost"] = 9
    give(state, 0, cloth=2)
    worker(state, 9, 0)
    state = road(state)
    assert_refused(
        GAME, state, {"type": "trade", "seat": 0, "payload": {"option": 1, "cubes": []}}, "not_enough_resources"
    )
    assert_refused(GAME, state, {"type": "trade", "seat": 0, "payload": {"option": 5, "cubes": []}}, "unknown_option")
    assert_refused(GAME, state, {"type": "trade", "seat": 0, "payload": {"option": 0, "cubes": ["food"]}}, "bad_cubes")
    state = act(state, 0, "decline")
    assert state["players"][0]["cloth"] == 2


def lawyer_position(options=None):
    state = position(3, options)
    own(state, 9, "w_lawyer", 1)
    own(state, 10, "w_sawmill", 0)
    own(state, 11, "w_quarry", 2)
    state["provost"] = 12
    give(state, 0, cloth=3)
    worker(state, 9, 0)
    return road(state)


def test_lawyer_converts_a_neutral_building_which_leaves_the_game():
    # §5.5: pay 1 cloth + 1 denier, residence in the same space, own house, 2 PP; neutral tile discarded.
    state = lawyer_position()
    state = act(state, 0, "convert", space=1)
    assert state["road"][0]["building"] == "residence" and state["road"][0]["owner"] == 0
    assert state["players"][0]["pp"] == 2 and state["players"][0]["cloth"] == 2 and state["players"][0]["deniers"] == 6
    assert state["discarded"] == ["n_farm"] and state["players"][0]["houses"] == 2


def test_lawyer_converts_an_own_wood_building_which_returns_to_the_supply():
    state = lawyer_position()
    state = act(state, 0, "convert", space=10)
    assert state["road"][9]["building"] == "residence" and "w_sawmill" in state["supply"]
    assert state["players"][0]["houses"] == 1


def test_lawyer_refusals():
    # §5.5: never fixed, residences, prestige, other players' buildings, or the Lawyer itself.
    state = lawyer_position()
    for number, code in [
        (7, "not_convertible"),
        (9, "not_convertible"),
        (11, "not_your_building"),
        (12, "not_convertible"),
    ]:
        assert_refused(GAME, state, {"type": "convert", "seat": 0, "payload": {"space": number}}, code)


def test_lawyer_target_with_a_worker_converts_after_its_activation():
    # G4: pay and score at once, convert right after that building's activation.
    state = position(3)
    own(state, 9, "w_lawyer", 1)
    own(state, 10, "w_sawmill", 0)
    state["provost"] = 10
    give(state, 0, cloth=1)
    worker(state, 9, 0)
    worker(state, 10, 2)
    state = road(state)
    state = act(state, 0, "convert", space=10)
    assert state["players"][2]["wood"] == 3  # the Sawmill still produced for its worker
    assert state["road"][9]["building"] == "residence" and state["players"][0]["pp"] == 2


def test_lawyer_target_beyond_the_provost_converts_at_the_end_of_the_phase():
    state = position(3)
    own(state, 9, "w_lawyer", 1)
    own(state, 10, "w_sawmill", 0)
    state["provost"] = 9
    give(state, 0, cloth=1)
    worker(state, 9, 0)
    worker(state, 10, 2)
    state = road(state)
    state = act(state, 0, "convert", space=10)
    assert state["players"][2]["wood"] == 1 and state["road"][9]["building"] == "residence"


def test_lawyer_prestige_option():
    state = position(3, {"lawyer_prestige": 3})
    worker(state, 8, 0)
    give(state, 0, cloth=1)
    state["provost"] = 8
    state = road(state)
    state = act(state, 0, "build", building="w_lawyer")
    assert state["players"][0]["pp"] == 3


def test_architect_builds_a_prestige_building_on_an_own_residence():
    # §5.5: on one of the actor's residences, full cost, printed PP; the Statue gives a favour.
    state = position(3)
    own(state, 9, "s_architect_1", 1)
    own(state, 10, "residence", 0)
    own(state, 11, "residence", 2)
    state["provost"] = 11
    give(state, 0, stone=2, gold=1)
    worker(state, 9, 0)
    state = road(state)
    assert_refused(
        GAME,
        state,
        {"type": "build_prestige", "seat": 0, "payload": {"space": 11, "building": "p_statue"}},
        "not_your_residence",
    )
    assert_refused(
        GAME,
        state,
        {"type": "build_prestige", "seat": 0, "payload": {"space": 10, "building": "p_hotel"}},
        "not_enough_resources",
    )
    state = act(state, 0, "build_prestige", space=10, building="p_statue")
    assert state["road"][9]["building"] == "p_statue" and state["players"][0]["pp"] == 7
    assert asked(state) == (0, "favour")


def test_income_counts_residences_library_and_hotel():
    # §5.1: 2 + 1 per residence + 1 Library + 2 Hotel.
    from projections.games.caylus.construction import income

    state = position(3)
    own(state, 9, "residence", 0)
    own(state, 10, "residence", 0)
    own(state, 11, "p_library", 0)
    own(state, 12, "p_hotel", 0)
    assert income(state, 0) == 2 + 2 + 1 + 2 and income(state, 1) == 2
