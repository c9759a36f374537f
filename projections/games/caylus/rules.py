"""Applying decisions: one handler per action type, each validating then changing.

A handler lists the decision kinds it answers (``awaits``), its ``check`` on the untouched
state and its ``apply`` on the copy; ``base.Game.apply`` runs them in that order and then
``turn.advance``, which runs the steps that need no decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from ..base import Rng, State
from .castle import check_batch, give_batch, no_batch_penalty
from .components import CONST, ROAD_LENGTH
from .construction import grant_favours
from .favours import apply_favour, check_favour
from .placement import check_place, put_worker, target_problem
from .road import activate, check_activation, check_owner_bonus, check_produce, offered_action
from .state import Decision, Payload, pay, require
from .turn import awaited, next_placer, return_worker


def _provost_delta(state: State, delta: object, limit: int) -> None:
    require(
        isinstance(delta, int) and not isinstance(delta, bool) and -limit <= delta <= limit,
        "bad_delta",
        f"the provost moves at most {limit} spaces",
    )
    require(
        1 <= state["provost"] + delta <= ROAD_LENGTH,
        "provost_off_road",
        f"the provost must stay on road spaces 1..{ROAD_LENGTH}",
    )


def _leave(state: State, seat: int, building: str) -> None:
    """The worker on a special building goes home and frees the building."""
    state["special"][building] = None
    return_worker(state, seat)


def _bool(value: object, name: str) -> None:
    require(isinstance(value, bool), "bad_payload", f"'{name}' must be true or false")


Handler = Callable[[State, int, Payload, Decision], None]
"""A check or an apply: the state, the acting seat, the payload, the decision it answers."""


# -- phase 2 -------------------------------------------------------------------------
def check_place_worker(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    check_place(state, seat, payload.get("target"))


def apply_place_worker(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    target = payload["target"]
    state["players"][seat]["deniers"] -= check_place(state, seat, target)
    state["players"][seat]["workers"] -= 1
    put_worker(state, seat, target)
    next_placer(state)


def apply_pass(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    state["passed"].append(seat)
    if len(state["passed"]) == 1:
        state["players"][seat]["deniers"] += CONST["first_pass_bonus"]
    next_placer(state)


# -- phase 3 -------------------------------------------------------------------------
def check_gate_move(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    target = payload.get("target")
    require(target != "gate", "space_occupied", "the worker is already on the Gate")
    problem = target_problem(state, seat, target)
    if problem:
        require(False, *problem)


def apply_gate_move(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    state["special"]["gate"] = None
    put_worker(state, seat, payload["target"])
    state["cursor"] += 1


def apply_gate_recall(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    _leave(state, seat, "gate")
    state["cursor"] += 1


def check_guild(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    _provost_delta(state, payload.get("delta"), CONST["guild_max_move"])


def apply_guild(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    state["provost"] += payload["delta"]
    _leave(state, seat, "merchants_guild")
    state["cursor"] += 1


def check_joust(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    _bool(payload.get("pay"), "pay")


def apply_joust(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    if payload["pay"]:
        pay(state, seat, CONST["joust_pay"])
        grant_favours(state, seat, 1)
    _leave(state, seat, "joust_field")
    state["cursor"] += 1


def check_inn(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    _bool(payload.get("keep"), "keep")


def apply_inn(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    if not payload["keep"]:
        _leave(state, seat, "inn_right")
    state["cursor"] += 1


# -- phase 4 -------------------------------------------------------------------------
def check_move_provost(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    delta: Any = payload.get("delta")
    _provost_delta(state, delta, CONST["provost_max_move"])
    require(
        state["players"][seat]["deniers"] >= abs(delta),
        "not_enough_money",
        f"moving the provost {abs(delta)} spaces costs {abs(delta)} deniers",
    )


def apply_move_provost(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    delta = payload["delta"]
    state["players"][seat]["deniers"] -= abs(delta)
    state["provost"] += delta
    state["cursor"] += 1


# -- phase 5 -------------------------------------------------------------------------
def check_produce_action(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    check_produce(state, decision["space"], payload.get("option"))


def apply_produce(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    for k, v in check_produce(state, decision["space"], payload["option"]).items():
        state["players"][seat][k] += v
    state["cursor"]["stage"] = "bonus"


def check_owner_bonus_action(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    check_owner_bonus(state, decision["space"], payload.get("cube"))


def apply_owner_bonus(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    state["players"][seat][payload["cube"]] += 1
    state["cursor"]["stage"] = "return"


def activation(action_type: str) -> tuple[Handler, Handler]:
    def check(state: State, seat: int, payload: Payload, decision: Decision) -> None:
        check_activation(state, seat, decision["space"], action_type, payload)

    def apply(state: State, seat: int, payload: Payload, decision: Decision) -> None:
        activate(state, seat, decision["space"], action_type, payload)
        state["cursor"]["stage"] = "bonus"

    return check, apply


def apply_decline(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    state["cursor"]["stage"] = "bonus"


# -- phase 6 -------------------------------------------------------------------------
def check_give_batch(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    check_batch(state, seat, payload.get("cubes"))


def apply_give_batch(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    give_batch(state, seat, check_batch(state, seat, payload["cubes"]))
    state["cursor"]["gave"] += 1


def apply_castle_done(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    if state["cursor"]["gave"] == 0:
        no_batch_penalty(state, seat)
    state["cursor"] = {"index": state["cursor"]["index"] + 1, "gave": 0}


# -- favours -------------------------------------------------------------------------
def check_choose_favour(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    check_favour(state, seat, payload)


def apply_choose_favour(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    state["favours"].pop(0)
    apply_favour(state, seat, payload)


def _no_check(state: State, seat: int, payload: Payload, decision: Decision) -> None:
    pass


HANDLERS: dict[str, tuple[tuple[str, ...], Handler, Handler]] = {
    "place_worker": (("place",), check_place_worker, apply_place_worker),
    "pass": (("place",), _no_check, apply_pass),
    "gate_move": (("gate",), check_gate_move, apply_gate_move),
    "gate_recall": (("gate",), _no_check, apply_gate_recall),
    "guild_move_provost": (("guild",), check_guild, apply_guild),
    "joust": (("joust",), check_joust, apply_joust),
    "inn_keep": (("inn",), check_inn, apply_inn),
    "move_provost": (("provost",), check_move_provost, apply_move_provost),
    "produce": (("produce",), check_produce_action, apply_produce),
    "owner_bonus": (("owner_bonus",), check_owner_bonus_action, apply_owner_bonus),
    "build": (("activate",), *activation("build")),
    "convert": (("activate",), *activation("convert")),
    "build_prestige": (("activate",), *activation("build_prestige")),
    "trade": (("activate",), *activation("trade")),
    "decline": (("activate",), _no_check, apply_decline),
    "give_batch": (("castle",), check_give_batch, apply_give_batch),
    "castle_done": (("castle",), _no_check, apply_castle_done),
    "choose_favour": (("favour",), check_choose_favour, apply_choose_favour),
}


def awaits(state: State, seat: int | None, kind: str) -> bool:
    """The decision answers ``kind``; an activation takes only what its building offers (or a decline)."""
    decision = awaited(state)
    if decision["kind"] not in HANDLERS[kind][0]:
        return False
    return decision["kind"] != "activate" or kind == "decline" or offered_action(state, decision["space"]) == kind


def check(state: State, seat: int | None, kind: str, payload: Payload) -> None:
    """``seat`` is one the game awaits: the skeleton's guards refused any other, the system actor too."""
    HANDLERS[kind][1](state, cast(int, seat), payload, awaited(state))


def effect(state: State, seat: int | None, kind: str, payload: Payload, rng: Rng | None = None) -> None:
    """Apply ``kind`` to the copy; the decision it answered is closed unless favours remain."""
    decision = awaited(state)
    if not state["favours"]:
        state["decision"] = None
    HANDLERS[kind][2](state, cast(int, seat), payload, decision)
