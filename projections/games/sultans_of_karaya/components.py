"""Component data, loaded once from data/components.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_DATA: dict[str, Any] = json.loads((Path(__file__).parent / "data" / "components.json").read_text(encoding="utf-8"))

ROLES: dict[str, dict[str, Any]] = _DATA["roles"]
FIXED_ROLES: list[str] = _DATA["fixed_roles"]
NEUTRAL_POOL: list[str] = _DATA["neutral_pool"]
DISTRIBUTION: dict[int, dict[str, int]] = {int(k): v for k, v in _DATA["distribution"].items() if not k.startswith("_")}
STATUS_CARDS: dict[str, dict[str, Any]] = _DATA["status_cards"]
FACTION_CARD: dict[str, str] = _DATA["faction_card"]
SCORING: dict[str, int] = _DATA["scoring"]
RECONSTRUCTED: dict[str, dict[str, Any]] = {k: v for k, v in _DATA["reconstructed"].items() if not k.startswith("_")}

SIDES = ["loyalists", "rebels"]
MIN_SEATS, MAX_SEATS = min(DISTRIBUTION), max(DISTRIBUTION)


def fixed_deck(seats: int) -> list[str]:
    """The blue and red cards in play at this player count, the same every round."""
    counts = DISTRIBUTION[seats]
    return [role for role in FIXED_ROLES for _ in range(counts[role])]


def in_play_counts(seats: int) -> dict[str, int]:
    """Public composition: how many of each fixed role, and how many neutrals (not which)."""
    return dict(DISTRIBUTION[seats])
