"""Component data, read once from ``data/*.json``.

Everything a card or a board prints lives in the JSON files so a reconstructed value
can be replaced card by card without touching the rules code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DATA = Path(__file__).parent / "data"


def _load(name: str) -> Any:
    return json.loads((_DATA / name).read_text(encoding="utf-8"))


# the JSON files' records, by id: every value JSON of its own shape (see data/*.json)
Record = dict[str, Any]

BOARD: Record = _load("board.json")
CHARACTERS: dict[str, Record] = {c["id"]: c for c in _load("characters.json")}
PLOT_ACTIONS: dict[str, Record] = {p["id"]: p for p in _load("plot_actions.json")}
EVENTS: dict[str, Record] = {e["id"]: e for e in _load("events.json")}
_COMMERCE: Record = _load("commerce.json")
COMMERCE: dict[str, Record] = {c["id"]: c for c in _COMMERCE["cards"]}
ANCHORS: list[str] = list(_COMMERCE["anchors"])
MISSIONS: dict[str, Record] = {m["id"]: m for m in _load("missions.json")}
SOLO: Record = _load("solo.json")
RIVAL_CARDS: dict[str, Record] = {c["id"]: c for c in SOLO["deck"]}

RING: list[str] = BOARD["province_ring_clockwise"]
PROVINCES: dict[str, Record] = {p["id"]: p for p in BOARD["provinces"]}
AREAS: list[str] = [a["id"] for a in BOARD["battle_areas"]]
AREA: dict[str, Record] = {a["id"]: a for a in BOARD["battle_areas"]}
TYPES: list[str] = BOARD["building_types"]
TOKEN_TYPES: list[str] = BOARD["token_types"]
TRACK: int = BOARD["vendetta_track_length"]
HAND_LIMIT: int = BOARD["hand_limit"]
TIERS: list[Record] = BOARD["pantheon"]["tiers"]


def is_anchor(card: str | None) -> bool:
    return card in ANCHORS


def build_cost(province: str, building: str, level: int) -> tuple[int, int]:
    """(denarii, glory) of building ``level`` of ``building`` in ``province``."""
    if level == 1:
        slot = PROVINCES[province]["slots"][building]
        return slot["cost"], slot["glory"]
    tile = BOARD["upper_tiles"][building][str(level)]
    return tile["cost"], tile["glory"]


def double_tax_penalty(population: int) -> int:
    penalty: int = BOARD["double_tax_penalty"][str(population)]
    return penalty
