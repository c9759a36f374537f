"""Live streams at the cost of one Redis read per game, however many watch.

Each worker keeps one ``Tail`` per watched game: a thread (a greenlet under gevent)
that blocks on XREAD for that game's stream, renders each new entry once as the
spectator's SSE frame, keeps the last frames in a ring and wakes every watcher. A
watcher that is behind the ring (a reconnect with an old Last-Event-ID) reads its gap
from the log once, then follows the ring. The tail stops when its last watcher leaves.

``StreamSlots`` caps streams per worker, per client and per game, so one client
cannot take every slot from everyone else.
"""

from __future__ import annotations

import json
import logging
import math
import threading
import time
from contextlib import contextmanager

from events import keys
from events.connection import UNAVAILABLE
from projections.fold import awaited
from projections.views import redacted_envelope
from service.metrics import LIVE_STREAMS, LIVE_TAILS
from service.services.errors import RateLimited, Unavailable

log = logging.getLogger(__name__)
BLOCK_MS = 2000
RING = 512


def render(p: dict, envelopes: list[dict]) -> list[tuple[int, str]]:
    """SSE frames as a spectator sees them, with the game's state after them."""
    to_act = awaited(p)
    frames = []
    for envelope in envelopes:
        data = {
            **redacted_envelope(p["game"], envelope, None),
            "to_act": to_act,
            "status": p["status"],
            "head": p["head"],
            "latest": p["seq"],
        }
        frames.append((envelope["seq"], f"id: {envelope['seq']}\nevent: appended\ndata: {json.dumps(data)}\n\n"))
    return frames


class Tail:
    def __init__(self, platform, game_id: str, seq: int):
        self.platform, self.game_id, self.seq = platform, game_id, seq
        self.frames: list[tuple[int, str]] = []  # consecutive seqs, the last RING..2*RING
        self.arrived = threading.Event()  # replaced at each publish: waking every watcher is one set()
        self.watchers = 0

    def run(self, still_watched) -> None:
        LIVE_TAILS.inc()
        try:
            while still_watched(self):
                try:
                    entries = self.platform.store.tail(keys.events(self.game_id), self.seq, block_ms=BLOCK_MS)
                    if entries:
                        self._publish(render(self.platform.state(self.game_id), entries))
                except UNAVAILABLE as exc:  # watchers keep their keep-alives; the tail retries
                    log.warning("live tail of %s: storage unavailable: %s", self.game_id, exc)
                    time.sleep(1)
                except Exception:
                    log.exception("live tail of %s failed", self.game_id)
                    time.sleep(1)
        finally:
            LIVE_TAILS.dec()

    def _publish(self, frames: list[tuple[int, str]]) -> None:
        if self.frames and frames[0][0] != self.frames[-1][0] + 1:
            self.frames = []  # the log moved under us (refolded); keep the ring consecutive
        kept = self.frames[-RING:] if len(self.frames) >= 2 * RING else self.frames
        self.frames = kept + frames
        self.seq = frames[-1][0]
        arrived, self.arrived = self.arrived, threading.Event()
        arrived.set()

    def after(self, seq: int, timeout: float) -> list[tuple[int, str]] | None:
        """Frames after ``seq``, waiting up to ``timeout`` for one; None when the ring
        no longer reaches back to ``seq`` (the caller reads its gap from the log)."""
        arrived = self.arrived  # taken before the check, so a publish in between is not missed
        if self.seq <= seq:
            arrived.wait(timeout)
        frames = self.frames
        top = max(self.seq, frames[-1][0] if frames else 0)
        if top <= seq:
            return []
        if not frames or frames[0][0] > seq + 1:
            return None
        return frames[seq + 1 - frames[0][0] :]


class LiveTails:
    """The tails of one worker, one per watched game."""

    def __init__(self, platform):
        self.platform = platform
        self._tails: dict[str, Tail] = {}
        self._lock = threading.Lock()

    def watched(self, game_id: str) -> bool:
        """Whether this worker already tails the game (so it exists: no read needed)."""
        return game_id in self._tails

    @contextmanager
    def watch(self, game_id: str):
        with self._lock:
            tail = self._tails.get(game_id)
        seq = self.platform.state(game_id)["seq"] if tail is None else 0  # read outside the lock
        with self._lock:
            tail = self._tails.get(game_id)
            start = tail is None
            if start:
                tail = self._tails[game_id] = Tail(self.platform, game_id, seq)
            tail.watchers += 1
        if start:
            threading.Thread(target=tail.run, args=(self._still_watched,), name=f"tail-{game_id}", daemon=True).start()
        try:
            yield tail
        finally:
            with self._lock:
                tail.watchers -= 1

    def _still_watched(self, tail: Tail) -> bool:
        with self._lock:
            if tail.watchers > 0:
                return True
            if self._tails.get(tail.game_id) is tail:
                del self._tails[tail.game_id]
            return False


def event_stream(platform, tails: LiveTails, game_id: str, after: int | None, seconds: float):
    """The SSE body of one watcher for ``seconds`` (then the browser reconnects)."""
    yield "retry: 1000\n\n"
    with tails.watch(game_id) as tail:
        if after is None:
            # Opened at the tail: say where (an id with no data sets the browser's
            # Last-Event-ID without an event), so a reconnect before the first entry
            # resumes here instead of at a later tail, past what came meanwhile.
            after = tail.seq
            yield f"id: {after}\n\n"
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            frames = tail.after(after, timeout=min(left, BLOCK_MS / 1000))
            if frames is None:
                frames = render(platform.state(game_id), platform.store.read(keys.events(game_id), after=after))
            if not frames:
                yield ": keep-alive\n\n"
                continue
            for seq, text in frames:
                yield text
                after = seq


class StreamSlots:
    """Per-worker caps on live streams: in all, per client (its address) and per game.

    A refusal says when to retry: a client over its own cap when its oldest stream
    ends (streams last ``seconds``), a full game or worker in a second (streams end
    all the time, and another worker may have room)."""

    FULL_RETRY_AFTER = 1

    def __init__(self, total: int, per_client: int, per_game: int, seconds: float = 25):
        self.total, self.per_client, self.per_game, self.seconds = total, per_client, per_game, seconds
        self._clients: dict[str, list[float]] = {}  # the start times of each client's open streams
        self._games: dict[str, int] = {}
        self._open = 0
        self._lock = threading.Lock()

    @contextmanager
    def hold(self, client: str, game_id: str):
        now = time.monotonic()
        with self._lock:
            started = self._clients.get(client, [])
            if len(started) >= self.per_client:
                wait = max(1, math.ceil(min(started) + self.seconds - now))
                raise RateLimited(
                    "too_many_streams",
                    "this client has too many live streams open",
                    {"limit": self.per_client},
                    retry_after=wait,
                )
            if self._games.get(game_id, 0) >= self.per_game or self._open >= self.total:
                raise Unavailable(
                    "too_many_streams",
                    "too many live streams on this worker; retry shortly",
                    retry_after=self.FULL_RETRY_AFTER,
                )
            self._clients.setdefault(client, []).append(now)
            self._games[game_id] = self._games.get(game_id, 0) + 1
            self._open += 1
        LIVE_STREAMS.inc()
        try:
            yield
        finally:
            LIVE_STREAMS.dec()
            with self._lock:
                self._open -= 1
                self._clients[client].remove(now)
                if not self._clients[client]:
                    del self._clients[client]
                self._games[game_id] -= 1
                if not self._games[game_id]:
                    del self._games[game_id]
