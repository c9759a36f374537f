"""Invariants checked after every event of a random game (digest 14)."""

from __future__ import annotations

from collections import Counter

from projections.games.carcassonne_castle import GAME
from projections.games.carcassonne_castle.components import ALL_CASTLE_TILES, ALL_WALL_TILES, INTERIOR
from projections.games.carcassonne_castle.placement import side_neighbour

CASTLE_TILES = Counter(ALL_CASTLE_TILES)
WALL_TILES = Counter(ALL_WALL_TILES)


def castle_tiles(state) -> Counter:
    where = Counter(state["pile"]) + Counter(state["removed"]) + Counter(t for t, _ in state["board"].values())
    if state["tile"]:
        where[state["tile"]] += 1
    return where


def wall_tiles(state) -> Counter:
    return (
        Counter(k for k in state["frame"].values() if k is not None)
        + Counter(state["set_aside"])
        + Counter(t["kind"] for held in state["held"] for t in held)
    )


class Invariants:
    """A ``check`` for harness.play that also remembers the previous scores."""

    def __init__(self):
        self.last_scores = None
        self.last_turn = None  # (turn, active)
        self.placed = 0
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
        self._turn_order(state)
        self._placements(state)
        asked = GAME.to_act(state)
        if state["phase"] in ("place", "follower", "score", "post"):
            assert asked == {state["active"]}
        if state["phase"] == "place":
            assert state["tile"] is not None
        assert len(state["board"]) <= 60
        if state["phase"] == "over":
            assert not asked and len(INTERIOR) - len(state["board"]) >= 16

    def _turn_order(self, state):
        """Turns count up by one; play alternates unless an extra-turn tile was just used."""
        now = (state["turn"], state["active"])
        if self.last_turn is not None and now[0] != self.last_turn[0]:
            assert now[0] == self.last_turn[0] + 1, "a turn was skipped"
            extra = any(r["what"] == "extra_turn" for r in state["recent"])
            expected = self.last_turn[1] if extra else 1 - self.last_turn[1]
            assert now[1] == expected, "the wrong seat took the next turn"
        self.last_turn = now
        for held in state["held"]:
            assert all(t["kind"] in (1, 2, 3) for t in held if t["used"]), "only tiles 1-3 are spent in play"

    def _placements(self, state):
        """Every new tile shares a side with an earlier tile or a start space (digest 14)."""
        placed = state["placed"]
        for x, y in placed[self.placed :]:
            earlier = {f"{a},{b}" for a, b in placed[: placed.index([x, y])]}
            sides = [side_neighbour(state["board"], x, y, side) for side in range(4)]
            assert any(kind == "start" or (kind == "tile" and what in earlier) for kind, what in sides), (
                f"tile on ({x},{y}) touches nothing placed before it"
            )
        self.placed = len(placed)
