"""Phase 5, the road buildings: production, owner bonuses and the optional effects (§5.5).

Production is mandatory (a choice is asked only where the tile offers two outputs);
every other effect is optional and asked only when at least one way to use it exists.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from .components import BUILDINGS, CUBES
from .construction import WORKS, check_work, do_work, work_options
from .state import count_cubes, gain, has, pay, require

ACTIVATION_ACTIONS = {"trade": "trade", "construct": "build", "lawyer": "convert", "architect": "build_prestige"}
"""Which action type uses each optional building effect."""


def is_index(value, size: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


def effect(state: dict, building: str) -> dict:
    eff = BUILDINGS[building]["effect"]
    if "cloth_options" in eff and state["options"].get("church_payment") == "cloth":
        return {"kind": eff["kind"], "options": eff["cloth_options"]}
    return eff


def owner_bonus_due(state: dict, number: int) -> int | None:
    """The owner of a stone production building used by someone else takes one cube."""
    sp = state["road"][number - 1]
    if BUILDINGS[sp["building"]].get("owner_bonus") and sp["owner"] is not None and sp["owner"] != sp["worker"]:
        return sp["owner"]
    return None


# -- production ---------------------------------------------------------------------
def check_produce(state: dict, number: int, option) -> dict:
    options = BUILDINGS[state["road"][number - 1]["building"]]["effect"]["options"]
    require(is_index(option, len(options)), "unknown_option", f"choose an output 0..{len(options) - 1}")
    return options[option]


def check_owner_bonus(state: dict, number: int, cube) -> None:
    allowed = BUILDINGS[state["road"][number - 1]["building"]]["owner_bonus"]
    require(cube in allowed, "unknown_option", f"the owner's cube is one of {allowed}")


# -- trades ---------------------------------------------------------------------------
def check_trade(state: dict, seat: int, building: str, payload: dict) -> tuple[dict, dict]:
    """Validate one exchange; returns (what is paid, what is gained)."""
    options = effect(state, building)["options"]
    index = payload.get("option")
    require(is_index(index, len(options)), "unknown_option", f"choose an exchange 0..{len(options) - 1}")
    option = options[index]
    cubes = payload.get("cubes", [])
    paid, got = dict(option["pay"]), dict(option["gain"])
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


def trade_options(state: dict, seat: int, building: str) -> list[dict]:
    out = []
    for index, option in enumerate(effect(state, building)["options"]):
        n_any = option.get("pay_any", 0) or option.get("gain_any", 0)
        picks = (
            [sorted(c) for c in combinations_with_replacement(option.get("any_types", CUBES), n_any)] if n_any else [[]]
        )
        for cubes in picks:
            paid = dict(option["pay"])
            if option.get("pay_any"):
                for k, v in count_cubes(cubes).items():
                    paid[k] = paid.get(k, 0) + v
            if has(state, seat, paid):
                out.append({"option": index, "cubes": cubes})
    return out


# -- the optional effect of the building a worker stands on ------------------------
def activation_options(state: dict, seat: int, number: int) -> list[dict]:
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


def offered_action(state: dict, number: int) -> str | None:
    """The action type the building on road space ``number`` offers when activated."""
    return ACTIVATION_ACTIONS.get(effect(state, state["road"][number - 1]["building"])["kind"])


def check_activation(state: dict, seat: int, number: int, action_type: str, payload: dict) -> None:
    building = state["road"][number - 1]["building"]
    eff = effect(state, building)
    if action_type == "trade":
        check_trade(state, seat, building, payload)
        return
    if action_type == "convert":
        require(payload.get("space") != number, "not_convertible", "the Lawyer cannot convert itself")
    check_work(state, seat, eff, payload)


def activate(state: dict, seat: int, number: int, action_type: str, payload: dict) -> None:
    building = state["road"][number - 1]["building"]
    eff = effect(state, building)
    if action_type == "trade":
        paid, got = check_trade(state, seat, building, payload)
        pay(state, seat, paid)
        gain(state, seat, got)
    else:
        do_work(state, seat, eff, payload)
