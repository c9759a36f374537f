"""Clocks: forfeits when a seat's time runs out, credits when the service was down.

Clocks are folded from the entries' timestamps (``projections.fold``); here is what
acts on them: the sweeper (a thread per process) and every move look for a fallen flag
and append ``clock.expired`` (or ``clock.cancelled`` when a seat never made its first
move) with an action id derived from the state, so two workers seeing it at once
append it once. After each append the game's next deadline is filed in the schedules.

Each sweep also writes a heartbeat. A process starting after the heartbeat stopped
(every process was down), or whose sweeps failed because the storage could not be
reached, credits each running clock with the time since, as a ``clock.credited`` entry,
before it flags anyone; ``hold``/``release`` pause and
resume every running clock for maintenance (``python -m service maintenance on|off``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from events.shapes import JSON, Actor, Envelope
from events.writer import Entry
from projections.fold import DAY, PlatformState, budget, unmoved
from service.ports import GameLog, Lagging, Now, Schedules
from service.services.errors import Refusal

SYSTEM: Actor = {"role": "system"}
SYSTEM_ACTION_PREFIX = "sys:"  # the platform's own action ids; clients may not use it
EVERY_GAME = float("inf")
FIRST_MOVE_SECONDS = 120.0  # a seat's allowance for its first move, when the clock names none


def first_move(clock: JSON) -> float:
    """A seat's allowance for its first move: a turn-based game's days per move, a live
    one's ``FIRST_MOVE_SECONDS``."""
    if "per_move_days" in clock:
        return float(clock["per_move_days"]) * DAY
    return FIRST_MOVE_SECONDS


def out_of_time(p: PlatformState | None, now: float) -> list[int]:
    """The running seats of ``p`` whose clocks have run out at ``now``."""
    clocks = p and p["clocks"]
    if not p or not clocks or p["status"] != "active":
        return []
    spent = now - clocks["since"]
    return [s for s in clocks["running"] if budget(clocks, s) - spent <= 0]


def deadline(p: PlatformState) -> float | None:
    """When the first running clock (or first-move allowance) of ``p`` runs out (None:
    none runs)."""
    clocks = p["clocks"]
    if not clocks or p["status"] != "active" or not clocks["running"]:
        return None
    return float(clocks["since"] + min(budget(clocks, s) for s in clocks["running"]))


def running(p: PlatformState | None) -> bool:
    return bool(p and p["clocks"] and p["status"] == "active" and p["clocks"]["running"])


class Clocks:
    def __init__(self, log: GameLog, schedules: Schedules, lagging: Lagging, now: Now = time.time) -> None:
        self._log = log
        self._schedules = schedules
        self._lagging = lagging
        self._now = now
        self._owed: float | None = None  # an outage credit to look for before flagging (its ``after``)

    def owe_credit(self, after: float) -> None:
        """This process starts, or its sweeper could not reach the storage: before it
        flags any seat (the sweeper's or a move's look), credit the outage, if the
        heartbeat is older than ``after`` seconds. A storage outage with the server up
        (every request answered 503) is then credited like a stopped server."""
        self._owed = after

    def pay_owed_credit(self) -> dict[str, float]:
        """The credit ``owe_credit`` asked for (``credit_outage``), once; {} if none is owed."""
        after = self._owed
        if after is None:
            return {}
        credited = self.credit_outage(after=after)  # storage still down: raises, still owed
        self._owed = None
        return credited

    def now(self) -> float:
        """The service's time (its injected clock)."""
        return self._now()

    def sweep(self, now: float | None = None) -> list[str]:
        """One sweep: the heartbeat, then the forfeits due."""
        now = self._now() if now is None else now
        self._schedules.heartbeat(now)
        return self.expire(now)

    def credit_outage(self, now: float | None = None, after: float = 4.0) -> dict[str, float]:
        """At start, before sweeping: if the heartbeat is older than ``after`` seconds
        (no process was sweeping), credit every running clock with the time since, so no
        seat is charged for an outage. Processes starting together credit each game once
        (the action id names the heartbeat). Returns {game id: seconds credited}."""
        now = self._now() if now is None else now
        beat = self._schedules.last_heartbeat()
        if beat is None or now - beat < after:
            return {}
        credited = {}
        for game_id in self._schedules.clocks_due(EVERY_GAME):
            p = self._log.state_or_none(game_id)
            if not running(p):
                continue

            def build(q: PlatformState) -> list[Entry]:
                clocks = q["clocks"]
                if clocks is None or not running(q):
                    return []
                seconds = round(max(0.0, now - max(beat, clocks["since"])), 3)
                return [("clock.credited", SYSTEM, {"seconds": seconds, "reason": "outage"})]

            try:
                written = self._log.append(game_id, build, action_id=f"{SYSTEM_ACTION_PREFIX}outage:{beat!r}")
            except Refusal:
                continue
            if written.status == "created" and written.envelopes:
                credited[game_id] = written.envelopes[0]["payload"]["seconds"]
        return credited

    def hold(self, reason: str) -> list[str]:
        """Maintenance: pause every running clock (``clock.paused``); the games held."""
        self._schedules.maintenance(True)
        held = []
        for game_id in self._schedules.clocks_due(EVERY_GAME):
            if self._mark(
                game_id, "clock.paused", reason, lambda q: running(q) and not (q["clocks"] or {}).get("held")
            ):
                self._schedules.held(game_id, True)
                held.append(game_id)
        return held

    def held_from_the_start(self, game_id: str) -> list[Entry]:
        """A clocked game created during maintenance starts held, like the others."""
        if not self._schedules.in_maintenance():
            return []
        self._schedules.held(game_id, True)
        return [("clock.paused", SYSTEM, {"reason": "maintenance"})]

    def release(self, reason: str) -> list[str]:
        """After maintenance: resume the clocks ``hold`` paused (``clock.resumed``)."""
        released = []
        for game_id in self._schedules.held_games():
            if self._mark(game_id, "clock.resumed", reason, lambda q: bool(q["clocks"] and q["clocks"].get("held"))):
                released.append(game_id)
            self._schedules.held(game_id, False)
        self._schedules.maintenance(False)
        return released

    def _mark(self, game_id: str, kind: str, reason: str, applies: Callable[[PlatformState], bool]) -> bool:
        def build(q: PlatformState) -> list[Entry]:
            return [(kind, SYSTEM, {"reason": reason})] if q["status"] != "finished" and applies(q) else []

        try:
            written = self._log.append(game_id, build)
        except Refusal:
            return False
        return written.status == "created" and bool(written.envelopes)

    def scheduled(
        self, game_id: str, before: PlatformState | None, envelopes: list[Envelope], after: PlatformState
    ) -> None:
        """After an append: file the game's next deadline (a game without clocks has none)."""
        if after["clocks"]:
            due = deadline(after)
            self._lagging.run(("clock", game_id), lambda: self._schedules.clock_due(game_id, due))

    def expire(self, now: float | None = None) -> list[str]:
        """Forfeit every seat whose clock has run out; safe to call from many workers."""
        now = self._now() if now is None else now
        expired = []
        for game_id in self._schedules.clocks_due(now):
            p = self._log.state_or_none(game_id)
            if p is None or not p["clocks"] or p["status"] != "active":
                self._schedules.clock_due(game_id, None)
                continue
            if self.flag(game_id, p, now) is not None:
                expired.append(game_id)
            else:
                self._schedules.clock_due(game_id, deadline(p))
        return expired

    def flag(self, game_id: str, p: PlatformState, now: float) -> int | None:
        """Append ``clock.expired`` for the first running seat of ``p`` out of time at
        ``now``; the seat forfeited, if one was. The sweeper calls it on a timer, and
        every move first (so no move slips in between the flag falling and the sweep)."""
        out = out_of_time(p, now)
        if not out:
            return None
        seat = out[0]
        entry: Entry = (
            ("clock.cancelled", SYSTEM, {"seat": seat, "reason": "no first move in time"})
            if seat in unmoved(p["clocks"] or {})
            else ("clock.expired", SYSTEM, {"seat": seat, "reason": "clock ran out"})
        )
        try:
            self._log.append(
                game_id,
                lambda q: [entry],
                action_id=f"{SYSTEM_ACTION_PREFIX}clock:{p['seq']}:{seat}",
                expected_seq=p["seq"],
            )
            return seat
        except Refusal:
            return None  # someone else moved first; the next look finds it

    def fallen(self, game_id: str, known: PlatformState) -> set[int]:
        """Before a move: forfeit every seat whose flag has fallen (the seats forfeited)."""
        flagged: set[int] = set()
        if out_of_time(known, self._now()) and self._owed is not None:
            self.pay_owed_credit()  # the storage is back before the sweeper looked: credit first
            known = self._log.state(game_id)
        while out_of_time(known, self._now()) and len(flagged) < len(known["seats"]):
            seat = self.flag(game_id, self._log.state(game_id), self._now())
            if seat is None:
                break
            flagged.add(seat)
            known = self._log.state(game_id)
        return flagged
