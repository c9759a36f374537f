"""A real S3-compatible server for the archive's tests: moto's server mode
(``moto_server``, from requirements-dev.txt) as its own process on a free loopback port."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import requests

from tests.redis_servers import free_port

ACCESS = {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1"}


def executable() -> str | None:
    return shutil.which("moto_server", path=os.path.dirname(sys.executable)) or shutil.which("moto_server")


def start(workdir, timeout: float = 60) -> tuple[subprocess.Popen, str]:
    """The server and its endpoint URL, once it answers."""
    port = free_port()
    log = open(os.path.join(workdir, "moto.log"), "wb")
    proc = subprocess.Popen([str(executable()), "-H", "127.0.0.1", "-p", str(port)], stdout=log, stderr=log)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"moto_server exited with {proc.returncode}")
        try:
            requests.get(url + "/moto-api/", timeout=1)
            return proc, url
        except requests.RequestException:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("moto_server did not answer in time")


def stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)
