"""The rules versions of Age of Rome (docs/games/age_of_rome.md, "Rules versions").

A game folds forever under the version recorded in its ``game.created``:
1. the religious medal's exchange (3 denarii for 1 glory) is a free action of its
   holder's own decision steps;
2. it is a standing interrupt: the holder may exchange at any time (the seed: 隨時),
   whoever the game is waiting for, without entering ``to_act``.
"""

from __future__ import annotations

from projections.games.base import played_version

CURRENT = 2
EXCHANGE_AT_ANY_TIME = 2


def version(state: dict) -> int:
    return played_version(state, CURRENT)
