"""``python -m service bots``: the bot pool, ``BOT_WORKERS`` niced processes serving
every worker's games (gunicorn's master starts it beside the workers).

The pool's parent only keeps its workers running (one that dies is started again);
each worker takes computer moves from the fair queue and slices up to ``BOT_SLOTS``
searches in turn, so a long think does not hold up a short one taken after it. A worker
dies with the parent, and the parent with gunicorn's master."""

from __future__ import annotations

import dataclasses
import logging
import multiprocessing
import os
import signal
import sys
import time
from multiprocessing.process import BaseProcess
from types import FrameType

from service.services.bot_runner import STRENGTHS

log = logging.getLogger(__name__)


def main() -> None:
    from service.supervision import die_with_parent

    die_with_parent()  # a master killed with -9 takes the pool with it
    os.nice(int(os.environ.get("BOTS_NICE", "10")))
    workers = max(1, int(os.environ.get("BOT_WORKERS", "2")))
    if workers == 1:
        work()
        return
    fork = multiprocessing.get_context("fork")
    pool: list[BaseProcess] = []

    def stop(signum: int, frame: FrameType | None) -> None:
        for process in pool:
            process.terminate()
        for process in pool:
            process.join(10)
        sys.exit(0)

    signal.signal(signal.SIGTERM, stop)
    pool.extend(fork.Process(target=work, name=f"bot-worker-{i}") for i in range(workers))
    for process in pool:
        process.start()
    while True:
        time.sleep(1.0)
        for i, process in enumerate(pool):
            if not process.is_alive():
                log.error("bot worker %s exited with %s; starting another", process.pid, process.exitcode)
                pool[i] = fork.Process(target=work, name=process.name)
                pool[i].start()


def work() -> None:
    """One worker of the pool: its own app (its own Redis connections) and runner."""
    from service import wiring
    from service.app import create_app
    from service.supervision import die_with_parent

    die_with_parent()
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))  # run_forever gives its searches back
    cap = float(os.environ.get("BOT_SECONDS_CAP", "0") or 0)
    strengths = (
        {n: dataclasses.replace(b, seconds=min(b.seconds or cap, cap)) for n, b in STRENGTHS.items()} if cap else None
    )
    app = create_app({"CLOCK_SWEEP_SECONDS": 0})
    wiring.of(app).bot_runner(strengths, slots=int(os.environ.get("BOT_SLOTS", "2"))).run_forever()
