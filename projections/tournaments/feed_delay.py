"""The omniscient feed's delay: which entry of a game commentators may see now.

A hidden-information game's full state (hands, roles, votes) goes to the audience only
behind a delay the director sets on the tournament. This rule is pure (no clock, no
I/O) so the service, the verifier and the property test share it.

A delay is one of ``{"entries": N}`` (hold back the newest N entries),
``{"minutes": M}`` (show only entries at least M minutes old) or
``{"after_game": True}`` (nothing until the game is over). The default holds the whole
game back: a tournament that never chose shows nothing early.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from events.refusal import Refusal

Delay = dict[str, Any]

DEFAULT: Delay = {"after_game": True}

MAX_ENTRIES = 10_000
MAX_MINUTES = 24 * 60


class DelayError(Refusal):
    """A delay setting the feed cannot honour."""


def parse(value: Any) -> Delay:
    """The one delay ``value`` names, checked; ``DelayError`` otherwise."""
    if not isinstance(value, Mapping) or len(value) != 1:
        raise DelayError("bad_delay", "a delay is one of {entries: N}, {minutes: M} or {after_game: true}")
    [(kind, amount)] = value.items()
    if kind == "after_game" and amount is True:
        return {"after_game": True}
    if kind == "entries" and type(amount) is int and 0 <= amount <= MAX_ENTRIES:
        return {"entries": amount}
    if kind == "minutes" and type(amount) in (int, float) and 0 <= amount <= MAX_MINUTES:
        return {"minutes": amount}
    raise DelayError(
        "bad_delay",
        f"entries is a whole number 0..{MAX_ENTRIES}, minutes a number 0..{MAX_MINUTES}, after_game is true",
    )


def visible_seq(delay: Delay, entries: Sequence[tuple[int, float]], now: float, finished: bool) -> int | None:
    """The latest seq the feed may show at ``now``, or None for nothing yet.

    ``entries`` are the game's ``(seq, ts)`` in log order (ts in seconds). An entry
    written after ``now`` is never shown, whatever the delay."""
    past = [(seq, ts) for seq, ts in entries if ts <= now]
    if not past:
        return None
    if "after_game" in delay:
        return past[-1][0] if finished and len(past) == len(entries) else None
    if "entries" in delay:
        keep = len(past) - int(delay["entries"])
        return past[keep - 1][0] if keep > 0 else None
    cutoff = now - float(delay["minutes"]) * 60
    old = [seq for seq, ts in past if ts <= cutoff]
    return old[-1] if old else None
