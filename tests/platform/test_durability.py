"""Storage: the embedded Redis survives restarts without losing an acknowledged
event, and gunicorn workers share one embedded server (they see each other's writes)."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest
import requests

from projections.games import GAME_PACKAGES
from projections.games import get as get_game
from service.adapters.connection import embedded_alive, start_embedded
from service.app import create_app
from tests.platform.gunicorn_server import all_workers_listening, gunicorn
from tests.platform.helpers import GameHandle

pytestmark = pytest.mark.xdist_group("durability")


def play_some(client, moves):
    g = GameHandle(client, options={"rounds": 20})
    seqs = [g.play_first().json["seq"] for _ in range(moves)]
    return g, seqs


def test_a_clean_restart_of_app_and_embedded_redis_loses_nothing(tmp_path):
    server, url = start_embedded(str(tmp_path))
    client = create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0}).test_client()
    g, seqs = play_some(client, 10)
    before = client.get(g.url("/view"), headers=g.ref()).json
    server.shutdown()

    server, url = start_embedded(str(tmp_path))
    client = create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0}).test_client()
    after = client.get(g.url("/view"), headers=g.ref()).json
    assert after == before and after["seq"] == seqs[-1]
    server.shutdown()


def test_with_appendfsync_always_a_killed_redis_loses_no_acknowledged_event(tmp_path):
    server, url = start_embedded(str(tmp_path), appendfsync="always")
    client = create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0}).test_client()
    g, seqs = play_some(client, 10)
    assert server.pid > 0  # os.kill(0, ...) would signal the whole test run
    os.kill(server.pid, signal.SIGKILL)
    while embedded_alive(server):  # gone or a zombie: it may vanish between two looks
        time.sleep(0.05)
    server, url = start_embedded(str(tmp_path), appendfsync="always")
    client = create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0}).test_client()
    assert client.get(g.url()).json["seq"] == seqs[-1]
    server.shutdown()


@pytest.mark.skipif(not GAME_PACKAGES, reason="no game registered yet")
def test_gunicorn_workers_share_the_embedded_redis(tmp_path):
    """Two workers behind one port: every write made through either is read by both."""
    game = get_game(GAME_PACKAGES[0])
    with gunicorn(DATA_DIR=tmp_path, WEB_CONCURRENCY=2, REDIS_URL=None) as (base, output):
        all_workers_listening(base, 2)  # else the first to load answers everything
        ids = []
        for _ in range(20):
            seats = [f"p{n}" for n in range(game.min_seats)]
            r = requests.post(
                base + "/games", json={"game": game.name, "seats": seats}, timeout=10, headers={"Connection": "close"}
            )
            assert r.status_code == 201, r.text
            ids.append(r.json()["id"])
        for _ in range(40):
            r = requests.get(base + "/games?limit=100", timeout=10, headers={"Connection": "close"})
            assert set(ids) <= {m["id"] for m in r.json()["games"]}
    logged = [json.loads(line) for line in output if line.startswith("{")]
    workers = {e["worker"] for e in logged if e.get("route") == "/api/games" and e.get("method") == "GET"}
    assert len(workers) == 2, f"both workers answered: {workers}"
