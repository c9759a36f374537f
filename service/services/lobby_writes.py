"""Writes to the shared lobby keys (the games index, the summaries, the clock
deadlines) that may lag behind a game's log but never fail the move that caused them.

On a Redis Cluster those keys live in other slots than a game's own keys, often on
another master: a move must touch only its game's slot, so these writes are made
after the append, and when their node is unreachable the latest write per key waits
here (per worker) and is retried on the next write, on each lobby read and by the
clock sweeper, once ``backoff`` seconds have passed; meanwhile nothing touches the
unreachable node. Each write is idempotent (HSET, ZADD, ZREM of a value computed
from the fold), so a retry that races another is harmless. A summary that is lost
with its worker is rewritten by the game's next move or refolded by the lobby.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable

from service.metrics import LAGGING_WRITES

log = logging.getLogger(__name__)


class LobbyWrites:
    def __init__(self, outages: tuple[type[Exception], ...], backoff: float = 2.0):
        """``outages``: what the storage raises when a node cannot be reached (kept and
        retried); anything else a write raises is logged and dropped, never the move's."""
        self._outages = outages
        self._backoff = backoff
        self._pending: dict[Hashable, Callable[[], object]] = {}
        self._retry_at = 0.0
        self._lock = threading.Lock()
        self._reported = -1  # the gauge's last value: a move does not rewrite an unchanged gauge

    def run(self, key: Hashable, write: Callable[[], object]) -> None:
        """Make ``write`` now if its node answers, else keep it (replacing an older
        write under the same key) for a later ``flush``."""
        with self._lock:
            self._pending[key] = write
        self.flush()

    def flush(self) -> None:
        if time.monotonic() < self._retry_at:
            return
        with self._lock:
            pending = list(self._pending.items())
        for key, write in pending:
            try:
                write()
            except self._outages as exc:
                self._retry_at = time.monotonic() + self._backoff
                log.warning("lobby write %s lags: %s", key, exc)
                break
            except Exception:
                log.exception("write %s after an append failed and is dropped", key)
            with self._lock:
                if self._pending.get(key) is write:
                    del self._pending[key]
        waiting = self.pending()
        if waiting != self._reported:
            self._reported = waiting
            LAGGING_WRITES.set(waiting)

    def pending(self) -> int:
        with self._lock:
            return len(self._pending)
