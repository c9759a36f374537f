"""Invariants checked after every event of the random games."""

from __future__ import annotations

from collections import Counter

from projections.games.sultans_of_karaya import GAME
from projections.games.sultans_of_karaya.components import DISTRIBUTION, NEUTRAL_POOL, STATUS_CARDS
from projections.games.sultans_of_karaya.table import in_use


def check_state(state: dict) -> None:
    rd = state["round_state"]
    seats = state["seats"]
    counts = DISTRIBUTION[seats]
    # conservation of role cards: seats + spare hold exactly the round's deck
    held = Counter(rd["cards"] + [rd["spare"]])
    for role in ("sultan", "guard", "assassin", "slave"):
        assert held[role] == counts[role], (role, held)
    neutrals_in_play = [c for c in held.elements() if c in NEUTRAL_POOL]
    assert len(neutrals_in_play) == counts["neutrals"]
    assert sorted(neutrals_in_play + rd["set_aside"]) == sorted(NEUTRAL_POOL)
    # status cards never exceed their counts (no negative supply)
    for card, info in STATUS_CARDS.items():
        assert 0 <= in_use(rd, card) <= info["count"], card
    # status cards only where they can be
    for s in range(seats):
        if not rd["alive"][s]:
            assert rd["revealed"][s] and not rd["prison"][s] and not rd["captured"][s] and not rd["fatigue"][s]
        if rd["captured"][s]:
            assert rd["revealed"][s] and rd["cards"][s] == "slave"
        if rd["faction"][s] is not None:
            assert rd["revealed"][s] and rd["cards"][s] in ("vizier", "oracle")
    if any(rd["captured"]):
        assert any(rd["alive"][s] and rd["revealed"][s] and rd["cards"][s] == "slaver" for s in range(seats))
    if rd["crown"] is not None and not state["finished"]:
        assert any(rd["revealed"][s] and rd["alive"][s] and c == "sultan" for s, c in enumerate(rd["cards"]))
    # turn order sane: the turn owner is alive while the round runs, to_act public and non-empty
    if not state["finished"]:
        assert rd["alive"][rd["owner"]]
        asked = GAME.to_act(state)
        assert asked and all(rd["alive"][s] for s in asked)
    assert len(state["history"]) == state["round"] - (0 if state["finished"] else 1)
    assert state["totals"] == [sum(h["points"][s] for h in state["history"]) for s in range(seats)]
