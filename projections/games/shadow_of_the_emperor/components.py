"""Component data (board, cards, emperor track), loaded once from data/components.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA: dict[str, Any] = json.loads((Path(__file__).parent / "data" / "components.json").read_text(encoding="utf-8"))

ELECTORATES: dict[str, dict[str, Any]] = {e["id"]: e for e in DATA["electorates"]}
ELECTORATE_ORDER: list[str] = [e["id"] for e in DATA["electorates"]]
"""Canonical order (reconstructed): phase V resolves electorates in this sequence."""
ARCHDIOCESES = [e for e in ELECTORATE_ORDER if ELECTORATES[e]["archdiocese"]]
SECULAR = [e for e in ELECTORATE_ORDER if not ELECTORATES[e]["archdiocese"]]

CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in DATA["cards"]}
CARD_ORDER: list[str] = [c["id"] for c in DATA["cards"]]
PHASE4_CARDS = [c for c in CARD_ORDER if CARDS[c]["phase"] == 4]
"""Cards whose action is carried out when taken; the only ones Trier can reproduce."""
TAKEABLE = [c for c in CARD_ORDER if not CARDS[c].get("brandenburg_only")]
"""Cards taken from the display with a turn; the Gray Eminence comes only via Brandenburg."""

PRIVILEGE_ACTIONS = [e for e in ELECTORATE_ORDER if ELECTORATES[e]["privilege_phase"] == 4]
EMPEROR_TRACK: dict[int, dict[str, Any]] = {row["round"]: row for row in DATA["emperor_track"]}

ROUNDS: int = DATA["rounds"]
PIECES: dict[str, int] = DATA["pieces_per_player"]
EMPIRE_CITIES: int = DATA["empire_cities"]
STARTING_THALERS: int = DATA["starting_thalers"]
THALER_CAP: int = DATA["thaler_cap"]
BASE_INCOME: int = DATA["base_income"]
SAXONY_BONUS: int = DATA["saxony_income_bonus"]
KNIGHT_COST: int = DATA["knight_action_cost"]
CONVENT_THALERS: int = DATA["convent_thalers"]
AGES: list[int] = DATA["ages"]
INFLUENCE: dict[str, int] = DATA["influence"]
VP: dict[str, Any] = DATA["vp"]
"""Points by occasion: integers, and ``city_by_ordinal`` a list of them."""


def card_cost(card: str, side: str | None = None) -> int:
    cost: int | dict[str, int] = CARDS[card]["cost"]
    return cost[side or "baron"] if isinstance(cost, dict) else cost


def stack_sizes(seats: int) -> dict[str, int]:
    return {c: CARDS[c]["count"][str(seats)] for c in CARD_ORDER}
