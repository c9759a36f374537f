"""Redis Cluster faults, masters killed with SIGKILL: a game's moves touch only its own
slot, so they land while the master of the lobby keys is down; the lobby catches up
when it returns; a game whose own master is down is answered 503 + Retry-After."""

from __future__ import annotations

import os
import signal
import time

import pytest

from events import keys
from events.connection import connect
from service.app import create_app
from service.services.lobby import index_key as lobby_index
from tests import redis_servers
from tests.platform.helpers import GameHandle

pytestmark = [
    pytest.mark.xdist_group("cluster"),
    pytest.mark.skipif(not redis_servers.available(), reason="redis-server is not installed"),
]
NODE_ARGS = ("--appendonly", "yes", "--cluster-require-full-coverage", "no")


@pytest.fixture()
def cluster(tmp_path):
    procs, url = redis_servers.cluster(tmp_path, 3, *NODE_ARGS)
    yield procs, url, tmp_path
    redis_servers.stop([p for p in procs if p.poll() is None])


def port_of(client, key: str) -> int:
    return client.get_node_from_key(key).port


def kill_port(procs, port: int):
    proc = next(p for p in procs if f"--port {port} " in " ".join(map(str, p.args)) + " ")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    return proc


def test_moves_land_while_the_lobby_master_is_down_and_the_lobby_catches_up(cluster):
    procs, url, workdir = cluster
    app = create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0})
    client, admin = app.test_client(), connect(url)
    lobby = port_of(admin, lobby_index())  # the lobby's first page is read from this node
    g = next(
        h
        for h in (GameHandle(client, seats=["a", "b"], options={"rounds": 10}) for _ in range(40))
        if port_of(admin, keys.events(h.id)) != lobby
    )
    assert g.act(0, "note", {"text": "a"}).status_code == 201
    dead = kill_port(procs, lobby)

    started = time.monotonic()
    answers = [g.act(0, "note", {"text": "b"}) for _ in range(5)]
    assert [r.status_code for r in answers] == [201] * 5, [r.json for r in answers]
    assert [r.json["seq"] for r in answers] == [3, 4, 5, 6, 7]
    assert time.monotonic() - started < 10
    assert client.get(g.url(), headers=g.seat(0)).json["seq"] == 7
    lobby_down = client.get("/api/games")
    assert lobby_down.status_code == 503 and lobby_down.headers["Retry-After"] == "1"

    procs.append(redis_servers.restart(lobby, workdir / str(lobby), *dead.args[dead.args.index("--cluster-enabled") :]))
    deadline, line = time.monotonic() + 20, None
    while time.monotonic() < deadline:
        r = client.get("/api/games")
        line = next((s for s in r.json["games"] if s["id"] == g.id), None) if r.status_code == 200 else None
        if line and line["seq"] == 7:
            break
        time.sleep(0.3)
    assert line and line["seq"] == 7, f"the lobby caught up: {line}"


def test_a_game_whose_master_is_down_is_answered_503(cluster):
    procs, url, _ = cluster
    app = create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0})
    client, admin = app.test_client(), connect(url)
    g = GameHandle(client, seats=["a", "b"], options={"rounds": 10})
    kill_port(procs, port_of(admin, keys.events(g.id)))
    for answer in (g.act(0, "note", {"text": "a"}), client.get(g.url("/view"))):
        assert answer.status_code == 503, answer.get_data(as_text=True)
        assert answer.headers["Retry-After"] == "1"
        assert answer.json["error"]["code"] == "storage_unavailable"
