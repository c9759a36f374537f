"""The rules versions of Sultans of Karaya (docs/games/sultans_of_karaya.md, "Rules versions").

A game folds forever under the version recorded in its ``game.created``:
1. investigate names only a face-down seat;
2. investigate names any other living seat, face up or down (the seed's 調查身分).
"""

from __future__ import annotations

from projections.games.base import played_version

CURRENT = 2
INVESTIGATE_ANY_SEAT = 2


def version(state: dict) -> int:
    return played_version(state, CURRENT)
