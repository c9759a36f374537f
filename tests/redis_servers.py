"""Start real Redis servers on loopback ports for tests: a standalone one and a
3-master Redis Cluster (redis-server --cluster-enabled + redis-cli --cluster create)."""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import time

import redis


def _is_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A free port whose cluster bus port (port + 10000) is free too. Both lie below
    Linux's ephemeral range (32768 up), so no outgoing connection can take the port
    between this check and the server's bind."""
    for _ in range(200):
        port = random.randint(10000, 22767)
        if _is_free(port) and _is_free(port + 10000):
            return port
    raise RuntimeError("no free port pair")


def _start(port: int, workdir, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(workdir),
            *extra,
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _wait_ping(port: int, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if redis.Redis(port=port).ping():
                return
        except redis.ConnectionError:
            time.sleep(0.05)
    raise RuntimeError(f"redis on {port} did not start")


def available() -> bool:
    return shutil.which("redis-server") is not None and shutil.which("redis-cli") is not None


def standalone(workdir, *extra: str, port: int | None = None):
    port = port or free_port()
    proc = _start(port, workdir, *extra)
    _wait_ping(port)
    return proc, f"redis://127.0.0.1:{port}/0"


def restart(port: int, workdir, *extra: str) -> subprocess.Popen:
    """Start a server again on ``port`` from what ``workdir`` holds (RDB, AOF, nodes.conf)."""
    proc = _start(port, workdir, *extra)
    _wait_ping(port)
    return proc


def cluster(workdir, masters: int = 3, *extra: str):
    ports = [free_port() for _ in range(masters)]
    procs = []
    for port in ports:
        node_dir = workdir / str(port)
        node_dir.mkdir()
        procs.append(
            _start(
                port,
                node_dir,
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-node-timeout",
                "5000",
                *extra,
            )
        )
    for port in ports:
        _wait_ping(port)
    subprocess.run(
        [
            "redis-cli",
            "--cluster",
            "create",
            *[f"127.0.0.1:{p}" for p in ports],
            "--cluster-replicas",
            "0",
            "--cluster-yes",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        info = redis.Redis(port=ports[0]).cluster("info")
        if info.get("cluster_state") == "ok":
            return procs, f"redis+cluster://127.0.0.1:{ports[0]}"
        time.sleep(0.2)
    raise RuntimeError("the cluster did not become ready")


def stop(procs) -> None:
    for proc in procs if isinstance(procs, list) else [procs]:
        proc.terminate()
    for proc in procs if isinstance(procs, list) else [procs]:
        proc.wait(timeout=10)
