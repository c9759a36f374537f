"""Evaluation lines for commentators: each seat's chance of winning at every step.

Asked for through the API, computed by the bot runner (never in a request thread) with
full-information playouts of the true state, and stored beside the annotations — never
in the game's log, so it moves no seq and proves nothing. The true state hides nothing,
so a live game's line is the referee's alone until the game ends (and a fork's until
its source has ended too: ``Games.sees_all``).
"""

from __future__ import annotations

import time
from typing import Any

from events.shapes import JSON, Envelope
from projections import fold
from projections.bots.search import win_chances
from projections.fold import InMemoryHistory, PlatformState, game_event
from service.ports import AnalysisJobs, GameLog, Schedules
from service.services.callers import Caller
from service.services.errors import Forbidden, NotFound
from service.services.games import Games

PLAYOUTS = 12
MAX_POINTS = 80
"""At most this many steps are evaluated (evenly spread, the last always), so a long game
costs what a short one does."""


class Analysis:
    def __init__(self, games: Games, log: GameLog, jobs: AnalysisJobs, schedules: Schedules) -> None:
        self._games = games
        self._log = log
        self._jobs = jobs
        self._schedules = schedules

    def _may_see(self, p: PlatformState, caller: Caller) -> None:
        if not self._games.sees_all(p, caller):
            raise Forbidden(
                "analysis_after_the_end",
                "a game's evaluation is shown to all once it has ended; until then only to its referee",
            )

    def request(self, game_id: str, caller: Caller) -> JSON:
        """Queue an evaluation of the log as it is now (a no-op if one is queued or done for it)."""
        p = self._log.state(game_id)
        self._may_see(p, caller)
        stored = self._jobs.get(game_id)
        if stored and stored["seq"] == p["seq"] and stored["status"] != "failed":
            return stored
        job = {
            "status": "queued",
            "seq": p["seq"],
            "done": 0,
            "total": 0,
            "seats": p["seats"],
            "points": [],
            "drops": [],
        }
        self._jobs.put(game_id, job)
        self._schedules.analysis_due(game_id, time.time())
        return job

    def read(self, game_id: str, caller: Caller) -> JSON:
        p = self._log.state(game_id)
        self._may_see(p, caller)
        stored = self._jobs.get(game_id)
        if stored is None:
            raise NotFound("not_found", "no evaluation has been asked for this game")
        return stored

    def run(self, game_id: str, playouts: int = PLAYOUTS) -> JSON | None:
        """Compute the queued evaluation, saving progress as it goes (the bot runner)."""
        job = self._jobs.get(game_id)
        if job is None or job["status"] == "done":
            return job
        envelopes = self._log.read(game_id, after=0, upto=job["seq"])
        p = self._log.state(game_id)
        game, seats = fold.game_of(p), len(p["seats"])
        wanted = set(steps(envelopes, p["game"]))
        job.update(status="running", total=len(wanted), done=0, points=[])
        history = InMemoryHistory(envelopes, self._log.seed(game_id))
        for envelope, state in history.states():
            if envelope["seq"] not in wanted:
                continue
            if state["result"] is not None:
                ranking = state["result"]["ranking"]
                firsts = [s for s in range(seats) if ranking[s] == 1]
                chances = [1 / len(firsts) if s in firsts else 0.0 for s in range(seats)]
            else:
                chances = win_chances(game, state["state"], seats, playouts, seed=f"{game_id}:{envelope['seq']}")
            job["points"].append([envelope["seq"], [round(c, 3) for c in chances]])
            job["done"] += 1
            if job["done"] % 5 == 0:
                self._jobs.put(game_id, job)
        job.update(status="done", drops=biggest_drops(job["points"], seats))
        self._jobs.put(game_id, job)
        return job


def steps(envelopes: list[Envelope], game_name: str) -> list[int]:
    """The seqs worth a point: creation and every game move, thinned to MAX_POINTS."""
    seqs = [e["seq"] for e in envelopes if e["seq"] == 1 or game_event(e, game_name) is not None]
    if len(seqs) <= MAX_POINTS:
        return seqs
    stride = len(seqs) / (MAX_POINTS - 1)
    return sorted({seqs[min(len(seqs) - 1, round(i * stride))] for i in range(MAX_POINTS - 1)} | {seqs[-1]})


def biggest_drops(points: list[list[Any]], seats: int) -> list[JSON]:
    """For each seat, the step where its chance fell most (the turning point to mark)."""
    drops = []
    for seat in range(seats):
        falls = [
            (points[i - 1][1][seat] - points[i][1][seat], points[i][0], points[i - 1][1][seat], points[i][1][seat])
            for i in range(1, len(points))
        ]
        if falls:
            fall, seq, before, after = max(falls)
            if fall > 0:
                drops.append({"seat": seat, "seq": seq, "from": round(before, 3), "to": round(after, 3)})
    return drops
