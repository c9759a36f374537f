"""The CPU a running server has spent, split as the benchmarks report it: one way to count
for every benchmark, so their figures compare."""

from __future__ import annotations

import psutil


def server_cpu(pid: int) -> tuple[float, float]:
    """(gunicorn's master and workers, the embedded Redis) CPU seconds so far, for the
    server whose master is ``pid``. Its side processes (``python -m service bots`` and
    ``notices``, idle in the benchmarks) are left out."""
    master = psutil.Process(pid)
    web = redis_cpu = 0.0
    for proc in [master, *master.children(recursive=True)]:
        try:
            spent = sum(proc.cpu_times()[:2])
            if "redis" in proc.name():
                redis_cpu += spent
            elif "service" not in proc.cmdline():  # `-m service <side job>`
                web += spent
        except psutil.NoSuchProcess:
            pass
    return web, redis_cpu
