"""Process faults under gunicorn with the embedded Redis, killed with SIGKILL: the
master restarts the embedded Redis (503 + Retry-After meanwhile) and gives up (exit 3)
when it keeps dying, a killed worker is replaced, workers and the embedded Redis die
with their master, one process owns a DATA_DIR, the embedded Redis fsyncs every write
by default, DATA_DIR is private."""

from __future__ import annotations

import fcntl
import os
import signal
import socket
import stat
import time

import psutil
import pytest
import redis
import requests

from tests.platform.gunicorn_server import create, gunicorn_process, play, wait_until_serving
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
            if "redis-server" in (process.info["name"] or "") and socket_path in " ".join(
                process.info["cmdline"] or []
            ):
                found.append(process)
        except psutil.Error:
            pass
    return found


def running(process: psutil.Process) -> bool:
    """Neither gone nor a zombie: a killed process may be reaped between two looks at it."""
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


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
        live = [p for p in servers_of(tmp_path) if running(p)]
        assert len(live) == 1, [p.pid for p in live]


def test_workers_die_with_a_killed_master_so_the_port_is_free_at_once(tmp_path):
    """Workers busy with live streams and a half-sent request when the master is
    killed: they die within seconds and a new server binds the same port at once."""
    port = free_port()
    with gunicorn_process(port=port, DATA_DIR=tmp_path, REDIS_URL=None, WEB_CONCURRENCY=2) as (base, _, proc):
        game = create(base)
        children = psutil.Process(proc.pid).children()
        workers = [c for c in children if c.name() != "redis-server"]  # the embedded Redis is a child too
        assert len(workers) == 2
        busy = [requests.get(f"{base}/games/{game['id']}/stream", stream=True, timeout=10) for _ in range(4)]
        half = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
        for sock in half:
            sock.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{")
        proc.kill()
        proc.wait(timeout=10)
        _, alive = psutil.wait_procs(workers, timeout=3)
        assert not alive, "no orphaned worker outlives its master"
        # the embedded Redis gets SIGTERM and writes its files out first: allow it longer
        _, alive = psutil.wait_procs([c for c in children if c not in workers], timeout=15)
        assert not alive, "nor does the embedded Redis"
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


def redis_servers_of(data_dir) -> list[psutil.Process]:
    """The redis-server processes serving DATA_DIR (Redis shows its socket in its title)."""
    found = []
    for process in psutil.process_iter(["name", "cmdline"]):
        try:
            if (
                "redis-server" in (process.info["name"] or "")
                and str(data_dir) in " ".join(process.info["cmdline"] or [])
                and process.status() != psutil.STATUS_ZOMBIE
            ):
                found.append(process)
        except psutil.Error:
            pass
    return found


def test_the_embedded_redis_dies_with_a_killed_master_and_a_new_one_starts_at_once(tmp_path):
    """Both the embedded Redis the master started and the one it restarted after a crash
    die with the master; the next start owns a fresh server on the same data."""
    port = free_port()
    with gunicorn_process(port=port, DATA_DIR=tmp_path, REDIS_URL=None, WEB_CONCURRENCY=1) as (base, _, proc):
        game = create(base)
        first = int(embedded(tmp_path).info("server")["process_id"])
        os.kill(first, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and requests.get(f"{base}/games/{game['id']}", timeout=10).status_code != 200:
            time.sleep(0.1)
        assert int(embedded(tmp_path).info("server")["process_id"]) != first, "restarted"
        time.sleep(1)  # two supervision periods: a second supervisor would have acted by now
        [server] = redis_servers_of(tmp_path)
        assert server.ppid() == proc.pid, "one server, restarted by the master (not by a worker)"
        proc.kill()
        proc.wait(timeout=10)
        deadline = time.monotonic() + 15  # SIGTERM: it writes its files out first (slow on a loaded machine)
        while redis_servers_of(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not redis_servers_of(tmp_path), "no embedded Redis outlives its master"
    # Nothing holds what a new master needs, so nothing can hold up its start (how long a
    # start takes is the machine's business, measured apart: docs/DEPLOY.md).
    with open(tmp_path / "embedded.lock") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # raises if anything of the old server holds it
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", port))  # no SO_REUSEPORT: raises while any old listener is open
    with gunicorn_process(port=port, DATA_DIR=tmp_path, REDIS_URL=None, WEB_CONCURRENCY=1) as (base, _, again):
        assert wait_until_serving(base) and again.poll() is None
        assert requests.get(f"{base}/games/{game['id']}", timeout=10).status_code == 200, "the data is kept"
        [server] = redis_servers_of(tmp_path)
        assert server.ppid() == again.pid
    assert not redis_servers_of(tmp_path), "a clean stop stops the embedded Redis too"


def test_a_data_dir_has_one_owner_and_its_redis_dies_with_it(tmp_path, monkeypatch):
    """A second process cannot start a second server on the same data (it would restart
    it against the first's); once the owner is killed with -9, its Redis is gone too."""
    import subprocess
    import sys

    from service.adapters import connection

    code = (
        "import sys, time; from service.adapters.connection import start_embedded; "
        "s = start_embedded(sys.argv[1]); print('ready', flush=True); time.sleep(600)"
    )
    owner = subprocess.Popen(
        [sys.executable, "-c", code, str(tmp_path)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    try:
        assert owner.stdout.readline().strip() == "ready"
        [server] = redis_servers_of(tmp_path)
        monkeypatch.setattr(connection, "LOCK_WAIT", 0.5)
        with pytest.raises(RuntimeError, match="in use by another server process"):
            connection.start_embedded(str(tmp_path))
        assert redis_servers_of(tmp_path) == [server], "the owner's server is untouched"
    finally:
        owner.kill()
        owner.wait(timeout=10)
    psutil.wait_procs([server], timeout=5)
    assert not redis_servers_of(tmp_path)


def gunicorn_workers(master_pid: int) -> set[int]:
    workers = set()
    for child in psutil.Process(master_pid).children():
        try:
            if child.name() != "redis-server":
                workers.add(child.pid)
        except psutil.Error:  # a killed worker may be reaped between the listing and this look
            pass
    return workers


def answered(call, seconds: float = 30):
    """``call``'s answer, once a worker listens: a booting worker opens its socket only
    once its app is loaded, so while every worker boots (a loaded machine may time the
    survivor out too) a connection is refused at once, never left hanging."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return call()
        except requests.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_a_killed_worker_is_replaced_and_nothing_acknowledged_is_lost(tmp_path):
    """The fault table's first row: kill -9 of a worker while moves are played."""
    with gunicorn_process(DATA_DIR=tmp_path, REDIS_URL=None, WEB_CONCURRENCY=2) as (base, _, proc):
        game = create(base)
        acknowledged = [play(base, game).json()["seq"] for _ in range(5)]
        workers = gunicorn_workers(proc.pid)
        assert len(workers) == 2
        victim = min(workers)
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            now = gunicorn_workers(proc.pid)
            if len(now) == 2 and victim not in now:
                break
            time.sleep(0.1)
        assert len(now) == 2 and victim not in now, "the master forked a new worker"
        for _ in range(10):  # whichever worker answers, new or old, has every acknowledged move
            r = answered(
                lambda: requests.get(f"{base}/games/{game['id']}", timeout=10, headers={"Connection": "close"})
            )
            assert r.status_code == 200 and r.json()["seq"] == acknowledged[-1]
        assert answered(lambda: play(base, game)).json()["seq"] == acknowledged[-1] + 1


def test_an_embedded_redis_that_keeps_dying_is_restarted_with_pauses_and_the_master_stays_up(tmp_path):
    """Past MAX_RESTARTS deaths in a minute the master pauses before each restart (1 s,
    then longer) and never gives up: the web server keeps answering, and storage is
    back by itself after the pause, every acknowledged move there."""
    from service.supervision import MAX_RESTARTS

    with gunicorn_process(DATA_DIR=tmp_path, REDIS_URL=None, WEB_CONCURRENCY=1) as (base, _, proc):
        game = create(base)
        killed: set[int] = set()
        for _ in range(MAX_RESTARTS + 1):
            deadline = time.monotonic() + 10
            pid = None
            while time.monotonic() < deadline:
                try:
                    pid = int(embedded(tmp_path).info("server")["process_id"])
                except (redis.RedisError, OSError):
                    pid = None
                if pid and pid not in killed:
                    break
                time.sleep(0.05)
            assert pid and pid not in killed, "restarted after each death"
            os.kill(pid, signal.SIGKILL)
            killed.add(pid)
        assert requests.get(base + "/game-types", timeout=5).status_code == 200  # the server stays up
        deadline, answer = time.monotonic() + 10, None
        while time.monotonic() < deadline:
            answer = requests.get(f"{base}/games/{game['id']}", timeout=5)
            if answer.status_code == 200:
                break
            time.sleep(0.2)
        assert answer is not None and answer.status_code == 200, "storage back after the pause"
        assert proc.poll() is None
