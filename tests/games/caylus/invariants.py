"""Invariants of every Caylus state: components conserved, no negative stock, sane turn order."""
from __future__ import annotations

from collections import Counter

from projections.games.caylus.components import BUILDINGS, neutral_tiles, supply_tiles

STOCKS = ("deniers", "food", "wood", "stone", "cloth", "gold", "pp", "workers", "houses")


def check_state(state: dict) -> None:
    seats = state["seats"]
    assert sorted(state["order"]) == list(range(seats)), "turn order is a permutation of the seats"
    assert len(set(state["passed"])) == len(state["passed"]) <= seats
    for seat, p in enumerate(state["players"]):
        for key in STOCKS:
            assert p[key] >= 0, (seat, key, p[key])
    # workers: 6 each, available or somewhere on the board
    placed = Counter()
    special = state["special"]
    for key in ("gate", "trading_post", "merchants_guild", "joust_field", "inn_left", "inn_right"):
        if special[key] is not None:
            placed[special[key]] += 1
    placed.update(special["stables"])
    placed.update(state["castle_workers"])
    placed.update(sp["worker"] for sp in state["road"] if sp["worker"] is not None)
    for seat, p in enumerate(state["players"]):
        assert p["workers"] + placed[seat] == 6, (seat, p["workers"], placed[seat])
    # limited tiles: each wood, stone and prestige tile exactly once, in the supply or on the road
    on_road = [sp["building"] for sp in state["road"] if sp["building"]]
    tiles = Counter(state["supply"]) + Counter(b for b in on_road if BUILDINGS[b]["colour"] in ("wood", "stone", "prestige"))
    assert tiles == Counter(supply_tiles(state["options"])), "wood/stone/prestige tiles conserved"
    neutrals = Counter(state["discarded"]) + Counter(b for b in on_road if BUILDINGS[b]["colour"] == "neutral")
    assert neutrals == Counter(neutral_tiles()), "neutral tiles on the road or discarded"
    # houses: one per owned road building (or pending neutral conversion) and per castle place
    houses = Counter(sp["owner"] for sp in state["road"] if sp["owner"] is not None)
    houses.update(sp["convert_to"] for sp in state["road"]
                  if sp["convert_to"] is not None and sp["owner"] is None)
    for section in state["castle"]:
        houses.update(section)
    for seat, p in enumerate(state["players"]):
        assert p["houses"] == houses[seat], (seat, p["houses"], houses[seat])
    for index, section in enumerate(state["castle"]):
        assert len(section) <= (6, 10, 14)[index]
    assert 1 <= state["provost"] <= 28 and 6 <= state["bailiff"] <= 28
    assert len(state["castle_workers"]) == len(set(state["castle_workers"]))
    if state["result"] is None:
        d = state["favours"][0] if state["favours"] else state["decision"]["seat"]
        assert d in range(seats)
