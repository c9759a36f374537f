"""Invariants checked after every event of a random game (digest 14)."""
from __future__ import annotations

from collections import Counter

from projections.games.carcassonne_castle import GAME
from projections.games.carcassonne_castle.components import ALL_CASTLE_TILES, ALL_WALL_TILES, INTERIOR

CASTLE_TILES = Counter(ALL_CASTLE_TILES)
WALL_TILES = Counter(ALL_WALL_TILES)


def castle_tiles(state) -> Counter:
    where = Counter(state["pile"]) + Counter(state["removed"]) + Counter(t for t, _ in state["board"].values())
    if state["tile"]:
        where[state["tile"]] += 1
    return where


def wall_tiles(state) -> Counter:
    return (Counter(k for k in state["frame"].values() if k is not None) + Counter(state["set_aside"])
            + Counter(t["kind"] for held in state["held"] for t in held))


class Invariants:
    """A ``check`` for harness.play that also remembers the previous scores."""

    def __init__(self):
        self.last_scores = None
        self.events = 0

    def __call__(self, state):
        self.events += 1
        assert castle_tiles(state) == CASTLE_TILES, "castle tiles are not conserved"
        assert wall_tiles(state) == WALL_TILES, "wall tiles are not conserved"
        for seat in range(state["seats"]):
            on_board = sum(1 for f in state["followers"] if f["seat"] == seat)
            assert state["supply"][seat] >= 0
            assert state["supply"][seat] + on_board == 6, "followers are not conserved"
        if self.last_scores is not None:
            assert all(new >= old for new, old in zip(state["score"], self.last_scores)), "a score went down"
        self.last_scores = list(state["score"])
        asked = GAME.to_act(state)
        if state["phase"] in ("place", "follower", "score", "post"):
            assert asked == {state["active"]}
        if state["phase"] == "place":
            assert state["tile"] is not None
        assert len(state["board"]) <= 60
        if state["phase"] == "over":
            assert not asked and len(INTERIOR) - len(state["board"]) >= 16
