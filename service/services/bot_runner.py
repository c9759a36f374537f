"""The bot runner: plays the computer seats and computes evaluation lines, outside the
request threads.

It runs as its own low-priority process (``python -m service bots``, which gunicorn's
master starts beside the workers), so a search never holds a request thread or the
workers' interpreter lock. It waits on two Redis sorted sets that the platform fills:
``bots:due`` (a computer seat is awaited) and ``analysis:due`` (someone asked for an
evaluation line). A bot's move goes through ``Platform.act`` with the seat's own token,
a deterministic action id and ``expected_seq``: an ordinary event, and two runners
racing append it once.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time

from events import keys
from events.writer import WriteConflict
from projections import fold
from projections.bots.search import Budget, choose
from projections.games import get as get_game
from service import wiring
from service.services import analysis, callers
from service.services.errors import Conflict
from service.services.games import SYSTEM_ACTION_PREFIX

log = logging.getLogger(__name__)

STRENGTHS = {
    1: Budget(iterations=24, rollout_depth=60, seconds=2.0),
    2: Budget(iterations=60, rollout_depth=200, seconds=5.0),
    3: Budget(iterations=160, rollout_depth=400, seconds=12.0),
}
"""Strength -> search budget per move; the time cap bounds a move on a slow machine."""


class BotRunner:
    def __init__(self, platform, strengths: dict[int, Budget] | None = None, playouts: int = analysis.PLAYOUTS):
        self.platform = platform
        self.redis = platform.redis
        self.strengths = strengths or STRENGTHS
        self.playouts = playouts

    def move(self, game_id: str) -> bool:
        """Play one awaited computer seat of ``game_id``; True if a move was appended."""
        p = self.platform.state(game_id)
        if p["status"] != "active":
            return False
        game = get_game(p["game"])
        for seat in fold.awaited(p):
            strength = p["bots"].get(str(seat))
            if strength is None or not game.legal_actions(p["state"], seat):
                continue
            action = choose(
                game, p["state"], seat, len(p["seats"]), self.strengths[strength], seed=f"{game_id}:{p['seq']}:{seat}"
            )
            token = self.redis.hget(keys.bots(game_id), str(seat))
            caller = callers.resolve(self.redis, game_id, token)
            try:
                self.platform.act(
                    game_id,
                    caller,
                    action["type"],
                    action["payload"],
                    action_id=f"{SYSTEM_ACTION_PREFIX}bot:{p['seq']}:{seat}",
                    expected_seq=p["seq"],
                )
            except (Conflict, WriteConflict):
                log.info("bot move in %s at seq %s lost a race; the next turn decides again", game_id, p["seq"])
            return True
        return False

    def run_once(self) -> bool:
        """One unit of work (a bot move, or one analysis job); False when there was none."""
        for key, work in ((keys.BOTS_DUE, self._bots), (keys.ANALYSIS_DUE, self._analysis)):
            popped = self.redis.zpopmin(key)
            if popped:
                game_id = popped[0][0]
                try:
                    work(game_id)
                except Exception:
                    log.exception("bot runner: %s for game %s failed", key, game_id)
                return True
        return False

    def _bots(self, game_id: str) -> None:
        if self.move(game_id):
            self.platform._schedule_bots(game_id, self.platform.state(game_id))

    def _analysis(self, game_id: str) -> None:
        analysis.run(self.platform, game_id, self.playouts)

    def run_until_idle(self, limit: int = 100000) -> int:
        """Work until nothing is due (tests, and draining on shutdown); returns units done."""
        done = 0
        while done < limit and self.run_once():
            done += 1
        return done

    def run_forever(self, idle_sleep: float = 0.2) -> None:
        parent = os.getppid()
        while os.getppid() == parent:  # orphaned (the master died): stop with it
            try:
                busy = self.run_once()
            except Exception:  # storage unreachable: wait, then try again
                log.exception("bot runner cannot reach its work")
                busy = False
                time.sleep(1.0)
            if not busy:
                time.sleep(idle_sleep)


def main() -> None:
    """``python -m service bots``: a niced process serving every worker's games."""
    from service.app import create_app
    from service.supervision import die_with_parent

    die_with_parent()  # a master killed with -9 takes the runner with it
    os.nice(int(os.environ.get("BOTS_NICE", "10")))
    cap = float(os.environ.get("BOT_SECONDS_CAP", "0") or 0)
    strengths = (
        {n: dataclasses.replace(b, seconds=min(b.seconds or cap, cap)) for n, b in STRENGTHS.items()} if cap else None
    )
    app = create_app({"CLOCK_SWEEP_SECONDS": 0})
    BotRunner(wiring.of(app).platform, strengths).run_forever()
