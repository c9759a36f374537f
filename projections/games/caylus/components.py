"""Component data of Caylus, loaded once from ``data/caylus.json``.

Every figure of the game (buildings, road, castle, favour table, constants) lives in
the JSON; this module only loads it and offers a few derived look-ups.
"""

from __future__ import annotations

import json
from pathlib import Path

DATA = json.loads((Path(__file__).parent / "data" / "caylus.json").read_text())

CUBES: list[str] = DATA["cube_types"]
NON_GOLD: list[str] = DATA["non_gold"]
CONST: dict = DATA["constants"]
ROAD: dict = DATA["road"]
ROAD_LENGTH: int = ROAD["length"]
SPECIALS: list[str] = DATA["special_buildings"]
SPECIAL_NAMES: dict = DATA["special_names"]
BUILDINGS: dict = DATA["buildings"]
SECTIONS: list[dict] = DATA["castle"]["sections"]
CASTLE: dict = DATA["castle"]
FAVOURS: dict = DATA["favours"]
FAVOUR_ROWS: list[str] = FAVOURS["rows"]
FINAL: dict = DATA["final_conversion"]
BAILIFF_MAX: int = ROAD["bailiff_max"]["value"]

PRODUCTION_COLOURS = ("neutral", "fixed", "wood", "stone")
"""Colours of road buildings a worker may be placed on."""

CONSTRUCTIBLE = ("wood", "stone", "prestige")
"""Colours of the limited tiles kept in the supply."""


def colour(building: str | None) -> str | None:
    return BUILDINGS[building]["colour"] if building else None


def name(building: str) -> str:
    return BUILDINGS[building]["name"]


def supply_tiles(options: dict) -> list[str]:
    """The wood, stone and prestige tiles in the supply at setup, per the edition options."""
    return [
        bid
        for bid, b in BUILDINGS.items()
        if b["colour"] in CONSTRUCTIBLE and (not b.get("option") or options.get(b["option"]))
    ]


def neutral_tiles() -> list[str]:
    return [bid for bid, b in BUILDINGS.items() if b["colour"] == "neutral"]
