"""Spectators and slow clients: action latency while 1,000 live spectators watch one
game and 200 slow clients hold half-sent requests, against a quiet run. Asserts nothing.

    .venv/bin/python bench/spectators.py [--spectators 1000] [--slow 200] [--seconds 15] [--players 4]

The server is `make run`'s configuration as it is (deploy/gunicorn.conf.py: gevent, 2
workers, embedded Redis with appendfsync always, default stream caps), serving the
platform's test game (bench/toy_app.py). Everything is on loopback: spectators come
from 100 loopback addresses (127.0.2.x, ten streams each, under the per-client cap) and
reconnect when the server ends a stream, as browsers do; half the slow clients stop
in the middle of their headers, half in the middle of a body. Players post actions to
the watched game (so every action is fanned out to every spectator) from a few lanes.
Prints p50/p99 for both runs, the frames spectators received and the Redis reads
(XREAD/XRANGE/XREVRANGE) per action in each run.
"""

from __future__ import annotations

import argparse
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import redis
import requests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.redis_servers import free_port  # noqa: E402  # after the path set-up above

READS = ("xread", "xrange", "xrevrange")


def serve(port: int, data_dir: str) -> subprocess.Popen:
    env = {**os.environ, "PORT": str(port), "PYTHONPATH": ROOT, "DATA_DIR": data_dir}
    env.pop("REDIS_URL", None)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "-c",
            "deploy/gunicorn.conf.py",
            "bench.toy_app:app",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            requests.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return proc
        except requests.RequestException:
            time.sleep(0.2)
    raise RuntimeError("the server did not start")


def storage(data_dir: str) -> redis.Redis:
    with open(os.path.join(data_dir, "redis.db.settings")) as handle:
        return redis.Redis(unix_socket_path=json.load(handle)["unixsocket"])


def redis_reads(client: redis.Redis) -> int:
    stats = client.info("commandstats")
    return sum(stats.get(f"cmdstat_{c}", {}).get("calls", 0) for c in READS)


class Spectators:
    """Many SSE connections read by one selector thread; reopened when the server ends them."""

    def __init__(self, port: int, game_id: str, count: int):
        self.port, self.game_id, self.count = port, game_id, count
        self.selector = selectors.DefaultSelector()
        self.frames = 0
        self.accepted = 0
        self.refused = 0
        self.stop = threading.Event()

    def _open(self, i: int) -> None:
        source = f"127.0.2.{i % 100 + 1}"
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10, source_address=(source, 0))
        sock.sendall(f"GET /api/games/{self.game_id}/stream HTTP/1.1\r\nHost: b\r\n\r\n".encode())
        sock.setblocking(False)
        self.selector.register(sock, selectors.EVENT_READ, i)

    def start(self) -> None:
        for i in range(self.count):
            self._open(i)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        while not self.stop.is_set():
            for key, _ in self.selector.select(timeout=0.5):
                try:
                    data = key.fileobj.recv(65536)
                except (BlockingIOError, ConnectionError):
                    data = b"" if not isinstance(sys.exc_info()[1], BlockingIOError) else None
                if data is None:
                    continue
                if data.startswith(b"HTTP/1.1 200"):
                    self.accepted += 1
                elif data.startswith(b"HTTP/1.1 "):
                    self.refused += 1
                self.frames += data.count(b"event: appended")
                if not data:
                    self.selector.unregister(key.fileobj)
                    key.fileobj.close()
                    if not self.stop.is_set():
                        self._open(key.data)

    def close(self) -> None:
        self.stop.set()
        time.sleep(0.6)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()


def slow_clients(port: int, count: int) -> list[socket.socket]:
    socks = []
    for i in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(f"127.0.3.{i % 200 + 1}", 0))
        if i % 2:
            sock.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: b\r\nContent-Type: application/json\r\n"
                b'Content-Length: 4000\r\n\r\n{"game": '
            )
        else:
            sock.sendall(b"GET /api/game-types HTTP/1.1\r\nHost: b\r\nX-Slow-")
        socks.append(sock)
    return socks


def play(base: str, game: dict, seconds: float, lanes: int) -> list[float]:
    """``lanes`` clients of the first seat posting the toy game's note (always legal,
    never ends the game) as fast as they are answered."""
    url = f"{base}/games/{game['id']}/actions"
    headers = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    latencies, lock = [], threading.Lock()
    deadline = time.monotonic() + seconds

    def lane():
        session = requests.Session()
        while time.monotonic() < deadline:
            start = time.perf_counter()
            r = session.post(url, json={"type": "note", "payload": {"text": "a"}}, headers=headers, timeout=30)
            elapsed = time.perf_counter() - start
            assert r.status_code == 201, r.text
            with lock:
                latencies.append(elapsed)

    threads = [threading.Thread(target=lane) for _ in range(lanes)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    return latencies


def report(label: str, latencies: list[float], seconds: float, reads: int) -> None:
    lat = sorted(latencies)
    p50, p99 = lat[len(lat) // 2], lat[int(len(lat) * 0.99)]
    print(
        f"{label:44} {len(lat):>6} actions {len(lat) / seconds:>6.0f}/s  p50 {1000 * p50:6.1f} ms  "
        f"p99 {1000 * p99:6.1f} ms  Redis reads/action {reads / max(1, len(lat)):5.1f}"
    )


def new_game(base: str) -> dict:
    body = {"game": "toy", "seats": ["a", "b"], "options": {"rounds": 50}}
    return requests.post(base + "/games", json=body, timeout=10).json()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--slow", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    port, data_dir = free_port(), tempfile.mkdtemp(prefix="bench-spectators-")
    server = serve(port, data_dir)
    base = f"http://127.0.0.1:{port}/api"
    try:
        store = storage(data_dir)
        quiet_game = new_game(base)
        before = redis_reads(store)
        quiet = play(base, quiet_game, args.seconds, args.players)
        report("quiet", quiet, args.seconds, redis_reads(store) - before)

        watched = new_game(base)
        spectators = Spectators(port, watched["id"], args.spectators)
        spectators.start()
        slow = slow_clients(port, args.slow)
        settle = time.monotonic() + 60
        while spectators.accepted + spectators.refused < args.spectators and time.monotonic() < settle:
            time.sleep(0.2)
        print(f"{spectators.accepted} spectators connected in {time.monotonic() - settle + 60:.1f} s")
        before = redis_reads(store)
        loaded = play(base, watched, args.seconds, args.players)
        reads = redis_reads(store) - before
        time.sleep(1)
        report(f"{args.spectators} spectators + {args.slow} slow clients", loaded, args.seconds, reads)
        print(
            f"\nframes received by spectators: {spectators.frames} "
            f"(expected about {args.spectators} x {len(loaded)} = {args.spectators * len(loaded)}); "
            f"streams refused: {spectators.refused}"
        )

        def p99(xs):
            return sorted(xs)[int(len(xs) * 0.99)]

        print(f"p99 loaded / quiet: {p99(loaded) / p99(quiet):.2f}")
        spectators.close()
        for sock in slow:
            sock.close()
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)


if __name__ == "__main__":
    main()
