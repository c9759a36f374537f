"""What a viewer may see of the state and of each logged event (digest 15)."""

from __future__ import annotations

from typing import Any

from projections.games.base import REFEREE, Event, State, Viewer

from .legal import to_act
from .state import Round
from .table import supply, unaccounted

STATUS = ("loyalist", "rebel", "fatigue", "crown", "prison", "capture")


def seat_row(rd: Round, s: int, sees_card: bool) -> dict[str, Any]:
    return {
        "seat": s,
        "alive": rd["alive"][s],
        "revealed": rd["revealed"][s],
        "card": rd["cards"][s] if sees_card else None,
        "prison": rd["prison"][s],
        "fatigue": rd["fatigue"][s],
        "captured": rd["captured"][s],
        "faction": rd["faction"][s],
        "crown": rd["crown"] == s,
        "must_hide": rd["must_hide"][s],
        "turn_owner": rd["owner"] == s,
    }


def awaiting(rd: Round, viewer: int | None, omniscient: bool) -> dict[str, Any] | None:
    """The pending step as the public sees it; a window's answers stay sealed until it closes."""
    pending = rd["pending"]
    if pending is None:
        return None
    shown = {k: v for k, v in pending.items() if k != "responses"}
    if pending["kind"] == "window":
        shown["responded"] = sorted(int(s) for s in pending["responses"])
        shown["timeout_action"] = {"type": "window_timeout", "payload": {"window": pending["id"]}}
        if omniscient:
            shown["responses"] = dict(pending["responses"])
        elif isinstance(viewer, int) and str(viewer) in pending["responses"]:
            shown["your_response"] = pending["responses"][str(viewer)]
    return shown


def knowledge_of(state: State, rd: Round, seat: int) -> dict[str, Any]:
    if state["options"]["knowledge_aid"] == "raw":
        return {"observations": list(rd["seen"][seat])}
    return {"known": dict(rd["known"][seat])}


def summary(state: State, rd: Round, asked: set[int]) -> str:
    if state["finished"]:
        return f"Game over after {state['round']} rounds; totals {state['totals']}"
    pending = rd["pending"]
    head = f"Round {state['round']}/{state['options']['rounds']}, seat {rd['owner']}'s turn"
    if pending["kind"] == "window":
        return f"{head}: {pending['window']} window open, waiting for seats {sorted(asked)}"
    modes = {"normal": "an action", "bonus": "a bonus action", "forced_hide": "the forced hide"}
    what = {
        "action": modes.get(pending.get("mode")),
        "forced": f"forced {pending.get('ability')}",
        "looks": "the Oracle's looks",
        "prediction": "the Oracle's prediction",
    }[pending["kind"]]
    return f"{head}: waiting for seat {pending['seat']} ({what})"


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    rd = state["round_state"]
    omniscient = viewer == REFEREE or state["finished"]
    seat = viewer if isinstance(viewer, int) and not isinstance(viewer, bool) else None
    asked = to_act(state)
    out = {
        "summary": summary(state, rd, asked),
        "scores": list(state["totals"]),
        "round": state["round"],
        "rounds": state["options"]["rounds"],
        "finished": state["finished"],
        "result": state["result"],
        "viewer": viewer,
        "seats": [
            seat_row(rd, s, omniscient or s == seat or rd["revealed"][s] or not rd["alive"][s])
            for s in range(state["seats"])
        ],
        "turn_owner": rd["owner"],
        "crown": rd["crown"],
        "composition": dict(rd["composition"]),
        "unaccounted": {r: unaccounted(rd, r) for r in ("sultan", "guard", "assassin", "slave")},
        "supply": {card: supply(rd, card) for card in STATUS},
        "awaiting": awaiting(rd, seat, omniscient),
        "to_act": sorted(asked),
        "notes": list(state["notes"]),
        "history": list(state["history"]),
        "turns_this_round": rd["turns"],
    }
    if seat is not None:
        out["you"] = {"seat": seat, "card": rd["cards"][seat], **knowledge_of(state, rd, seat)}
    if omniscient:
        out["spare"] = rd["spare"]
        out["set_aside"] = list(rd["set_aside"])
        out["knowledge"] = [dict(k) for k in rd["known"]]
    return out


SEALED = {"hide": "with", "respond": "choice"}


def redact(event: Event, viewer: Viewer) -> Event:
    """Only the actor (and the referee) see an eyes-closed swap's partner or a sealed answer.

    The partner itself looks at its own card again when eyes open (the rules), so its
    view shows its new card; when that differs from its old one it knows it was the
    partner. The log still names no partner to it: with two cards of one role it cannot
    tell (tests/games/sultans_of_karaya/test_eyes_closed_swap.py)."""
    key = SEALED.get(event["type"])
    if key is None or viewer == REFEREE or viewer == event.get("seat"):
        return event
    payload = {k: v for k, v in event["payload"].items() if k != key}
    return {**event, "payload": payload}
