"""The embedded Redis's disk: writes stop before it fills.

Redis with ``appendfsync always`` exits when an AOF write fails for want of space, so
the embedded server's disk (``DATA_DIR``) is watched from here: below
``DISK_RESERVE_BYTES`` free, API writes answer 503 ``storage_full`` (Retry-After) before
they reach Redis, reads go on, ``/readyz`` says why, and writes resume by themselves
when space returns. Below ``DISK_WARN_BYTES`` a warning is logged (once per crossing).
``boardgames_disk_free_bytes`` shows the figure. An external Redis's disk is not ours
to see: its refusals (MISCONF) are answered the same way by the error handler."""

from __future__ import annotations

import logging
import os
import threading
import time

from flask import Flask, request

from service.metrics import DISK_FREE
from service.services.errors import Unavailable

log = logging.getLogger(__name__)
WRITE_METHODS = frozenset(("POST", "PUT", "PATCH", "DELETE"))
READ_ONLY_POSTS = frozenset(("games.verify_export",))  # checks an upload, writes nothing
RETRY_AFTER = 5
CHECK_EVERY = 1.0  # seconds between statvfs calls per worker


class DiskSpace:
    def __init__(self, path: str, reserve: int, warn: int) -> None:
        self._path, self._reserve, self._warn = path, reserve, warn
        self._free, self._at = -1, 0.0
        self._warned = False
        self._lock = threading.Lock()

    def free(self) -> int:
        """Bytes free to an unprivileged writer on the disk of ``path`` (at most ``CHECK_EVERY`` old)."""
        now = time.monotonic()
        with self._lock:
            if now - self._at >= CHECK_EVERY:
                stats = os.statvfs(self._path)
                self._free, self._at = stats.f_bavail * stats.f_frsize, now
                DISK_FREE.set(self._free)
                self._warn_once(self._free)
            return self._free

    def full(self) -> str | None:
        """Why writes stop now, or None while there is room."""
        free = self.free()
        if free >= self._reserve:
            return None
        return f"{free} bytes free on the disk of {self._path}, below DISK_RESERVE_BYTES ({self._reserve})"

    def _warn_once(self, free: int) -> None:
        if free < self._warn and not self._warned:
            log.warning(
                "the disk of %s has %d bytes free (DISK_WARN_BYTES %d); writes stop below %d",
                self._path,
                free,
                self._warn,
                self._reserve,
            )
        self._warned = free < self._warn


def install(app: Flask, disk: DiskSpace) -> None:
    app.extensions["disk_space"] = disk

    @app.before_request
    def refuse_writes_on_a_full_disk() -> None:
        if request.method not in WRITE_METHODS or not request.path.startswith("/api/"):
            return
        if request.endpoint in READ_ONLY_POSTS:
            return
        if disk.full() is not None:
            raise Unavailable(
                "storage_full", "storage is full; nothing was written, retry later", retry_after=RETRY_AFTER
            )


def of(app: Flask) -> DiskSpace | None:
    """The app's disk watch (None: Redis is external, its disk is not ours to see)."""
    found = app.extensions.get("disk_space")
    return found if isinstance(found, DiskSpace) else None
