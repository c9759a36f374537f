"""Component data of Caylus, loaded once from ``data/caylus.json``.

Every figure of the game (buildings, road, castle, favour table, constants) lives in
the JSON; this module only loads it and offers a few derived look-ups.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA: dict[str, Any] = json.loads((Path(__file__).parent / "data" / "caylus.json").read_text())

CUBES: list[str] = DATA["cube_types"]
NON_GOLD: list[str] = DATA["non_gold"]
CONST: dict[str, Any] = DATA["constants"]
ROAD: dict[str, Any] = DATA["road"]
ROAD_LENGTH: int = ROAD["length"]
SPECIALS: list[str] = DATA["special_buildings"]
SPECIAL_NAMES: dict[str, str] = DATA["special_names"]
BUILDINGS: dict[str, dict[str, Any]] = DATA["buildings"]
"""Building id -> its tile: ``name``, ``colour``, ``cost``, ``prestige``, ``effect``, ..."""
SECTIONS: list[dict[str, Any]] = DATA["castle"]["sections"]
CASTLE: dict[str, Any] = DATA["castle"]
FAVOURS: dict[str, Any] = DATA["favours"]
FAVOUR_ROWS: list[str] = FAVOURS["rows"]
FINAL: dict[str, int] = DATA["final_conversion"]
BAILIFF_MAX: int = ROAD["bailiff_max"]["value"]

PRODUCTION_COLOURS = ("neutral", "fixed", "wood", "stone")
"""Colours of road buildings a worker may be placed on."""

CONSTRUCTIBLE = ("wood", "stone", "prestige")
"""Colours of the limited tiles kept in the supply."""


def colour(building: str | None) -> str | None:
    found: str | None = BUILDINGS[building]["colour"] if building else None
    return found


def name(building: str) -> str:
    found: str = BUILDINGS[building]["name"]
    return found


def supply_tiles(options: dict[str, Any]) -> list[str]:
    """The wood, stone and prestige tiles in the supply at setup, per the edition options."""
    return [
        bid
        for bid, b in BUILDINGS.items()
        if b["colour"] in CONSTRUCTIBLE and (not b.get("option") or options.get(b["option"]))
    ]


def neutral_tiles() -> list[str]:
    return [bid for bid, b in BUILDINGS.items() if b["colour"] == "neutral"]
