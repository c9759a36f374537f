"""The rules versions of In the Shadow of the Emperor (docs/games/shadow_of_the_emperor.md,
"Rules versions"). A game folds forever under the version recorded in its ``game.created``:
1. Church Influence and Excommunication must name a target;
2. their holders may decline to name one (the seed: 可選擇), and the Gray Eminence's holder
   may decline to place the 45 baron (the seed: 可).
"""

from __future__ import annotations

from projections.games.base import played_version

CURRENT = 2
DECLINE_TARGET = 2
DECLINE_GRAY_EMINENCE = 2


def version(state: dict) -> int:
    return played_version(state, CURRENT)
