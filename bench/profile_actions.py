"""Where an action's CPU goes: py-spy samples both gunicorn workers (threads holding the GIL: CPU, not waiting) while the Node driver
of bench/peer.py plays toy matches through the HTTP API; prints the share of samples
spent in (inclusive) each part of the path. Figures, not tests.

    .venv/bin/python bench/profile_actions.py [--matches 32] [--moves 4000] [--server ours-ws] [--root DIR]

Needs `node` and `bench/peer/node_modules` (`make bench-peer` installs them) and py-spy
(requirements-dev.txt); run as a user allowed to ptrace the workers (root here).
"""

from __future__ import annotations

import argparse
import collections
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, ROOT)

from peer import ROUNDS, Server  # noqa: E402

# (label, a substring of a frame "function (file)" as py-spy prints it), first match wins
# for exclusive parts; inclusive shares count a sample once per label found in its stack.
PARTS = [
    ("Redis: socket reads and writes, reply parsing", "redis/connection.py"),
    ("Redis client, all of it", "(redis/"),
    ("append script call (store.append)", "RedisEventStore.append (events/store.py"),
    ("seal: hash + canonical JSON", "seal (events/envelope.py"),
    ("fold of the action (platform fold + rules)", "Projector.fold_onto (projections/projector.py"),
    ("catch-up reads (stale cache)", "Projector.latest (projections/projector.py"),
    ("lobby line + snapshot JSON (extras)", "StoredGameLog._extras (service/services/game_log.py"),
    ("payload schema (marshmallow)", "canonical_payload (service/services/games.py"),
    ("token resolution", "Games.caller (service/services/games.py"),
    ("Games.act, all of it", "Games.act (service/services/games.py"),
    ("webargs request parsing", "(webargs/"),
    ("Flask + Werkzeug, all of it", "(flask/"),
    ("Flask response (jsonify)", "make_response (flask/"),
    ("gunicorn: parse the request", "(gunicorn/http/message.py"),
    ("gunicorn: write the response", "(gunicorn/http/wsgi.py"),
    ("gunicorn worker loop (accept, poll, keep-alive)", "(gunicorn/workers"),
    ("move socket: frames (simple-websocket, wsproto)", "(simple_websocket/"),
    ("move socket: one frame's answer", "one_frame (service/http/sockets.py"),
    ("gevent hub and greenlet switches", "(gevent/"),
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=32)
    parser.add_argument("--moves", type=int, default=4000)
    parser.add_argument(
        "--server", default="ours", help="ours (HTTP), ours-ws (move sockets); -gthread: that worker class"
    )
    parser.add_argument("--root", default=ROOT, help="the checkout to serve (e.g. the code before a change)")
    args = parser.parse_args()
    server = Server(args.server, args.root)
    out = tempfile.mkdtemp(prefix="profile-")
    server.start()
    try:
        workers = server.processes()["app"]
        per_lane = max(1, args.moves // (2 * ROUNDS * args.matches))
        driver = subprocess.Popen(
            ["node", "drive.js", *server.args, str(args.matches), str(per_lane), str(ROUNDS)],
            cwd=os.path.join(ROOT, "bench", "peer"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert driver.stdout.readline().strip() == "ready"
        spies = [
            subprocess.Popen(
                [
                    os.path.join(os.path.dirname(sys.executable), "py-spy"),
                    "record",
                    "--pid",
                    str(w.pid),
                    "--format",
                    "raw",
                    "--output",
                    os.path.join(out, f"{w.pid}.txt"),
                    "--rate",
                    "250",
                    "--gil",
                    "--nonblocking",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for w in workers
        ]
        driver.stdin.write("go\n")
        driver.stdin.flush()
        print(driver.stdout.readline().strip())
        driver.wait(timeout=300)
        for spy in spies:
            spy.send_signal(2)  # SIGINT: py-spy writes what it sampled
            spy.wait(timeout=60)
    finally:
        server.stop()
    stacks: collections.Counter = collections.Counter()
    for name in os.listdir(out):
        with open(os.path.join(out, name)) as handle:
            for line in handle:
                stack, _, count = line.rstrip().rpartition(" ")
                if stack:
                    stacks[stack] += int(count)
    total = sum(stacks.values()) or 1
    print(f"\n{total} samples holding the GIL in {len(os.listdir(out))} workers; share of samples (inclusive):")
    for label, needle in PARTS:
        hits = sum(n for stack, n in stacks.items() if needle in stack)
        print(f"  {100 * hits / total:5.1f}%  {label}")
    print(f"raw stacks (py-spy --format raw) in {out}")


if __name__ == "__main__":
    main()
