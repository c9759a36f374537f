"""Invariants of every Caylus state: components conserved, no negative stock, sane turn order."""

from __future__ import annotations

from projections.games.caylus.components import BUILDINGS, neutral_tiles, supply_tiles

STOCKS = ("deniers", "food", "wood", "stone", "cloth", "gold", "pp", "workers", "houses")
SPOTS = ("gate", "trading_post", "merchants_guild", "joust_field", "inn_left", "inn_right")
NEUTRALS = sorted(neutral_tiles())
_TILES: dict = {}


def tiles_at_setup(options: dict) -> list:
    key = bool(options.get("include_jeweller"))
    if key not in _TILES:
        _TILES[key] = sorted(supply_tiles(options))
    return _TILES[key]


def check_state(state: dict) -> None:
    seats = state["seats"]
    assert sorted(state["order"]) == list(range(seats)), "turn order is a permutation of the seats"
    assert len(set(state["passed"])) == len(state["passed"]) <= seats
    for seat, p in enumerate(state["players"]):
        for key in STOCKS:
            assert p[key] >= 0, (seat, key, p[key])
    # workers (6 each, at home or on the board) and houses (one per owned building,
    # pending neutral conversion or castle place)
    workers = [p["workers"] for p in state["players"]]
    houses = [0] * seats
    special = state["special"]
    for key in SPOTS:
        if special[key] is not None:
            workers[special[key]] += 1
    for seat in special["stables"] + state["castle_workers"]:
        workers[seat] += 1
    limited, neutrals = list(state["supply"]), list(state["discarded"])
    for sp in state["road"]:
        if sp["worker"] is not None:
            workers[sp["worker"]] += 1
        if sp["owner"] is not None:
            houses[sp["owner"]] += 1
        elif sp["convert_to"] is not None:
            houses[sp["convert_to"]] += 1
        building = sp["building"]
        if building:
            colour = BUILDINGS[building]["colour"]
            if colour == "neutral":
                neutrals.append(building)
            elif colour in ("wood", "stone", "prestige"):
                limited.append(building)
    for section in state["castle"]:
        for seat in section:
            houses[seat] += 1
    assert workers == [6] * seats, workers
    assert houses == [p["houses"] for p in state["players"]], houses
    assert sorted(limited) == tiles_at_setup(state["options"]), "wood/stone/prestige tiles conserved"
    assert sorted(neutrals) == NEUTRALS, "neutral tiles on the road or discarded"
    for index, section in enumerate(state["castle"]):
        assert len(section) <= (6, 10, 14)[index]
    assert 1 <= state["provost"] <= 28 and 6 <= state["bailiff"] <= 28
    assert len(state["castle_workers"]) == len(set(state["castle_workers"]))
    if state["result"] is None:
        asked = state["favours"][0] if state["favours"] else state["decision"]["seat"]
        assert asked in range(seats)
