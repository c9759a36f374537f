"""The next round of a tournament, planned from its state (pure).

Two-player tournaments use Swiss pairing (``swiss.py``); multiplayer ones seat tables
(``tables.py``). Both read the players' history from ``standings.records`` and the
ranking from ``standings.compute``, so a round depends only on the folded stream.

Round 1 of a tournament whose players registered with rated accounts is seeded by the
ratings their registrations recorded (``seeded_round``): Swiss pairs the top half
against the bottom half (seed 1 meets seed n/2+1, as FIDE's Dutch system does), and
tables are dealt serpentine by rating so every table holds a spread of strengths.
Unrated players seed below rated ones, in registration order.
"""

from __future__ import annotations

from typing import Any

from . import standings, swiss, tables
from .fold import TournamentConflict, active_players


def plan_round(state: dict[str, Any]) -> dict[str, Any]:
    """``{"round", "tables": [{"table", "seats": [pid]}], "byes": [pid]}`` for the next round."""
    active = active_players(state)
    number = len(state["rounds"]) + 1
    if len(active) < max(2, state["min_seats"]):
        raise TournamentConflict(
            "not_enough_players", f"{len(active)} active players; at least {max(2, state['min_seats'])} are needed"
        )
    if number == 1 and any(state["players"][p].get("rating") is not None for p in active):
        return seeded_round(state, active)
    rec = standings.records(state)
    order = {row["pid"]: i for i, row in enumerate(standings.compute(state))}
    if state["format"] == "swiss":
        entrants = [
            swiss.Entrant(
                pid=p,
                points=float(rec[p]["points"]),
                rank=order[p],
                opponents=frozenset(rec[p]["opponents"]),
                firsts=rec[p]["firsts"],
                seconds=rec[p]["seconds"],
                byes=rec[p]["byes"],
                last_first=rec[p]["last_first"],
            )
            for p in active
        ]
        pairing = swiss.pair_round(entrants, number)
        seated = [list(pair) for pair in pairing.pairs]
        byes = [pairing.bye] if pairing.bye else []
    else:
        sitters = []
        for p in active:
            met: dict[str, Any] = {}
            for o in rec[p]["opponents"]:
                met[o] = met.get(o, 0) + 1
            sitters.append(
                tables.Sitter(
                    pid=p,
                    rank=order[p],
                    met=met,
                    firsts=rec[p]["firsts"],
                    seat_share=float(rec[p]["seat_share"]),
                    games=rec[p]["firsts"] + rec[p]["seconds"],
                    byes=rec[p]["byes"],
                )
            )
        seating = tables.seat_round(sitters, state["options"]["table_size"], state["min_seats"], state["max_seats"])
        seated, byes = seating.tables, seating.byes
    return {"round": number, "tables": [{"table": i + 1, "seats": s} for i, s in enumerate(seated)], "byes": byes}


def fill_byes(state: dict[str, Any], plan: dict[str, Any], strength: int) -> dict[str, Any]:
    """``plan`` with its byes seated against computers of ``strength``: the players who
    would sit out sit together at tables of the configured size (two in Swiss), and a
    computer fills each seat left empty (``None`` in ``seats``, its strength in
    ``computers``). A player who sat first less often than not takes the first seat."""
    if not plan["byes"]:
        return plan
    size = 2 if state["format"] == "swiss" else max(state["options"]["table_size"], state["min_seats"], 2)
    size = min(size, state["max_seats"])
    rec = standings.records(state)
    byes = sorted(plan["byes"], key=lambda p: (rec[p]["firsts"] - rec[p]["seconds"], state["order"].index(p)))
    tables = list(plan["tables"])
    for start in range(0, len(byes), max(size - 1, 1)):
        group = byes[start : start + max(size - 1, 1)]
        seats: list[Any] = list(group) + [None] * (size - len(group))
        if len(group) == 1 and rec[group[0]]["firsts"] > rec[group[0]]["seconds"]:
            seats = [None, *group] + [None] * (size - 2)
        computers = {str(s): strength for s, pid in enumerate(seats) if pid is None}
        tables.append({"table": len(tables) + 1, "seats": seats, "computers": computers})
    return {**plan, "tables": tables, "byes": []}


def seeds(state: dict[str, Any], active: list[str]) -> list[str]:
    """Active players by recorded rating, best first; unrated after, by registration."""

    def key(pid: str) -> tuple[bool, float, int]:
        rating = state["players"][pid].get("rating")
        return (rating is None, -(rating or 0.0), state["order"].index(pid))

    return sorted(active, key=key)


def seeded_round(state: dict[str, Any], active: list[str]) -> dict[str, Any]:
    ranked = seeds(state, active)
    if state["format"] == "swiss":
        byes = [ranked.pop()] if len(ranked) % 2 else []  # the lowest seed sits out
        half = len(ranked) // 2
        # the higher seed moves first on odd boards, the lower on even ones
        seated = [[ranked[i], ranked[i + half]] if i % 2 == 0 else [ranked[i + half], ranked[i]] for i in range(half)]
    else:
        sizes, bye_count = tables.table_sizes(
            len(ranked), state["options"]["table_size"], state["min_seats"], state["max_seats"]
        )
        byes = ranked[len(ranked) - bye_count :] if bye_count else []
        ranked = ranked[: len(ranked) - bye_count]
        seated = serpentine(ranked, sizes)
    return {"round": 1, "tables": [{"table": i + 1, "seats": s} for i, s in enumerate(seated)], "byes": byes}


def serpentine(ranked: list[str], sizes: list[int]) -> list[list[str]]:
    """Deal players best first to tables 1..k, then k..1, and so on (skipping full
    tables); at each table the lowest seed sits first, to offset the first move."""
    out: list[list[str]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    players = iter(ranked)
    while sum(map(len, out)) < len(ranked):
        for i in order:
            if len(out[i]) < sizes[i]:
                out[i].append(next(players))
        order.reverse()
    return [list(reversed(t)) for t in out]
