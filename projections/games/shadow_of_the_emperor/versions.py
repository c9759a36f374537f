"""The rules versions of In the Shadow of the Emperor (docs/games/shadow_of_the_emperor.md,
"Rules versions"). A game folds forever under the version recorded in its ``game.created``:
1. Church Influence and Excommunication must name a target;
2. their holders may decline to name one (the seed: 可選擇), and the Gray Eminence's holder
   may decline to place the 45 baron (the seed: 可);
3. a displaced noble's owner may take it back into his supply: the deposed emperor always
   (the seed: 退下皇位的貴族可放到任何選帝侯領內, *may* be placed), a displaced elector when his
   electorate has no empty aristocrat space (可移走 1名…騎士, a knight *may* be removed;
   otherwise 只好收回這名貴族, the noble comes back). Version 2 placed both wherever it could,
   without asking when only one place was left.
"""

from __future__ import annotations

from projections.games.base import State, played_version

CURRENT = 3
DECLINE_TARGET = 2
DECLINE_GRAY_EMINENCE = 2
TAKE_BACK_DISPLACED = 3


def version(state: State) -> int:
    return played_version(state, CURRENT)
