"""Broadcast: one game played at a steady pace while N viewers follow it with the pages'
own protocol. Asserts nothing.

    .venv/bin/python bench/broadcast.py [--viewers 10 100 1000] [--seconds 20] [--rate 4] [--chat]

The server is `make run`'s configuration (deploy/gunicorn.conf.py: gevent, 2 workers,
embedded Redis with appendfsync always, default stream caps) serving the platform's
test game (bench/toy_app.py, as bench/spectators.py). What each client does is what the
pages' JS does (service/static/js/game_feed.js): both seats read the game once and
follow over their socket (`follow` in the token frame); the mover plays over it at
``--rate`` moves a second; each viewer is a spectator's page: it reads meta, view and
events once, then follows the SSE stream after the seq it read, and reconnects as
EventSource does (Last-Event-ID, after the stream's last ``retry:``) when the server
ends the response; with ``--chat`` each also reads the table's chat as a spectator's page
does (static/js/chat.js): once on load, then whenever its stream sends a chat mark other
than the one its last read answered (``--chat-poll``: every 4 s, as pages did before). Viewers come from loopback addresses, ten an
address (127.0.2.1 on), under the per-client caps, and are read by processes of 250
(one thread reading a thousand streams falls behind on a loaded machine).

Prints, per N: the HTTP requests the server counted per move per viewer (all of them,
and those that are not a stream's reconnection), Redis commands and stream reads per
move by command (XREAD: the tails; XREVRANGE: the append script's own head check),
server CPU per move (workers and Redis apart, from /proc), the delivery latency from
the mover's answer to each viewer's message for that entry (p50/p99) with the messages
delivered over those expected, and the load average; the frames' bytes at the 5th move
and the last, for a spectator's SSE message and the seats' socket pushes. Then the floor, in the same run:
the same viewers on a bare server (bench/write_floor.py) that only writes a frame of
the size delivered to every stream per move, at the same pace; its CPU per move, the
server's against it, and its own latency.
"""

from __future__ import annotations

import argparse
import heapq
import json
import multiprocessing
import os
import queue
import re
import selectors
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from typing import NamedTuple

import psutil
import requests
import requests.adapters

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from bench.server_cpu import server_cpu  # noqa: E402  # after the path set-up above
from bench.spectators import serve, storage  # noqa: E402
from tests.platform.socket_client import Client  # noqa: E402
from tests.redis_servers import free_port  # noqa: E402

READS = ("xread", "xrange", "xrevrange")
SEQ = re.compile(rb"id: (\d+)\nevent: appended\n")
RETRY = re.compile(rb"(?:^|\n)retry: (\d+)\n")
END = b"\r\n0\r\n\r\n"  # the last chunk of a chunked response


def commands(store) -> tuple[int, dict[str, int]]:
    """All commands so far, and the stream reads by command (a script's own included)."""
    stats = store.info("commandstats")
    calls = {k.removeprefix("cmdstat_"): v.get("calls", 0) for k, v in stats.items()}
    return sum(calls.values()), {c: calls.get(c, 0) for c in READS}


def requests_served(base: str) -> tuple[float, float]:
    """(all HTTP requests, stream and socket requests) the server counted so far."""
    text = requests.get(base.removesuffix("/api") + "/metrics", timeout=10).text
    total = push = 0.0
    for m in re.finditer(r"^boardgames_http_requests_total\{([^}]*)\} (\S+)$", text, flags=re.M):
        total += float(m.group(2))
        if "/stream" in m.group(1) or "/socket" in m.group(1):
            push += float(m.group(2))
    return total, push


class FromAddress(requests.adapters.HTTPAdapter):
    """A session's connections from one loopback address (a viewer's own client); a kept-alive
    connection the server closed meanwhile is opened again, as a browser does."""

    def __init__(self, source: str) -> None:
        self.source = source
        super().__init__(max_retries=3)

    def init_poolmanager(self, *args, **kwargs) -> None:
        super().init_poolmanager(*args, **{**kwargs, "source_address": (self.source, 0)})


def session_from(source: str) -> requests.Session:
    session = requests.Session()
    session.mount("http://", FromAddress(source))
    return session


CHAT_EVERY = 4.0  # seconds: pages asked for the table's chat this often while shown (``--chat-poll``)
CHAT_MARK = re.compile(rb'event: chat\ndata: \{"mark": "([^"]*)"\}')


class Viewers:
    """N spectators' pages on one selector thread: each read the game once, then its stream.
    With ``path`` (the floor's bare server) they only open that stream; with ``chat``
    ("push") each also reads the table's chat on load and when its stream sends a new mark,
    ("poll") every ``CHAT_EVERY`` seconds."""

    def __init__(
        self, base: str, port: int, game_id: str, count: int, path: str | None = None, first: int = 0, chat=""
    ):
        self.base, self.port, self.game_id, self.count, self.first = base, port, game_id, count, first
        self.chat, self.chat_answers = chat, Counter[int]()
        self.marks: dict[int, str | None] = {}  # the chat's mark each viewer's last read answered
        self.chat_due: queue.Queue[int] = queue.Queue()
        self.chat_pending: set[int] = set()
        self.path = path or f"/api/games/{game_id}/stream"
        self.received = 0  # bytes, all streams together
        self.retry: dict[int, float] = {}  # each stream's last `retry:` (seconds)
        self.reopen: list[tuple[float, int]] = []  # (when, viewer): reconnections due
        self.selector = selectors.DefaultSelector()
        self.after: dict[int, int] = {}
        self.buffers: dict[int, bytes] = {}
        self.arrivals: dict[int, list[float]] = {}  # seq -> when each viewer got it
        self.opened = self.refused = 0
        self.sessions: dict[str, requests.Session] = {}
        self.stop = threading.Event()

    def load(self, i: int) -> None:
        """The page's first read: meta, view, events (once per viewer, not per entry)."""
        session = self._session(i)
        meta = session.get(f"{self.base}/games/{self.game_id}", timeout=30).json()
        session.get(f"{self.base}/games/{self.game_id}/view", timeout=30)
        session.get(f"{self.base}/games/{self.game_id}/events?after=0", timeout=30)
        self.after[i] = meta["seq"]
        if self.chat == "push":
            self._read_chat(i)

    def _session(self, i: int) -> requests.Session:
        """Viewer ``i``'s HTTP session: one per address, as a browser keeps its connections."""
        source = self.source(i)
        return self.sessions.get(source) or self.sessions.setdefault(source, session_from(source))

    def _read_chat(self, i: int) -> None:
        try:
            r = self._session(i).get(f"{self.base}/games/{self.game_id}/chat", timeout=30)
            self.marks[i] = r.json().get("mark") if r.status_code == 200 else "closed"
            self.chat_answers[r.status_code] += 1
        except requests.RequestException:
            self.chat_answers[0] += 1

    @staticmethod
    def source(i: int) -> str:
        """Viewer ``i``'s loopback address: ten viewers an address (127.0.2.1 onwards)."""
        n = i // 10
        return f"127.0.{2 + n // 250}.{n % 250 + 1}"

    def _open(self, i: int) -> None:
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=10, source_address=(self.source(i), 0))
        sock.sendall(f"GET {self.path} HTTP/1.1\r\nHost: b\r\nLast-Event-ID: {self.after[i]}\r\n\r\n".encode())
        sock.setblocking(False)
        self.buffers[i] = b""
        self.selector.register(sock, selectors.EVENT_READ, i)
        self.opened += 1

    def start(self) -> None:
        for i in range(self.first, self.first + self.count):
            if self.game_id:
                self.load(i)
            else:
                self.after[i] = 0
            self._open(i)
        threading.Thread(target=self._read, daemon=True).start()
        if self.chat == "poll" and self.game_id:
            threading.Thread(target=self._poll_chat, daemon=True).start()
        if self.chat == "push" and self.game_id:
            threading.Thread(target=self._follow_chat, daemon=True).start()

    def _follow_chat(self) -> None:
        """The reads a stream's new chat marks call for, one viewer at a time."""
        while not self.stop.is_set():
            try:
                i = self.chat_due.get(timeout=0.5)
            except queue.Empty:
                continue
            self.chat_pending.discard(i)
            self._read_chat(i)

    def _poll_chat(self) -> None:
        """Each viewer's chat read every ``CHAT_EVERY`` s, spread evenly over the period."""
        start, k = time.perf_counter(), 0
        while not self.stop.is_set():
            wait = start + k * CHAT_EVERY / self.count - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            self._read_chat(self.first + k % self.count)
            k += 1

    def _read(self) -> None:
        while not self.stop.is_set():
            now = time.perf_counter()
            while self.reopen and self.reopen[0][0] <= now:  # EventSource's wait is over
                self._open(heapq.heappop(self.reopen)[1])
            wait = min(0.5, self.reopen[0][0] - now) if self.reopen else 0.5
            for key, _ in self.selector.select(timeout=max(0.0, wait)):
                i = key.data
                try:
                    data = key.fileobj.recv(262144)
                except BlockingIOError:
                    continue
                except ConnectionError:
                    data = b""
                now = time.perf_counter()
                self.received += len(data)
                if data.startswith(b"HTTP/1.1 ") and not data.startswith(b"HTTP/1.1 200"):
                    self.refused += 1
                buffer = self.buffers[i] + data
                for m in SEQ.finditer(buffer):
                    seq = int(m.group(1))
                    if seq > self.after[i]:
                        self.after[i] = seq
                        self.arrivals.setdefault(seq, []).append(now)
                if self.chat == "push":
                    for m in CHAT_MARK.finditer(buffer):
                        if m.group(1).decode() != self.marks.get(i) and i not in self.chat_pending:
                            self.chat_pending.add(i)
                            self.chat_due.put(i)
                for m in RETRY.finditer(buffer):
                    self.retry[i] = int(m.group(1)) / 1000
                self.buffers[i] = buffer[-64:]
                if not data or buffer.endswith(END):
                    # the response ended (the server keeps the connection alive, a browser
                    # does not reuse it): reconnect after the stream's `retry`, as EventSource does
                    self.selector.unregister(key.fileobj)
                    key.fileobj.close()
                    if not self.stop.is_set():
                        heapq.heappush(self.reopen, (now + self.retry.get(i, 3.0), i))

    def close(self) -> None:
        self.stop.set()
        time.sleep(0.6)
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()


class Crowd:
    """Viewers spread over a few processes (250 each): one selector thread reading a
    thousand streams falls behind on a loaded machine and would measure itself."""

    PER_PROCESS = 250

    def __init__(self, base: str, port: int, game_id: str, count: int, path: str | None = None, chat=""):
        self.parts = []
        context = multiprocessing.get_context("fork")
        for first in range(0, count, self.PER_PROCESS):
            ours, theirs = context.Pipe()
            size = min(self.PER_PROCESS, count - first)
            proc = context.Process(
                target=_viewers, args=(theirs, base, port, game_id, size, path, first, chat), daemon=True
            )
            proc.start()
            self.parts.append((proc, ours))
        self.arrivals: dict[int, list[float]] = {}
        self.refused = 0
        self.chat_answers = Counter[int]()

    def start(self) -> None:
        for _, pipe in self.parts:
            pipe.send("start")
        for _, pipe in self.parts:
            assert pipe.recv() == "started"

    @property
    def received(self) -> int:
        for _, pipe in self.parts:
            pipe.send("received")
        return sum(pipe.recv() for _, pipe in self.parts)

    def close(self) -> None:
        for _, pipe in self.parts:
            pipe.send("close")
        for proc, pipe in self.parts:
            arrivals, refused, chat_answers = pipe.recv()
            for seq, times in arrivals.items():
                self.arrivals.setdefault(seq, []).extend(times)
            self.refused += refused
            self.chat_answers.update(chat_answers)
            proc.join(timeout=30)


def _viewers(pipe, base: str, port: int, game_id: str, count: int, path: str | None, first: int, chat: str) -> None:
    viewers = Viewers(base, port, game_id, count, path, first, chat)
    while True:
        asked = pipe.recv()
        if asked == "start":
            viewers.start()
            pipe.send("started")
        elif asked == "received":
            pipe.send(viewers.received)
        else:
            viewers.close()
            pipe.send((viewers.arrivals, viewers.refused, viewers.chat_answers))
            return


def follower(base: str, game_id: str, token: str) -> Client:
    """A seat's page: its socket, following after the seq it read."""
    seq = requests.get(f"{base}/games/{game_id}", timeout=10).json()["seq"]
    ws = Client.connect(f"{base.replace('http', 'ws', 1)}/games/{game_id}/socket")
    ws.send(json.dumps({"token": token, "follow": seq}))
    assert json.loads(ws.receive(timeout=30))["status"] == 200
    return ws


def play(ws: Client, seconds: float, rate: float, sizes: dict[int, int]) -> dict[int, float]:
    """Seat 0's notes (always legal, never end the game) at ``rate`` a second over its
    socket: when each answer came, by seq. The pushes on the same socket are measured
    (``sizes``: bytes by the seq of their last entry)."""
    answered: dict[int, float] = {}
    start = time.perf_counter()
    n = 0
    while time.perf_counter() - start < seconds:
        wait = start + n / rate - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        ws.send(json.dumps({"type": "note", "payload": {"text": "a"}, "action_id": f"b{n}"}))
        while True:
            text = ws.receive(timeout=30)
            frame = json.loads(text)
            if "status" in frame:
                break
            sizes[frame["push"]["entries"][-1]["seq"]] = len(text)
        assert frame["status"] == 201, frame
        answered[frame["body"]["seq"]] = time.perf_counter()
        n += 1
    return answered


def drain(ws: Client, stop: threading.Event, sizes: dict[int, int]) -> None:
    """The other seat's pushes: bytes by the seq of their last entry."""
    while not stop.is_set():
        try:
            text = ws.receive(timeout=0.5)
        except Exception:
            return
        if text:
            push = json.loads(text).get("push")
            if push and push["entries"]:
                sizes[push["entries"][-1]["seq"]] = len(text)


def probe(base: str, game_id: str, stop: threading.Event, sizes: dict[int, int]) -> None:
    """One more spectator's stream, measured: each SSE message's bytes by its seq."""
    seq = requests.get(f"{base}/games/{game_id}", timeout=10).json()["seq"]
    with requests.get(f"{base}/games/{game_id}/stream?after={seq}", stream=True, timeout=30) as stream:
        message, data = 0, False
        for line in stream.iter_lines():
            message += len(line) + 1
            if line.startswith(b"id: "):
                seq = int(line[4:])
            data = data or line.startswith(b"data: ")
            if not line:  # a message ends: an entry's, or a keep-alive or retry
                if data:
                    sizes[seq] = message
                message, data = 0, False
            if stop.is_set():
                return


def sizes_text(sizes: dict[int, int], moves: dict[int, float]) -> str:
    """Frame bytes at the run's 5th move and its last (and the largest)."""
    seqs = [s for s in sorted(moves) if s in sizes]
    if len(seqs) < 5:
        return "n/a"
    return f"{sizes[seqs[4]]} B at move 5, {sizes[seqs[-1]]} B at move {len(seqs)} (largest {max(sizes[s] for s in seqs)} B)"


def percentiles(arrivals: dict[int, list[float]], sent: dict[int, float]) -> tuple[float, float, int]:
    """(p50, p99) of arrival minus sending over every viewer and entry, and how many arrived."""
    latencies = sorted(t - sent[seq] for seq, times in arrivals.items() if seq in sent for t in times)
    if not latencies:
        return float("nan"), float("nan"), 0
    return latencies[len(latencies) // 2], latencies[int(len(latencies) * 0.99)], len(latencies)


def load_average() -> str:
    return f"{os.getloadavg()[0]:.1f}"  # the last minute's


def run(
    base: str, port: int, master: psutil.Process, store, viewers: int, seconds: float, rate: float, chat: str
) -> Measured:
    game = requests.post(
        base + "/games", json={"game": "toy", "seats": ["a", "b"], "options": {"rounds": 50}}, timeout=10
    ).json()
    gid, tokens = game["id"], [s["token"] for s in game["seats"]]
    mover, other = follower(base, gid, tokens[0]), follower(base, gid, tokens[1])
    stop = threading.Event()
    sse_sizes: dict[int, int] = {}
    mover_sizes: dict[int, int] = {}
    other_sizes: dict[int, int] = {}
    threading.Thread(target=drain, args=(other, stop, other_sizes), daemon=True).start()
    threading.Thread(target=probe, args=(base, gid, stop, sse_sizes), daemon=True).start()
    watching = Crowd(base, port, gid, viewers, chat=chat)
    watching.start()
    time.sleep(2)  # the streams are open and their tails running
    (requests0, push0), (cmds0, reads0), (web0, redis0) = requests_served(base), commands(store), server_cpu(master.pid)
    received0, load0 = watching.received, load_average()
    answered = play(mover, seconds, rate, mover_sizes)
    time.sleep(2)  # the last entries reach every viewer
    (requests1, push1), (cmds1, reads1), (web1, redis1) = requests_served(base), commands(store), server_cpu(master.pid)
    received, load1 = watching.received - received0, load_average()
    watching.close()
    stop.set()
    mover.close()
    other.close()
    moves = len(answered)
    p50, p99, delivered = percentiles(watching.arrivals, answered)
    served = requests1 - requests0 - 1  # the moves went over the socket; 1: the first /metrics read
    reads = {c: (reads1[c] - reads0[c]) / moves for c in READS}
    cpu = (web1 - web0) / moves
    print(
        f"N={viewers:>5}  moves {moves:>4}  requests/move/viewer {served / moves / viewers:6.3f} "
        f"(not reconnections: {(served - (push1 - push0)) / moves / viewers:5.3f})  "
        f"Redis commands/move {(cmds1 - cmds0) / moves:6.1f} (stream reads {sum(reads.values()):4.1f}: "
        + " ".join(f"{c.upper()} {v:.1f}" for c, v in reads.items())
        + f")  CPU/move workers {1000 * cpu:6.1f} ms, Redis {1000 * (redis1 - redis0) / moves:5.1f} ms  "
        f"latency p50 {1000 * p50:6.1f} ms p99 {1000 * p99:6.1f} ms  "
        f"delivered {delivered}/{moves * viewers}  refused streams {watching.refused}  load {load0} -> {load1}",
        flush=True,
    )
    if chat:
        asked = sum(watching.chat_answers.values())
        how = f"a {CHAT_EVERY:.0f}-s poll" if chat == "poll" else "on load and on a new mark"
        print(
            f"N={viewers:>5}  chat reads ({how}, counted from the viewers' first read): {asked} in all, "
            f"{asked / moves:.1f} per move, answers by status {dict(sorted(watching.chat_answers.items()))}",
            flush=True,
        )
    print(
        f"N={viewers:>5}  frame bytes: spectator's SSE message {sizes_text(sse_sizes, answered)}; "
        f"other seat's push {sizes_text(other_sizes, answered)}; mover's push {sizes_text(mover_sizes, answered)}",
        flush=True,
    )
    return Measured(moves, cpu, max(64, received // max(1, delivered)))


class Measured(NamedTuple):
    moves: int
    cpu: float  # the workers' CPU seconds per move
    frame: int  # bytes a viewer received per entry (frames, keep-alives and reconnections)


def floor(port: int, proc: psutil.Process, viewers: int, real: Measured, rate: float) -> None:
    """The same viewers on the bare server (bench/write_floor.py), as many moves at the
    same pace, each a frame of the size the real run delivered."""
    watching = Crowd("", port, "", viewers, path="/stream")
    watching.start()
    control = socket.create_connection(("127.0.0.1", port), timeout=30)
    answers = control.makefile("rb")
    time.sleep(2)
    t = proc.cpu_times()
    cpu0, load0 = t.user + t.system, load_average()
    sent: dict[int, float] = {}
    start = time.perf_counter()
    for n in range(real.moves):
        wait = start + n / rate - time.perf_counter()
        if wait > 0:
            time.sleep(wait)
        sent[n + 1] = time.perf_counter()
        control.sendall(f"move {n + 1} {real.frame}\n".encode())
        answers.readline()
    time.sleep(2)
    t = proc.cpu_times()
    cpu, load1 = (t.user + t.system - cpu0) / real.moves, load_average()
    watching.close()
    control.close()
    p50, p99, delivered = percentiles(watching.arrivals, sent)
    print(
        f"N={viewers:>5}  floor (bare server, {real.frame} B frames): CPU/move {1000 * cpu:6.2f} ms; "
        + (f"server/floor {real.cpu / cpu:5.1f}x  " if cpu else "server/floor (below the clock's 10 ms)  ")
        + f"latency p50 {1000 * p50:6.1f} ms p99 {1000 * p99:6.1f} ms  delivered {delivered}/{real.moves * viewers}  "
        f"load {load0} -> {load1}",
        flush=True,
    )


def bare_server(port: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, os.path.join(ROOT, "bench", "write_floor.py"), str(port)])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the bare server did not start")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--viewers", type=int, nargs="+", default=[10, 100, 1000])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--rate", type=float, default=4, help="moves a second")
    parser.add_argument(
        "--chat",
        action="store_const",
        const="push",
        default="",
        help="each viewer also reads the chat as its page does",
    )
    parser.add_argument(
        "--chat-poll", dest="chat", action="store_const", const="poll", help="... every 4 s, as pages did before"
    )
    args = parser.parse_args()
    port, data_dir = free_port(), tempfile.mkdtemp(prefix="bench-broadcast-")
    server = serve(port, data_dir)
    base = f"http://127.0.0.1:{port}/api"
    bare = None
    try:
        store = storage(data_dir)
        master = psutil.Process(server.pid)
        bare_port = free_port()
        bare = bare_server(bare_port)
        for n in args.viewers:
            measured = run(base, port, master, store, n, args.seconds, args.rate, args.chat)
            floor(bare_port, psutil.Process(bare.pid), n, measured, args.rate)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)
        if bare is not None:
            bare.kill()
            bare.wait()


if __name__ == "__main__":
    main()
