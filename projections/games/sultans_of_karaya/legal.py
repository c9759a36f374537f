"""Who is asked (public) and what each seat may post now (private), from the same checks as apply."""

from __future__ import annotations

from typing import Any, cast

from projections.games.base import Action, IllegalAction, State, refuse

from .components import SIDES
from .rules import ABILITY_OF, CHECKS, MAIN_ACTIONS, Payload, check_revolt_interrupt, own_action_step, swap_candidates
from .windows import choices


def awaited_types(pending: dict[str, Any]) -> tuple[str, ...]:
    """Action types the awaited seat may post in this pending step."""
    kind = pending["kind"]
    if kind == "action":
        return ("hide",) if pending["mode"] == "forced_hide" else MAIN_ACTIONS
    if kind == "forced":
        return (pending["ability"],)
    return {"looks": ("look",), "prediction": ("predict",), "window": ("respond",)}[kind]


def interrupts(state: State, seat: int | None, kind: Any) -> bool:
    """Whether ``kind`` is a standing interrupt for ``seat``: the royal claim, and the G2
    variant's out-of-turn revolt. Interrupts skip the turn order; their checks say who may."""
    if kind == "royal_claim":
        return True
    return (
        kind == "call_revolt"
        and state["options"]["slave_call_any_time"]
        and not own_action_step(state["round_state"], seat)
    )


def may_act(state: State, seat: int | None, kind: Any) -> bool:
    if kind == "window_timeout":
        return seat is None  # only the system closes a window on timeout
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["seats"]:
        return False
    return interrupts(state, seat, kind) or seat in to_act(state)


def awaits(state: State, seat: int | None, kind: str) -> bool:
    return (
        kind == "window_timeout"
        or interrupts(state, seat, kind)
        or kind in awaited_types(state["round_state"]["pending"])
    )


def check(state: State, seat: int | None, kind: str, payload: Payload) -> None:
    """The rule of each action, once the generic guards have passed (``may_act``: a seat,
    except the system's window_timeout)."""
    rd = state["round_state"]
    actor = cast(int, seat)  # None only with window_timeout, the one branch that ignores it
    if kind == "window_timeout":
        if rd["pending"]["kind"] != "window" or rd["pending"]["id"] != payload.get("window"):
            refuse("no_open_window", "that window is not open")
    elif kind == "royal_claim":
        if not (rd["alive"][actor] and not rd["revealed"][actor] and rd["cards"][actor] == "sultan"):
            refuse("not_hidden_sultan", "only the seat holding the face-down Sultan may claim")
    elif interrupts(state, actor, kind):
        check_revolt_interrupt(state, actor)
    else:
        CHECKS[kind](state, actor, payload)


def to_act(state: State) -> set[int]:
    """Public: the awaited seat, or a window's eligible seats that have not answered."""
    if state["finished"]:
        return set()
    pending = state["round_state"]["pending"]
    if pending["kind"] == "window":
        return {s for s in pending["eligible"] if str(s) not in pending["responses"]}
    return {pending["seat"]}


def passes(state: State, seat: int, action: str, payload: Payload) -> bool:
    try:
        CHECKS[action](state, seat, payload)
    except IllegalAction:
        return False
    return True


def candidates(state: State, seat: int, action: str) -> list[Payload]:
    """Payloads worth checking for ``action``; the checks decide which are legal."""
    rd = state["round_state"]
    others = [s for s in range(len(rd["cards"])) if s != seat and rd["alive"][s]]
    if action in ("investigate", "execute", "detain", "assassinate", "capture", "look"):
        return [{"target": t} for t in others]
    if action == "swap":
        return [{"with": w} for w in swap_candidates(state, seat)]
    if action == "hide":
        return [{"with": w} for w in swap_candidates(state, seat)] + [{"with": None}]
    if action == "manipulate":
        sides = [None] if rd["revealed"][seat] else SIDES
        return [{"side": side, "target": t} for side in sides for t in others]
    if action == "predict":
        return [{"side": side} for side in SIDES]
    if action == "respond":
        pending = rd["pending"]
        return [{"window": pending["id"], "choice": c} for c in choices(pending["window"], rd["cards"][seat])]
    return [{}]


def ability_options(state: State, seat: int, action: str) -> list[Payload]:
    return [p for p in candidates(state, seat, action) if passes(state, seat, action, p)]


def legal_actions(state: State, seat: int) -> list[Action]:
    if state["finished"]:
        return []
    rd = state["round_state"]
    actions: list[Action] = []
    if seat in to_act(state):
        for action in awaited_types(rd["pending"]):
            if ABILITY_OF.get(action, rd["cards"][seat]) != rd["cards"][seat]:
                continue  # not this card's ability: nothing to enumerate
            actions += [{"type": action, "payload": p} for p in ability_options(state, seat, action)]
    if rd["alive"][seat] and not rd["revealed"][seat] and rd["cards"][seat] == "sultan":
        actions.append({"type": "royal_claim", "payload": {}})
    if state["options"]["slave_call_any_time"] and not own_action_step(rd, seat):
        try:
            check_revolt_interrupt(state, seat)
        except IllegalAction:
            pass
        else:
            actions.append({"type": "call_revolt", "payload": {}})
    return actions
