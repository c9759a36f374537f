"""Building on the road: Carpenter/Mason construction, the Lawyer's conversion to a
residence and the Architect's prestige buildings, shared by the road buildings and the
fourth row of the favour table (which only changes what is paid)."""

from __future__ import annotations

from typing import Any, TypeGuard, cast

from ..base import State
from .components import BUILDINGS, CONST, CUBES, ROAD_LENGTH
from .state import Goods, Payload, has, house_available, pay, require, space

Work = dict[str, Any]
"""A building work (``WORKS``): ``kind`` and, per kind, ``colour`` and ``discount`` or ``pay``."""


def grant_favours(state: State, seat: int, count: int) -> None:
    """Favours are resolved at once by the gainer, before play goes on (digest §13)."""
    if count:
        state["favours"][0:0] = [seat] * count


def prestige_of(state: State, building: str) -> int:
    prestige: int = BUILDINGS[building]["prestige"]
    if building == "w_lawyer":
        prestige = state["options"].get("lawyer_prestige", prestige)
    return prestige


def empty_lot(state: State) -> int | None:
    """The lowest-numbered empty lot, where every new building goes (G5: maybe none)."""
    for number in range(1, ROAD_LENGTH + 1):
        if state["road"][number - 1]["building"] is None:
            return number
    return None


def construction_cost(building: str, discount: Goods, any_cube: str | None) -> Goods:
    cost: Goods = dict(BUILDINGS[building]["cost"])
    for k, v in discount.items():
        if k in cost:
            cost[k] -= v
            if cost[k] <= 0:
                del cost[k]
    if "any" in cost:
        n = cost.pop("any")
        cube = cast(str, any_cube)  # an "any" part always comes with its cube (check_construct, build_options)
        cost[cube] = cost.get(cube, 0) + n
    return cost


def check_construct(state: State, seat: int, colour: str, building: Any, any_cube: Any, discount: Goods) -> Goods:
    """Validate a construction; returns the cubes it costs."""
    require(isinstance(building, str) and building in BUILDINGS, "unknown_building", f"no building {building!r}")
    require(
        BUILDINGS[building]["colour"] == colour,
        "wrong_building_colour",
        f"this builds only {colour} buildings, not {BUILDINGS[building]['name']}",
    )
    require(building in state["supply"], "not_in_supply", f"{BUILDINGS[building]['name']} is not in the supply")
    require(empty_lot(state) is not None, "no_empty_lot", "no empty lot is left on the road")
    require(house_available(state, seat), "no_house_left", "you have no house left")
    needs_any = "any" in BUILDINGS[building]["cost"] and "any" not in discount
    if needs_any:
        require(any_cube in CUBES, "any_cube_required", "say which cube pays the 'any cube' part of the cost")
    else:
        require(any_cube is None, "no_any_cube", "this building's cost has no 'any cube' part")
    cost = construction_cost(building, discount, any_cube)
    require(has(state, seat, cost), "not_enough_resources", f"building {BUILDINGS[building]['name']} costs {cost}")
    return cost


def construct(state: State, seat: int, building: str, cost: Goods) -> None:
    """Pay, put the tile on the first empty lot with the builder's house, score it."""
    pay(state, seat, cost)
    lot = space(state, cast(int, empty_lot(state)))  # check_construct refused a full road
    lot.update(building=building, owner=seat)
    state["supply"].remove(building)
    player = state["players"][seat]
    player["houses"] += 1
    player["pp"] += prestige_of(state, building)
    grant_favours(state, seat, BUILDINGS[building].get("favours", 0))


def build_options(state: State, seat: int, colour: str, discount: Goods) -> list[Payload]:
    """Every (building, any cube) this seat may construct now."""
    if empty_lot(state) is None or not house_available(state, seat):
        return []
    out: list[Payload] = []
    for building in dict.fromkeys(state["supply"]):
        if BUILDINGS[building]["colour"] != colour:
            continue
        anys: list[str] | list[None] = (
            CUBES if ("any" in BUILDINGS[building]["cost"] and "any" not in discount) else [None]
        )
        for any_cube in anys:
            if has(state, seat, construction_cost(building, discount, any_cube)):
                out.append({"building": building, "any": any_cube} if any_cube else {"building": building})
    return out


def is_space(number: object) -> TypeGuard[int]:
    """A road space number 1..28 (a JSON ``true`` is not the number 1)."""
    return isinstance(number, int) and not isinstance(number, bool) and 1 <= number <= ROAD_LENGTH


# -- the Lawyer ---------------------------------------------------------------------
def lawyer_target_ok(state: State, seat: int, number: object) -> str | None:
    """None if ``number`` may be converted by ``seat``; else the refusal code."""
    if not is_space(number):
        return "no_such_space"
    sp = state["road"][number - 1]
    building = sp["building"]
    if building is None:
        return "not_convertible"
    kind = BUILDINGS[building]["colour"]
    if kind == "neutral":
        pass
    elif kind in ("wood", "stone"):
        if sp["owner"] != seat:
            return "not_your_building"
        if BUILDINGS[building].get("convertible") is False:
            return "not_convertible"
    else:
        return "not_convertible"
    if sp["convert_to"] is not None:
        return "conversion_pending"
    if not house_available(state, seat):
        return "no_house_left"  # G1, literally: no conversion without a house in hand
    return None


CONVERT_MESSAGES: dict[str, str] = {
    "no_such_space": "there is no such road space",
    "not_convertible": "only neutral buildings and your own wood or stone buildings (not the Lawyer) can become residences",
    "not_your_building": "you may only convert your own wood or stone buildings",
    "conversion_pending": "this building already has a conversion pending",
    "no_house_left": "you have no house left",
}


def check_convert(state: State, seat: int, number: object, cost: Goods) -> None:
    code = lawyer_target_ok(state, seat, number)
    require(code is None, code or "", CONVERT_MESSAGES.get(code or "", ""))
    require(has(state, seat, cost), "not_enough_resources", f"the conversion costs {cost}")


def convert(state: State, seat: int, number: int, cost: Goods) -> None:
    """Pay and score at once; the tile changes now, or after its worker leaves (G4)."""
    pay(state, seat, cost)
    sp = space(state, number)
    player = state["players"][seat]
    player["pp"] += CONST["residence_pp"]
    if sp["owner"] is None:
        player["houses"] += 1
    if sp["worker"] is not None:
        sp["convert_to"] = seat
    else:
        finish_conversion(state, number, seat)


def finish_conversion(state: State, number: int, seat: int) -> None:
    sp = space(state, number)
    old = sp["building"]
    if BUILDINGS[old]["colour"] == "neutral":
        state["discarded"].append(old)
    else:
        state["supply"].append(old)
    sp.update(building="residence", owner=seat, convert_to=None)


def convert_options(state: State, seat: int, cost: Goods) -> list[Payload]:
    if not has(state, seat, cost):
        return []
    return [{"space": n} for n in range(1, ROAD_LENGTH + 1) if lawyer_target_ok(state, seat, n) is None]


# -- the Architect ------------------------------------------------------------------
def check_prestige(state: State, seat: int, number: Any, building: Any) -> Goods:
    require(is_space(number), "no_such_space", "there is no such road space")
    sp = space(state, number)
    require(
        sp["building"] == "residence" and sp["owner"] == seat,
        "not_your_residence",
        "a prestige building goes on one of your own residences",
    )
    require(isinstance(building, str) and building in BUILDINGS, "unknown_building", f"no building {building!r}")
    require(
        BUILDINGS[building]["colour"] == "prestige",
        "wrong_building_colour",
        "the Architect builds only prestige buildings",
    )
    require(building in state["supply"], "not_in_supply", f"{BUILDINGS[building]['name']} is not in the supply")
    cost: Goods = BUILDINGS[building]["cost"]
    require(has(state, seat, cost), "not_enough_resources", f"{BUILDINGS[building]['name']} costs {cost}")
    return cost


def build_prestige(state: State, seat: int, number: int, building: str) -> None:
    pay(state, seat, BUILDINGS[building]["cost"])
    space(state, number)["building"] = building
    state["supply"].remove(building)
    state["players"][seat]["pp"] += BUILDINGS[building]["prestige"]
    grant_favours(state, seat, BUILDINGS[building].get("favours", 0))


def prestige_options(state: State, seat: int) -> list[Payload]:
    homes = [
        n
        for n in range(1, ROAD_LENGTH + 1)
        if state["road"][n - 1]["building"] == "residence" and state["road"][n - 1]["owner"] == seat
    ]
    if not homes:
        return []
    tiles = [
        b for b in state["supply"] if BUILDINGS[b]["colour"] == "prestige" and has(state, seat, BUILDINGS[b]["cost"])
    ]
    return [{"space": n, "building": b} for n in homes for b in tiles]


# -- a building work, as a road building or a royal favour gives it -------------------
WORKS = ("construct", "lawyer", "architect")
"""The works of a building effect: ``construct`` a building of ``colour`` (less any
``discount``), ``lawyer`` a conversion paying ``pay``, ``architect`` a prestige building."""


def work_options(state: State, seat: int, work: Work) -> list[Payload]:
    """Every payload of the ``work`` the seat may carry out now."""
    if work["kind"] == "construct":
        return build_options(state, seat, work["colour"], work.get("discount", {}))
    if work["kind"] == "lawyer":
        return convert_options(state, seat, work["pay"])
    return prestige_options(state, seat)


def check_work(state: State, seat: int, work: Work, payload: Payload) -> None:
    if work["kind"] == "construct":
        check_construct(
            state, seat, work["colour"], payload.get("building"), payload.get("any"), work.get("discount", {})
        )
    elif work["kind"] == "lawyer":
        check_convert(state, seat, payload.get("space"), work["pay"])
    else:
        check_prestige(state, seat, payload.get("space"), payload.get("building"))


def do_work(state: State, seat: int, work: Work, payload: Payload) -> None:
    if work["kind"] == "construct":
        discount = work.get("discount", {})
        cost = check_construct(state, seat, work["colour"], payload["building"], payload.get("any"), discount)
        construct(state, seat, payload["building"], cost)
    elif work["kind"] == "lawyer":
        convert(state, seat, payload["space"], work["pay"])
    else:
        build_prestige(state, seat, payload["space"], payload["building"])


def income(state: State, seat: int) -> int:
    total: int = CONST["income"]["base"]
    for sp in state["road"]:
        if sp["owner"] == seat and sp["building"]:
            total += BUILDINGS[sp["building"]].get("income", 0)
    return total
