"""Pure queries on one round's table: seats, adjacency, freedom, supplies.

``rd`` is the per-round dict of the state (``state["round_state"]``). Nothing here
changes it; everything a rule needs to know about the table is asked here.
"""

from __future__ import annotations

from .components import ROLES, STATUS_CARDS
from .state import Round


def living(rd: Round) -> list[int]:
    return [s for s, alive in enumerate(rd["alive"]) if alive]


def neighbours(rd: Round, seat: int) -> list[int]:
    """Nearest living seat on each side, skipping the dead (one entry with two alive)."""
    alive = living(rd)
    if seat not in alive or len(alive) < 2:
        return []
    i = alive.index(seat)
    left, right = alive[i - 1], alive[(i + 1) % len(alive)]
    return [left] if left == right else [left, right]


def adjacent(rd: Round, a: int, b: int) -> bool:
    return b in neighbours(rd, a)


def hidden_living(rd: Round) -> list[int]:
    return [s for s in living(rd) if not rd["revealed"][s]]


def is_free(rd: Round, seat: int) -> bool:
    return not rd["prison"][seat] and not rd["captured"][seat]


def active_dancers(rd: Round) -> list[int]:
    """Seats whose Belly Dancer effect is on: revealed, alive and not detained (G7)."""
    return [s for s in living(rd) if rd["revealed"][s] and rd["cards"][s] == "dancer" and not rd["prison"][s]]


def beside_active_dancer(rd: Round, seat: int) -> bool:
    return any(adjacent(rd, seat, d) for d in active_dancers(rd))


def face_up(rd: Round, role: str) -> int:
    """Cards of ``role`` lying face up: on revealed living seats or on dead seats."""
    return sum(1 for s, card in enumerate(rd["cards"]) if card == role and (rd["revealed"][s] or not rd["alive"][s]))


def unaccounted(rd: Round, role: str) -> int:
    """Cards of a fixed role in play that nobody can see: public arithmetic (digest 13.2)."""
    in_play: int = rd["composition"][role]
    return in_play - face_up(rd, role)


def in_use(rd: Round, card: str) -> int:
    if card == "crown":
        return 0 if rd["crown"] is None else 1
    if card in ("loyalist", "rebel"):
        side = "loyalists" if card == "loyalist" else "rebels"
        return sum(1 for f in rd["faction"] if f == side)
    return sum(1 for flag in rd[card if card != "capture" else "captured"] if flag)


def supply(rd: Round, card: str) -> int:
    count: int = STATUS_CARDS[card]["count"]
    return count - in_use(rd, card)


def team_of(rd: Round, seat: int) -> str | None:
    """The side a seat's card counts for now (Vizier: her faction card; Oracle: none)."""
    card = ROLES[rd["cards"][seat]]
    team: str = card["team_revealed"] if rd["revealed"][seat] else card["team_hidden"]
    if team == "faction":
        side: str | None = rd["faction"][seat]
        return side
    if team == "prediction":
        return None
    return team


def cards_in_play(rd: Round) -> list[str]:
    """Cards of living seats plus the spare (what can still act or come back, G16)."""
    return [rd["cards"][s] for s in living(rd)] + [rd["spare"]]
