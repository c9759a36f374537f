"""Component data, read once from ``data/*.json``.

Everything a card or a board prints lives in the JSON files so a reconstructed value
can be replaced card by card without touching the rules code.
"""

from __future__ import annotations

import json
from pathlib import Path

_DATA = Path(__file__).parent / "data"


def _load(name: str):
    return json.loads((_DATA / name).read_text(encoding="utf-8"))


BOARD = _load("board.json")
CHARACTERS = {c["id"]: c for c in _load("characters.json")}
PLOT_ACTIONS = {p["id"]: p for p in _load("plot_actions.json")}
EVENTS = {e["id"]: e for e in _load("events.json")}
_COMMERCE = _load("commerce.json")
COMMERCE = {c["id"]: c for c in _COMMERCE["cards"]}
ANCHORS = list(_COMMERCE["anchors"])
MISSIONS = {m["id"]: m for m in _load("missions.json")}
SOLO = _load("solo.json")
RIVAL_CARDS = {c["id"]: c for c in SOLO["deck"]}

RING = BOARD["province_ring_clockwise"]
PROVINCES = {p["id"]: p for p in BOARD["provinces"]}
AREAS = [a["id"] for a in BOARD["battle_areas"]]
AREA = {a["id"]: a for a in BOARD["battle_areas"]}
TYPES = BOARD["building_types"]
TOKEN_TYPES = BOARD["token_types"]
TRACK = BOARD["vendetta_track_length"]
HAND_LIMIT = BOARD["hand_limit"]
TIERS = BOARD["pantheon"]["tiers"]


def is_anchor(card: str) -> bool:
    return card in ANCHORS


def build_cost(province: str, building: str, level: int) -> tuple[int, int]:
    """(denarii, glory) of building ``level`` of ``building`` in ``province``."""
    if level == 1:
        slot = PROVINCES[province]["slots"][building]
        return slot["cost"], slot["glory"]
    tile = BOARD["upper_tiles"][building][str(level)]
    return tile["cost"], tile["glory"]


def double_tax_penalty(population: int) -> int:
    return BOARD["double_tax_penalty"][str(population)]
