"""Process supervision under gunicorn: the master restarts the embedded Redis when it
dies, and workers die with their master.

Why the master restarts Redis itself rather than exiting for systemd to restart
everything: the workers keep their connections pools and caches, the socket path is
fixed (``DATA_DIR/redis.sock``) so they reconnect by themselves, and clients see a few
503s instead of refused connections; it also works under ``make run``, where no
service manager watches. A server that keeps dying (a corrupt AOF, a full disk) makes
the master exit non-zero after ``MAX_RESTARTS`` in ``RESTART_WINDOW`` seconds, so a
service manager sees the failure instead of a loop. The server itself dies with the
master (events/connection.py starts it as the master's child with PR_SET_PDEATHSIG);
a restarted one is started from the watcher thread, which runs as long as the master.
"""

from __future__ import annotations

import ctypes
import os
import signal
import threading
import time

from events.connection import embedded_alive, start_embedded

PR_SET_PDEATHSIG = 1
MAX_RESTARTS = 5
RESTART_WINDOW = 60.0


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

    def __init__(self, data_dir: str, appendfsync: str, log, period: float = 0.5):
        self.data_dir, self.appendfsync, self.log, self.period = data_dir, appendfsync, log, period
        self.server, self.url = start_embedded(data_dir, appendfsync=appendfsync)
        self._dead: list = []  # replaced servers stay referenced: collecting one would stop the new server
        self._restarts: list[float] = []
        self._stop = threading.Event()

    def watch(self, on_give_up) -> None:
        threading.Thread(target=self._watch, args=(on_give_up,), name="embedded-redis-watch", daemon=True).start()

    def stop(self) -> None:
        self._stop.set()

    def _watch(self, on_give_up) -> None:
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
            if len(self._restarts) > MAX_RESTARTS:
                self.log.error("embedded Redis died %d times in %ds; giving up", len(self._restarts), RESTART_WINDOW)
                on_give_up()
                return
            self.log.error("embedded Redis died; restarting it on %s", self.url)
            try:
                self._dead.append(self.server)
                self.server, url = start_embedded(self.data_dir, appendfsync=self.appendfsync)
                self.log.info("embedded Redis restarted on %s", url)
            except Exception:
                self.log.exception("restarting the embedded Redis failed")
