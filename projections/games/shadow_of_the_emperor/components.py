"""Component data (board, cards, emperor track), loaded once from data/components.json."""

from __future__ import annotations

import json
from pathlib import Path

DATA = json.loads((Path(__file__).parent / "data" / "components.json").read_text(encoding="utf-8"))

ELECTORATES = {e["id"]: e for e in DATA["electorates"]}
ELECTORATE_ORDER = [e["id"] for e in DATA["electorates"]]
"""Canonical order (reconstructed): phase V resolves electorates in this sequence."""
ARCHDIOCESES = [e for e in ELECTORATE_ORDER if ELECTORATES[e]["archdiocese"]]
SECULAR = [e for e in ELECTORATE_ORDER if not ELECTORATES[e]["archdiocese"]]

CARDS = {c["id"]: c for c in DATA["cards"]}
CARD_ORDER = [c["id"] for c in DATA["cards"]]
PHASE4_CARDS = [c for c in CARD_ORDER if CARDS[c]["phase"] == 4]
"""Cards whose action is carried out when taken; the only ones Trier can reproduce."""
TAKEABLE = [c for c in CARD_ORDER if not CARDS[c].get("brandenburg_only")]
"""Cards taken from the display with a turn; the Gray Eminence comes only via Brandenburg."""

PRIVILEGE_ACTIONS = [e for e in ELECTORATE_ORDER if ELECTORATES[e]["privilege_phase"] == 4]
EMPEROR_TRACK = {row["round"]: row for row in DATA["emperor_track"]}

ROUNDS = DATA["rounds"]
PIECES = DATA["pieces_per_player"]
EMPIRE_CITIES = DATA["empire_cities"]
STARTING_THALERS = DATA["starting_thalers"]
THALER_CAP = DATA["thaler_cap"]
BASE_INCOME = DATA["base_income"]
SAXONY_BONUS = DATA["saxony_income_bonus"]
KNIGHT_COST = DATA["knight_action_cost"]
CONVENT_THALERS = DATA["convent_thalers"]
AGES = DATA["ages"]
INFLUENCE = DATA["influence"]
VP = DATA["vp"]


def card_cost(card: str, side: str | None = None) -> int:
    cost = CARDS[card]["cost"]
    return cost[side or "baron"] if isinstance(cost, dict) else cost


def stack_sizes(seats: int) -> dict:
    return {c: CARDS[c]["count"][str(seats)] for c in CARD_ORDER}
