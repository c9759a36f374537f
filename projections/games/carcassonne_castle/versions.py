"""The rules versions of Carcassonne: The Castle (docs/games/carcassonne_castle.md, "Rules versions").

A game folds forever under the version recorded in its ``game.created``:
1. the unfinished-feature wall tiles (4/5/6) defaulted to needing the holder's follower
   majority on the target;
2. they need none by default (the seed: 「玩家選擇一個未完成的道路」); recorded options make
   versions 1 and 2 fold alike;
3. any terrain may meet the pictures beside the wall's numbers (the seed: 「無論道路、城塔、
   房屋、庭院皆可與城牆框架上數字旁邊的圖案相連接」); paths must meet paths only against
   placed tiles. ``start_pictures=paths_match`` keeps the earlier reading.
"""

from __future__ import annotations

from projections.games.base import State, played_version

CURRENT = 3
ANY_TERRAIN_AT_START_PICTURES = 3


def version(state: State) -> int:
    return played_version(state, CURRENT)


def paths_match_at_start_pictures(state: State) -> bool:
    """Whether a tile's path must meet a start picture's path (and a pathless side a pathless
    picture): always under versions 1 and 2, and under the option ``start_pictures=paths_match``."""
    if version(state) < ANY_TERRAIN_AT_START_PICTURES:
        return True
    reading: str = state["options"].get("start_pictures", "any")
    return reading == "paths_match"
