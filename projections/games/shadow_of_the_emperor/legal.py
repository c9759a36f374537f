"""The open choices of every decision outside a phase-IV turn (lists of locations/values)."""

from __future__ import annotations

from projections.games.base import Action, State

from . import board, versions
from .components import ARCHDIOCESES, ELECTORATES, EMPEROR_TRACK, SECULAR


def setup_spaces(state: State, piece: str) -> list[str]:
    if piece == "empire_city":
        return board.empty_city_spaces(state)
    if piece == "elector":
        return [f"{e}/elector" for e in board.in_play(state) if state["electorates"][e]["elector"] is None]
    if piece == "knight":
        return board.empty_knight_spaces(state)
    return [loc for e in board.in_play(state) for loc in board.empty_spaces(state, e)]


def enthrone_options(state: State, seat: int) -> list[str]:
    """Nobles that may mount the throne: the seat's own on aristocrat spaces, never electors."""
    return board.nobles_on_spaces(state, seat)


def limbo_options(state: State) -> list[str]:
    """Where a displaced elector (same electorate) or old emperor (any electorate) may go."""
    electorate = state["limbo"]["electorate"]
    if electorate is not None:
        return board.arrival_spaces(state, electorate)
    return board.arrival_anywhere(state)


def may_take_back(state: State) -> bool:
    """Whether the displaced noble's owner may keep it off the board (rules version 3): the
    deposed emperor *may* be placed (可放到任何選帝侯領內), so always; a displaced elector *must*
    return to an empty aristocrat space of his electorate (必須放回), and only with none left
    *may* push a knight (可移走 1名…騎士) or else takes the noble back (只好收回這名貴族)."""
    if versions.version(state) < versions.TAKE_BACK_DISPLACED:
        return False
    electorate = state["limbo"]["electorate"]
    return electorate is None or not board.empty_spaces(state, electorate)


def son_spaces(state: State, seat: int) -> list[str]:
    if state["players"][seat]["nobles"] == 0:
        return []
    return board.arrival_anywhere(state)


def marriage_targets(state: State, seat: int) -> list[str]:
    others = [s for s in range(state["seats"]) if s != seat]
    return board.single_baron_targets(state, others)


def elector_candidates(state: State, electorate: str, seat: int) -> list[str]:
    """The winner's nobles on aristocrat spaces there; only single barons in an archdiocese."""
    locs = board.nobles_on_spaces(state, seat, electorate)
    if ELECTORATES[electorate]["archdiocese"]:
        locs = [loc for loc in locs if not board.get(state, loc)["couple"]]
    return locs


def target_options(state: State, card: str) -> list[str]:
    pool = ARCHDIOCESES if card == "church_influence" else SECULAR
    return [e for e in pool if state["electorates"][e]["in_play"]]


def empire_city_actions(state: State) -> list[Action]:
    """Phase VII: rounds 1-2 place a new empire city or else move one; round 3 move one."""
    rule = EMPEROR_TRACK[state["round"]]["empire_city"]
    if rule == "none":
        return []
    empty = board.empty_city_spaces(state)
    out: list[Action] = []
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


def can_be_crowned(state: State, seat: int) -> bool:
    """A Rival must be able to mount the throne: a noble on an aristocrat space, or one in supply."""
    return bool(enthrone_options(state, seat)) or state["players"][seat]["nobles"] > 0
