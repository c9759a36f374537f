"""The open choices of every decision outside a phase-IV turn (lists of locations/values)."""

from __future__ import annotations

from . import board
from .components import ARCHDIOCESES, ELECTORATES, EMPEROR_TRACK, SECULAR


def setup_spaces(state: dict, piece: str) -> list[str]:
    if piece == "empire_city":
        return board.empty_city_spaces(state)
    if piece == "elector":
        return [f"{e}/elector" for e in board.in_play(state) if state["electorates"][e]["elector"] is None]
    if piece == "knight":
        return board.empty_knight_spaces(state)
    return [loc for e in board.in_play(state) for loc in board.empty_spaces(state, e)]


def enthrone_options(state: dict, seat: int) -> list[str]:
    """Nobles that may mount the throne: the seat's own on aristocrat spaces, never electors."""
    return board.nobles_on_spaces(state, seat)


def limbo_options(state: dict) -> list[str]:
    """Where a displaced elector (same electorate) or old emperor (any electorate) may go."""
    electorate = state["limbo"]["electorate"]
    if electorate is not None:
        return board.arrival_spaces(state, electorate)
    return board.arrival_anywhere(state)


def son_spaces(state: dict, seat: int) -> list[str]:
    if state["players"][seat]["nobles"] == 0:
        return []
    return board.arrival_anywhere(state)


def marriage_targets(state: dict, seat: int) -> list[str]:
    others = [s for s in range(state["seats"]) if s != seat]
    return board.single_baron_targets(state, others)


def elector_candidates(state: dict, electorate: str, seat: int) -> list[str]:
    """The winner's nobles on aristocrat spaces there; only single barons in an archdiocese."""
    locs = board.nobles_on_spaces(state, seat, electorate)
    if ELECTORATES[electorate]["archdiocese"]:
        locs = [loc for loc in locs if not board.get(state, loc)["couple"]]
    return locs


def target_options(state: dict, card: str) -> list[str]:
    pool = ARCHDIOCESES if card == "church_influence" else SECULAR
    return [e for e in pool if state["electorates"][e]["in_play"]]


def empire_city_actions(state: dict) -> list[dict]:
    """Phase VII: rounds 1-2 place a new empire city or else move one; round 3 move one."""
    rule = EMPEROR_TRACK[state["round"]]["empire_city"]
    if rule == "none":
        return []
    empty = board.empty_city_spaces(state)
    out = []
    if rule == "place_or_move" and state["empire_in_box"] > 0:
        out += [{"type": "place_empire_city", "payload": {"space": loc}} for loc in empty]
    out += [
        {"type": "move_empire_city", "payload": {"source": source, "space": loc}}
        for source in board.empire_city_locs(state)
        for loc in empty
    ]
    if out:
        out.append({"type": "skip_empire_city", "payload": {}})
    return out


def can_be_crowned(state: dict, seat: int) -> bool:
    """A Rival must be able to mount the throne: a noble on an aristocrat space, or one in supply."""
    return bool(enthrone_options(state, seat)) or state["players"][seat]["nobles"] > 0
