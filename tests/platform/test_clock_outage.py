"""Real processes: the whole server stopped longer than a seat's clock, then started
again, forfeits nobody: it credits the outage to the running clock as an entry. The
operator's ``python -m service maintenance on|off`` holds and resumes the clocks of the
running server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
import requests

from tests.platform.gunicorn_server import gunicorn, play

pytestmark = pytest.mark.xdist_group("durability")


def entries(base: str, game: dict) -> list[dict]:
    return requests.get(f"{base}/games/{game['id']}/events", timeout=10).json()["events"]


def meta(base: str, game: dict) -> dict:
    return requests.get(f"{base}/games/{game['id']}", timeout=10).json()


def maintenance(state: str, data_dir) -> dict:
    env = {**os.environ, "DATA_DIR": str(data_dir), "PYTHONPATH": os.getcwd()}
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "service", "maintenance", state, "--reason", "upgrade"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_stopped_server_charges_no_clock_and_maintenance_holds_them(tmp_path):
    env = {"DATA_DIR": tmp_path, "REDIS_URL": None, "CLOCK_SWEEP_SECONDS": "0.2", "WEB_CONCURRENCY": 2}
    with gunicorn(**env) as (base, _):
        game = requests.post(
            base + "/games", json={"game": "caylus", "seats": ["a", "b"], "clock": {"base": 8}}, timeout=10
        ).json()
        for _ in range(2):  # each seat's first move, untimed
            assert play(base, game).status_code == 201
        assert meta(base, game)["clocks"]["moved"] == [0, 1]
        time.sleep(1.0)  # the sweepers beat; the seat to act has thought a second
    time.sleep(8)  # every process down, longer than the 7 s left on the running clock
    with gunicorn(**env) as (base, output):
        time.sleep(2)  # ten sweeps
        after = meta(base, game)
        assert after["status"] == "active", (after, output)
        credit = [e for e in entries(base, game) if e["type"] == "clock.credited"]
        assert len(credit) == 1 and credit[0]["payload"]["reason"] == "outage"
        assert credit[0]["payload"]["seconds"] > 8
        assert "clock.expired" not in [e["type"] for e in entries(base, game)]
        seat = after["clocks"]["running"][0]
        assert 4 < after["clocks"]["remaining"][seat] < 7.5, after["clocks"]

        slow = requests.post(
            base + "/games", json={"game": "caylus", "seats": ["a", "b"], "clock": {"base": 120}}, timeout=10
        ).json()
        for _ in range(2):
            assert play(base, slow).status_code == 201
        held = maintenance("on", tmp_path)  # the command takes seconds to start: a long clock
        assert slow["id"] in held["games"]
        before = meta(base, slow)["clocks"]
        assert before["running"] == [] and before["held"] is True
        time.sleep(2)
        assert meta(base, slow)["clocks"]["remaining"] == before["remaining"]  # held: nothing spent
        released = maintenance("off", tmp_path)
        assert slow["id"] in released["games"]
        types = [e["type"] for e in entries(base, slow)]
        assert types[-2:] == ["clock.paused", "clock.resumed"]
        assert meta(base, slow)["clocks"]["running"] != []


def test_time_the_storage_was_unreachable_is_credited_once_it_is_back(tmp_path):
    """The server stays up but its Redis stops answering (every request answers 503)
    for longer than a seat's clock: once Redis answers again the sweeper first credits
    the running clocks with the time it could not sweep, as at a start, and forfeits
    nobody."""
    import signal

    from tests import redis_servers

    proc, url = redis_servers.standalone(tmp_path)
    try:
        with gunicorn(REDIS_URL=url, CLOCK_SWEEP_SECONDS="0.2", WEB_CONCURRENCY=2) as (base, output):
            game = requests.post(
                base + "/games", json={"game": "caylus", "seats": ["a", "b"], "clock": {"base": 8}}, timeout=10
            ).json()
            for _ in range(2):  # each seat's first move, untimed
                assert play(base, game).status_code == 201
            time.sleep(1.0)
            os.kill(proc.pid, signal.SIGSTOP)  # connections open, no answer: requests answer 503
            try:
                time.sleep(9)  # longer than the 7 s left on the running clock
                assert requests.get(f"{base}/games/{game['id']}", timeout=30).status_code == 503
            finally:
                os.kill(proc.pid, signal.SIGCONT)
            time.sleep(3)  # fifteen sweeps
            after = meta(base, game)
            assert after["status"] == "active", (after, output)
            credit = [e for e in entries(base, game) if e["type"] == "clock.credited"]
            assert len(credit) == 1 and credit[0]["payload"]["reason"] == "outage", credit
            assert credit[0]["payload"]["seconds"] > 7
            seat = after["clocks"]["running"][0]
            assert 2 < after["clocks"]["remaining"][seat] < 7.5, after["clocks"]
    finally:
        redis_servers.stop(proc)
