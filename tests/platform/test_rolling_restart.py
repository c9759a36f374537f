"""A rolling restart: one of two app servers stopped (SIGTERM) and started again while
clients keep sending requests on kept-alive connections to both. A stopping server
stops accepting first, finishes what it holds and closes its idle connections, so a
client sees an answer or a quick refusal or reset, never a request hanging.

A hang is a request with no answer within the client's 3 s (what the workers of a
restarting server did before they opened their sockets only once the app was loaded:
deploy/gunicorn_workers.py), or one to the restarted server slower than the steady
server's slowest plus a second: on a machine shared with other work the steady server
itself takes over a second at times, and that is queueing, not the restart."""

from __future__ import annotations

import signal
import threading
import time

import pytest
import requests

from tests import redis_servers
from tests.platform.gunicorn_server import gunicorn_process
from tests.redis_servers import free_port

pytestmark = [
    pytest.mark.xdist_group("redis-servers"),
    pytest.mark.skipif(not redis_servers.available(), reason="redis-server is not installed"),
]
HANG = 1.0  # seconds: slower than the steady server's slowest by this much counts as hung
CLIENTS = 6  # busy, not saturating: on 2 CPUs more measures the queue, not the restart


def _load(bases: list[str], stop: threading.Event, results: list[tuple[float, tuple[str, str]]]) -> None:
    """One client: a kept-alive session, alternating servers, recording (seconds, outcome)."""
    sessions = {base: requests.Session() for base in bases}
    n = 0
    while not stop.is_set():
        base = bases[n % len(bases)]
        n += 1
        start = time.monotonic()
        try:
            r = sessions[base].get(base + "/game-types", timeout=(3, 3))
            outcome = str(r.status_code)
        except requests.ConnectionError as exc:
            outcome = "timeout" if "timed out" in str(exc) else "refused or reset"
        except requests.Timeout:
            outcome = "timeout"
        results.append((time.monotonic() - start, (outcome, f"{base} at {start:.2f}")))
        time.sleep(0.01)


def test_restarting_one_of_two_app_servers_under_load_hangs_no_request(tmp_path):
    proc, url = redis_servers.standalone(tmp_path)
    env = {"REDIS_URL": url, "REDIS_DURABILITY_CHECK": "off", "WEB_CONCURRENCY": 2, "ACCESS_LOG": ""}
    port = free_port()
    results: list[tuple[float, tuple[str, str]]] = []
    stop = threading.Event()
    try:
        with gunicorn_process(**env) as (steady, _, _):
            with gunicorn_process(port=port, **env) as (restarted, _, master):
                clients = [
                    threading.Thread(target=_load, args=([steady, restarted], stop, results)) for _ in range(CLIENTS)
                ]
                [c.start() for c in clients]
                time.sleep(2)
                master.send_signal(signal.SIGTERM)
                master.wait(timeout=40)
            with gunicorn_process(port=port, **env):
                time.sleep(2)
            stop.set()
            [c.join() for c in clients]
    finally:
        stop.set()
        redis_servers.stop(proc)
    hung = [(round(s, 2), where) for s, (outcome, where) in results if outcome == "timeout"]
    steady_worst = max(s for s, (_, where) in results if where.startswith(steady))
    slow = [
        (round(s, 2), o, where) for s, (o, where) in results if where.startswith(restarted) and s > steady_worst + HANG
    ]
    assert len(results) > 200 and not hung and not slow, (len(results), round(steady_worst, 2), hung[:20], slow[:20])
