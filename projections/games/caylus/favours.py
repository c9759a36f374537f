"""Royal favours: the 4 x 5 table, its per-phase row rule and column unlocking (§7).

One ``choose_favour`` event resolves one favour: the row, the column, and the
sub-choices of that column (which cube, which building, which space), so the event is
complete and ``legal_actions`` stays enumerable. Any column from 1 to the marker may be
taken in every row (4.(1): 「第1格至玩家代表物所在格間的任1格」); under rules version 1 rows 1
and 2 paid only the highest usable column, an engine simplification.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any, cast

from ..base import State
from .components import CUBES, FAVOUR_ROWS, FAVOURS, NON_GOLD
from .construction import Work, check_work, do_work, work_options
from .state import Goods, Payload, count_cubes, gain, has, pay, require
from .versions import ANY_FAVOUR_COLUMN, version

PAIRS: list[list[str]] = [sorted(p) for p in combinations_with_replacement(NON_GOLD, 2)]


COLUMNS: int = len(FAVOURS["prestige"])


def advanced_marker(state: State, seat: int, row: int) -> int:
    """The marker advances one column if it can. By default (``locked_favour_columns: "enter"``,
    the seed's reading, §14 item 3) it moves right up to column 5 whatever is open; under the
    published option ``"blocked"`` (§7) it never enters a locked column."""
    limit: int = COLUMNS if state["options"].get("locked_favour_columns") == "enter" else state["columns_open"]
    marker: int = state["favour_markers"][seat][row]
    return min(marker + 1, limit)


def usable_top(state: State, seat: int, row: int) -> int:
    """The highest column whose effect may be taken: up to the marker, and only open columns."""
    columns_open: int = state["columns_open"]
    return min(advanced_marker(state, seat, row), columns_open)


def lawyer_pay(state: State, effect: Work) -> Goods:
    """The favour Lawyer's price: 1 denier (the seed, the default, §14 item 2), or 1 cloth under the
    published option ``favour_lawyer_payment: "cloth"``."""
    price: Goods = effect["seed_pay"] if state["options"].get("favour_lawyer_payment") == "deniers" else effect["pay"]
    return price


def favour_work(state: State, effect: Work) -> Work:
    """The work a buildings-row favour gives, at the Lawyer's price under the options."""
    return {**effect, "pay": lawyer_pay(state, effect)} if effect["kind"] == "lawyer" else effect


def open_rows(state: State, seat: int) -> list[str]:
    used: list[str] = state["favour_rows_used"][seat]
    return [r for r in FAVOUR_ROWS if r not in used]


def _as_cubes(value: object, allowed: tuple[str, ...] | list[str], length: int) -> list[str] | None:
    if (
        not isinstance(value, list)
        or len(value) != length
        or any(not isinstance(c, str) or c not in allowed for c in value)
    ):
        return None
    return value


def check_favour(state: State, seat: int, payload: Payload) -> None:
    """Raise IllegalAction unless ``payload`` is a favour this seat may take now."""
    row: Any = payload.get("row")
    require(row in FAVOUR_ROWS, "unknown_row", f"no favour row {row!r}")
    require(
        row not in state["favour_rows_used"][seat],
        "row_used_this_phase",
        "each favour of one phase must go to a different row",
    )
    r = FAVOUR_ROWS.index(row)
    top = usable_top(state, seat, r)
    column: Any = payload.get("column")
    require(
        isinstance(column, int) and not isinstance(column, bool) and 1 <= column <= top,
        "column_not_reached",
        f"columns 1..{top} of this row are open to you",
    )
    if row in ("prestige", "deniers") and version(state) < ANY_FAVOUR_COLUMN:
        require(column == top, "column_not_reached", "rows 1 and 2 pay the highest column open to you")
    extras = set(payload) - {"row", "column"}
    if row == "resources":
        _check_resources(state, seat, column, payload, extras)
    elif row == "buildings":
        _check_buildings(state, seat, column, payload, extras)
    else:
        require(not extras, "bad_payload", "this favour takes no further choice")


def _check_resources(state: State, seat: int, column: int, payload: Payload, extras: set[str]) -> None:
    if column == 2:
        require(
            extras == {"gain"} and _as_cubes(payload["gain"], ("wood", "stone"), 1) is not None,
            "bad_payload",
            "column 2 of the resources row gives 1 wood or 1 stone: say which in 'gain'",
        )
    elif column == 4:
        require(extras == {"gain", "pay"}, "bad_payload", "column 4 needs 'pay' (1 cube) and 'gain' (2 non-gold cubes)")
        paid = _as_cubes(payload["pay"], CUBES, 1)
        require(
            paid is not None and _as_cubes(payload["gain"], NON_GOLD, 2) is not None,
            "bad_payload",
            "pay 1 cube of any type, gain 2 non-gold cubes",
        )
        paid_cubes = cast(list[str], paid)  # the require above refused anything but 1 cube
        require(has(state, seat, count_cubes(paid_cubes)), "not_enough_resources", "you do not have that cube")
    else:
        require(not extras, "bad_payload", "this favour takes no further choice")


def _check_buildings(state: State, seat: int, column: int, payload: Payload, extras: set[str]) -> None:
    effect: Work = FAVOURS["buildings"][column - 1]
    kind = effect["kind"]
    if kind == "nothing":
        require(not extras, "bad_payload", "column 1 of the buildings row does nothing")
        return
    if kind == "construct":
        require(extras <= {"building", "any"}, "bad_payload", "say which 'building' (and 'any' cube)")
    elif kind == "lawyer":
        require(extras == {"space"}, "bad_payload", "say which road 'space' to convert")
    else:
        require(extras == {"space", "building"}, "bad_payload", "say which residence 'space' and prestige 'building'")
    check_work(state, seat, favour_work(state, effect), payload)


def apply_favour(state: State, seat: int, payload: Payload) -> None:
    """Advance the marker, mark the row used this phase, then carry out the column."""
    row: str = payload["row"]
    r = FAVOUR_ROWS.index(row)
    state["favour_markers"][seat][r] = advanced_marker(state, seat, r)
    state["favour_rows_used"][seat].append(row)
    column: int = payload["column"]
    if row == "prestige":
        state["players"][seat]["pp"] += FAVOURS["prestige"][column - 1]
    elif row == "deniers":
        state["players"][seat]["deniers"] += FAVOURS["deniers"][column - 1]
    elif row == "resources":
        effect = FAVOURS["resources"][column - 1]
        if "gain" in effect:
            gain(state, seat, effect["gain"])
        else:
            pay(state, seat, count_cubes(payload.get("pay", [])))
            gain(state, seat, count_cubes(payload["gain"]))
    else:
        effect = FAVOURS["buildings"][column - 1]
        if effect["kind"] != "nothing":
            do_work(state, seat, favour_work(state, effect), payload)


def favour_options(state: State, seat: int) -> list[Payload]:
    """Every complete favour choice this seat may post now (never empty: row 1 always works)."""
    out: list[Payload] = []
    for row in open_rows(state, seat):
        r = FAVOUR_ROWS.index(row)
        top = usable_top(state, seat, r)
        if row in ("prestige", "deniers") and version(state) < ANY_FAVOUR_COLUMN:
            out.append({"row": row, "column": top})
            continue
        for column in range(1, top + 1):
            base: Payload = {"row": row, "column": column}
            if row in ("prestige", "deniers"):
                out.append(base)
            elif row == "resources":
                out.extend(_resource_options(state, seat, column, base))
            else:
                out.extend(_building_options(state, seat, column, base))
    return out


def _resource_options(state: State, seat: int, column: int, base: Payload) -> list[Payload]:
    if column == 2:
        return [{**base, "gain": [c]} for c in ("wood", "stone")]
    if column == 4:
        held = [c for c in CUBES if state["players"][seat][c] > 0]
        return [{**base, "pay": [c], "gain": pair} for c in held for pair in PAIRS]
    return [base]


def _building_options(state: State, seat: int, column: int, base: Payload) -> list[Payload]:
    effect: Work = FAVOURS["buildings"][column - 1]
    kind = effect["kind"]
    if kind == "nothing":
        return [base]
    return [{**base, **o} for o in work_options(state, seat, favour_work(state, effect))]
