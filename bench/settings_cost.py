"""What each shipped setting costs a move: the server as `make run` ships it, then with one
setting switched off at a time, in the same run, in alternating order. Asserts nothing.

    nice -n 10 .venv/bin/python bench/settings_cost.py [--games 32] [--moves 40] [--reps 2]

Settings: gunicorn's access log (``ACCESS_LOG``; off as shipped since 2026-11-28, so
"gunicorn access log on" measures it from the other side and "no access log" is then the
shipped configuration again), the app's JSON line per request (``REQUEST_LOG``), the
rate limits (``RATE_LIMITS``) and ``appendfsync always`` (``APPENDFSYNC``). The server is gunicorn with deploy/gunicorn.conf.py and the test game
(bench/toy_app.py), the embedded Redis in a scratch folder, its output written to a file
as a terminal or journald would take it; the driver's loopback address is a trusted
venue network (its lanes are a room behind one address), as in bench/peer.py. Moves go
over HTTP (``POST .../actions``, keep-alive sessions) and over move sockets (one per
seat), ``--games`` games at once, each seat playing its turn. Per configuration and
transport: the workers' CPU per move and Redis's, medians over the repetitions.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import requests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.append import run_load  # noqa: E402
from bench.server_cpu import server_cpu  # noqa: E402
from tests.platform.socket_client import Client  # noqa: E402
from tests.redis_servers import free_port  # noqa: E402

CONFIGURATIONS = {
    "as shipped": {},
    # gunicorn's access log is off as shipped since this measurement (the saving is then negative)
    "gunicorn access log on": {"ACCESS_LOG": "-"},
    "no access log": {"ACCESS_LOG": "", "REQUEST_LOG": "1"},
    "no request log line": {"REQUEST_LOG": "0"},
    "no rate limits": {"RATE_LIMITS": "off"},
    "appendfsync everysec": {"APPENDFSYNC": "everysec"},
}


def start(settings: dict[str, str]) -> tuple[subprocess.Popen, str, str]:
    port, scratch = free_port(), tempfile.mkdtemp(prefix="bench-settings-")
    env = {
        **os.environ,
        "PORT": str(port),
        "PYTHONPATH": ROOT,
        "DATA_DIR": scratch,
        "TRUSTED_VENUE_NETWORKS": "127.0.0.1/32",
        **settings,
    }
    env.pop("REDIS_URL", None)
    for name in ("ACCESS_LOG", "REQUEST_LOG", "RATE_LIMITS", "APPENDFSYNC"):
        if name not in settings:
            env.pop(name, None)  # the shipped default
    out = open(os.path.join(scratch, "server.log"), "w")  # noqa: SIM115  # closed with the process
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "bench.toy_app:app"],
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}/api"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            requests.get(f"{base}/game-types", timeout=2)
            return proc, base, scratch
        except requests.RequestException:
            time.sleep(0.2)
    raise RuntimeError("the server did not start")


def games(base: str, count: int) -> list[tuple[str, list[str]]]:
    session = requests.Session()
    made = []
    for _ in range(count):
        created = session.post(
            base + "/games", json={"game": "toy", "seats": ["a", "b"], "options": {"rounds": 50}}, timeout=30
        ).json()
        made.append((created["id"], [s["token"] for s in created["seats"]]))
    return made


def over_http(base: str, made: list, moves: int) -> int:
    plans = [
        [
            (
                f"{base}/games/{gid}/actions",
                {"Authorization": f"Bearer {tokens[m % 2]}"},
                {"type": "roll", "payload": {}},
            )
            for m in range(moves)
        ]
        for gid, tokens in made
    ]
    run_load(plans, clients=len(made), processes=2)
    return len(made) * moves


def socket_lanes(base: str, lanes: list, moves: int) -> None:
    def lane(gid: str, tokens: list[str]) -> None:
        seats = []
        for token in tokens:
            ws = Client.connect(f"{base.replace('http', 'ws', 1)}/games/{gid}/socket")
            ws.send(json.dumps({"token": token}))
            assert json.loads(ws.receive(timeout=30))["status"] == 200
            seats.append(ws)
        for m in range(moves):
            seats[m % 2].send(json.dumps({"type": "roll", "payload": {}}))
            answer = json.loads(seats[m % 2].receive(timeout=30))
            assert answer["status"] == 201, answer
        for ws in seats:
            ws.close()

    threads = [threading.Thread(target=lane, args=(gid, tokens)) for gid, tokens in lanes]
    [t.start() for t in threads]
    [t.join() for t in threads]


def over_sockets(base: str, made: list, moves: int) -> int:
    procs = [mp.Process(target=socket_lanes, args=(base, made[i::2], moves)) for i in range(2)]
    [p.start() for p in procs]
    [p.join() for p in procs]
    return len(made) * moves


def measure(name: str, settings: dict[str, str], args: argparse.Namespace) -> dict[str, tuple[float, float]]:
    proc, base, scratch = start(settings)
    try:
        out = {}
        for transport, drive in (("HTTP", over_http), ("socket", over_sockets)):
            made = games(base, args.games)
            time.sleep(1)
            web0, redis0 = server_cpu(proc.pid)
            moves = drive(base, made, args.moves)
            web1, redis1 = server_cpu(proc.pid)
            out[transport] = ((web1 - web0) / moves, (redis1 - redis0) / moves)
            print(
                f"  {name:22} {transport:6} {moves} moves: workers {1000 * out[transport][0]:.3f} ms/move, "
                f"Redis {1000 * out[transport][1]:.3f} ms/move  (load {os.getloadavg()[0]:.1f})",
                flush=True,
            )
        return out
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=32)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=list(CONFIGURATIONS))
    args = parser.parse_args()
    results: dict[str, list[dict[str, tuple[float, float]]]] = {name: [] for name in args.only}
    for rep in range(args.reps):
        names = args.only if rep % 2 == 0 else list(reversed(args.only))
        print(f"repetition {rep + 1} (load {os.getloadavg()[0]:.1f})", flush=True)
        for name in names:
            results[name].append(measure(name, CONFIGURATIONS[name], args))
    shipped = results.get("as shipped")
    print(
        "\n| configuration | HTTP: workers ms/move | Redis | socket: workers ms/move | Redis | HTTP saving | socket saving |"
    )
    print("|---|---|---|---|---|---|---|")
    for name, runs in results.items():
        row = []
        medians = {}
        for transport in ("HTTP", "socket"):
            web = statistics.median(r[transport][0] for r in runs)
            red = statistics.median(r[transport][1] for r in runs)
            medians[transport] = web + red
            row += [f"{1000 * web:.3f}", f"{1000 * red:.3f}"]
        saving = []
        for transport in ("HTTP", "socket"):
            if shipped and name != "as shipped":
                base_total = statistics.median(r[transport][0] + r[transport][1] for r in shipped)
                saving.append(f"{1000 * (base_total - medians[transport]):+.3f} ms")
            else:
                saving.append("")
        print(f"| {name} | " + " | ".join(row + saving) + " |")


if __name__ == "__main__":
    main()
