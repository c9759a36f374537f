"""Positions and moves for Caylus transcript tests.

``position`` builds a known starting state (turn order 0..n-1, a fixed neutral
layout), and ``at_phase`` jumps to the start of a phase the way a FEN sets up a chess
position: the rest of the state is edited in place by the test, then ``advance`` runs
the automatic steps up to the first decision.
"""

from __future__ import annotations

from events.rng import SeededRng
from projections.games.caylus import GAME
from projections.games.caylus.turn import advance
from tests.games.harness import load_options

NEUTRALS = ["n_farm", "n_forest", "n_sawmill", "n_quarry", "n_marketplace", "n_carpenter"]
"""The neutral layout used by the transcripts: road spaces 1..6 in this order."""


def rng() -> SeededRng:
    return SeededRng("transcript", 0)


def position(seats: int, options: dict | None = None) -> dict:
    """Turn 1, phase 2, turn order 0..n-1 with its starting deniers, income paid."""
    state = GAME.setup(load_options(GAME, options), seats, rng())
    state["order"] = list(range(seats))
    for number, building in enumerate(NEUTRALS, start=1):
        state["road"][number - 1]["building"] = building
    start = [5] * 2 if seats == 2 else [5, 6, 6, 7, 7]
    for seat, p in enumerate(state["players"]):
        p["deniers"] = start[seat] + 2
    state["decision"] = {"kind": "place", "seat": 0}
    state["cursor"] = 0
    return state


def give(state: dict, seat: int, **goods) -> dict:
    state["players"][seat].update(goods)
    return state


def own(state: dict, number: int, building: str, seat: int | None) -> dict:
    """Put ``building`` on road space ``number`` owned by ``seat`` (taken from the supply)."""
    sp = state["road"][number - 1]
    if building in state["supply"]:
        state["supply"].remove(building)
    sp.update(building=building, owner=seat)
    if seat is not None:
        state["players"][seat]["houses"] += 1
    return state


def worker(state: dict, number: int, seat: int) -> dict:
    state["road"][number - 1]["worker"] = seat
    state["players"][seat]["workers"] -= 1
    return state


def at_phase(state: dict, phase: str, passed: list | None = None) -> dict:
    """Jump to the start of ``phase`` (everyone passed in ``passed`` order) and advance."""
    cursors = {
        "special": 0,
        "provost": 0,
        "road": {"space": 1, "stage": "effect"},
        "castle": {"index": 0, "gave": 0},
        "end": "bailiff",
    }
    state["passed"] = list(passed if passed is not None else state["order"])
    state["phase"] = phase
    state["cursor"] = cursors[phase]
    state["decision"] = None
    advance(state)
    return state


def act(state: dict, seat: int, kind: str, **payload) -> dict:
    return GAME.apply(state, {"type": kind, "seat": seat, "payload": payload}, rng())


def asked(state: dict) -> tuple:
    """(seat, decision kind) the game waits for."""
    from projections.games.caylus.turn import current_decision

    d = current_decision(state)
    return (d["seat"], d["kind"]) if d else None
