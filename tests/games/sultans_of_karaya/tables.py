"""Scripted tables for transcript tests: a chosen deal, then events applied one by one."""

from __future__ import annotations

import copy

from events.rng import SeededRng
from projections.games.sultans_of_karaya import GAME
from projections.games.sultans_of_karaya.components import NEUTRAL_POOL
from tests.games.harness import load_options


def table(cards: list[str], spare: str, first: int = 0, **options) -> dict:
    """A fresh round 1 with ``cards[i]`` dealt to seat i and ``spare`` in the centre."""
    seats = len(cards)
    opts = load_options(GAME, {"first_player": first, **options})
    state = copy.deepcopy(GAME.setup(opts, seats, SeededRng("table", 0)))
    rd = state["round_state"]
    rd["cards"] = list(cards)
    rd["spare"] = spare
    used = set(cards) | {spare}
    rd["set_aside"] = sorted(n for n in NEUTRAL_POOL if n not in used)
    return state


def act(state: dict, seat, kind: str, **payload) -> dict:
    if "with_" in payload:
        payload["with"] = payload.pop("with_")
    return GAME.apply(state, {"type": kind, "seat": seat, "payload": payload}, SeededRng("next", 0))


def event(seat, kind: str, **payload) -> dict:
    if "with_" in payload:
        payload["with"] = payload.pop("with_")
    return {"type": kind, "seat": seat, "payload": payload}


def respond_all(state: dict, answers: dict | None = None) -> dict:
    """Answer the open window: ``answers[seat]`` where given, the default otherwise."""
    answers = answers or {}
    pending = state["round_state"]["pending"]
    default = {"block": "pass", "forbid": "accept", "revolt": "pass"}[pending["window"]]
    for seat in sorted(GAME.to_act(state)):
        state = act(state, seat, "respond", window=pending["id"], choice=answers.get(seat, default))
    return state


def rd(state: dict) -> dict:
    return state["round_state"]


def kinds(state: dict) -> list[str]:
    return [note["kind"] for note in state["notes"]]
