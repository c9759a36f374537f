"""Every action the awaited seat may post now, each a complete ``{type, payload}``."""

from __future__ import annotations

from ..base import Action, State
from .castle import batch_options
from .components import BUILDINGS, CONST, ROAD_LENGTH
from .favours import favour_options
from .placement import gate_options, place_options
from .road import activation_options
from .state import Payload
from .turn import current_decision


def _act(kind: str, payload: Payload | None = None) -> Action:
    return {"type": kind, "payload": payload or {}}


def _deltas(state: State, limit: int) -> list[int]:
    return [d for d in range(-limit, limit + 1) if 1 <= state["provost"] + d <= ROAD_LENGTH]


def legal_actions(state: State, seat: int) -> list[Action]:
    decision = current_decision(state)
    if decision is None or decision["seat"] != seat:
        return []
    kind = decision["kind"]
    if kind == "place":
        return [_act("pass")] + [_act("place_worker", p) for p in place_options(state, seat)]
    if kind == "gate":
        return [_act("gate_move", p) for p in gate_options(state, seat)] + [_act("gate_recall")]
    if kind == "guild":
        return [_act("guild_move_provost", {"delta": d}) for d in _deltas(state, CONST["guild_max_move"])]
    if kind == "joust":
        return [_act("joust", {"pay": True}), _act("joust", {"pay": False})]
    if kind == "inn":
        return [_act("inn_keep", {"keep": True}), _act("inn_keep", {"keep": False})]
    if kind == "provost":
        money = state["players"][seat]["deniers"]
        return [
            _act("move_provost", {"delta": d}) for d in _deltas(state, CONST["provost_max_move"]) if abs(d) <= money
        ]
    if kind == "produce":
        options = BUILDINGS[state["road"][decision["space"] - 1]["building"]]["effect"]["options"]
        return [_act("produce", {"option": i}) for i in range(len(options))]
    if kind == "owner_bonus":
        cubes = BUILDINGS[state["road"][decision["space"] - 1]["building"]]["owner_bonus"]
        return [_act("owner_bonus", {"cube": c}) for c in cubes]
    if kind == "activate":
        return activation_options(state, seat, decision["space"]) + [_act("decline")]
    if kind == "castle":
        return [_act("give_batch", p) for p in batch_options(state, seat)] + [_act("castle_done")]
    return [_act("choose_favour", p) for p in favour_options(state, seat)]
