"""The rulebook's permissions (可 / 能, "may"), each shown as the engine offers it: the choice
and its decline in ``GAME.legal_actions``, the decline taken through ``GAME.apply``.

These are the tests the concordance of ``docs/rules/caylus.md`` names. Positions come from
``helpers.position``: turn 1, phase 2, turn order 0..n-1, income paid, so with 3 players the
deniers are 7 / 8 / 8 and every seat holds 2 food + 1 wood, 0 PP, 6 workers; neutral tiles
1 Farm, 2 Forest, 3 Sawmill, 4 Quarry, 5 Marketplace, 6 Carpenter; fixed 7 Peddler,
8 Carpenter, 16 Gold Mine.
"""

import pytest

from projections.games.caylus import GAME
from tests.games.harness import assert_refused

from .helpers import act, asked, at_phase, give, own, position, worker


def ev(seat, kind, **payload):
    return {"type": kind, "seat": seat, "payload": payload}


def offered(state, seat, kind):
    return [a["payload"] for a in GAME.legal_actions(state, seat) if a["type"] == kind]


def road_phase(state):
    """Run phase 5 with seat 2 in the castle (2 food, 1 wood, +1 stone: a batch), so the turn
    waits in phase 6 once the road is done."""
    state["castle_workers"] = [2]
    state["players"][2]["workers"] -= 1
    give(state, 2, stone=state["players"][2]["stone"] + 1)
    return at_phase(state, "road")


# -- phase 2 ------------------------------------------------------------------------
def test_a_player_who_passed_is_not_asked_again_this_turn():
    """2.(2)A: 「當玩家決定放棄指派工人後,便不可再進行工人指派」 -- once a player has decided to
    pass, they may place no more workers. Seat 0 passes; after seats 1 and 2 place, the turn
    comes back to seat 1, not seat 0, whose placement is refused."""
    state = position(3)
    state = act(state, 0, "pass")
    state = act(state, 1, "place_worker", target="road:1")
    state = act(state, 2, "place_worker", target="road:2")
    assert GAME.to_act(state) == {1}
    assert GAME.legal_actions(state, 0) == []
    assert_refused(GAME, state, ev(0, "place_worker", target="road:3"), "not_your_turn")


def test_a_player_without_workers_is_offered_only_to_pass():
    """2.(2): 「此階段持續進行至所有玩家皆放棄指派工人,或已無工人可供指派後結束。」 -- the phase
    goes on until every player has passed or has no worker left to place. Seat 0 has no worker
    left: passing is all it is offered; once all three passed, phase 2 is over."""
    state = position(3)
    state["players"][0]["workers"] = 0
    assert GAME.legal_actions(state, 0) == [{"type": "pass", "payload": {}}]
    assert_refused(GAME, state, ev(0, "place_worker", target="road:1"), "no_worker_left")
    for seat in (0, 1, 2):
        state = act(state, seat, "pass")
    assert state["phase"] == "provost" and asked(state) == (0, "provost")


def test_castle_workers_take_the_lowest_free_spot_one_per_player():
    """2.(2)E: 「玩家將自家工人置於城堡上時,須將工人代表物置於數字最小的空格上,且每位玩家最多只能置放1名工人」
    -- a worker put in the castle takes the lowest free spot, and each player may have at most
    one worker there. Seat 0 then seat 2 enter: castle order 0, 2; seat 0 is not offered the
    castle again."""
    state = position(3)
    state = act(state, 0, "place_worker", target="castle")
    state = act(state, 1, "place_worker", target="road:1")
    state = act(state, 2, "place_worker", target="castle")
    assert GAME.view(state, None)["castle"]["workers"] == [0, 2]
    assert {"target": "castle"} not in offered(state, 0, "place_worker")
    assert_refused(GAME, state, ev(0, "place_worker", target="castle"), "already_there")


def test_no_worker_goes_on_a_residence_a_prestige_building_an_empty_lot_or_a_taken_building():
    """2.(2): 「玩家不能將工人置放在住宅建築物(綠)、特殊建築物(藍)及發展路徑的空格上,除了馬廄、客棧及城堡可置放1名以上工人外,其它地區皆只能置放1名工人」
    -- no worker may go on a residence, a prestige building or an empty road space; except the
    Stables, the Inn and the castle, every place takes one worker. Seat 1's residence (9) and
    Statue (10), the empty lot 11 and the Farm (1), where seat 2 stands, are neither offered
    nor accepted."""
    state = position(3)
    own(state, 9, "residence", 1)
    own(state, 10, "p_statue", 1)
    worker(state, 1, 2)
    targets = [p["target"] for p in offered(state, 0, "place_worker")]
    for target, code in [
        ("road:9", "not_placeable"),
        ("road:10", "not_placeable"),
        ("road:11", "empty_lot"),
        ("road:1", "space_occupied"),
    ]:
        assert target not in targets
        assert_refused(GAME, state, ev(0, "place_worker", target=target), code)
    assert "road:2" in targets


# -- phase 3 ------------------------------------------------------------------------
def test_the_gate_offers_every_free_place_and_the_recall():
    """2.(3), the Gate: 「若有玩家將自家工人放在此建築物上,該玩家可將自家工人移置任何可供置放的建築物上。」
    -- the Gate's player may move the worker to any building that can take it; 「若玩家放棄移動
    工人,將此工人收回」 -- if the player declines, the worker goes home. Offered: every free
    place (seat 2's Sawmill on 9 among them, not the empty lot 10, not the Gate itself) and
    the recall; the recall sends the worker home."""
    state = position(3)
    own(state, 9, "w_sawmill", 2)
    state["special"]["gate"] = 0
    state["players"][0]["workers"] = 5
    state = at_phase(state, "special")
    assert asked(state) == (0, "gate")
    targets = [p["target"] for p in offered(state, 0, "gate_move")]
    assert {"road:9", "castle", "trading_post", "inn", "road:1", "road:16"} <= set(targets)
    assert "road:10" not in targets and "gate" not in targets
    assert {"type": "gate_recall", "payload": {}} in GAME.legal_actions(state, 0)
    state = act(state, 0, "gate_recall")
    assert state["special"]["gate"] is None and state["players"][0]["workers"] == 6
    assert state["players"][2]["pp"] == 0


def test_the_merchants_guild_offers_one_to_three_spaces_either_way_or_none():
    """2.(3), the Merchants' Guild: 「該玩家可移動城區市管長任意方向1~3格距離,之後將此工人收回」 -- the
    player may move the provost 1 to 3 spaces either way, then the worker goes home. The
    provost is on 6: deltas -3..3 are offered, 0 declining; 0 leaves it on 6."""
    state = position(3)
    state["special"]["merchants_guild"] = 1
    state["players"][1]["workers"] = 5
    state = at_phase(state, "special")
    assert [p["delta"] for p in offered(state, 1, "guild_move_provost")] == [-3, -2, -1, 0, 1, 2, 3]
    state = act(state, 1, "guild_move_provost", delta=0)
    assert state["provost"] == 6 and state["players"][1]["workers"] == 6


def test_the_joust_field_offers_to_pay_for_a_favour_or_not():
    """2.(3), the Joust Field: 「該玩家可支付1元金錢和1個布料資源至公區,以換取1次國王賞賜,之後將此工人收回」
    -- the player may pay 1 denier and 1 cloth for a royal favour, then the worker goes home.
    Both answers are offered; declining keeps the denier and the cloth and owes no favour."""
    state = position(3)
    state["special"]["joust_field"] = 2
    state["players"][2].update(cloth=1, workers=5)
    state = at_phase(state, "special")
    assert GAME.legal_actions(state, 2) == [
        {"type": "joust", "payload": {"pay": True}},
        {"type": "joust", "payload": {"pay": False}},
    ]
    state = act(state, 2, "joust", pay=False)
    p2 = state["players"][2]
    assert (p2["deniers"], p2["cloth"], p2["workers"]) == (8, 1, 6) and state["favours"] == []


def test_the_inn_resident_is_offered_to_stay_or_leave():
    """2.(3), the Inn: 「玩家亦可主動將右方格內的工人收回。」 -- a player may also take the worker on the
    right spot back of their own accord. Nobody entered the left spot: seat 2, on the right,
    is offered to keep it or take it back, and taking it back frees the spot."""
    state = position(3)
    state["special"]["inn_right"] = 2
    state["players"][2]["workers"] = 5
    state = at_phase(state, "special")
    assert GAME.legal_actions(state, 2) == [
        {"type": "inn_keep", "payload": {"keep": True}},
        {"type": "inn_keep", "payload": {"keep": False}},
    ]
    state = act(state, 2, "inn_keep", keep=False)
    assert state["special"]["inn_right"] is None and state["players"][2]["workers"] == 6


# -- phase 4 ------------------------------------------------------------------------
def test_each_passer_may_leave_the_provost_or_move_it_for_a_denier_a_space():
    """2.(4): 「玩家若決定移動城區市管長,每支付1元貨幣可將其往前或往後移動1格。」 -- a player who decides
    to move the provost pays 1 denier per space, forward or back; 「每位玩家最多只能支付3元貨幣」
    -- at most 3. Seat 0 (7 deniers) is offered -3..3; 0 is free, and seat 1 then pays 2 for 2."""
    state = position(3)
    state = at_phase(state, "provost")
    assert [p["delta"] for p in offered(state, 0, "move_provost")] == [-3, -2, -1, 0, 1, 2, 3]
    state = act(state, 0, "move_provost", delta=0)
    assert state["players"][0]["deniers"] == 7 and state["provost"] == 6
    state = act(state, 1, "move_provost", delta=2)
    assert state["players"][1]["deniers"] == 6 and state["provost"] == 8


# -- phase 5: production --------------------------------------------------------------
@pytest.mark.parametrize(
    "building, number, output",
    [
        ("f_gold_mine", 16, {"gold": 1}),
        ("n_quarry", 4, {"stone": 1}),
        ("w_quarry", 9, {"stone": 2}),
        ("n_sawmill", 3, {"wood": 1}),
        ("w_sawmill", 9, {"wood": 2}),
    ],
)
def test_single_output_production_is_given_unasked(building, number, output):
    """2.(5)A: 「玩家將自家工人放在此類建築物上,將可執行「生產資源」效能」 -- a worker on a production
    building may carry out its production: 「可獲得1個黃金資源」 (the Gold Mine), 「可獲得1個石頭資源」
    / 「可獲得2個石頭資源」 (the Quarries), 「可獲得1個木材資源」 / 「可獲得2個木材資源」 (the Sawmills).
    A single output is a free gain: seat 0 takes it with nothing asked, and its worker goes home."""
    state = position(3)
    if number == 9:
        own(state, 9, building, 1)
    state["provost"] = number
    worker(state, number, 0)
    before = dict(state["players"][0])
    state = road_phase(state)
    assert asked(state) == (2, "castle")
    for cube, n in output.items():
        assert state["players"][0][cube] == before[cube] + n
    assert state["players"][0]["workers"] == 6


@pytest.mark.parametrize(
    "building, outputs",
    [
        ("n_farm", [{"food": 1}, {"cloth": 1}]),
        ("n_forest", [{"wood": 1}, {"food": 1}]),
        ("w_farm_food", [{"food": 2}, {"cloth": 1}]),
        ("w_farm_cloth", [{"cloth": 2}, {"food": 1}]),
    ],
)
def test_production_with_two_outputs_offers_each(building, outputs):
    """2.(5)A: 「可獲得1個食物資源或1個布料資源」 (the neutral Farm), 「可獲得1個木材資源或1個食物資源」
    (the Forest), 「可獲得2個食物資源或1個布料資源」 and 「可獲得2個布料資源或1個食物資源」 (the wood
    Farms) -- the worker may gain one output or the other. Both are offered, nothing else;
    the second is taken."""
    state = position(3)
    if building.startswith("n_"):
        number = 1 if building == "n_farm" else 2
        state["road"][number - 1]["building"] = building
    else:
        number = 9
        own(state, 9, building, 1)
        state["provost"] = 9
    worker(state, number, 0)
    state = road_phase(state)
    assert asked(state) == (0, "produce")
    assert GAME.legal_actions(state, 0) == [{"type": "produce", "payload": {"option": i}} for i in range(2)]
    before = dict(state["players"][0])
    state = act(state, 0, "produce", option=1)
    for cube, n in outputs[1].items():
        assert state["players"][0][cube] == before[cube] + n


@pytest.mark.parametrize(
    "building, output, owner_cubes",
    [
        ("s_farm", {"food": 2, "cloth": 1}, ["food", "cloth"]),
        ("s_park", {"wood": 2, "food": 1}, ["wood", "food"]),
        ("s_workshop", {"stone": 2, "cloth": 1}, ["stone", "cloth"]),
    ],
)
def test_stone_production_gives_the_worker_all_and_offers_the_owner_either_cube(building, output, owner_cubes):
    """2.(5)A, the stone Farm: 「可獲得2個食物資源及1個布料資源(非建造此建築者可獲得1個食物資源或1個布料資源)」
    -- 2 food and 1 cloth (the one who is not its builder may gain 1 food or 1 cloth); the Park
    and the Workshop alike. The engine's reading (docs/rules/caylus.md, "Silent readings"):
    seat 0 on seat 1's building takes the whole output, and seat 1, the builder, chooses one
    of the two cubes."""
    state = position(3)
    own(state, 9, building, 1)
    state["provost"] = 9
    worker(state, 9, 0)
    before = dict(state["players"][0])
    state = road_phase(state)
    for cube, n in output.items():
        assert state["players"][0][cube] == before[cube] + n
    assert asked(state) == (1, "owner_bonus")
    assert offered(state, 1, "owner_bonus") == [{"cube": c} for c in owner_cubes]
    held = state["players"][1][owner_cubes[1]]
    state = act(state, 1, "owner_bonus", cube=owner_cubes[1])
    assert state["players"][1][owner_cubes[1]] == held + 1


# -- phase 5: construction ------------------------------------------------------------
def test_the_carpenter_offers_each_affordable_wood_building_and_the_decline():
    """2.(5)B: 「玩家將自家工人放在木匠工作坊建築物上,可建造1棟木造建築物(棕)。」 -- a worker on the
    Carpenter may build one wood building. Seat 0 (1 wood, 2 food) is offered the four
    buildings of 1 wood + 1 food, the Mason, and the Marketplace and Peddler with food as their
    'any' cube, and the decline; declining builds nothing."""
    state = position(3)
    worker(state, 8, 0)
    state["provost"] = 8
    state = road_phase(state)
    assert asked(state) == (0, "activate")
    assert offered(state, 0, "build") == [
        {"building": "w_farm_food"},
        {"building": "w_farm_cloth"},
        {"building": "w_sawmill"},
        {"building": "w_quarry"},
        {"building": "w_marketplace", "any": "food"},
        {"building": "w_peddler", "any": "food"},
        {"building": "w_mason"},
    ]
    assert GAME.legal_actions(state, 0)[-1] == {"type": "decline", "payload": {}}
    supply = list(state["supply"])
    state = act(state, 0, "decline")
    assert state["supply"] == supply and state["road"][8]["building"] is None
    assert (state["players"][0]["wood"], state["players"][0]["food"]) == (1, 2)


def test_the_mason_offers_each_affordable_stone_building_and_the_decline():
    """2.(5)B: 「玩家將自家工人放在石匠工作坊建築物上,可建造1棟石造建築物(灰)。」 -- a worker on the
    Mason may build one stone building. Seat 0 (1 stone, 1 wood, 2 food) is offered the stone
    buildings of 1 stone + 1 food or 1 stone + 1 wood, and the decline."""
    state = position(3)
    own(state, 9, "w_mason", 1)
    state["provost"] = 9
    give(state, 0, stone=1)
    worker(state, 9, 0)
    state = road_phase(state)
    assert [p["building"] for p in offered(state, 0, "build")] == [
        "s_farm",
        "s_park",
        "s_workshop",
        "s_architect_1",
        "s_architect_2",
        "s_alchemist",
        "s_bank",
        "s_tailor",
    ]
    assert {"type": "decline", "payload": {}} in GAME.legal_actions(state, 0)
    state = act(state, 0, "decline")
    assert state["road"][9]["building"] is None and state["players"][0]["stone"] == 1


def test_the_lawyer_offers_each_convertible_building_and_the_decline():
    """2.(5)B, the Lawyer: 「玩家在支付1元及1個布料資源後,可將1棟中立建築物(粉紅),1棟自家建造的木造建築物(棕)
    或1棟自家建造的石造建築物(灰)升級成住宅建築物(綠)。」 -- after paying 1 denier and 1 cloth, a
    player may turn a neutral building, or a wood or stone building of their own, into a
    residence. Offered: the six neutral buildings and seat 0's Sawmill (10), not the fixed
    buildings, the Lawyer itself or seat 2's Quarry; and the decline, which pays nothing."""
    state = position(3)
    own(state, 9, "w_lawyer", 1)
    own(state, 10, "w_sawmill", 0)
    own(state, 11, "w_quarry", 2)
    state["provost"] = 12
    give(state, 0, cloth=1)
    worker(state, 9, 0)
    state = road_phase(state)
    assert [p["space"] for p in offered(state, 0, "convert")] == [1, 2, 3, 4, 5, 6, 10]
    assert {"type": "decline", "payload": {}} in GAME.legal_actions(state, 0)
    state = act(state, 0, "decline")
    assert (state["players"][0]["cloth"], state["players"][0]["deniers"]) == (1, 7)
    assert state["road"][9]["building"] == "w_sawmill"


def test_the_architect_offers_each_prestige_building_and_the_decline():
    """2.(5)B: 「玩家將自家工人放在建築師建築物上,可將1棟住宅建築物(綠)升級成1棟特製建築物(藍)。」 --
    a worker on the Architect may turn a residence into a prestige building. Seat 0 (2 stone,
    1 gold, 3 food) on its residence (10) is offered the Statue and the Granary, and the
    decline, which leaves the residence."""
    state = position(3)
    own(state, 9, "s_architect_1", 1)
    own(state, 10, "residence", 0)
    state["provost"] = 10
    give(state, 0, stone=2, gold=1, food=3)
    worker(state, 9, 0)
    state = road_phase(state)
    assert offered(state, 0, "build_prestige") == [
        {"space": 10, "building": "p_statue"},
        {"space": 10, "building": "p_granary"},
    ]
    assert {"type": "decline", "payload": {}} in GAME.legal_actions(state, 0)
    state = act(state, 0, "decline")
    assert state["road"][9]["building"] == "residence" and state["players"][0]["gold"] == 1


# -- phase 5: trade -------------------------------------------------------------------
@pytest.mark.parametrize(
    "building, goods, trades",
    [
        ("f_peddler", {}, [{"option": 0, "cubes": [c]} for c in ("food", "wood", "stone", "cloth")]),
        ("n_marketplace", {}, [{"option": 0, "cubes": ["food"]}, {"option": 0, "cubes": ["wood"]}]),
        ("w_marketplace", {"gold": 1}, [{"option": 0, "cubes": [c]} for c in ("food", "wood", "gold")]),
        ("s_bank", {}, [{"option": 0, "cubes": []}, {"option": 1, "cubes": []}]),
        ("s_tailor", {"cloth": 3}, [{"option": 0, "cubes": []}, {"option": 1, "cubes": []}]),
        ("s_church", {"cloth": 4}, [{"option": 0, "cubes": []}, {"option": 1, "cubes": []}]),
        ("s_alchemist", {}, [{"option": 0, "cubes": ["food", "food"]}, {"option": 0, "cubes": ["food", "wood"]}]),
    ],
)
def test_a_trade_building_offers_each_exchange_and_the_decline(building, goods, trades):
    """2.(5)C: 「玩家將自家工人放在此類建築物上,將可執行「進行交易」效能」 -- a worker on a trade building
    may make its exchange: the Peddler 「可支付2元換取1個黃金外的任何資源」, the Marketplaces
    「可以1個任何資源(包括黃金)換取4元」 / 6, the Bank 「可支付2元換取1個黃金資源或可支付5元換取2個
    黃金資源」, the Tailor 「可支付2個布料資源換取4分聲望或可支付3個布料資源換取6分聲望」, the Church
    「可支付2個布料資源換取3分聲望或可支付4個布料資源換取5分聲望」, the Alchemist 「可支付2個黃金外的
    任何資源換取1個黃金資源或可支付4個…換取2個黃金資源」. Seat 0 (7 deniers, 2 food, 1 wood, plus
    ``goods``) is offered every exchange it can pay and the decline; declining changes nothing."""
    state = position(3)
    if building in ("f_peddler", "n_marketplace"):
        number = 7 if building == "f_peddler" else 5
        state["provost"] = 7
    else:
        number = 9
        own(state, 9, building, 1)
        state["provost"] = 9
    give(state, 0, **goods)
    worker(state, number, 0)
    state = road_phase(state)
    assert offered(state, 0, "trade") == trades
    assert GAME.legal_actions(state, 0)[-1] == {"type": "decline", "payload": {}}
    before = dict(state["players"][0])
    state = act(state, 0, "decline")
    after = state["players"][0]
    assert all(after[k] == before[k] for k in ("deniers", "food", "wood", "stone", "cloth", "gold", "pp"))


def test_the_wood_peddler_offers_one_or_two_cubes_and_the_decline():
    """2.(5)C: 「可支付1元換取1個黃金外的任何資源或可支付2元換取2個黃金外的任何資源」 -- pay 1 denier for
    any 1 non-gold cube, or 2 deniers for any 2. Offered: 4 single cubes, the 10 pairs, and the
    decline."""
    state = position(3)
    own(state, 9, "w_peddler", 1)
    state["provost"] = 9
    worker(state, 9, 0)
    state = road_phase(state)
    trades = offered(state, 0, "trade")
    assert len([t for t in trades if t["option"] == 0]) == 4 and len([t for t in trades if t["option"] == 1]) == 10
    assert {"option": 1, "cubes": ["cloth", "food"]} in trades
    state = act(state, 0, "decline")
    assert state["players"][0]["deniers"] == 7


# -- phase 6 ------------------------------------------------------------------------
def castle_phase(state, seats):
    state["castle_workers"] = list(seats)
    for seat in seats:
        state["players"][seat]["workers"] -= 1
    return at_phase(state, "castle")


def test_the_castle_offers_each_batch_and_the_end_of_giving():
    """2.(6): 「當玩家指派工人至城堡區時,玩家每繳交1組資源後,便可將1個自家房屋代表物置於城堡下方(主樓、城牆、高塔)
    的長方形空格內。」 -- for each batch given, a player may put a house in the castle. Seat 0
    (2 food, 1 wood, 1 stone, 3 PP) is offered its one batch and the end of giving; giving
    none costs 2 PP (「若玩家指派工人至城堡區後,卻未繳交規定資源,須扣減2分聲望」)."""
    state = position(3)
    give(state, 0, stone=1, pp=3)
    state = castle_phase(state, [0])
    assert GAME.legal_actions(state, 0) == [
        {"type": "give_batch", "payload": {"cubes": ["wood", "stone"]}},
        {"type": "castle_done", "payload": {}},
    ]
    state = act(state, 0, "castle_done")
    assert state["players"][0]["pp"] == 1 and state["castle"][0] == []


def test_after_a_batch_fills_the_dungeon_the_next_may_go_to_the_walls():
    """2.(6): 「玩家每次所繳交的資源組數不限,若現階段的長方形格空格已填滿,可將自家房屋代表物置於下一階段的長方形格空格內。」
    -- any number of batches; once the current section is full, the house may go to the next.
    The Dungeon has 1 place left: seat 0's first batch fills it (+5); it is then offered
    more batches, now for the Walls, and the end of giving; a second batch lands in the Walls
    (+4)."""
    state = position(3)
    state["castle"][0] = [1] * 5
    give(state, 0, food=2, wood=2, stone=1, cloth=1)
    state = castle_phase(state, [0])
    state = act(state, 0, "give_batch", cubes=["wood", "stone"])
    assert state["castle"][0] == [1] * 5 + [0] and state["players"][0]["pp"] == 5
    assert {"type": "castle_done", "payload": {}} in GAME.legal_actions(state, 0)
    assert {"cubes": ["wood", "cloth"]} in offered(state, 0, "give_batch")
    state = act(state, 0, "give_batch", cubes=["wood", "cloth"])
    assert state["castle"][1] == [0] and state["players"][0]["pp"] == 9


# -- favours -------------------------------------------------------------------------
def test_a_resources_favour_offers_each_column_up_to_the_marker():
    """4.(2)C: 「玩家可獲得1個食物資源(第1級),或獲得1個木材資源或石頭資源(第2級),或獲得1個布料資源(第3級),
    或以任何1個資源交換黃金除外的2個資源(第4級),或獲得1個黃金資源(第5級)」 -- 1 food, or 1 wood or
    stone, or 1 cloth, or any 1 cube for 2 non-gold cubes, or 1 gold. The resources marker
    moves 3 -> 4 (every column open): columns 1 to 4 with their sub-choices are offered,
    column 5 is not; column 1 gives 1 food."""
    state = position(3)
    state["columns_open"], state["sections_scored"] = 5, 2
    state["favour_markers"][0] = [0, 0, 3, 0]
    state["favours"] = [0]
    resources = offered(state, 0, "choose_favour")
    resources = [p for p in resources if p["row"] == "resources"]
    assert sorted({p["column"] for p in resources}) == [1, 2, 3, 4]
    assert {"row": "resources", "column": 2, "gain": ["stone"]} in resources
    assert {"row": "resources", "column": 4, "pay": ["wood"], "gain": ["cloth", "stone"]} in resources
    state = act(state, 0, "choose_favour", row="resources", column=1)
    assert state["players"][0]["food"] == 3 and state["favour_markers"][0][2] == 4
