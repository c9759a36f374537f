"""Process faults under gunicorn with the embedded Redis, killed with SIGKILL: the
master restarts the embedded Redis (503 + Retry-After meanwhile), workers die with
their master, the embedded Redis fsyncs every write by default, DATA_DIR is private."""
from __future__ import annotations

import json
import os
import signal
import socket
import stat
import time

import psutil
import pytest
import redis
import requests

from tests.platform.gunicorn_server import create, gunicorn_process, wait_until_serving
from tests.redis_servers import free_port

pytestmark = pytest.mark.xdist_group("durability")


def embedded(data_dir) -> redis.Redis:
    """A client of the embedded Redis, on its fixed socket under DATA_DIR (the same path
    after every restart)."""
    return redis.Redis(unix_socket_path=str(data_dir / "redis.sock"), decode_responses=True)


def test_the_embedded_redis_is_restarted_by_the_master_and_503_while_it_is_down(tmp_path):
    with gunicorn_process(DATA_DIR=tmp_path, REDIS_URL=None, WEB_CONCURRENCY=1) as (base, _, _proc):
        game = create(base)
        pid = int(embedded(tmp_path).info("server")["process_id"])
        os.kill(pid, signal.SIGKILL)
        answers = []
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            r = requests.get(f"{base}/games/{game['id']}", timeout=10)
            answers.append(r.status_code)
            if r.status_code == 200:
                break
            assert r.status_code == 503 and r.headers["Retry-After"] == "1", r.text
            time.sleep(0.05)
        assert answers[-1] == 200, f"served again after the restart: {answers}"
        assert 500 not in answers
        assert int(embedded(tmp_path).info("server")["process_id"]) != pid
        assert create(base)["id"]  # writes too


def servers_of(data_dir) -> list[psutil.Process]:
    """The redis-server processes serving ``data_dir``'s socket."""
    socket_path = str(data_dir / "redis.sock")
    found = []
    for process in psutil.process_iter(["name", "cmdline"]):
        try:
            if "redis-server" in (process.info["name"] or "") and socket_path in " ".join(process.info["cmdline"] or []):
                found.append(process)
        except psutil.Error:
            pass
    return found


def test_only_the_master_restarts_the_embedded_redis_so_one_server_owns_the_data(tmp_path):
    """With gevent the master's watcher is a greenlet, and a forked worker inherits it:
    each worker restarting the server too would put several servers on one AOF, each
    acknowledging writes the others never see."""
    with gunicorn_process(DATA_DIR=tmp_path, REDIS_URL=None, WEB_CONCURRENCY=2) as (base, _, _proc):
        game = create(base)
        assert len(servers_of(tmp_path)) == 1
        pid = int(embedded(tmp_path).info("server")["process_id"])
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and requests.get(f"{base}/games/{game['id']}", timeout=10).status_code != 200:
            time.sleep(0.1)
        time.sleep(3)  # every watcher has had several periods to act
        live = [p for p in servers_of(tmp_path) if p.status() != psutil.STATUS_ZOMBIE]
        assert len(live) == 1, [p.pid for p in live]


def test_workers_die_with_a_killed_master_so_the_port_is_free_at_once(tmp_path):
    """Workers busy with live streams and a half-sent request when the master is
    killed: they die within seconds and a new server binds the same port at once."""
    port = free_port()
    with gunicorn_process(port=port, DATA_DIR=tmp_path, REDIS_URL=None, WEB_CONCURRENCY=2) as (base, _, proc):
        game = create(base)
        workers = psutil.Process(proc.pid).children()
        assert len(workers) == 2
        busy = [requests.get(f"{base}/games/{game['id']}/stream", stream=True, timeout=10) for _ in range(4)]
        half = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
        for sock in half:
            sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        proc.kill()
        proc.wait(timeout=10)
        _, alive = psutil.wait_procs(workers, timeout=3)
        assert not alive, "no orphaned worker outlives its master"
        for item in busy + half:
            item.close()
    started = time.monotonic()
    with gunicorn_process(port=port, DATA_DIR=tmp_path, REDIS_URL=None, WEB_CONCURRENCY=1) as (base, _, again):
        assert wait_until_serving(base, seconds=15)
        assert again.poll() is None, "the new master bound the port"
        assert time.monotonic() - started < 15
        assert create(base)["id"]


def test_the_embedded_redis_fsyncs_every_write_and_data_dir_is_private(tmp_path):
    data_dir = tmp_path / "data"
    with gunicorn_process(DATA_DIR=data_dir, REDIS_URL=None, WEB_CONCURRENCY=1) as (base, _, _proc):
        create(base)
        assert embedded(data_dir).config_get("appendfsync") == {"appendfsync": "always"}
        assert embedded(data_dir).config_get("appendonly") == {"appendonly": "yes"}
    assert stat.S_IMODE(os.stat(data_dir).st_mode) == 0o700
