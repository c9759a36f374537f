"""The generic guards every write of a game passes, written once (pure: they read a state)."""

from __future__ import annotations

from projections.fold import PlatformState
from service.services.callers import Caller, require_current
from service.services.errors import Conflict, Forbidden


def require_active(p: PlatformState) -> None:
    if p["status"] == "finished":
        raise Conflict("game_finished", "the game is over")
    if p["status"] == "paused":
        raise Conflict("game_paused", "the referee has paused the game")


def require_speaks_for_seat(p: PlatformState, caller: Caller) -> None:
    """A seat token speaks for its seat only while the seat is its kind's: a person's
    token not once a computer plays the seat (moves, undos, notes), the computer's not
    once a person does; and once the seat is claimed, only its account's."""
    require_current(p, caller)
    if caller.is_seat and (str(caller.seat) in p["bots"]) != caller.bot:
        raise Forbidden("computer_seat", "a computer plays this seat" if not caller.bot else "this seat is a person's")
