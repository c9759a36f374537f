"""The rules versions of Caylus (docs/games/caylus.md, "Rules versions").

A game folds forever under the version recorded in its ``game.created``:
1. as first released: with 2 players every bridge-cost placement, the castle too, costs 3
   once the opponent passed; the prestige and deniers rows of the favour table pay only the
   highest column the player may use;
2. the rulebook's readings: with 2 players the castle keeps the bridge number (2.(2)E; the 3
   of 6.(1)C is for 「非己方建築物」, buildings not one's own), and a favour pays any column
   from 1 to the marker in every row (4.(1): 「第1格至玩家代表物所在格間的任1格」).
"""

from __future__ import annotations

from projections.games.base import State, played_version

CURRENT = 2
CASTLE_AT_BRIDGE_NUMBER = 2
ANY_FAVOUR_COLUMN = 2


def version(state: State) -> int:
    return played_version(state, CURRENT)
