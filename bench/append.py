"""Append benchmark: POST /api/games/{id}/actions under gunicorn, beside a bare Flask
endpoint that does one XADD, in the same run on the same Redis. Prints actions/s,
p50/p99 latency, the workers' CPU per request and the ratio (goal: >= 0.7). Asserts nothing.

    .venv/bin/python bench/append.py [--clients 32] [--games 500] [--moves 20] [--appendfsync always]

Both servers run the same gunicorn settings (deploy/gunicorn.conf.py);
clients are several processes of threads with keep-alive sessions.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time

import psutil
import requests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.redis_servers import free_port  # noqa: E402


def serve(module: str, port: int, env: dict) -> subprocess.Popen:
    # the benchmark configuration (docs/BENCHMARKS.md): no access log, rate limits or bot runner
    env = {
        **env,
        "PORT": str(port),
        "PYTHONPATH": ROOT,
        "CLOCK_SWEEP_SECONDS": "0",
        "ACCESS_LOG": "",
        "RATE_LIMITS": "off",
        "BOTS": "0",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", module],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            requests.get(f"http://127.0.0.1:{port}/", timeout=2)
            return proc
        except requests.RequestException:
            time.sleep(0.2)
    raise RuntimeError(f"{module} did not start")


def client_process(lanes, results):
    """One load process: a thread per lane, each a keep-alive session playing its
    games' moves in order (moves of one game are sequential, like a real player)."""
    latencies, lock = [], threading.Lock()

    def worker(lane):
        session = requests.Session()
        mine = []
        for url, headers, body in lane:
            start = time.perf_counter()
            r = session.post(url, json=body, headers=headers, timeout=30)
            mine.append(time.perf_counter() - start)
            assert r.status_code == 201, r.text
        with lock:
            latencies.extend(mine)

    pool = [threading.Thread(target=worker, args=(lane,)) for lane in lanes]
    [t.start() for t in pool]
    [t.join() for t in pool]
    results.put(latencies)


def run_load(plans: list[list], clients: int, processes: int = 4) -> tuple[float, list[float]]:
    """Spread whole games over ``clients`` lanes, the lanes over a few processes."""
    lanes = [[] for _ in range(clients)]
    for i, plan in enumerate(plans):
        lanes[i % clients].extend(plan)
    results = mp.Queue()
    procs = [mp.Process(target=client_process, args=(lanes[i::processes], results)) for i in range(processes)]
    start = time.perf_counter()
    [p.start() for p in procs]
    latencies = []
    for _ in procs:
        latencies.extend(results.get())
    elapsed = time.perf_counter() - start
    [p.join() for p in procs]
    return elapsed, latencies


def workers_cpu(proc: subprocess.Popen) -> float:
    """CPU seconds of a gunicorn master's workers so far."""
    return sum(sum(w.cpu_times()[:2]) for w in psutil.Process(proc.pid).children())


def measured(proc, plans, clients):
    before = workers_cpu(proc)
    elapsed, latencies = run_load(plans, clients)
    return elapsed, latencies, workers_cpu(proc) - before


def summary(label, elapsed, latencies, cpu):
    lat = sorted(latencies)
    p50, p99 = lat[len(lat) // 2], lat[int(len(lat) * 0.99)]
    rate = len(lat) / elapsed
    print(
        f"{label:34} {len(lat):>7} req {rate:>9.0f} req/s  p50 {1000 * p50:6.1f} ms  p99 {1000 * p99:6.1f} ms  "
        f"workers' CPU {1000 * cpu / len(lat):.3f} ms/req"
    )
    return rate


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--games", type=int, default=512)
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument(
        "--appendfsync",
        default="always",
        choices=["always", "everysec", "no"],
        help="the embedded Redis's fsync policy (the server's default: always)",
    )
    args = parser.parse_args()
    env = dict(os.environ)
    server = None
    if not env.get("REDIS_URL"):
        from service.adapters.connection import start_embedded

        server, env["REDIS_URL"] = start_embedded(tempfile.mkdtemp(), appendfsync=args.appendfsync)
        env["APPENDFSYNC"] = args.appendfsync  # the promise the app checks its Redis against
    ours_port, bare_port = free_port(), free_port()
    ours = serve("bench.toy_app:app", ours_port, env)
    bare = serve("bench.bare_app:app", bare_port, env)
    try:
        base = f"http://127.0.0.1:{ours_port}/api"
        plans, bare_plans = [], []
        session = requests.Session()
        for _ in range(args.games):
            created = session.post(
                base + "/games", json={"game": "toy", "seats": ["a", "b"], "options": {"rounds": 50}}
            ).json()
            tokens = [s["token"] for s in created["seats"]]
            url = f"{base}/games/{created['id']}/actions"
            plans.append(
                [
                    (url, {"Authorization": f"Bearer {tokens[m % 2]}"}, {"type": "roll", "payload": {}})
                    for m in range(args.moves)
                ]
            )
            bare_plans.append(
                [
                    (
                        f"http://127.0.0.1:{bare_port}/append/{created['id']}",
                        {},
                        {"type": "roll", "payload": {}, "seat": m % 2},
                    )
                    for m in range(args.moves)
                ]
            )
        print(
            f"{args.games} games x {args.moves} moves, {args.clients} concurrent clients, "
            f"gunicorn ({os.environ.get('WEB_CONCURRENCY', '2')} workers) on both sides, "
            f"appendfsync {args.appendfsync}\n"
        )
        bare_rate = summary("bare Flask + one XADD", *measured(bare, bare_plans, args.clients))
        ours_rate = summary("POST /api/games/{id}/actions", *measured(ours, plans, args.clients))
        print(f"\nratio (ours / bare): {ours_rate / bare_rate:.2f}   (goal >= 0.7)")
    finally:
        for proc in (ours, bare):
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=30)
        if server is not None:
            server.shutdown()


if __name__ == "__main__":
    main()
