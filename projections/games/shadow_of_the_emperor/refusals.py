"""Why a choice is refused: specific codes for what the rules forbid.

Legality itself is a membership test against the enumerated choices; these helpers only
name the reason, so a refused event says *which* rule it broke.
"""

from __future__ import annotations

from typing import Any

from projections.games.base import State, refuse

from . import board
from .components import AGES, ELECTORATES
from .effects import Choice


def arrival_problem(state: State, loc: Any) -> tuple[str, str] | None:
    """Why a noble may not enter ``loc`` (an aristocrat space, pushing only when full)."""
    if not board.valid(state, loc):
        if (
            isinstance(loc, str)
            and loc.split("/")[0] in ELECTORATES
            and not state["electorates"][loc.split("/")[0]]["in_play"]
        ):
            return "electorate_out_of_play", "that electorate is not in play"
        return "invalid_space", f"{loc!r} is not a space on the board"
    electorate, kind, _ = board.parse(loc)
    if kind != "a":
        return "not_an_aristocrat_space", "nobles enter aristocrat spaces only"
    slot = board.get(state, loc)
    if board.is_noble(slot):
        return "space_occupied", "nothing ever pushes out a noble"
    if board.is_knight(slot) and board.empty_spaces(state, electorate):
        return "space_available", "a knight may be pushed out only when the electorate has no empty aristocrat space"
    return None


def check_arrival(state: State, loc: Any) -> None:
    problem = arrival_problem(state, loc)
    if problem:
        refuse(*problem, space=loc)


def explain_effect(state: State, seat: int, card: str, picked: Choice) -> None:
    """Raise the most specific reason why ``picked`` cannot carry out ``card``."""
    player = state["players"][seat]
    target, space = picked["target"], picked["space"]
    if card in ("doctor", "move", "foreign_kings_daughter") and not board.valid(state, target):
        refuse("invalid_target", f"{target!r} is not a space on the board")
    if card == "doctor":
        piece = board.get(state, target)
        if not board.is_noble(piece):
            refuse("invalid_target", "the Doctor ages or rejuvenates a noble")
        if piece["owner"] == seat and piece["age"] == AGES[0]:
            refuse("too_young", "a noble aged 15 cannot become younger")
    if card == "move":
        piece = board.get(state, target)
        if not board.is_noble(piece) or piece["owner"] != seat:
            refuse("not_your_piece", "Move takes one of your own nobles")
        if board.parse(target)[1] != "a":
            refuse("not_on_aristocrat_space", "the emperor and electors cannot be moved")
        if isinstance(space, str) and space.split("/")[0] == board.parse(target)[0]:
            refuse("same_electorate", "Move goes to a different electorate")
        check_arrival(state, space)
    if card in ("permit", "promotion") and player["nobles"] == 0:
        refuse("no_supply", "no noble left in your supply")
    if card == "permit":
        if picked["side"] not in ("baron", "couple"):
            refuse("invalid_side", "a Permit places a baron or a couple")
        check_arrival(state, space)
    if card == "ordinance":
        if player["cities"] == 0:
            refuse("no_supply", "no city left in your supply")
        if not board.valid(state, space) or board.parse(space)[1] != "city":
            refuse("invalid_space", "a city goes on a city space")
        if board.get(state, space) is not None:
            refuse("space_occupied", "that city space is taken")
    if card == "promotion":
        if not board.valid(state, target):
            refuse("invalid_target", f"{target!r} is not a space on the board")
        if board.parse(target)[1] == "castle":
            refuse("knight_in_castle", "only a knight on an aristocrat space can be promoted")
        slot = board.get(state, target)
        if not board.is_knight(slot) or slot["owner"] != seat:
            refuse("not_your_piece", "Promotion turns one of your own knights into a baron")
    if card == "foreign_kings_daughter":
        piece = board.get(state, target)
        if not board.is_noble(piece) or piece["owner"] != seat:
            refuse("not_your_piece", "the Foreign King's Daughter marries one of your own barons")
        if piece["couple"]:
            refuse("already_couple", "that noble is already a couple")
        electorate, kind, _ = board.parse(target)
        if kind == "elector" and ELECTORATES[electorate]["archdiocese"]:
            refuse("archdiocese_elector", "an archdiocese's elector must stay a single baron")
    refuse("cannot_carry_out", f"that {card} action cannot be carried out", choice=picked)
