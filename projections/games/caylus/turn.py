"""The turn's seven phases as a small state machine (§5).

``advance`` runs every step that needs no decision, until the game waits for a seat:
an owed favour first (they are resolved at once), else ``state["decision"]``. Each
phase keeps its place in ``state["cursor"]``; the handlers of ``actions.py`` record a
decision's effect and move the cursor on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from ..base import State
from .castle import batch_options, best_builder, current_section, no_batch_penalty, score_section, section_due
from .components import BAILIFF_MAX, BUILDINGS, CONST, SECTIONS, SPECIALS
from .construction import finish_conversion, grant_favours, income
from .road import activation_options, owner_bonus_due
from .scoring import finish_game
from .state import Decision, two_players


def current_decision(state: State) -> Decision | None:
    """What the game waits for: an owed favour comes before anything else."""
    if state["result"] is not None:
        return None
    if state["favours"]:
        return {"kind": "favour", "seat": state["favours"][0]}
    decision: Decision | None = state["decision"]
    return decision


def awaited(state: State) -> Decision:
    """The decision a running game waits for: ``advance`` always stops at one, so only a
    finished game has none (and the skeleton's guards refuse every event to it)."""
    return cast(Decision, current_decision(state))


def advance(state: State) -> None:
    while state["result"] is None:
        if state["favours"]:
            seat = state["favours"][0]
            if state["options"].get("beginner_favours"):
                state["favours"].pop(0)
                state["players"][seat]["pp"] += CONST["beginner_favour_pp"]
                continue
            if len(state["favour_rows_used"][seat]) >= len(state["favour_markers"][seat]):
                state["favours"].pop(0)  # a fifth favour in one phase is lost
                continue
            return
        if state["decision"] is not None:
            return
        STEPS[state["phase"]](state)


def decide(state: State, kind: str, seat: int, **context: Any) -> None:
    state["decision"] = {"kind": kind, "seat": seat, **context}


def enter_phase(state: State, phase: str, cursor: Any) -> None:
    """Favours of one phase must use different rows, so the record resets per phase."""
    state["phase"] = phase
    state["cursor"] = cursor
    state["favour_rows_used"] = [[] for _ in range(state["seats"])]


def return_worker(state: State, seat: int) -> None:
    state["players"][seat]["workers"] += 1


# -- phase 1 and the start of a turn ---------------------------------------------------
def start_turn(state: State) -> None:
    state["turn"] += 1
    if two_players(state) and state["turn"] > 1:
        state["order"] = state["order"][::-1]
    for seat in range(state["seats"]):
        state["players"][seat]["deniers"] += income(state, seat)
    state["passed"] = []
    state["castle_placed"] = [0] * state["seats"]
    enter_phase(state, "place", 0)


# -- phase 2 -------------------------------------------------------------------------
def step_place(state: State) -> None:
    if len(state["passed"]) == state["seats"]:
        enter_phase(state, "special", 0)
        return
    decide(state, "place", state["order"][state["cursor"]])


def next_placer(state: State) -> None:
    """The next seat in turn order that has not passed (the cursor wraps around)."""
    order, n = state["order"], state["seats"]
    for step in range(1, n + 1):
        index = (state["cursor"] + step) % n
        if order[index] not in state["passed"]:
            state["cursor"] = index
            return


# -- phase 3 -------------------------------------------------------------------------
def step_special(state: State) -> None:
    index = state["cursor"]
    if index >= len(SPECIALS):
        enter_phase(state, "provost", 0)
        return
    special = state["special"]
    building = SPECIALS[index]
    state["cursor"] = index + 1
    if building == "gate" and special["gate"] is not None:
        state["cursor"] = index
        decide(state, "gate", special["gate"])
    elif building == "trading_post" and special["trading_post"] is not None:
        seat = special["trading_post"]
        state["players"][seat]["deniers"] += CONST["trading_post_deniers"]
        special["trading_post"] = None
        return_worker(state, seat)
    elif building == "merchants_guild" and special["merchants_guild"] is not None:
        state["cursor"] = index
        decide(state, "guild", special["merchants_guild"])
    elif building == "joust_field" and special["joust_field"] is not None:
        seat = special["joust_field"]
        p = state["players"][seat]
        if all(p[k] >= v for k, v in CONST["joust_pay"].items()):
            state["cursor"] = index
            decide(state, "joust", seat)
        else:
            special["joust_field"] = None
            return_worker(state, seat)
    elif building == "stables" and special["stables"]:
        first = list(special["stables"])
        state["order"] = first + [s for s in state["order"] if s not in first]
        for seat in first:
            return_worker(state, seat)
        special["stables"] = []
    elif building == "inn":
        step_inn(state, index)


def step_inn(state: State, index: int) -> None:
    special = state["special"]
    if special["inn_left"] is not None:
        if special["inn_right"] is not None:
            return_worker(state, special["inn_right"])
        special["inn_right"], special["inn_left"] = special["inn_left"], None
    elif special["inn_right"] is not None:
        state["cursor"] = index
        decide(state, "inn", special["inn_right"])


# -- phase 4 -------------------------------------------------------------------------
def step_provost(state: State) -> None:
    index = state["cursor"]
    if index >= len(state["passed"]):
        enter_phase(state, "road", {"space": 1, "stage": "effect"})
        return
    seat = state["passed"][index]
    if state["players"][seat]["deniers"] > 0:
        decide(state, "provost", seat)
    else:
        state["cursor"] = index + 1


# -- phase 5 -------------------------------------------------------------------------
def step_road(state: State) -> None:
    cursor = state["cursor"]
    number = cursor["space"]
    if number > state["provost"]:
        finish_road(state)
        return
    sp = state["road"][number - 1]
    seat = sp["worker"]
    if seat is None:
        state["cursor"] = {"space": number + 1, "stage": "effect"}
        return
    stage = cursor["stage"]
    if stage == "effect":
        eff = BUILDINGS[sp["building"]]["effect"]
        if eff["kind"] == "produce":
            if len(eff["options"]) > 1:
                decide(state, "produce", seat, space=number)
                return
            for k, v in eff["options"][0].items():
                state["players"][seat][k] += v
        elif activation_options(state, seat, number):
            decide(state, "activate", seat, space=number)
            return
        cursor["stage"] = "bonus"
    elif stage == "bonus":
        owner = owner_bonus_due(state, number)
        if owner is not None:
            decide(state, "owner_bonus", owner, space=number)
            return
        cursor["stage"] = "return"
    else:
        leave_space(state, number)
        state["cursor"] = {"space": number + 1, "stage": "effect"}


def leave_space(state: State, number: int) -> None:
    """The worker goes home; a conversion waiting for it happens now (G4)."""
    sp = state["road"][number - 1]
    return_worker(state, sp["worker"])
    sp["worker"] = None
    if sp["convert_to"] is not None:
        finish_conversion(state, number, sp["convert_to"])


def finish_road(state: State) -> None:
    """Workers beyond the provost return with no effect."""
    for number, sp in enumerate(state["road"], start=1):
        if sp["worker"] is not None:
            leave_space(state, number)
    enter_phase(state, "castle", {"index": 0, "gave": 0})


# -- phase 6 -------------------------------------------------------------------------
def step_castle(state: State) -> None:
    cursor = state["cursor"]
    workers = state["castle_workers"]
    if cursor.get("best_done"):
        enter_phase(state, "end", "bailiff")
        return
    if cursor["index"] >= len(workers):
        finish_castle(state)
        return
    seat = workers[cursor["index"]]
    if batch_options(state, seat):
        decide(state, "castle", seat)
        return
    if cursor["gave"] == 0 and current_section(state) is not None:
        no_batch_penalty(state, seat)
    state["cursor"] = {"index": cursor["index"] + 1, "gave": 0}


def finish_castle(state: State) -> None:
    """The best builder's favour still belongs to phase 6; then the workers go home."""
    best = best_builder(state)
    for seat in state["castle_workers"]:
        return_worker(state, seat)
    state["castle_workers"] = []
    state["cursor"] = {"index": 0, "gave": 0, "best_done": True}
    if best is not None:
        grant_favours(state, best, 1)


# -- phase 7 -------------------------------------------------------------------------
def step_end(state: State) -> None:
    stage = state["cursor"]
    if stage == "bailiff":
        ahead = state["provost"] > state["bailiff"]
        move = CONST["bailiff_move"]["provost_ahead" if ahead else "otherwise"]
        state["bailiff"] = min(BAILIFF_MAX, state["bailiff"] + move)
        state["provost"] = state["bailiff"]
        state["cursor"] = "check"
    elif stage == "check":
        if state["sections_scored"] >= len(SECTIONS):
            finish_game(state)
            return
        index = section_due(state)
        if index is None:
            start_turn(state)
            return
        state["favours"].extend(score_section(state, index))
        state["cursor"] = "unlock"
    else:
        opened = SECTIONS[state["sections_scored"] - 1]["columns_open_after"]
        state["columns_open"] = max(state["columns_open"], opened)
        state["cursor"] = "check"


def step_setup(state: State) -> None:
    start_turn(state)


STEPS: dict[str, Callable[[State], None]] = {
    "setup": step_setup,
    "place": step_place,
    "special": step_special,
    "provost": step_provost,
    "road": step_road,
    "castle": step_castle,
    "end": step_end,
}
