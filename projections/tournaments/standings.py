"""Standings: a fold of the tournament state and its finished games' results.

Tournament points come from the finishing position (``ranking`` of the game's result,
1 best, ties share). At a table of the configured size ``T`` position ``p`` earns
``points[p-1]`` (default ``T-p``: 1/0 for two-player games, 2/1/0 at tables of three);
at a smaller or larger table the positions are spread evenly over the same scale, and
players tied for a place share the average of the places they cover (a draw is 0.5 each
in a two-player game). A bye earns ``bye_points`` (default: a win in Swiss, the middle
of the scale at tables).

Tie-breaks, in order:
- Swiss (two-player games): Buchholz (sum of the opponents' tournament points), then the
  total of the player's own game scores, then head-to-head among the tied players.
- Tables: the total of the player's own game scores, then head-to-head among the tied
  players (+1 for each tied opponent finished ahead of at a shared table, -1 behind).

Referee adjustments and forfeits reach the standings through the games' results: a game
reported after a forfeit already ranks the forfeiting seat last, and an adjustment
changes that game's scores before it is reported. A game cancelled because a seat
never made its first move counts as played by nobody: no points, no game.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any


def scale(options: dict[str, Any]) -> list[Fraction]:
    size = options["table_size"]
    custom = options.get("points")
    if custom:
        return [Fraction(str(x)) for x in custom]
    return [Fraction(size - p) for p in range(1, size + 1)]


def position_points(ranking: list[int], seat: int, options: dict[str, Any]) -> Fraction:
    """Points for ``seat`` given a game's ranking (ties share the places they cover)."""
    points = scale(options)
    n = len(ranking)
    rank = ranking[seat]
    tied = sum(1 for r in ranking if r == rank)
    places = range(rank, rank + tied)
    return sum((_at(points, place, n) for place in places), Fraction(0)) / tied


def _at(points: list[Fraction], place: int, n: int) -> Fraction:
    """Points for ``place`` (1-based) at a table of ``n``, on a scale made for len(points)."""
    size = len(points)
    if n == size or n == 1:
        return points[min(place, size) - 1]
    x = Fraction((place - 1) * (size - 1), n - 1)
    lo = int(x)
    hi = min(lo + 1, size - 1)
    return points[lo] + (points[hi] - points[lo]) * (x - lo)


def bye_points(options: dict[str, Any], fmt: str) -> Fraction:
    if options.get("bye_points") is not None:
        return Fraction(str(options["bye_points"]))
    points = scale(options)
    return points[0] if fmt == "swiss" else (points[0] + points[-1]) / 2


def records(state: dict[str, Any]) -> dict[str, Any]:
    """Per player: points, game scores, opponents, meetings, seat history, byes."""
    opts = state["options"]
    rec = {
        pid: {
            "pid": pid,
            "points": Fraction(0),
            "game_score": Fraction(0),
            "games": 0,
            "byes": 0,
            "wins": 0,
            "opponents": [],
            "meetings": [],
            "firsts": 0,
            "seconds": 0,
            "seat_share": Fraction(0),
            "last_first": None,
        }
        for pid in state["order"]
    }
    for rnd in state["rounds"]:
        for pid in rnd["byes"]:
            rec[pid]["byes"] += 1
            if rnd["status"] == "finished":
                rec[pid]["points"] += bye_points(opts, state["format"])
        for table in rnd["tables"]:
            seats = table["seats"]
            n = len(seats)
            players = [(s, pid) for s, pid in enumerate(seats) if pid is not None]
            for s, pid in players:
                r = rec[pid]
                if table.get("computers"):
                    r["byes"] += 1  # a bye filled by a computer: the next bye goes to someone else
                r["opponents"].extend(o for o in seats if o != pid and o is not None)
                r["firsts" if s == 0 else "seconds"] += 1
                r["last_first"] = s == 0
                r["seat_share"] += Fraction(s, max(n - 1, 1))
            result = table["result"]
            if result is None or result.get("cancelled"):  # a cancelled game scores for nobody
                continue
            for s, pid in players:
                r = rec[pid]
                r["games"] += 1
                r["points"] += position_points(result["ranking"], s, opts)
                r["game_score"] += Fraction(str(result["scores"][s] or 0))
                if result["ranking"][s] == 1 and result["ranking"].count(1) == 1:
                    r["wins"] += 1
                r["meetings"].append(
                    {
                        o: result["ranking"][s] - result["ranking"][k]
                        for k, o in enumerate(seats)
                        if o != pid and o is not None
                    }
                )
    return rec


def compute(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The standings table, best first; ``rank`` is shared when every key ties."""
    rec = records(state)
    swiss = state["format"] == "swiss"
    for r in rec.values():
        r["buchholz"] = sum((rec[o]["points"] for o in r["opponents"] if o in rec), Fraction(0))

    def primary(pid: str) -> tuple[Any, ...]:
        r = rec[pid]
        return (r["points"], r["buchholz"], r["game_score"]) if swiss else (r["points"], r["game_score"])

    groups: dict[tuple[Any, ...], list[str]] = {}
    for pid in state["order"]:
        groups.setdefault(primary(pid), []).append(pid)
    rows = []
    for key in sorted(groups, reverse=True):
        tied = groups[key]
        h2h = {pid: _head_to_head(rec[pid], set(tied) - {pid}) for pid in tied}
        for pid in sorted(tied, key=lambda p: (-h2h[p], state["order"].index(p))):
            rows.append((key + (h2h[pid],), pid))
    table: list[dict[str, Any]] = []
    for i, (key, pid) in enumerate(rows):
        rank = i + 1 if i == 0 or rows[i - 1][0] != key else table[-1]["rank"]
        r = rec[pid]
        player = state["players"][pid]
        tiebreaks = {"game_score": _num(r["game_score"]), "head_to_head": key[-1]}
        if swiss:
            tiebreaks = {"buchholz": _num(r["buchholz"]), **tiebreaks}
        table.append(
            {
                "rank": rank,
                "pid": pid,
                "name": player["name"],
                "withdrawn": player["withdrawn"],
                **({"account": player["account"], "rating": player["rating"]} if player.get("account") else {}),
                "points": _num(r["points"]),
                "tiebreaks": tiebreaks,
                "games": r["games"],
                "wins": r["wins"],
                "byes": r["byes"],
            }
        )
    return table


def _head_to_head(rec: dict[str, Any], tied: set[Any]) -> int:
    """+1 per tied opponent finished ahead of at a shared table, -1 per one behind."""
    total = 0
    for meeting in rec["meetings"]:
        for other, diff in meeting.items():
            if other in tied and diff:
                total += 1 if diff < 0 else -1
    return total


def _num(value: Fraction) -> float | int:
    """A JSON number: an int when whole, else a float rounded to 6 places."""
    return int(value) if value.denominator == 1 else round(float(value), 6)
