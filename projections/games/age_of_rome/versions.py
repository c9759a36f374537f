"""The rules versions of Age of Rome (docs/games/age_of_rome.md, "Rules versions").

A game folds forever under the version recorded in its ``game.created``:
1. the religious medal's exchange (3 denarii for 1 glory) is a free action of its
   holder's own decision steps;
2. it is a standing interrupt: the holder may exchange at any time (the seed: 隨時),
   whoever the game is waiting for, without entering ``to_act``;
3. the building actions are permissions (the seed: 能): the legion move, the vote, the
   commerce draw and the Pantheon piece a follower on a military, political, commercial or
   religious building gives (each of the two a bonus token gives) may each be declined; and
   the province board turns after round 9 too, before final scoring (結束一輪遊戲).
"""

from __future__ import annotations

from projections.games.base import State, played_version

CURRENT = 3
EXCHANGE_AT_ANY_TIME = 2
BUILDING_ACTIONS_MAY_BE_DECLINED = 3
BOARD_TURNS_AFTER_LAST_ROUND = 3


def version(state: State) -> int:
    return played_version(state, CURRENT)
