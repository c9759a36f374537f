"""Process supervision under gunicorn: the master restarts the embedded Redis when it
dies, and workers die with their master.

Why the master restarts Redis itself rather than exiting for systemd to restart
everything: the workers keep their connections pools and caches, the socket path is
fixed (``DATA_DIR/redis.sock``) so they reconnect by themselves, and clients see a few
503s instead of refused connections; it also works under ``make run``, where no
service manager watches. A server that keeps dying (a full disk, a corrupt AOF) is
restarted with a growing pause once it died ``MAX_RESTARTS`` times in
``RESTART_WINDOW`` seconds (up to ``MAX_BACKOFF``), logged each time, and never given
up on: the web server stays up answering 503 and what it can read from its caches,
and heals by itself when the cause goes (space freed), with no restart. The server itself dies with the
master (events/connection.py starts it as the master's child with PR_SET_PDEATHSIG);
a restarted one is started from the watcher thread, which runs as long as the master.
"""

from __future__ import annotations

import ctypes
import os
import signal
import threading
import time
from typing import Any, Protocol

from service.adapters.connection import embedded_alive, start_embedded

PR_SET_PDEATHSIG = 1
MAX_RESTARTS = 5
RESTART_WINDOW = 60.0
MAX_BACKOFF = 30.0


class Log(Protocol):
    """What the watcher logs through: gunicorn's logger or the standard library's."""

    def info(self, msg: str, *args: Any) -> None: ...

    def error(self, msg: str, *args: Any) -> None: ...

    def exception(self, msg: str, *args: Any) -> None: ...


def die_with_parent() -> None:
    """Ask Linux to SIGKILL this process when its parent (the gunicorn master) dies,
    so a master killed with -9 leaves no orphaned worker holding the listening port.
    Elsewhere this is a no-op and gunicorn's own parent check applies (slower)."""
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the master died before the request took effect
        os._exit(1)


class EmbeddedRedis:
    """The embedded Redis of a gunicorn master, restarted by a watcher thread."""

    def __init__(self, data_dir: str, appendfsync: str, log: Log, period: float = 0.5) -> None:
        self.data_dir, self.appendfsync, self.log, self.period = data_dir, appendfsync, log, period
        self.server, self.url = start_embedded(data_dir, appendfsync=appendfsync)
        self._dead: list[Any] = []  # replaced servers stay referenced: collecting one would stop the new server
        self._restarts: list[float] = []
        self._stop = threading.Event()

    def watch(self) -> None:
        threading.Thread(target=self._watch, name="embedded-redis-watch", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def pause(self) -> float:
        """Seconds to wait before the next restart: none for the first ``MAX_RESTARTS``
        deaths in ``RESTART_WINDOW``, then doubling from 1 s up to ``MAX_BACKOFF``."""
        beyond = len(self._restarts) - MAX_RESTARTS
        return 0.0 if beyond <= 0 else min(MAX_BACKOFF, 2.0 ** (beyond - 1))

    def _watch(self) -> None:
        owner = os.getpid()
        while not self._stop.wait(self.period):
            if os.getpid() != owner:
                # A forked worker: under gevent this watcher is a greenlet, and fork copies
                # it into every worker, where it would start servers of its own on the file.
                # Park it: ending it would trip over thread bookkeeping fork did not copy.
                threading.Event().wait()
            if embedded_alive(self.server):
                continue
            now = time.monotonic()
            self._restarts = [t for t in self._restarts if now - t < RESTART_WINDOW] + [now]
            wait = self.pause()
            if wait:
                self.log.error(
                    "embedded Redis died %d times in %ds; restarting it in %.0fs (is DATA_DIR's disk full?)",
                    len(self._restarts),
                    RESTART_WINDOW,
                    wait,
                )
                if self._stop.wait(wait):
                    return
            else:
                self.log.error("embedded Redis died; restarting it on %s", self.url)
            try:
                self._dead.append(self.server)
                self.server, url = start_embedded(self.data_dir, appendfsync=self.appendfsync)
                self.log.info("embedded Redis restarted on %s", url)
            except Exception:
                self.log.exception("restarting the embedded Redis failed; trying again")
