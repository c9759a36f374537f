"""Run the real app under gunicorn (deploy/gunicorn.conf.py) on a free loopback port."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from urllib.parse import urlparse

import psutil
import requests

from tests.redis_servers import free_port


@contextmanager
def gunicorn(app: str = "wsgi:app", **env_overrides):
    """Yields (base API url, output list): the output (access log included) is filled
    in when the server has stopped. ``REDIS_URL=None`` means the embedded Redis;
    ``app`` is the WSGI application gunicorn serves."""
    with gunicorn_process(app=app, **env_overrides) as (base, output, _):
        yield base, output


@contextmanager
def gunicorn_process(port: int | None = None, app: str = "wsgi:app", **env_overrides):
    """Like ``gunicorn`` on ``port`` (a free one by default), also yielding the master's
    Popen, for tests that kill it."""
    port = port or free_port()
    env = {
        **os.environ,
        "PORT": str(port),
        "PYTHONPATH": os.getcwd(),
        "CLOCK_SWEEP_SECONDS": "0",
        "BOTS": "0",
        "NOTICES": "0",
    }
    for key, value in env_overrides.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = str(value)
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", app],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base, lines = f"http://127.0.0.1:{port}/api", []
    # Read the output as it comes: a pipe left unread fills (64 KiB) and the workers
    # then block writing their logs, as a server whose log is never read would.
    reader = threading.Thread(target=lambda: lines.extend(line.rstrip("\n") for line in proc.stdout), daemon=True)
    reader.start()
    output: list[str] = []
    try:
        # a loaded machine may take a while to start the embedded Redis and two workers
        if not wait_until_serving(base, seconds=120, proc=proc):
            raise RuntimeError("gunicorn did not serve:\n" + "\n".join(lines[-40:]))
        yield base, output, proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        reader.join(timeout=10)
        output.extend(lines)


def wait_until_serving(base: str, seconds: float = 60, proc: subprocess.Popen | None = None) -> bool:
    """Whether the server answered within ``seconds``; False at once if ``proc`` ended."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (proc is None or proc.poll() is None):
        try:
            requests.get(base + "/game-types", timeout=5)
            return True
        except requests.RequestException:
            time.sleep(0.1)
    return False


def create(base: str) -> dict:
    """A two-seat Caylus game through the API."""
    r = requests.post(base + "/games", json={"game": "caylus", "seats": ["a", "b"]}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def play(base: str, game: dict) -> requests.Response:
    """The seat to act plays its first legal action."""
    url = f"{base}/games/{game['id']}"
    seat = requests.get(url, timeout=10).json()["to_act"][0]
    headers = {"Authorization": "Bearer " + game["seats"][seat]["token"]}
    action = requests.get(url + "/actions", headers=headers, timeout=10).json()["actions"][0]
    return requests.post(url + "/actions", json=action, headers=headers, timeout=10)


def note(base: str, gid: str, headers: dict, session: requests.Session | None = None, timeout: float = 10) -> int:
    """A note by the seat ``headers`` speak for, in the test game (``bench.toy_app``):
    always legal, never ends the game. Its seq."""
    r = (session or requests).post(
        f"{base}/games/{gid}/actions", json={"type": "note", "payload": {"text": "a"}}, headers=headers, timeout=timeout
    )
    assert r.status_code == 201, r.text
    seq: int = r.json()["seq"]
    return seq


def metric(base: str, name: str) -> float:
    """A Prometheus metric of the server, summed over its labels."""
    text = requests.get(base.removesuffix("/api") + "/metrics", timeout=10).text
    return sum(float(m) for m in re.findall(rf"^{name}(?:\{{[^}}]*\}})? (\S+)$", text, flags=re.M))


def listening_sockets(port: int) -> dict[int, set[str]]:
    """pid -> the socket inodes through which each process listens on ``port``."""
    out: dict[int, set[str]] = {}
    for conn in psutil.net_connections("tcp"):
        if conn.status == psutil.CONN_LISTEN and conn.laddr.port == port and conn.pid:
            out.setdefault(conn.pid, set()).add(os.readlink(f"/proc/{conn.pid}/fd/{conn.fd}"))
    return out


def all_workers_listening(base: str, workers: int, seconds: float = 60) -> dict[int, set[str]]:
    """Waits until ``workers`` processes listen on ``base``'s port: a worker listens only
    once its app has loaded, so the first may answer long before the others on a loaded
    machine, and until then it takes every connection."""
    port, deadline = urlparse(base).port, time.monotonic() + seconds
    while len(listening := listening_sockets(port)) < workers and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(listening) == workers, listening  # the master does not listen
    return listening
