"""The recorded result of a game: the rules' result, then forfeits and adjustments."""

from __future__ import annotations

from typing import TYPE_CHECKING

from events.shapes import JSON

from .games.base import Game, ranking_from

if TYPE_CHECKING:
    from .fold import PlatformState


def final_result(game: Game, pstate: PlatformState) -> JSON | None:
    """The result as the platform records it, or None while nothing has ended the game.

    A forfeited seat ranks below every other; referee adjustments add points and
    re-rank, keeping the rules' own order (its tie-breaks) among equal scores.
    """
    if pstate.get("cancelled"):  # a seat missed its first move: nobody wins, nothing is rated
        return {
            "scores": list(game.scores(pstate["state"]) or [0] * len(pstate["seats"])),
            "ranking": [1] * len(pstate["seats"]),
            "tiebreak": None,
            "forfeited": [],
            "adjustments": [list(a) for a in pstate["adjustments"]],
            "cancelled": True,
        }
    base = game.result(pstate["state"])
    forfeits = set(pstate["forfeits"])
    if base is None and not forfeits:
        return None
    forfeits |= set(pstate["withdrawn"])  # out of the standings, though a computer played on
    seats = len(pstate["seats"])
    if base is None:
        scores = game.scores(pstate["state"]) or [0] * seats
        base = {"scores": list(scores), "ranking": [1] * seats, "tiebreak": None}
    scores = list(base["scores"])
    for seat, points in pstate["adjustments"]:
        scores[seat] += points
    keys = [(seat not in forfeits, scores[seat], -base["ranking"][seat]) for seat in range(seats)]
    return {
        "scores": scores,
        "ranking": ranking_from(keys),
        "tiebreak": base.get("tiebreak"),
        "forfeited": sorted(forfeits),
        "adjustments": [list(a) for a in pstate["adjustments"]],
    }
