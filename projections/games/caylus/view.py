"""What a viewer sees. Caylus hides nothing (§12): every seat, the spectator and the
referee get the same board, drawn from the state in a shape documented in the doc."""

from __future__ import annotations

from typing import Any

from ..base import State, Viewer
from .components import BUILDINGS, SECTIONS, SPECIAL_NAMES
from .turn import awaited, current_decision

PHASE_NAMES: dict[str, str] = {
    "setup": "Setup",
    "place": "Phase 2: placing workers",
    "special": "Phase 3: special buildings",
    "provost": "Phase 4: moving the provost",
    "road": "Phase 5: road buildings",
    "castle": "Phase 6: the castle",
    "end": "Phase 7: end of turn",
    "over": "Game over",
}

AWAITED: dict[str, str] = {
    "place": "to place a worker or pass",
    "gate": "to move the Gate's worker",
    "guild": "to move the provost (Guild)",
    "joust": "whether to joust",
    "inn": "whether to stay in the Inn",
    "provost": "to move the provost",
    "produce": "which goods to produce",
    "owner_bonus": "which cube to take as owner",
    "activate": "whether to use a building",
    "castle": "to give batches to the castle",
    "favour": "to choose a royal favour",
}


CATALOGUE: dict[str, dict[str, Any]] = {
    bid: {"name": b["name"], "colour": b["colour"], "cost": b.get("cost", {}), "prestige": b.get("prestige", 0)}
    for bid, b in BUILDINGS.items()
}
"""Names, colours, costs and prestige of every tile, so a board can label the supply."""


def summary(state: State) -> str:
    if state["result"] is not None:
        scores = state["result"]["scores"]
        return f"Game over after turn {state['turn']}: " + ", ".join(f"seat {s} {p} PP" for s, p in enumerate(scores))
    decision = awaited(state)
    return f"Turn {state['turn']}, {PHASE_NAMES[state['phase']]}: seat {decision['seat']} is asked {AWAITED[decision['kind']]}"


def road_view(state: State) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for number, sp in enumerate(state["road"], start=1):
        b = sp["building"]
        out.append(
            {
                "space": number,
                "building": b,
                "name": BUILDINGS[b]["name"] if b else None,
                "colour": BUILDINGS[b]["colour"] if b else "empty",
                "owner": sp["owner"],
                "worker": sp["worker"],
                "convert_to": sp["convert_to"],
            }
        )
    return out


def make_view(state: State, viewer: Viewer) -> dict[str, Any]:
    decision = current_decision(state)
    return {
        "summary": summary(state),
        "scores": [p["pp"] for p in state["players"]],
        "turn": state["turn"],
        "phase": state["phase"],
        "awaiting": dict(decision) if decision else None,
        "order": list(state["order"]),
        "passed": list(state["passed"]),
        "players": [dict(p, seat=s) for s, p in enumerate(state["players"])],
        "road": road_view(state),
        "special": {k: (list(v) if isinstance(v, list) else v) for k, v in state["special"].items()},
        "special_names": SPECIAL_NAMES,
        "castle": {
            "sections": [
                {
                    "id": sec["id"],
                    "places": sec["places"],
                    "pp_per_house": sec["pp_per_house"],
                    "trigger": sec["trigger"],
                    "houses": list(state["castle"][i]),
                    "scored": i < state["sections_scored"],
                }
                for i, sec in enumerate(SECTIONS)
            ],
            "workers": list(state["castle_workers"]),
            "placed_this_turn": list(state["castle_placed"]),
        },
        "provost": state["provost"],
        "bailiff": state["bailiff"],
        "favours": {
            "markers": [list(m) for m in state["favour_markers"]],
            "rows_used_this_phase": [list(r) for r in state["favour_rows_used"]],
            "columns_open": state["columns_open"],
            "owed": list(state["favours"]),
        },
        "supply": list(state["supply"]),
        "catalogue": CATALOGUE,
        "discarded": list(state["discarded"]),
        "options": dict(state["options"]),
        "final": state["final"],
        "result": state["result"],
    }
