"""What a viewer may see: everything except other seats' victory points and the votes
committed before every voter has voted. A spectator sees only public information."""

from __future__ import annotations

from typing import Any

from projections.games.base import REFEREE, Event, State, Viewer

from .components import CARD_ORDER, CARDS, ELECTORATE_ORDER, ELECTORATES, PIECES, card_cost

PHASE_NAMES = {
    "setup": "Setup",
    "income": "I Income",
    "aging": "II Aging",
    "actions": "IV Actions",
    "descendants": "III Descendants",
    "new_electors": "V New Electors",
    "elect_emperor": "VI Elect Emperor",
    "emperor_actions": "VII Emperor Actions",
    "finished": "Game over",
}

AWAIT_TEXT = {
    "setup": "starting placement",
    "enthrone": "a noble for the throne",
    "son": "placing a son",
    "daughter": "a daughter's marriage",
    "answer_marriage": "an answer to a marriage offer",
    "turn": "an action",
    "place_gray_eminence": "placing the gray eminence",
    "break_tie": "the emperor breaking a tie",
    "choose_elector": "choosing an elector",
    "place_displaced": "placing a displaced noble",
    "name_target": "naming a target",
    "vote": "secret votes",
    "empire_city": "the emperor's empire city",
}


def sees_all(state: State, viewer: Viewer) -> bool:
    return viewer == REFEREE or state["phase"] == "finished"


def summary(state: State) -> str:
    head = f"Round {state['round']} · {PHASE_NAMES.get(state['phase'], state['phase'])}"
    pending = state["await"]
    if pending is None:
        return head
    seats = pending["seats"] if pending["kind"] == "vote" else [pending["seat"]]
    who = ", ".join(f"seat {s}" for s in seats)
    return f"{head} · waiting for {who}: {AWAIT_TEXT[pending['kind']]}"


def _electorate(state: State, eid: str) -> dict[str, Any]:
    area = state["electorates"][eid]
    data = ELECTORATES[eid]
    return {
        "id": eid,
        "name": data["name"],
        "archdiocese": data["archdiocese"],
        "votes": data["votes"],
        "privilege": data["privilege"],
        "in_play": area["in_play"],
        "elector": area["elector"],
        "privilege_used": area["used"],
        "aristocrat_spaces": area["nobles"],
        "city_spaces": area["cities"],
        "castle_spaces": area["castles"],
        "gray_eminences": [g["owner"] for g in state["gray_eminences"] if g["electorate"] == eid],
    }


def _voting(state: State, viewer: Viewer, everything: bool) -> dict[str, Any] | None:
    pending = state["await"]
    if pending is None or pending["kind"] != "vote":
        return None
    sub = state["sub"]
    committed = sorted(int(s) for s in state["votes"])
    own = state["votes"].get(str(viewer)) if isinstance(viewer, int) else None
    return {
        "rival": sub["rival"],
        "emperor": state["emperor"],
        "counts": sub["counts"],
        "voters": sub["voters"],
        "committed": committed,
        "own_vote": own,
        "votes": dict(state["votes"]) if everything else None,
    }


def _public_await(state: State) -> dict[str, Any] | None:
    pending = state["await"]
    if pending is None:
        return None
    out = dict(pending)
    if pending["kind"] != "vote":
        out["seats"] = [pending["seat"]]
    return out


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    everything = sees_all(state, viewer)
    players = []
    for seat, player in enumerate(state["players"]):
        shown = everything or viewer == seat
        players.append(
            {
                "seat": seat,
                "thalers": player["thalers"],
                "chip": player["chip"],
                "vp": player["vp"] if shown else None,
                "supply": {"nobles": player["nobles"], "knights": player["knights"], "cities": player["cities"]},
                "cities_placed": PIECES["cities"] - player["cities"],
                "display": list(player["display"]),
                "passed": player["passed"],
            }
        )
    return {
        "summary": summary(state),
        "scores": [p["vp"] for p in players],
        "round": state["round"],
        "phase": state["phase"],
        "emperor": state["emperor"],
        "throne": state["throne"],
        "active": state["active"],
        "awaiting": _public_await(state),
        "electorates": [_electorate(state, e) for e in ELECTORATE_ORDER],
        "removed_electorates": list(state["removed"]),
        "players": players,
        "cards": [
            {
                "id": c,
                "name": CARDS[c]["name"],
                "color": CARDS[c]["color"],
                "phase": CARDS[c]["phase"],
                "cost": card_cost(c) if c != "permit" else CARDS[c]["cost"],
                "left": state["stacks"][c],
            }
            for c in CARD_ORDER
        ],
        "empire_cities_in_box": state["empire_in_box"],
        "displaced": state["limbo"],
        "targets": dict(state["targets"]),
        "voting": _voting(state, viewer, everything),
        "last_election": state["election"],
        "viewer": viewer,
    }


def redact(event: Event, viewer: Viewer) -> Event:
    """A vote's side is visible only to its voter and the referee (the reveal is in the view)."""
    if event.get("type") == "vote" and viewer != REFEREE and viewer != event.get("seat"):
        return {**event, "payload": {"hidden": True}}
    return event
