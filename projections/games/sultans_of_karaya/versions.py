"""The rules versions of Sultans of Karaya (docs/games/sultans_of_karaya.md, "Rules versions").

A game folds forever under the version recorded in its ``game.created``:
1. investigate names only a face-down seat;
2. investigate names any other living seat, face up or down (the seed's 調查身分);
3. any Sultan or Guard at the table may forbid a detention, not only its target (the seed's
   禁止拘留), and ``swap_back_rule = both_directions_open`` keeps the swapper from swapping
   back on its next turn (before, the restriction ended with the turn it was set in).
"""

from __future__ import annotations

from projections.games.base import State, played_version

CURRENT = 3
INVESTIGATE_ANY_SEAT = 2
ANY_SULTAN_OR_GUARD_FORBIDS = 3
SWAP_BACK_OUTLIVES_THE_TURN = 3


def version(state: State) -> int:
    return played_version(state, CURRENT)
