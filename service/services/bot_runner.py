"""A worker of the bot pool: plays the computer seats and computes evaluation lines,
outside the request threads.

Each runs as its own low-priority process (``python -m service bots`` starts
``BOT_WORKERS`` of them beside gunicorn's workers; ``service/entrypoints/bots.py``), so a
search never holds a request thread or the workers' interpreter lock. They take their
work from the queues the platform fills: a computer seat is awaited (the fair queue,
``BotQueue``), or someone asked for an evaluation line. A computer's move goes through
``Games.act`` with the seat's own token, a deterministic action id and
``expected_seq``: an ordinary event, and two workers racing append it once. In a game
whose clocks say ``computers_wait`` the worker first appends ``bot.picked``: the
computer's clock runs from there, not while its move waited in the queue.
"""

from __future__ import annotations

import logging
import os
import time
from collections import deque
from collections.abc import Generator
from dataclasses import dataclass

from events.writer import WriteConflict
from projections import fold
from projections.bots.search import SLICE, Budget, search
from projections.fold import PlatformState
from projections.games.base import Action
from service.metrics import BOT_MOVES, BOT_THINK_SECONDS
from service.ports import BotQueue, GameLog, Schedules, Tokens
from service.services.analysis import PLAYOUTS, Analysis
from service.services.callers import UnknownToken
from service.services.clocks import SYSTEM, SYSTEM_ACTION_PREFIX
from service.services.computer_seats import STRENGTHS, THINK_SECONDS, ComputerSeats
from service.services.errors import Conflict, Refusal
from service.services.game_log import LOG_FULL
from service.services.games import Games

__all__ = ["STRENGTHS", "BotRunner"]

RECOVERY_SECONDS = 10.0
"""How often a worker looks for moves taken by a worker that died."""
STALE_SECONDS = 4 * max(THINK_SECONDS.values())
"""A move taken this long ago and not finished was taken by a worker that died."""

log = logging.getLogger(__name__)


@dataclass
class Thinking:
    """A computer move under way: its search, sliced, and where its move goes."""

    game_id: str
    seat: int
    strength: int
    seq: int
    steps: Generator[None, None, Action]
    started: float
    at_bound: bool = False
    """The move was refused at the log's bound: no seat's move can be written any more."""


class BotRunner:
    def __init__(
        self,
        games: Games,
        log: GameLog,
        tokens: Tokens,
        schedules: Schedules,
        queue: BotQueue,
        computer_seats: ComputerSeats,
        analysis: Analysis,
        strengths: dict[int, Budget] | None = None,
        playouts: int = PLAYOUTS,
        slots: int = 1,
        stale_seconds: float = STALE_SECONDS,
    ) -> None:
        self._games = games
        self._log = log
        self._tokens = tokens
        self._schedules = schedules
        self._queue = queue
        self._computer_seats = computer_seats
        self._analysis = analysis
        self._strengths = strengths or STRENGTHS
        self._playouts = playouts
        self._slots = max(1, slots)
        self._next_recovery = 0.0
        self._stale_seconds = stale_seconds
        self._thinking: deque[Thinking] = deque()

    def move(self, game_id: str) -> bool:
        """Play one awaited computer seat of ``game_id`` at once (unsliced); True if the
        game changed (a move, or a lost race: it is queued again if still awaited)."""
        job = self._start(game_id, None)
        if not isinstance(job, Thinking):
            return job
        while not self._step(job):
            pass
        return True

    def _start(self, game_id: str, slice_seconds: float | None) -> Thinking | bool:
        """Take up the first awaited computer seat of ``game_id``: its clock starts
        (``bot.picked``) and so does its search. False: no computer is awaited; True:
        the game moved on before the seat was picked."""
        p = self._log.state(game_id)
        if p["status"] != "active":
            return False
        game = fold.game_of(p)
        for seat in fold.awaited(p):
            strength = p["bots"].get(str(seat))
            if strength is None or not game.legal_actions(p["state"], seat):
                continue
            started = time.monotonic()
            picked = self._picked(game_id, p, seat)
            if picked is None:
                return True
            budget = self._strengths[strength]
            seed = f"{game_id}:{picked['seq']}:{seat}"
            steps = search(game, picked["state"], seat, len(picked["seats"]), budget, seed, slice_seconds, started)
            return Thinking(game_id, seat, strength, picked["seq"], steps, started)
        return False

    def _step(self, job: Thinking) -> bool:
        """One slice of ``job``'s search; True once it is over and its move was sent."""
        try:
            next(job.steps)
            return False
        except StopIteration as done:
            action: Action = done.value
        token = self._tokens.bot_token(job.game_id, job.seat)
        if token is None:
            raise UnknownToken(job.game_id)
        caller = self._tokens.resolve(job.game_id, token)
        try:
            self._games.act(
                job.game_id,
                caller,
                action["type"],
                action["payload"],
                action_id=f"{SYSTEM_ACTION_PREFIX}bot:{job.seq}:{job.seat}",
                expected_seq=job.seq,
            )
        except (Conflict, WriteConflict) as exc:
            if isinstance(exc, Conflict) and exc.code == LOG_FULL:
                log.warning(
                    "game %s is at its log's bound: its computer seats stop; the referee may end it", job.game_id
                )
                job.at_bound = True  # not queued again
            else:
                log.info("bot move in %s at seq %s lost a race; the next turn decides again", job.game_id, job.seq)
        # think time: from the worker taking the move (its clock's start) to the move written
        BOT_THINK_SECONDS.labels(str(job.strength)).observe(time.monotonic() - job.started)
        BOT_MOVES.labels(str(job.strength)).inc()
        return True

    def _picked(self, game_id: str, p: PlatformState, seat: int) -> PlatformState | None:
        """The state to search from once the seat's clock runs: ``p`` itself unless the
        clocks wait for a worker (``computers_wait``), then after ``bot.picked`` (None:
        someone moved first)."""
        clocks = p["clocks"]
        if not clocks or "thinking" not in clocks or seat in clocks["thinking"]:
            return p
        try:
            written = self._log.append(
                game_id,
                lambda q: [("bot.picked", SYSTEM, {"seat": seat})],
                action_id=f"{SYSTEM_ACTION_PREFIX}picked:{p['seq']}:{seat}",
                expected_seq=p["seq"],
            )
        except Refusal as exc:
            if exc.code == LOG_FULL:
                raise  # the log is at its bound: the game is not queued again
            return None
        return written.state

    def run_once(self) -> bool:
        """One unit of work: take up a queued computer move (while a slot is free), else
        one slice of the searches under way (in turn), else one analysis job. False
        when there was nothing to do."""
        self._recover()
        if len(self._thinking) < self._slots:
            game_id = self._queue.take()
            if game_id is not None:
                try:
                    job = self._start(game_id, SLICE)
                    if isinstance(job, Thinking):
                        self._thinking.append(job)
                    else:
                        self._done(game_id, again=job)
                except Exception:
                    log.exception("bot runner: a computer seat of game %s failed", game_id)
                    self._queue.done(game_id)
                return True
        if self._thinking:
            job = self._thinking.popleft()
            try:
                if self._step(job):
                    self._done(job.game_id, again=not job.at_bound)
                else:
                    self._thinking.append(job)
            except Exception:
                log.exception("bot runner: a computer seat of game %s failed", job.game_id)
                self._queue.done(job.game_id)
            return True
        game_id = self._schedules.next_analysis()
        if game_id is None:
            return False
        try:
            self._analysis.run(game_id, self._playouts)
        except Exception:
            log.exception("bot runner: evaluation for game %s failed", game_id)
        return True

    def _done(self, game_id: str, again: bool = True) -> None:
        """A taken move is over: queue the game again if a computer is still awaited."""
        if again:
            self._computer_seats.schedule(game_id, self._log.state(game_id))
        self._queue.done(game_id)

    def _recover(self) -> None:
        """Now and then, queue again the moves a worker took and never finished (it was
        killed): without this their games would wait for a computer for ever."""
        now = time.monotonic()
        if now < self._next_recovery:
            return
        self._next_recovery = now + RECOVERY_SECONDS
        for game_id in self._queue.stale(time.time() - self._stale_seconds):
            log.warning("bot runner: the move taken in game %s was never finished; queued again", game_id)
            try:
                self._done(game_id)
            except Exception:
                log.exception("bot runner: game %s cannot be queued again", game_id)
                self._queue.done(game_id)

    def requeue(self) -> None:
        """Give the searches under way back to the queue (the worker is stopping)."""
        while self._thinking:
            self._done(self._thinking.popleft().game_id)

    def run_until_idle(self, limit: int = 100000) -> int:
        """Work until nothing is due (tests, and draining on shutdown); returns units done."""
        done = 0
        while done < limit and self.run_once():
            done += 1
        return done

    def run_forever(self, idle_sleep: float = 0.2) -> None:
        parent = os.getppid()
        try:
            while os.getppid() == parent:  # orphaned (the master died): stop with it
                try:
                    busy = self.run_once()
                except Exception:  # storage unreachable: wait, then try again
                    log.exception("bot runner cannot reach its work")
                    busy = False
                    time.sleep(1.0)
                if not busy:
                    time.sleep(idle_sleep)
        finally:
            self.requeue()
