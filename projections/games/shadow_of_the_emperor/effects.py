"""Phase-IV effects (cards, Trier, Koeln, Pfalz): which choices exist and what they do.

A choice is ``{"target", "space", "side"}`` (unused keys None), the same keys a
``take_card`` or ``use_privilege`` payload carries, so legality is a membership test.
"""

from __future__ import annotations

from typing import Any

from projections.games.base import State

from . import board
from .board import Piece
from .components import AGES, PIECES, VP
from .economy import gain_vp

Choice = dict[str, Any]
"""``{"target", "space", "side"}``: a location, a location and a side (``"baron"`` or
``"couple"``), each ``None`` when unused. Read from a payload, so any JSON until it is
found among the offered choices."""

NO_CHOICE: Choice = {"target": None, "space": None, "side": None}


def choice(target: str | None = None, space: str | None = None, side: str | None = None) -> Choice:
    return {"target": target, "space": space, "side": side}


def doctor_targets(state: State, seat: int) -> list[str]:
    """Own nobles that can grow younger (not 15), or any opponent's noble on the board."""
    return [loc for loc, piece in board.board_nobles(state) if piece["owner"] != seat or piece["age"] > AGES[0]]


def choices(state: State, seat: int, card: str) -> list[Choice]:
    """Every way ``seat`` can carry out the phase-IV action of ``card`` now (money aside)."""
    player = state["players"][seat]
    if card == "doctor":
        return [choice(target=loc) for loc in doctor_targets(state, seat)]
    if card == "move":
        out: list[Choice] = []
        for source in board.nobles_on_spaces(state, seat):
            electorate = board.parse(source)[0]
            out.extend(choice(target=source, space=dest) for dest in board.arrival_anywhere(state, exclude=electorate))
        return out
    if card == "permit":
        if player["nobles"] == 0:
            return []
        spaces = board.arrival_anywhere(state)
        return [choice(space=loc, side=side) for side in ("baron", "couple") for loc in spaces]
    if card == "ordinance":
        if player["cities"] == 0:
            return []
        return [choice(space=loc) for loc in board.empty_city_spaces(state)]
    if card == "promotion":
        if player["nobles"] == 0:
            return []
        return [choice(target=loc) for loc in board.knights_on_board(state, seat) if "/a" in loc]
    if card == "foreign_kings_daughter":
        return [choice(target=loc) for loc in board.single_baron_targets(state, [seat])]
    if card == "indulgence":
        return [dict(NO_CHOICE)]
    raise KeyError(card)


def pfalz_choices(state: State, seat: int) -> list[Choice]:
    if state["players"][seat]["nobles"] == 0:
        return []
    return [choice(space=loc) for loc in board.arrival_anywhere(state)]


# -- carrying out -------------------------------------------------------------------


def enter_noble(state: State, loc: str, piece: Piece) -> None:
    """Put a noble on an aristocrat space, pushing out the knight standing there if any."""
    slot = board.get(state, loc)
    if board.is_knight(slot):
        state["players"][slot["owner"]]["knights"] += 1
    board.put(state, loc, piece)


def place_from_supply(state: State, seat: int, loc: str, couple: bool, age: int) -> None:
    state["players"][seat]["nobles"] -= 1
    enter_noble(state, loc, board.noble(seat, couple, age))


def age_noble(state: State, loc: str, step: int) -> None:
    """Doctor: one stage younger (own) or older (opponent's); older than 45 dies to supply.

    A dead elector leaves its seat empty until phase V; a dead emperor leaves the throne
    empty, which the flow refills at once by the aging rule."""
    piece = dict(board.get(state, loc))
    index = AGES.index(piece["age"]) + step
    if index >= len(AGES):
        state["players"][piece["owner"]]["nobles"] += 1
        board.put(state, loc, None)
        return
    piece["age"] = AGES[index]
    board.put(state, loc, piece)


def carry_out(state: State, seat: int, card: str, picked: Choice) -> None:
    if card == "doctor":
        target = board.get(state, picked["target"])
        age_noble(state, picked["target"], -1 if target["owner"] == seat else 1)
    elif card == "move":
        piece = board.get(state, picked["target"])
        board.put(state, picked["target"], None)
        enter_noble(state, picked["space"], piece)
    elif card == "permit":
        place_from_supply(state, seat, picked["space"], picked["side"] == "couple", AGES[0])
    elif card == "ordinance":
        player = state["players"][seat]
        player["cities"] -= 1
        board.put(state, picked["space"], seat)
        placed = PIECES["cities"] - player["cities"]
        gain_vp(state, seat, VP["city_by_ordinal"][placed - 1])
    elif card == "promotion":
        state["players"][seat]["knights"] += 1
        board.put(state, picked["target"], None)
        place_from_supply(state, seat, picked["target"], False, AGES[0])
    elif card == "foreign_kings_daughter":
        piece = dict(board.get(state, picked["target"]))
        piece["couple"] = True
        board.put(state, picked["target"], piece)
    elif card == "indulgence":
        gain_vp(state, seat, VP["indulgence"])
    else:
        raise KeyError(card)
