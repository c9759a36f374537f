"""What each viewer may see (digest §12) and how the log is redacted.

Hidden: kept and dealt missions (owner only), hand contents (owner only; the count is
public), the order of every deck and the next event card.
"""

from __future__ import annotations

from typing import Any

from projections.games.base import REFEREE, Event, State, Viewer

from .content import ANCHORS, AREA, BOARD, CHARACTERS, COMMERCE, EVENTS, MISSIONS, PLOT_ACTIONS, PROVINCES, RING
from .effects import active_tokens
from .flow import followers_free
from .legal import front, waiting_seats
from .state import copy_provinces
from .table import faced, facing_owner

PHASE_WORDS = {
    "setup": "choosing missions",
    "event": "event",
    "plot": "plot phase",
    "build": "build phase",
    "action": "action phase",
    "income": "income phase",
    "over": "game over",
}


def _player(state: State, seat: int, sees: bool) -> dict[str, Any]:
    p = state["players"][seat]
    character = CHARACTERS[p["character"]]
    return {
        "seat": seat,
        "character": p["character"],
        "name": character["name"],
        "faces": faced(state, seat),
        "denarii": p["denarii"],
        "glory": p["glory"],
        "glory_track": track(p["glory"]),
        "legions": p["legions"],
        "legion_reserve": p["legion_reserve"],
        "votes": p["votes"],
        "vote_reserve": p["vote_reserve"],
        "followers": p["followers"],
        "followers_free": followers_free(state, seat),
        "vendetta": p["vendetta"],
        "token_positions": character["tokens"],
        "active_tokens": active_tokens(p),
        "tokens_used": list(p["tokens_used"]),
        "plot_markers": p["plot_markers"],
        "plot_actions": character["plot_actions"],
        "hand": list(p["hand"]) if sees else None,
        "hand_count": len(p["hand"]),
        "sets": [dict(s) for s in p["sets"]],
        "missions": list(p["missions"]) if sees else None,
        "mission_count": len(p["missions"]),
        "dealt": list(p["dealt"]) if sees else None,
        "dealt_count": len(p["dealt"]),
        "pantheon": {k: dict(v) for k, v in p["pantheon"].items()},
        "milestones": list(p["milestones"]),
    }


def _effect_words(effects: list[dict[str, Any]]) -> str:
    words = []
    for e in effects:
        n = e.get("amount", 1)
        words.append(
            e["effect"].replace("_", " ")
            + (f" {n}" if "amount" in e else "")
            + (f" ({e['area']})" if "area" in e else "")
        )
    return ", ".join(words)


def _catalogue() -> dict[str, Any]:
    """Names and texts of every card and board, so a client can label ids."""
    return {
        "commerce": {
            c: {
                "name": d["name"],
                "type": d["type"],
                "trigger": d["trigger"],
                "filter": d["filter"],
                "text": _effect_words(d["effect"]),
                "starred": d["starred"],
            }
            for c, d in COMMERCE.items()
        }
        | {
            a: {
                "name": "Anchor",
                "type": "anchor",
                "trigger": None,
                "filter": {},
                "text": "fills a hand slot",
                "starred": False,
            }
            for a in ANCHORS
        },
        "missions": {
            m: {
                "name": d["name"],
                "kind": d["kind"],
                "text": d["text"],
                "glory": d.get("glory"),
                "per_unit": d.get("per_unit"),
                "max": d.get("max"),
            }
            for m, d in MISSIONS.items()
        },
        "events": {
            e: {
                "name": d["name"],
                "condition": f"{d['condition']['compare']} {d['condition']['metric'].replace('_', ' ')}",
                "bonus": _effect_words(d["bonus"]),
                "fallback": _effect_words(d["fallback"]),
                "direction": d["direction"],
                "steps": d["steps"],
            }
            for e, d in EVENTS.items()
        },
        "plot_actions": {a: {"name": d["name"], "text": d["effect"]} for a, d in PLOT_ACTIONS.items()},
        "provinces": {p: {"name": d["name"], "slots": d["slots"]} for p, d in PROVINCES.items()},
        "upper_tiles": BOARD["upper_tiles"],
        "areas": {
            a: {"name": d["name"], "minimum": d["minimum"], "first": d["first"], "second": d["second"]}
            for a, d in AREA.items()
        },
        "senate_points": BOARD["senate_points_top_to_bottom"],
        "agriculture": BOARD["agriculture_income_by_round"],
        "double_tax_penalty": BOARD["double_tax_penalty"],
    }


def _visible_catalogue(shown: dict[str, Any]) -> dict[str, Any]:
    """The catalogue entries for the cards this view shows (the board parts always)."""
    cards, missions = set(shown["commerce_discard"]) | set(shown["removed_cards"]), set()
    for p in shown["players"]:
        cards |= set(p["hand"] or []) | {c for s in p["sets"] for c in s["cards"]}
        missions |= set(p["missions"] or []) | set(p["dealt"] or [])
    events = {shown["event"]["id"]} if shown["event"] else set()
    out = {k: v for k, v in CATALOGUE.items() if k not in ("commerce", "missions", "events")}
    out["commerce"] = {c: CATALOGUE["commerce"][c] for c in sorted(cards)}
    out["missions"] = {m: CATALOGUE["missions"][m] for m in sorted(missions)}
    out["events"] = {e: CATALOGUE["events"][e] for e in events}
    return out


def track(glory: int) -> dict[str, int | bool]:
    """Where the marker stands on the 0-30 track, and whether it shows its +30 side."""
    wrap = BOARD["glory_wrap"]
    return {"position": glory - wrap if glory > wrap else glory, "flipped": glory > wrap}


def _awaiting(state: State) -> dict[str, Any] | None:
    step = front(state)
    if step is None:
        return None
    shown = {"op": step["op"], "seats": waiting_seats(state)}
    for key in ("trigger", "filter", "victim", "left", "action"):
        if key in step:
            shown[key] = step[key]
    return shown


def summary(state: State) -> str:
    if state["result"] is not None:
        return "Game over: " + ", ".join(f"seat {s}: {v}" for s, v in enumerate(state["result"]["scores"]))
    waiting = ["the rival" if s is None else f"seat {s}" for s in waiting_seats(state)]
    step = front(state)
    what = step["op"].replace("_", " ") if step else ""
    return f"Round {state['round']}/9, {PHASE_WORDS[state['phase']]}: waiting for {', '.join(waiting)} ({what})"


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    everyone = viewer == REFEREE or state["result"] is not None
    rival = state["rival"]
    out = {
        "summary": summary(state),
        "scores": [p["glory"] for p in state["players"]]
        if state["result"] is None
        else list(state["result"]["scores"]),
        "round": state["round"],
        "phase": state["phase"],
        "seats": state["seats"],
        "solo": state["solo"],
        "options": dict(state["options"]),
        "table": list(state["table"]),
        "orientation": state["orientation"],
        "facing": {p: facing_owner(state, p) for p in RING},
        "start_province": state["start_province"],
        "direction": state["direction"],
        "turn_order": list(state["turn_order"]),
        "event": dict(EVENTS[state["event"]], id=state["event"]) if state["event"] else None,
        "events_done": list(state["events_done"]),
        "event_deck_count": len(state["event_deck"]),
        "provinces": copy_provinces(state["provinces"]),
        "tiles": {t: list(v) for t, v in state["tiles"].items()},
        "medals": dict(state["medals"]),
        "milestones": [dict(m) for m in state["milestones"]],
        "pantheon_supply": {t: dict(v) for t, v in state["pantheon_supply"].items()},
        "areas": {a: list(v) for a, v in state["areas"].items()},
        "senate": list(state["senate"]),
        "colosseum": list(state["colosseum"]),
        "vendetta_pool": state["vendetta_pool"],
        "commerce_deck_count": len(state["commerce_deck"]),
        "commerce_discard": list(state["commerce_discard"]),
        "removed_cards": list(state["removed_cards"]),
        "mission_deck_count": len(state["mission_deck"]),
        "players": [_player(state, s, everyone or viewer == s) for s in range(state["seats"])],
        "rival": None
        if rival is None
        else {k: rival[k] for k in ("glory", "legions", "votes", "vendetta")}
        | {"glory_track": track(rival["glory"]), "deck_count": len(rival["deck"]), "discard": list(rival["discard"])},
        "awaiting": _awaiting(state),
        "result": state["result"],
    }
    out["catalogue"] = _visible_catalogue(out)
    return out


def redact(event: Event, viewer: Viewer) -> Event:
    """Kept missions are secret: others see that a choice was made, not which."""
    if event["type"] == "keep_missions" and viewer != REFEREE and viewer != event.get("seat"):
        return {**event, "payload": {}}
    return event


def reveals(before: State, after: State) -> bool:
    """A card left a deck shuffled earlier (a commerce draw, an event revealed, a rival card).

    Missions are only dealt at setup; returning one under the deck shows nothing.
    """

    def drawn(s: State) -> tuple[int, int, int]:
        rival = s["rival"]["deck"] if s["rival"] else []
        return (len(s["commerce_deck"]), len(s["event_deck"]), len(rival))

    return any(b > a for b, a in zip(drawn(before), drawn(after)))


CATALOGUE = _catalogue()
