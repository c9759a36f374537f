"""Where pieces stand: location strings and the small queries every rule needs.

A location is a string so payloads stay flat and postable:
``"throne"``, ``"<electorate>/elector"``, ``"<electorate>/a<i>"`` (aristocrat space),
``"<electorate>/city<i>"`` and ``"<electorate>/castle<i>"``.
A noble is ``{"owner", "couple", "age"}``; a knight on an aristocrat space is
``{"owner", "knight": true}``; a castle holds a seat number; a city space holds a
seat number or ``"empire"``.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from projections.games.base import State

from .components import ELECTORATE_ORDER, ELECTORATES

THRONE = "throne"

Piece = dict[str, Any]
"""A noble ``{"owner", "couple", "age"}``, or a knight on an aristocrat space ``{"owner", "knight": True}``."""
Slot = Any
"""What a space holds, JSON of several shapes: ``None``, a ``Piece``, a seat (a castle's
knight, a city) or ``"empire"`` (an empire city)."""


def noble(owner: int, couple: bool, age: int) -> Piece:
    return {"owner": owner, "couple": couple, "age": age}


def parse(loc: str) -> tuple[str, str, int]:
    """``(electorate, kind, index)``; kind is elector, a, city or castle; ("", "throne", 0)."""
    if loc == THRONE:
        return "", "throne", 0
    electorate, _, rest = loc.partition("/")
    if electorate not in ELECTORATES:
        raise ValueError(loc)
    if rest == "elector":
        return electorate, "elector", 0
    for kind in ("city", "castle", "a"):
        if rest.startswith(kind) and rest[len(kind) :].isdigit():
            return electorate, kind, int(rest[len(kind) :])
    raise ValueError(loc)


def valid(state: State, loc: object) -> bool:
    """Whether ``loc`` names a space of an electorate in play (or the throne)."""
    if not isinstance(loc, str):
        return False
    try:
        electorate, kind, index = parse(loc)
    except ValueError:
        return False
    if kind == "throne":
        return True
    area = state["electorates"][electorate]
    if not area["in_play"]:
        return False
    if kind == "elector":
        return True
    return index < len(area[_LISTS[kind]])


_LISTS = {"a": "nobles", "city": "cities", "castle": "castles"}


def get(state: State, loc: str) -> Slot:
    electorate, kind, index = parse(loc)
    if kind == "throne":
        return state["throne"]
    area = state["electorates"][electorate]
    if kind == "elector":
        return area["elector"]
    return area[_LISTS[kind]][index]


def put(state: State, loc: str, piece: Slot) -> None:
    """Set what stands at ``loc`` (``None`` empties it). Mutates: call on a copy."""
    electorate, kind, index = parse(loc)
    if kind == "throne":
        state["throne"] = piece
        return
    area = state["electorates"][electorate]
    if kind == "elector":
        area["elector"] = piece
    else:
        area[_LISTS[kind]][index] = piece


def in_play(state: State) -> list[str]:
    return [e for e in ELECTORATE_ORDER if state["electorates"][e]["in_play"]]


def is_noble(slot: Slot) -> TypeGuard[Piece]:
    return isinstance(slot, dict) and not slot.get("knight")


def is_knight(slot: Slot) -> TypeGuard[Piece]:
    return isinstance(slot, dict) and bool(slot.get("knight"))


def space_locs(state: State, electorate: str) -> list[str]:
    return [f"{electorate}/a{i}" for i in range(len(state["electorates"][electorate]["nobles"]))]


def empty_spaces(state: State, electorate: str) -> list[str]:
    slots = state["electorates"][electorate]["nobles"]
    return [f"{electorate}/a{i}" for i, slot in enumerate(slots) if slot is None]


def arrival_spaces(state: State, electorate: str) -> list[str]:
    """Where a noble may enter ``electorate``: an empty aristocrat space, or, only when
    there is none, an aristocrat space held by a knight (the knight is pushed out)."""
    empty = empty_spaces(state, electorate)
    if empty:
        return empty
    slots = state["electorates"][electorate]["nobles"]
    return [f"{electorate}/a{i}" for i, slot in enumerate(slots) if is_knight(slot)]


def arrival_anywhere(state: State, exclude: str | None = None) -> list[str]:
    out: list[str] = []
    for electorate in in_play(state):
        if electorate != exclude:
            out.extend(arrival_spaces(state, electorate))
    return out


def empty_knight_spaces(state: State) -> list[str]:
    """Empty aristocrat and castle spaces in play: where a knight may stand."""
    out: list[str] = []
    for electorate in in_play(state):
        area = state["electorates"][electorate]
        out.extend(f"{electorate}/a{i}" for i, slot in enumerate(area["nobles"]) if slot is None)
        out.extend(f"{electorate}/castle{i}" for i, slot in enumerate(area["castles"]) if slot is None)
    return out


def empty_city_spaces(state: State) -> list[str]:
    out: list[str] = []
    for electorate in in_play(state):
        cities = state["electorates"][electorate]["cities"]
        out.extend(f"{electorate}/city{i}" for i, slot in enumerate(cities) if slot is None)
    return out


def empire_city_locs(state: State) -> list[str]:
    out: list[str] = []
    for electorate in in_play(state):
        cities = state["electorates"][electorate]["cities"]
        out.extend(f"{electorate}/city{i}" for i, slot in enumerate(cities) if slot == "empire")
    return out


def board_nobles(state: State) -> list[tuple[str, Piece]]:
    """Every noble on the throne, an elector space or an aristocrat space, with its location."""
    out: list[tuple[str, Piece]] = []
    if state["throne"] is not None:
        out.append((THRONE, state["throne"]))
    for electorate in in_play(state):
        area = state["electorates"][electorate]
        if area["elector"] is not None:
            out.append((f"{electorate}/elector", area["elector"]))
        for i, slot in enumerate(area["nobles"]):
            if is_noble(slot):
                out.append((f"{electorate}/a{i}", slot))
    return out


def nobles_on_spaces(state: State, seat: int, electorate: str | None = None) -> list[str]:
    """Locations of ``seat``'s nobles on aristocrat spaces (never electors or the emperor)."""
    out: list[str] = []
    for e in [electorate] if electorate else in_play(state):
        for i, slot in enumerate(state["electorates"][e]["nobles"]):
            if is_noble(slot) and slot["owner"] == seat:
                out.append(f"{e}/a{i}")
    return out


def knights_on_board(state: State, seat: int) -> list[str]:
    out: list[str] = []
    for electorate in in_play(state):
        area = state["electorates"][electorate]
        out.extend(
            f"{electorate}/a{i}" for i, slot in enumerate(area["nobles"]) if is_knight(slot) and slot["owner"] == seat
        )
        out.extend(f"{electorate}/castle{i}" for i, slot in enumerate(area["castles"]) if slot == seat)
    return out


def elector_owner(state: State, electorate: str) -> int | None:
    area = state["electorates"][electorate]
    if not area["in_play"] or area["elector"] is None:
        return None
    owner: int = area["elector"]["owner"]
    return owner


def single_baron_targets(state: State, owners: list[int]) -> list[str]:
    """Single barons of ``owners`` that may become a couple: on an aristocrat space, a
    secular elector space or the throne -- never an archdiocese's elector."""
    out = []
    for loc, piece in board_nobles(state):
        if piece["couple"] or piece["owner"] not in owners:
            continue
        electorate, kind, _ = parse(loc)
        if kind == "elector" and ELECTORATES[electorate]["archdiocese"]:
            continue
        out.append(loc)
    return out
