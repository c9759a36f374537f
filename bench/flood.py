"""One address flooding: a player's action latency while one other address hammers the
API from many kept-alive connections, against a quiet run. Asserts nothing.

    .venv/bin/python bench/flood.py [--connections 100] [--seconds 20] [--players 2]

The server is `make run`'s configuration (deploy/gunicorn.conf.py, rate limits on, the
platform's test game: bench/toy_app.py). The flood comes from 127.0.70.2 on
``--connections`` kept-alive connections sending ``GET /api/keys`` as fast as they are
answered (most are refused: the per-minute limit, and at most MAX_INFLIGHT_PER_CLIENT
in progress per worker), in a process of its own (in the player's process its threads
would starve the player of the interpreter lock); the player posts actions from
127.0.9.8 (quiet run) and 127.0.9.9 (under the flood). Prints the player's
p50/p99 in both runs and what the flood was answered.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

import requests

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.spectators import report, serve  # noqa: E402
from tests.redis_servers import free_port  # noqa: E402


class SourceAdapter(requests.adapters.HTTPAdapter):
    def __init__(self, source: str):
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args, **kwargs):
        kwargs["source_address"] = (self.source, 0)
        super().init_poolmanager(*args, **kwargs)


def session_from(source: str) -> requests.Session:
    session = requests.Session()
    session.mount("http://", SourceAdapter(source))
    return session


def player(base: str, seconds: float, lanes: int, source: str) -> list[float]:
    """A player's actions from ``source`` (each run its own address: a fast player
    passes the per-minute limit of one address in a minute)."""
    session = session_from(source)
    game = session.post(
        base + "/games", json={"game": "toy", "seats": ["a", "b"], "options": {"rounds": 50}}, timeout=60
    ).json()
    url = f"{base}/games/{game['id']}/actions"
    headers = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    latencies, lock, deadline = [], threading.Lock(), time.monotonic() + seconds

    def lane():
        own = session_from(source)
        while time.monotonic() < deadline:
            start = time.perf_counter()
            r = own.post(url, json={"type": "note", "payload": {"text": "a"}}, headers=headers, timeout=60)
            assert r.status_code == 201, r.text
            with lock:
                latencies.append(time.perf_counter() - start)

    threads = [threading.Thread(target=lane) for _ in range(lanes)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    return latencies


def flood(port: int, connections: int, stop: threading.Event, answers: collections.Counter) -> list[threading.Thread]:
    def hammer():
        conn = None
        while not stop.is_set():
            try:
                if conn is None:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=("127.0.70.2", 0))
                conn.request("GET", "/api/keys")
                response = conn.getresponse()
                response.read()
                answers[response.status] += 1
            except (OSError, http.client.HTTPException) as exc:
                answers[type(exc).__name__] += 1
                conn = None

    threads = [threading.Thread(target=hammer, daemon=True) for _ in range(connections)]
    [t.start() for t in threads]
    return threads


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--connections", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--flood-port", type=int, help=argparse.SUPPRESS)  # the flooding process
    args = parser.parse_args()
    if args.flood_port:
        stop, answers = threading.Event(), collections.Counter()
        threads = flood(args.flood_port, args.connections, stop, answers)
        time.sleep(args.seconds)
        stop.set()
        [t.join(15) for t in threads]
        print(json.dumps(answers))
        return
    os.environ.setdefault("RATE_LIMITS", "on")
    port = free_port()
    server = serve(port, tempfile.mkdtemp(prefix="bench-flood-"))
    base = f"http://127.0.0.1:{port}/api"
    try:
        quiet = player(base, args.seconds, args.players, "127.0.9.8")
        report("quiet", quiet, args.seconds, 0)
        flooding = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "--flood-port",
                str(port),
                "--connections",
                str(args.connections),
                "--seconds",
                str(args.seconds + 4),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        time.sleep(2)
        loaded = player(base, args.seconds, args.players, "127.0.9.9")
        answers, _ = flooding.communicate(timeout=60)
        report(f"one address on {args.connections} connections", loaded, args.seconds, 0)
        print("the flood was answered:", answers.strip())
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    main()
