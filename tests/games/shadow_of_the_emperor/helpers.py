"""Builders for hand-made positions: an empty board at a chosen decision, pieces placed
by location, and a one-line way to post an event."""

from __future__ import annotations

from events.rng import SeededRng
from projections.games.shadow_of_the_emperor import GAME, board
from projections.games.shadow_of_the_emperor.components import stack_sizes
from projections.games.shadow_of_the_emperor.schemas import OptionsSchema
from tests.games.harness import assert_refused  # noqa: F401  (re-exported for the tests)


def options(**overrides) -> dict:
    """Validated options; ``rules_version`` is passed on to ``setup`` as the platform does."""
    version = {"rules_version": overrides.pop("rules_version")} if "rules_version" in overrides else {}
    return {**OptionsSchema().load(overrides), **version}


def new_game(seats: int = 4, seed: str = "t", **opts) -> dict:
    return GAME.setup(options(**opts), seats, SeededRng(seed, 0))


def blank(seats: int = 4, emperor: int = 0, round_: int = 1, seed: str = "t", **opts) -> dict:
    """A board with nothing on it (throne included), full supplies and stacks, 7 thalers each,
    waiting for the emperor's phase-IV turn. Tests put pieces with ``put`` before acting."""
    state = new_game(seats, seed=seed, first_emperor=emperor, **opts)
    for area in state["electorates"].values():
        area["elector"] = None
        area["used"] = False
        area["nobles"] = [None] * len(area["nobles"])
        area["cities"] = [None] * len(area["cities"])
        area["castles"] = [None] * len(area["castles"])
    for player in state["players"]:
        player.update(thalers=7, chip=7, vp=0, nobles=7, knights=3, cities=3, display=[], passed=False)
    state.update(
        round=round_,
        phase="actions",
        emperor=emperor,
        throne=None,
        queue=[],
        cursor=0,
        sub=None,
        limbo=None,
        empire_in_box=3,
        gray_eminences=[],
        stacks=stack_sizes(seats),
        active=emperor,
    )
    state["await"] = {"kind": "turn", "seat": emperor}
    put(state, "throne", emperor, False, 45)
    return state


def put(state: dict, loc: str, owner, couple: bool = False, age: int = 25, knight: bool = False) -> None:
    """Place a piece from its owner's supply: a noble, a knight (``knight=True``), a city
    (a city space; ``owner="empire"`` for an empire city)."""
    electorate, kind, _ = board.parse(loc)
    if kind == "city":
        if owner == "empire":
            state["empire_in_box"] -= 1
        else:
            state["players"][owner]["cities"] -= 1
        board.put(state, loc, owner)
    elif kind == "castle":
        state["players"][owner]["knights"] -= 1
        board.put(state, loc, owner)
    elif knight:
        state["players"][owner]["knights"] -= 1
        board.put(state, loc, {"owner": owner, "knight": True})
    else:
        if board.get(state, loc) is not None and board.is_noble(board.get(state, loc)):
            state["players"][board.get(state, loc)["owner"]]["nobles"] += 1
        state["players"][owner]["nobles"] -= 1
        board.put(state, loc, board.noble(owner, couple, age))


def turn(state: dict, seat: int) -> dict:
    """Make it ``seat``'s phase-IV turn."""
    state["active"] = seat
    state["await"] = {"kind": "turn", "seat": seat}
    return state


def act(state: dict, seat, type_: str, seed: str = "t", **payload) -> dict:
    return GAME.apply(state, {"type": type_, "seat": seat, "payload": payload}, SeededRng(seed, 0))


def card(state: dict, seat: int, name: str, target=None, space=None, side=None, decline=False) -> dict:
    return act(state, seat, "take_card", card=name, target=target, space=space, side=side, decline=decline)


def everyone_passes(state: dict) -> dict:
    """Pass for every seat still in phase IV, in turn order."""
    while state["phase"] == "actions" and state["await"] and state["await"]["kind"] == "turn":
        state = act(state, state["await"]["seat"], "pass")
    return state


def total_nobles(state: dict, seat: int) -> int:
    """Supply + board + gray eminences + limbo: always 7."""
    on_board = sum(1 for _, piece in board.board_nobles(state) if piece["owner"] == seat)
    eminences = sum(1 for g in state["gray_eminences"] if g["owner"] == seat)
    limbo = 1 if state["limbo"] and state["limbo"]["noble"]["owner"] == seat else 0
    return state["players"][seat]["nobles"] + on_board + eminences + limbo
