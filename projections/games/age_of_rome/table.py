"""Table geometry: seats around the rotating province board.

Only ``orientation`` and the start marker's province are stored; which province a
seat faces, who starts and the turn order are always derived from them.
"""

from __future__ import annotations

from projections.games.base import State

from .content import RING


def occupant(state: State, table_seat: int) -> int | None:
    """The owner (player seat, or the solo rival) sitting at ``table_seat``."""
    table: list[int] = state["table"]
    return table.index(table_seat) if table_seat in table else None


def faced(state: State, owner: int) -> str:
    """The province in front of ``owner``."""
    index: int = (state["table"][owner] - state["orientation"]) % 4
    return RING[index]


def facing_owner(state: State, province: str) -> int | None:
    """Who faces ``province`` now (a seat, the rival, or None for an empty seat)."""
    return occupant(state, (RING.index(province) + state["orientation"]) % 4)


def step(direction: str) -> int:
    return 1 if direction == "cw" else -1


def start_player(state: State, direction: str) -> int:
    """The seat facing the start marker's province, else the next occupied seat in ``direction``."""
    if state["solo"]:
        return 0
    base = (RING.index(state["start_province"]) + state["orientation"]) % 4
    for k in range(4):
        who = occupant(state, (base + step(direction) * k) % 4)
        if who is not None and who < state["seats"]:
            return who
    raise AssertionError("no occupied seat")


def order_from(state: State, first: int, direction: str) -> list[int]:
    """Player seats (never the rival) from ``first`` around the table in ``direction``."""
    start = state["table"][first]
    out = []
    for k in range(4):
        who = occupant(state, (start + step(direction) * k) % 4)
        if who is not None and who < state["seats"]:
            out.append(who)
    return out


def rotate(orientation: int, direction: str, steps: int) -> int:
    return (orientation + step(direction) * steps) % 4
