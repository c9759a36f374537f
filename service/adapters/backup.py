"""The Redis side of ``python -m service backup`` and ``restore``.

A backup takes Redis's own point-in-time snapshot over the replication protocol
(``redis-cli --rdb``): every stream and key as of one instant, taken from a running
server without stopping it and without file access to its directory. A restore does not
hand that RDB to a Redis with ``appendonly yes`` (it would load its AOF and ignore the
RDB: the empty database the operators found). It serves the snapshot from a throwaway
``redis-server`` and copies every key (``DUMP``/``RESTORE``, TTLs kept) into the target
Redis, which writes them to its own AOF like any other write.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import redis
from redis.connection import parse_url

from . import keys
from .connection import CLUSTER_SCHEME, embedded_server

GAME_PATTERN = keys.events("*")
TOURNAMENT_PATTERN = keys.tournament_events("*")


class BackupError(RuntimeError):
    """A backup or restore that cannot be done as asked (the message says why)."""


def snapshot(url: str, target: Path) -> None:
    """Write the Redis at ``url``'s point-in-time RDB snapshot to ``target``."""
    if url.startswith(CLUSTER_SCHEME):
        raise BackupError("a Redis Cluster is backed up node by node (redis-cli --rdb on each master)")
    cli = shutil.which("redis-cli")
    if cli is None:
        raise BackupError("redis-cli is not installed (apt-get install redis-tools)")
    parts: dict[str, Any] = parse_url(url)  # type: ignore[no-untyped-call]  # redis-py leaves it untyped
    command = [cli]
    if parts.get("path"):
        command += ["-s", str(parts["path"])]
    else:
        command += ["-h", str(parts.get("host", "127.0.0.1")), "-p", str(parts.get("port", 6379))]
    if parts.get("username"):
        command += ["--user", str(parts["username"])]
    env = {**os.environ, "REDISCLI_AUTH": str(parts["password"])} if parts.get("password") else dict(os.environ)
    done = subprocess.run([*command, "--rdb", str(target)], capture_output=True, text=True, env=env, timeout=3600)
    if done.returncode != 0 or not target.is_file():
        raise BackupError(f"redis-cli --rdb failed: {done.stderr.strip() or done.stdout.strip()}")


def raw_client(url: str) -> Any:
    """A client answering bytes (``DUMP`` payloads are binary)."""
    if url.startswith(CLUSTER_SCHEME):
        raise BackupError("restoring into a Redis Cluster is not supported by this command")
    return redis.Redis.from_url(url, decode_responses=False, socket_timeout=60)


@contextmanager
def served(rdb: Path) -> Iterator[Any]:
    """A throwaway ``redis-server`` (no AOF, no saves, a private socket) serving ``rdb``."""
    work = Path(tempfile.mkdtemp(prefix="boardgames-restore-"))
    shutil.copyfile(rdb, work / "dump.rdb")
    sock = work / "redis.sock"
    command = [embedded_server()[0], "--port", "0", "--unixsocket", str(sock), "--unixsocketperm", "700"]
    command += ["--dir", str(work), "--dbfilename", "dump.rdb", "--appendonly", "no", "--save", ""]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        client: Any = redis.Redis(unix_socket_path=str(sock), decode_responses=False, socket_timeout=60)
        deadline = time.monotonic() + 60
        while True:
            try:
                if client.info("persistence").get("loading") == 0:
                    break
            except (redis.ConnectionError, redis.BusyLoadingError):
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise BackupError(f"the snapshot {rdb} could not be loaded (a newer Redis wrote it?)")
            time.sleep(0.05)
        yield client
    finally:
        process.terminate()
        process.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)


def key_count(client: Any) -> int:
    return int(client.dbsize())


def copy_every_key(source: Any, target: Any) -> int:
    """Copy every key of ``source`` into ``target`` with its TTL; the number copied."""
    copied = 0
    batch: list[bytes] = []
    for key in source.scan_iter(count=1000):
        batch.append(key)
        if len(batch) == 500:
            copied += _copy(source, target, batch)
            batch = []
    return copied + (_copy(source, target, batch) if batch else 0)


def _copy(source: Any, target: Any, batch: list[bytes]) -> int:
    reading = source.pipeline(transaction=False)
    for key in batch:
        reading.dump(key)
        reading.pttl(key)
    answers = reading.execute()
    writing = target.pipeline(transaction=False)
    for index, key in enumerate(batch):
        payload, ttl = answers[2 * index], answers[2 * index + 1]
        if payload is not None:  # expired between SCAN and DUMP
            writing.restore(key, max(int(ttl), 0), payload)
    writing.execute()
    return len(batch)


def ids_of(client: Any, pattern: str) -> list[str]:
    """The ids in the keys matching ``pattern`` (one ``*`` inside the hash tag)."""
    head, tail = pattern.split("*")
    found = (k.decode() if isinstance(k, bytes) else k for k in client.scan_iter(match=pattern, count=1000))
    return sorted(k[len(head) : len(k) - len(tail)] for k in found)
