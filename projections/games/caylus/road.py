"""Phase 5, the road buildings: production, owner bonuses and the optional effects (§5.5).

Production is mandatory (a choice is asked only where the tile offers two outputs);
every other effect is optional and asked only when at least one way to use it exists.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from ..base import Action, State
from .components import BUILDINGS, CUBES
from .construction import WORKS, check_work, do_work, work_options
from .state import Goods, Payload, count_cubes, gain, has, pay, require, space

ACTIVATION_ACTIONS: dict[str, str] = {
    "trade": "trade",
    "construct": "build",
    "lawyer": "convert",
    "architect": "build_prestige",
}
"""Which action type uses each optional building effect."""


def is_index(value: object, size: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


def effect(state: State, building: str) -> dict[str, Any]:
    """The tile's effect under the options: ``kind`` and, per kind, its ``options``, ``colour`` or ``pay``."""
    eff: dict[str, Any] = BUILDINGS[building]["effect"]
    if "cloth_options" in eff and state["options"].get("church_payment") == "cloth":
        return {"kind": eff["kind"], "options": eff["cloth_options"]}
    return eff


def owner_bonus_due(state: State, number: int) -> int | None:
    """The owner of a stone production building used by someone else takes one cube."""
    sp = space(state, number)
    owner: int | None = sp["owner"]
    if BUILDINGS[sp["building"]].get("owner_bonus") and owner is not None and owner != sp["worker"]:
        return owner
    return None


# -- production ---------------------------------------------------------------------
def check_produce(state: State, number: int, option: Any) -> Goods:
    options: list[Goods] = BUILDINGS[state["road"][number - 1]["building"]]["effect"]["options"]
    require(is_index(option, len(options)), "unknown_option", f"choose an output 0..{len(options) - 1}")
    chosen: Goods = options[option]
    return chosen


def check_owner_bonus(state: State, number: int, cube: object) -> None:
    allowed: list[str] = BUILDINGS[state["road"][number - 1]["building"]]["owner_bonus"]
    require(cube in allowed, "unknown_option", f"the owner's cube is one of {allowed}")


# -- trades ---------------------------------------------------------------------------
def check_trade(state: State, seat: int, building: str, payload: Payload) -> tuple[Goods, Goods]:
    """Validate one exchange; returns (what is paid, what is gained)."""
    options = effect(state, building)["options"]
    index = payload.get("option")
    require(is_index(index, len(options)), "unknown_option", f"choose an exchange 0..{len(options) - 1}")
    option = options[index]
    cubes = payload.get("cubes", [])
    paid: Goods = dict(option["pay"])
    got: Goods = dict(option["gain"])
    n_any = option.get("pay_any", 0) or option.get("gain_any", 0)
    require(
        isinstance(cubes, list) and len(cubes) == n_any and all(c in option.get("any_types", ()) for c in cubes),
        "bad_cubes",
        f"name exactly {n_any} cubes of {option.get('any_types', [])}",
    )
    chosen = count_cubes(cubes)
    target = paid if option.get("pay_any") else got
    for k, v in chosen.items():
        target[k] = target.get(k, 0) + v
    require(has(state, seat, paid), "not_enough_resources", f"this exchange costs {paid}")
    return paid, got


def trade_options(state: State, seat: int, building: str) -> list[Payload]:
    out: list[Payload] = []
    for index, option in enumerate(effect(state, building)["options"]):
        n_any = option.get("pay_any", 0) or option.get("gain_any", 0)
        picks = (
            [sorted(c) for c in combinations_with_replacement(option.get("any_types", CUBES), n_any)] if n_any else [[]]
        )
        for cubes in picks:
            paid: Goods = dict(option["pay"])
            if option.get("pay_any"):
                for k, v in count_cubes(cubes).items():
                    paid[k] = paid.get(k, 0) + v
            if has(state, seat, paid):
                out.append({"option": index, "cubes": cubes})
    return out


# -- the optional effect of the building a worker stands on ------------------------
def activation_options(state: State, seat: int, number: int) -> list[Action]:
    """Every way (besides declining) the worker on ``number`` may use its building."""
    building = state["road"][number - 1]["building"]
    eff = effect(state, building)
    kind = eff["kind"]
    if kind == "trade":
        payloads = trade_options(state, seat, building)
    elif kind in WORKS:
        payloads = work_options(state, seat, eff)
    else:
        payloads = []
    return [{"type": ACTIVATION_ACTIONS[kind], "payload": p} for p in payloads]


def offered_action(state: State, number: int) -> str | None:
    """The action type the building on road space ``number`` offers when activated."""
    return ACTIVATION_ACTIONS.get(effect(state, state["road"][number - 1]["building"])["kind"])


def check_activation(state: State, seat: int, number: int, action_type: str, payload: Payload) -> None:
    building = state["road"][number - 1]["building"]
    eff = effect(state, building)
    if action_type == "trade":
        check_trade(state, seat, building, payload)
        return
    if action_type == "convert":
        require(payload.get("space") != number, "not_convertible", "the Lawyer cannot convert itself")
    check_work(state, seat, eff, payload)


def activate(state: State, seat: int, number: int, action_type: str, payload: Payload) -> None:
    building = state["road"][number - 1]["building"]
    eff = effect(state, building)
    if action_type == "trade":
        paid, got = check_trade(state, seat, building, payload)
        pay(state, seat, paid)
        gain(state, seat, got)
    else:
        do_work(state, seat, eff, payload)
