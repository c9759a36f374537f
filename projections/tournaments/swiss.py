"""Swiss pairing for two-player games: a pure function of the standings so far.

The rules, in priority order:

1. Byes rotate: with an odd number of players one gets a bye, and it goes to a player
   with the fewest byes so far (nobody gets a second bye while another has none),
   the lowest-ranked such player that still lets the rest be paired without rematches.
2. No rematch while avoidable: if any pairing of the others avoids every repeat, the
   chosen one does; otherwise the number of repeats is the smallest possible.
   Within that, no pair of players who both went first (or both second) two or more
   games more often than the other way, while any pairing avoids it: one of them would
   end three games from even.
3. Score groups: players are taken top-down in ranking order and each is paired with
   the nearest-ranked opponent that keeps 1 and 2, so a score group pairs inside itself
   and only its odd player floats down to the next group.
4. First-player balance: whoever went first less often goes first; on a tie, the one
   who was second last time; then the higher-ranked player in odd rounds, the lower in
   even rounds.  Among equally good partners, one whose first-player need complements
   goes first.

The search is a depth-first matching with a failure memo over the set of unpaired
players, so proving that no rematch-free pairing exists stays cheap for tournament sizes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Entrant:
    """One player as the pairing sees them; ``rank`` 0 is the leader."""

    pid: str
    points: float
    rank: int
    opponents: frozenset[Any] = field(default_factory=frozenset)
    firsts: int = 0
    seconds: int = 0
    byes: int = 0
    last_first: bool | None = None  # True: went first last game; None: no game yet

    @property
    def balance(self) -> int:
        return self.firsts - self.seconds


@dataclass
class Pairing:
    pairs: list[Any]  # [(first_pid, second_pid)], top boards first
    bye: str | None
    rematches: int


def pair_round(entrants: list[Entrant], round_no: int) -> Pairing:
    """Pair one round. ``entrants`` are the active players (any order)."""
    ranked = sorted(entrants, key=lambda e: e.rank)
    if not ranked:
        return Pairing([], None, 0)
    candidates: list[Entrant | None] = [None]
    if len(ranked) % 2:
        fewest = min(e.byes for e in ranked)
        candidates = [e for e in reversed(ranked) if e.byes == fewest]
    # First try every bye candidate with no rematch at all; only then allow repeats.
    for allowed in range(0, len(ranked) // 2 + 1):
        for strict_colours in (True, False):
            for bye in candidates:
                players = [e for e in ranked if e is not bye]
                pairs = _match(players, allowed, strict_colours)
                if pairs is not None:
                    ordered = [_order(a, b, round_no) for a, b in pairs]
                    repeats = sum(1 for a, b in pairs if b.pid in a.opponents)
                    return Pairing(ordered, bye.pid if bye else None, repeats)
        if allowed == 0 and len(candidates) > 1:
            # Rematches are unavoidable: the bye goes to the lowest-ranked candidate.
            candidates = candidates[:1]
    raise AssertionError("unreachable: a pairing with rematches always exists")


def _match(players: list[Entrant], allowed_repeats: int, strict_colours: bool = True) -> list[Any] | None:
    """Pairs (higher, lower) using at most ``allowed_repeats`` rematches, or None. With
    ``strict_colours`` no pair leaves a player more than two games from even
    (``_colours_forbid``)."""
    index = {e.pid: i for i, e in enumerate(players)}
    met = [[index[o] for o in e.opponents if o in index] for e in players]
    met_sets = [set(m) for m in met]
    failed: set[tuple[int, int]] = set()
    n = len(players)

    def solve(mask: int, budget: int) -> list[Any] | None:
        if mask == (1 << n) - 1:
            return []
        if (mask, budget) in failed:
            return None
        top = next(i for i in range(n) if not mask >> i & 1)
        a = players[top]
        options = [j for j in range(top + 1, n) if not mask >> j & 1]
        options.sort(
            key=lambda j: (
                j in met_sets[top],
                abs(a.points - players[j].points),
                _colour_clash(a, players[j]),
                j,
            )
        )
        for j in options:
            cost = 1 if j in met_sets[top] else 0
            if cost > budget or (strict_colours and _colours_forbid(a, players[j])):
                continue
            rest = solve(mask | 1 << top | 1 << j, budget - cost)
            if rest is not None:
                return [(a, players[j]), *rest]
        failed.add((mask, budget))
        return None

    return solve(0, allowed_repeats)


def _colours_forbid(a: Entrant, b: Entrant) -> bool:
    """Both already two or more games ahead the same way: whoever goes first (or second)
    ends three from even, which the pairing allows only when nothing else pairs."""
    return a.balance * b.balance > 0 and min(abs(a.balance), abs(b.balance)) >= 2


def _colour_clash(a: Entrant, b: Entrant) -> int:
    """1 when both players lean the same way (both owed first, or both owed second)."""
    return 1 if a.balance * b.balance > 0 else 0


def _order(a: Entrant, b: Entrant, round_no: int) -> tuple[str, str]:
    """(first player, second player) for a pair where ``a`` is the higher-ranked."""
    if a.balance != b.balance:
        return (a.pid, b.pid) if a.balance < b.balance else (b.pid, a.pid)
    if a.last_first is not None and b.last_first is not None and a.last_first != b.last_first:
        return (b.pid, a.pid) if a.last_first else (a.pid, b.pid)
    return (a.pid, b.pid) if round_no % 2 else (b.pid, a.pid)
