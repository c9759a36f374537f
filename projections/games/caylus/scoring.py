"""The end of the game: final conversion of gold, cubes and deniers, and the result (§9)."""

from __future__ import annotations

from ..base import State, ranking_from
from .components import FINAL, NON_GOLD
from .state import Goods, Player


def conversion(player: Player) -> Goods:
    """3 PP per gold, 1 PP per 3 other cubes (any mix), 1 PP per 4 deniers."""
    return {
        "gold": player["gold"] * FINAL["pp_per_gold"],
        "cubes": sum(player[c] for c in NON_GOLD) // FINAL["cubes_per_pp"],
        "deniers": player["deniers"] // FINAL["deniers_per_pp"],
    }


def finish_game(state: State) -> None:
    """Add the conversion to each player's prestige; all tied for first share the win."""
    breakdown = []
    for player in state["players"]:
        extra = conversion(player)
        breakdown.append({"before": player["pp"], **extra})
        player["pp"] += sum(extra.values())
    scores = [p["pp"] for p in state["players"]]
    state["final"] = breakdown
    state["phase"] = "over"
    state["decision"] = None
    state["result"] = {"scores": scores, "ranking": ranking_from(scores), "tiebreak": None}
