"""Seating for multiplayer tables: a pure function of who has already met whom.

- Table sizes: as many tables as needed so that none is larger than the configured
  size, sizes as even as possible (10 players at tables of 3: 3, 3, 2, 2) as long as
  the game allows the smaller tables; otherwise fewer, larger tables when the game
  allows them; otherwise tables of the configured size and byes for the rest.
- Byes (only in that last case) go to the players with the fewest byes, lowest-ranked first.
- Meet new opponents: players are placed in ranking order at the table where they have
  met the others least, then pairs of players are swapped between tables while that
  lowers the number of repeated meetings (each repeat of a pair costs more than the one
  before it).
- First-player order rotates: at each table the player who sat first least often sits
  first, then whoever sat latest on average, then the lower-ranked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any


@dataclass
class Sitter:
    """One player as the seating sees them; ``rank`` 0 is the leader."""

    pid: str
    rank: int
    met: dict[str, Any] = field(default_factory=dict)  # pid -> times met
    firsts: int = 0
    seat_share: float = 0.0  # sum over past games of seat / (table size - 1): 0 first, 1 last
    games: int = 0
    byes: int = 0


@dataclass
class Seating:
    tables: list[Any]  # [[pid in seat order]]
    byes: list[Any]
    repeats: int  # pairs at the same table that had met before (counted per meeting)


def table_sizes(n: int, size: int, min_seats: int, max_seats: int) -> tuple[list[int], int]:
    """(sizes of the tables, number of byes) for ``n`` players at tables of ``size``."""
    if n < max(min_seats, 2):
        return [], n
    count = -(-n // size)
    sizes = _even(n, count)
    if min(sizes) >= min_seats:
        return sizes, 0
    count = n // size
    if count:
        sizes = _even(n, count)
        if max(sizes) <= max_seats:
            return sizes, 0
        return [size] * count, n - count * size
    return [n], 0  # fewer than ``size`` players but enough for one smaller table


def _even(n: int, count: int) -> list[int]:
    q, r = divmod(n, count)
    return [q + 1] * r + [q] * (count - r)


def seat_round(sitters: list[Sitter], size: int, min_seats: int, max_seats: int) -> Seating:
    ranked = sorted(sitters, key=lambda s: s.rank)
    sizes, bye_count = table_sizes(len(ranked), size, min_seats, max_seats)
    byes: list[Sitter] = []
    if bye_count:
        byes = sorted(ranked, key=lambda s: (s.byes, -s.rank))[:bye_count]
        ranked = [s for s in ranked if s not in byes]
    tables = _improve(_place(ranked, sizes))
    tables = _search(ranked, sizes, tables)
    ordered = [_seat_order(t) for t in tables]
    repeats = sum(_repeats(t) for t in tables)
    return Seating(ordered, [s.pid for s in byes], repeats)


def _met(a: Sitter, b: Sitter) -> int:
    return int(a.met.get(b.pid, 0))


def _table_cost(table: list[Sitter], fewest_firsts: int = 0) -> int:
    """Repeated meetings at a table (a pair that met k times before costs k*(k+1)/2),
    then, far behind, players owed the first seat beyond the one the table can give."""
    repeats = sum(_met(a, b) * (_met(a, b) + 1) // 2 for a, b in combinations(table, 2))
    owed = sum(1 for s in table if s.firsts == fewest_firsts)
    return repeats * 1000 + max(0, owed - 1)


def _repeats(table: list[Sitter]) -> int:
    return sum(1 for a, b in combinations(table, 2) if _met(a, b))


def _place(ranked: list[Sitter], sizes: list[int]) -> list[list[Sitter]]:
    tables: list[list[Sitter]] = [[] for _ in sizes]
    for sitter in ranked:
        open_tables = [i for i, t in enumerate(tables) if len(t) < sizes[i]]
        best = min(
            open_tables,
            key=lambda i: (
                sum(_met(sitter, o) for o in tables[i]),
                sum(1 for o in tables[i] if o.firsts <= sitter.firsts),
                i,
            ),
        )
        tables[best].append(sitter)
    return tables


def _improve(tables: list[list[Sitter]], max_passes: int = 20) -> list[list[Sitter]]:
    """Swap players between tables while any swap lowers the total cost."""
    tables = [list(t) for t in tables]
    fewest = min((s.firsts for t in tables for s in t), default=0)

    def _cost(table: list[Sitter]) -> int:
        return _table_cost(table, fewest)

    for _ in range(max_passes):
        improved = False
        for i, j in combinations(range(len(tables)), 2):
            for x in range(len(tables[i])):
                for y in range(len(tables[j])):
                    a, b = tables[i][x], tables[j][y]
                    before = _cost(tables[i]) + _cost(tables[j])
                    ti = tables[i][:x] + [b] + tables[i][x + 1 :]
                    tj = tables[j][:y] + [a] + tables[j][y + 1 :]
                    if _cost(ti) + _cost(tj) < before:
                        tables[i], tables[j] = ti, tj
                        improved = True
        if not improved:
            break
    return tables


def _search(
    ranked: list[Sitter], sizes: list[int], start: list[list[Sitter]], budget: int = 5000
) -> list[list[Sitter]]:
    """Branch and bound over the seatings, from the local optimum ``start``.

    Exhaustive for small fields (nine players in threes is a few hundred nodes), cut
    off after ``budget`` nodes for large ones, where the local optimum is kept.
    """
    fewest = min((s.firsts for s in ranked), default=0)
    best: list[Any] = [sum(_table_cost(t, fewest) for t in start), start]  # [cost, tables], set from visit()
    if best[0] == 0:
        return start
    tables: list[list[Sitter]] = [[] for _ in sizes]
    nodes = [0]

    def visit(k: int, cost: int) -> None:
        nodes[0] += 1
        if cost >= best[0] or nodes[0] > budget:
            return
        if k == len(ranked):
            total = sum(_table_cost(t, fewest) for t in tables)
            if total < best[0]:
                best[0], best[1] = total, [list(t) for t in tables]
            return
        sitter = ranked[k]
        tried_empty = set()
        for i, table in enumerate(tables):
            if len(table) >= sizes[i]:
                continue
            if not table:
                if sizes[i] in tried_empty:
                    continue  # empty tables of one size are interchangeable
                tried_empty.add(sizes[i])
            added = sum(m * (m + 1) // 2 for m in (_met(sitter, o) for o in table)) * 1000
            table.append(sitter)
            visit(k + 1, cost + added)
            table.pop()

    visit(0, 0)
    found: list[list[Sitter]] = best[1]
    return found


def _seat_order(table: list[Sitter]) -> list[str]:
    def lateness(s: Sitter) -> float:
        return s.seat_share / s.games if s.games else 0.5

    order = sorted(table, key=lambda s: (s.firsts, -lateness(s), -s.rank))
    return [s.pid for s in order]
