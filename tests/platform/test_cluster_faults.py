"""Redis Cluster faults, masters killed with SIGKILL: a game's moves touch only its own
slot, so they land while the master of the lobby keys is down; the lobby catches up
when it returns; a game whose own master is down is answered 503 + Retry-After."""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from service.adapters import keys
from service.adapters.connection import connect
from service.adapters.lobby import index_key as lobby_index
from service.app import create_app
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
    lobby = port_of(admin, lobby_index("active"))  # an unfiltered lobby page reads this node too
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


def test_one_master_down_fails_only_its_own_games(cluster, request):
    """Requests for games on the dead master (503) interleaved with requests for games
    on healthy masters: the healthy games' reads and first moves answer as usual,
    however often the client has just met the dead node, and though the healthy masters
    hold none of the scripts yet (loading one must not reach every master)."""
    procs, url, _ = cluster
    app = create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 1})
    request.addfinalizer(app.extensions["clock_sweeper_stop"].set)  # else it sweeps a cluster long gone
    client, admin = app.test_client(), connect(url)
    lobby = port_of(admin, lobby_index("active"))
    clock = {"base": 600, "increment": 0}
    games = [GameHandle(client, seats=["a", "b"], options={"rounds": 10}, clock=clock) for _ in range(24)]
    ports = {g.id: port_of(admin, keys.events(g.id)) for g in games}
    given = int(url.rsplit(":", 1)[1].split("/")[0])  # the node the URL names, the client's first
    dead_port = next(p for p in [given, *sorted(set(ports.values()))] if p != lobby)
    dead = [g for g in games if ports[g.id] == dead_port]
    healthy = [g for g in games if ports[g.id] != dead_port]
    assert dead and healthy
    kill_port(procs, dead_port)
    for port in (set(ports.values()) | {lobby}) - {dead_port}:
        # as a healthy master restarted, or a replica promoted, holds no scripts yet
        redis.Redis(port=port).script_flush()

    def rounds(n: int) -> list[tuple[str, str, int]]:
        out, own = [], app.test_client()
        for k, g in enumerate(healthy):
            own.get(dead[(n + k) % len(dead)].url())  # meets the dead node first, every time
            out.append(("read", g.id, own.get(g.url()).status_code))
            out.append(("view", g.id, own.get(g.url("/view"), headers=g.seat(0)).status_code))
        return out

    started = time.monotonic()
    with ThreadPoolExecutor(8) as pool:  # as gunicorn's threads share one cluster client
        answers = [a for part in pool.map(rounds, range(16)) for a in part]
    for k, g in enumerate(healthy):
        client.get(dead[k % len(dead)].url("/view"))
        answers.append(("move", g.id, g.act(0, "note", {"text": "a"}).status_code))
    assert [a for a in answers if a[2] not in (200, 201)] == []
    assert time.monotonic() - started < 30
