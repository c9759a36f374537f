"""Side by side with boardgame.io 0.50.2 (`make bench-peer`): the same trivial game
(tests/toygame.py; its port in bench/peer/toy.js), each server driven by its own
client protocol (bgio: its SocketIO client; ours: the HTTP API, and "ours-ws" the move
sockets, one WebSocket per seat) from the same Node driver (bench/peer/drive.js), at
8/32/128 concurrent matches, 3 repetitions in alternating order. Prints moves/s, p50/p99 latency, server CPU per move and the
ratios. Figures, not tests: it asserts nothing.

    .venv/bin/python bench/peer.py [--sizes 8,32,128] [--reps 3] [--moves 2560] [--before DIR]
        [--servers ours,ours-ws,bgio-memory,bgio-flatfile]  (also ours-gthread, ours-ws-gthread)

Servers: ours = gunicorn as `make run` ships it (deploy/gunicorn.conf.py: gevent, 2
workers, the app's request log line (gunicorn's access log off), rate limits, the bot runner) with its embedded
Redis (AOF, appendfsync always: every move on disk before its answer), the driver's
loopback address named a trusted venue network (its lanes are a room behind one
address); ``--config benchmark`` turns off the access log, the request log line, rate
limits and the bot runner and uses appendfsync everysec; "-gthread" names run the
gthread worker class;
boardgame.io = its Server with InMemory, and with FlatFile in a scratch folder.
Server CPU is the user+system time of the server's processes over the timed part
(ours: the gunicorn workers; Redis, and the side processes the master starts beside them
(the notice sender, the bot pool when BOTS is on), shown apart). Loopback only; every run is
bounded (the driver is killed after --timeout seconds).
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import psutil
import requests

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PEER = os.path.join(ROOT, "bench", "peer")
sys.path.insert(0, ROOT)

from tests.redis_servers import free_port  # noqa: E402

ROUNDS = 10  # moves per seat in one match: a match is 20 moves
# `--config benchmark`: what `make run` ships, minus the per-request extras a deployment
# may turn off (docs/BENCHMARKS.md says what each costs and gives up)
BENCHMARK_CONFIGURATION = {
    "CLOCK_SWEEP_SECONDS": "0",
    "ACCESS_LOG": "",
    "RATE_LIMITS": "off",
    "BOTS": "0",
    "APPENDFSYNC": "everysec",
    "SSE_MAX_PER_CLIENT": "100000",
}


def wait_http(url: str, deadline: float = 60) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        try:
            requests.get(url, timeout=2)
            return
        except requests.RequestException:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer")


class Server:
    """One server under test: how to start it, where its clients go, whose CPU counts."""

    def __init__(self, name: str, root: str = ROOT, config: str = "shipped"):
        self.name = name
        self.root = root
        self.config = config
        self.proc: subprocess.Popen | None = None
        self.scratch = tempfile.mkdtemp(prefix=f"peer-{name}-")

    def start(self) -> None:
        port, api_port = free_port(), free_port()
        if self.ours:
            env = {
                **os.environ,
                "PORT": str(port),
                "PYTHONPATH": self.root,
                "WEB_CONCURRENCY": "2",
                "DATA_DIR": self.scratch,
                # every lane of the driver comes from 127.0.0.1: a venue's room behind one
                # address (per-token budgets still counted in Redis, per-address ones not)
                "TRUSTED_VENUE_NETWORKS": "127.0.0.1/32",
                **(BENCHMARK_CONFIGURATION if self.config == "benchmark" else {}),
            }
            if "-gthread" in self.name:
                env["GUNICORN_WORKER_CLASS"] = "gthread"
            env.pop("REDIS_URL", None)
            self.proc = subprocess.Popen(
                [self.python(), "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "bench.toy_app:app"],
                cwd=self.root,
                env=env,
                stdout=self.log(),
                stderr=subprocess.STDOUT,
            )
            protocol = "ours-ws" if "-ws" in self.name else "ours"
            self.args = [protocol, f"http://127.0.0.1:{port}/api", "-"]
            wait_http(f"http://127.0.0.1:{port}/api/game-types")
        else:
            storage = "flatfile" if self.name == "bgio-flatfile" else "memory"
            env = {k: v for k, v in os.environ.items() if k != "FLATFILE_DIR"}
            self.proc = subprocess.Popen(
                ["node", "server.js", storage, str(port), str(api_port), self.scratch],
                cwd=PEER,
                env=env,
                stdout=self.log(),
                stderr=subprocess.STDOUT,
            )
            self.args = ["bgio", f"http://127.0.0.1:{port}", f"http://127.0.0.1:{api_port}"]
            wait_http(f"http://127.0.0.1:{api_port}/games")

    def python(self) -> str:
        """An older checkout runs under its own .venv when it has one: its requirements
        differ from ours (packages since dropped or added)."""
        own = os.path.join(self.root, ".venv", "bin", "python")
        return own if self.root != ROOT and os.path.exists(own) else sys.executable

    def log(self):
        return open(os.path.join(tempfile.gettempdir(), f"peer-{self.name}-{os.getpid()}.log"), "a")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    @property
    def ours(self) -> bool:
        return not self.name.startswith("bgio")

    def processes(self) -> dict[str, list[psutil.Process]]:
        """Whose CPU counts: ours = the gunicorn workers (the master only supervises)
        and, apart, the embedded Redis (the master's child, working in our DATA_DIR) and
        the master's other children (``python -m service notices`` or ``bots``)."""
        root = psutil.Process(self.proc.pid)
        if not self.ours:
            return {"app": [root], "redis": [], "side": []}
        here = os.path.realpath(self.scratch)
        redis = [
            p
            for p in psutil.process_iter(["name", "cwd"])
            if "redis" in (p.info["name"] or "") and os.path.realpath(p.info["cwd"] or "/") == here
        ]
        others = [p for p in root.children() if p not in redis]
        workers = [p for p in others if any("gunicorn" in part for part in p.cmdline())]  # forks of the master
        return {"app": workers, "redis": redis, "side": [p for p in others if p not in workers]}

    def cpu(self) -> dict[str, float]:
        """CPU seconds so far, by kind."""
        out = {}
        for kind, procs in self.processes().items():
            out[kind] = sum(sum(p.cpu_times()[:2]) for p in procs)
        return out

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.scratch, ignore_errors=True)


def run(server: Server, lanes: int, per_lane: int, timeout: float) -> dict | None:
    """One timed run; None when it failed (the server died or the run outlived ``timeout``)."""
    if not server.alive():
        print(f"  ({server.name} had stopped: started again)")
        try:
            server.start()
        except RuntimeError:  # e.g. bgio's FlatFile crashed on a file it half wrote and its port is not free yet
            return None
    driver = subprocess.Popen(
        ["node", "drive.js", *server.args, str(lanes), str(per_lane), str(ROUNDS)],
        cwd=PEER,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    lines: queue.Queue = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in driver.stdout], daemon=True).start()
    deadline = time.monotonic() + timeout
    try:
        if lines.get(timeout=timeout).strip() != "ready":
            return None
        before = server.cpu()
        driver.stdin.write("go\n")
        driver.stdin.flush()
        result = json.loads(lines.get(timeout=max(1.0, deadline - time.monotonic())))
        after = server.cpu()
    except (queue.Empty, json.JSONDecodeError, psutil.Error):
        return None
    finally:
        if driver.poll() is None:
            driver.kill()
        driver.wait()
    moves = result["moves"]
    return {
        "rate": moves / result["elapsed"],
        "p50": result["p50"],
        "p99": result["p99"],
        "cpu": 1000 * (after["app"] - before["app"]) / moves,
        "redis": 1000 * (after["redis"] - before["redis"]) / moves,
        "side": 1000 * (after["side"] - before["side"]) / moves,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="8,32,128")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--moves", type=int, default=2560, help="moves per run (whole matches of 20)")
    parser.add_argument("--timeout", type=float, default=120, help="seconds a run may take, set-up included")
    parser.add_argument("--servers", default="ours,ours-ws,bgio-memory,bgio-flatfile")
    parser.add_argument(
        "--config",
        choices=["shipped", "benchmark"],
        default="shipped",
        help="ours as `make run` ships it (request log line, rate limits, appendfsync always), or without those",
    )
    parser.add_argument(
        "--before",
        help="also run the server of this checkout (e.g. git worktree add --detach DIR <commit>), "
        "as 'before' beside 'ours' and 'before-ws' beside 'ours-ws', under DIR/.venv if it has one",
    )
    args = parser.parse_args()
    names = args.servers.split(",")
    if args.before:
        names += [n.replace("ours", "before") for n in names if n.startswith("ours")]
    servers = {name: Server(name, args.before if name.startswith("before") else ROOT, args.config) for name in names}
    load = os.getloadavg()
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {os.cpu_count()} cores; "
        f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}"
    )
    print(
        f"toy matches of {2 * ROUNDS} moves, {args.moves} moves per run, {args.reps} repetitions, order alternating\n"
    )
    try:
        for server in servers.values():
            server.start()
        table = {}
        for size in [int(s) for s in args.sizes.split(",")]:
            per_lane = max(1, args.moves // (2 * ROUNDS * size))
            for rep in range(args.reps):
                order = names if rep % 2 == 0 else names[::-1]
                for name in order:
                    r = run(servers[name], size, per_lane, args.timeout)
                    if r is None:
                        print(
                            f"  {size:>3} matches  rep {rep + 1}  {name:14} failed (server log: {servers[name].log().name})"
                        )
                        continue
                    table.setdefault((size, name), []).append(r)
                    print(
                        f"  {size:>3} matches  rep {rep + 1}  {name:14} {r['rate']:7.0f} moves/s  "
                        f"p50 {r['p50']:6.1f} ms  p99 {r['p99']:6.1f} ms  cpu {r['cpu']:.3f} ms/move"
                        + (f" (+ redis {r['redis']:.3f}, side {r['side']:.3f})" if servers[name].ours else ""),
                        flush=True,
                    )
        print("\nmedians of the repetitions:")
        print(
            f"{'matches':>7} {'server':14} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} {'cpu ms/move':>12} {'redis':>6}"
            f" {'side':>6}"
        )
        for (size, name), runs in table.items():
            med = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
            redis_cpu = f"{med['redis']:6.3f} {med['side']:6.3f}" if servers[name].ours else f"{'':6}"
            print(
                f"{size:>7} {name:14} {med['rate']:8.0f} {med['p50']:7.1f} {med['p99']:7.1f} {med['cpu']:12.3f} {redis_cpu}"
            )
        peers = [n for n in names if not servers[n].ours]
        if peers:
            print("\nratios of ours to boardgame.io (moves/s and CPU per move, medians):")
            for size in sorted({s for s, _ in table}):
                for mine in (n for n in names if servers[n].ours and (size, n) in table):
                    rate = statistics.median(r["rate"] for r in table[(size, mine)])
                    cpu = statistics.median(r["cpu"] for r in table[(size, mine)])
                    parts = [
                        f"{other}: {rate / statistics.median(r['rate'] for r in table[(size, other)]):.2f}x moves/s, "
                        f"{cpu / statistics.median(r['cpu'] for r in table[(size, other)]):.2f}x cpu"
                        for other in peers
                        if (size, other) in table
                    ]
                    print(f"  {size:>3} matches  {mine:14} " + "  ".join(parts))
    finally:
        for server in servers.values():
            server.stop()


if __name__ == "__main__":
    main()
