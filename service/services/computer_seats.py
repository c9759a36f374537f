"""Computer seats: who is charged for them, and telling the bot pool when one is awaited
(it never polls every game).

Each game's computer seats are charged to its creator (an account or an address; a
tournament for the director's games). A creator may have at most ``caps.seats``
computer seats in unfinished games, their strengths adding up to at most
``caps.strength``: one client must not be able to fill the pool with strong computers
(the pool is shared by every game on the server). The queue (``BotQueue``) is fair
across creators, by each move's think-time budget, so a creator's many games take
turns with everyone else's one.
"""

from __future__ import annotations

from dataclasses import dataclass

from events.shapes import Envelope
from projections import fold
from projections.bots.search import Budget
from projections.fold import PlatformState
from service.ports import BotQueue, GameLog, Lagging
from service.services.errors import RateLimited

THINK_SECONDS = {1: 2.0, 2: 5.0, 3: 12.0}
"""Strength -> the documented bound on a move's think time (from a worker taking it to
the move written; docs/BOTS.md), and its cost in the fair queue."""

STRENGTHS = {
    1: Budget(iterations=24, rollout_depth=60, seconds=1.2),
    2: Budget(iterations=60, rollout_depth=200, seconds=4.0),
    3: Budget(iterations=160, rollout_depth=400, seconds=10.0),
}
"""Strength -> search budget per move. ``seconds`` stops the search short of the
think-time bound, leaving room for the last iteration, the slices of the other searches
the worker takes turns with, and writing the move."""

UNCAPPED = 1 << 30


@dataclass(frozen=True)
class Caps:
    """Per creator, over its unfinished games: computer seats, and their strengths'
    sum (0: no cap)."""

    seats: int = 0
    strength: int = 0


NO_CAPS = Caps()


class ComputerSeats:
    def __init__(self, queue: BotQueue, log: GameLog, lagging: Lagging, caps: Caps = NO_CAPS) -> None:
        self._queue = queue
        self._log = log
        self._lagging = lagging
        self._caps = caps

    def claim(self, owner: str, game_id: str, bots: dict[int, int], capped: bool = True) -> None:
        """Charge ``game_id``'s computer seats (all of them, ``bots``: seat -> strength) to
        ``owner``, or refuse (429 ``computer_seats_cap``) when that would take the owner
        past its caps. Games of the owner that have finished since are released first."""
        seats, strength = len(bots), sum(bots.values())
        max_seats = (self._caps.seats or UNCAPPED) if capped else UNCAPPED
        max_strength = (self._caps.strength or UNCAPPED) if capped else UNCAPPED
        granted, _, _ = self._queue.claim(owner, game_id, seats, strength, max_seats, max_strength)
        if not granted:
            self._prune(owner, game_id)
            granted, total_seats, total_strength = self._queue.claim(
                owner, game_id, seats, strength, max_seats, max_strength
            )
            if not granted:
                raise RateLimited(
                    "computer_seats_cap",
                    f"at most {max_seats} computer seats of strengths adding up to {max_strength} "
                    "may play in one creator's unfinished games",
                    {
                        "seats": total_seats - seats,
                        "strength": total_strength - strength,
                        "max_seats": max_seats,
                        "max_strength": max_strength,
                    },
                    retry_after=60,
                )

    def _prune(self, owner: str, keep: str) -> None:
        for game_id in self._queue.held(owner):
            if game_id == keep:
                continue
            p = self._log.state_or_none(game_id)
            if p is None or p["status"] == "finished":
                self._queue.release(owner, game_id)

    def schedule(self, game_id: str, p: PlatformState) -> None:
        if not p["bots"] or p["status"] != "active":
            return
        waiting = [p["bots"][str(s)] for s in fold.awaited(p) if str(s) in p["bots"]]
        if waiting:
            owner = self._queue.owner(game_id) or f"game:{game_id}"
            self._queue.due(game_id, owner, cost(max(waiting)))

    def scheduled(
        self, game_id: str, before: PlatformState | None, envelopes: list[Envelope], after: PlatformState
    ) -> None:
        """After an append: a game with computer seats may now await one, or be over."""
        if not after["bots"]:
            return
        if after["status"] == "finished":
            if before is not None and before["status"] != "finished":
                self._lagging.run(("bots-release", game_id), lambda: self.release(game_id))
            return
        self._lagging.run(("bots", game_id), lambda: self.schedule(game_id, after))

    def release(self, game_id: str) -> None:
        owner = self._queue.owner(game_id)
        if owner is not None:
            self._queue.release(owner, game_id)


def cost(strength: int) -> float:
    """A move's weight in the fair queue: its think-time bound in seconds."""
    return THINK_SECONDS.get(strength) or THINK_SECONDS[max(THINK_SECONDS)]
