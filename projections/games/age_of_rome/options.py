"""Game options: every open question of the digest (§15) with the digest's default."""

from __future__ import annotations

DEFAULTS = {
    "plot_launch_order": "clockwise",  # G2: or "turn_order"
    "plot_action_target": "plot_target",  # G1: or "any_opponent"
    "optional_characters": False,  # Livia and Junia join the random pool
    "solo_difficulty": "normal",  # easy / normal / hard
    "colosseum_counts_new_follower": True,  # G6
    "new_follower_same_phase": True,  # G7
    "lure_max_legions": 2,  # G8: 1 or 2
    "battle_ranking": "dense",  # G12: or "standard"
    "anchors_stealable": True,  # G9: Sell-off and Tariff may hit anchors
}

CHOICES = {
    "plot_launch_order": ["clockwise", "turn_order"],
    "plot_action_target": ["plot_target", "any_opponent"],
    "solo_difficulty": ["easy", "normal", "hard"],
    "battle_ranking": ["dense", "standard"],
}
