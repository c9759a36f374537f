"""Storage out of memory or disk: writes answer 503 ``storage_full`` with Retry-After
and nothing is written, reads keep answering, and the service heals with no restart
when space returns. Real servers, filled for real."""

from __future__ import annotations

import json
import os
import subprocess
import time

import pytest
import redis

from service.app import create_app
from tests import redis_servers
from tests.platform.helpers import GameHandle

pytestmark = [
    pytest.mark.xdist_group("durability"),
    pytest.mark.skipif(not redis_servers.available(), reason="redis-server is not installed"),
]


def note(g, text, seat=0, **extra):
    return g.act(seat, "note", {"text": text}, **extra)


def assert_full(r) -> None:
    assert r.status_code == 503, (r.status_code, r.json)
    assert r.json["error"]["code"] == "storage_full"
    assert int(r.headers["Retry-After"]) >= 1


def test_maxmemory_with_noeviction_answers_503_storage_full_and_writes_nothing(tmp_path):
    """deploy/redis.conf's policy (noeviction) at its limit: Redis refuses writes with
    OOM; the API says so with a 503 a client retries, never a 500, and nothing lands."""
    proc, url = redis_servers.standalone(tmp_path)
    raw = redis.Redis.from_url(url)
    try:
        client = create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0}).test_client()
        g = GameHandle(client, seats=["a", "b"], options={"rounds": 10})
        assert note(g, "a").status_code == 201
        raw.set("filler", b"x" * (1024 * 1024))
        used = int(raw.info("memory")["used_memory"])
        raw.config_set("maxmemory-policy", "noeviction")
        raw.config_set("maxmemory", str(used - 256 * 1024))  # over the limit by the filler's share
        before = raw.dbsize()

        assert_full(note(g, "b", action_id="full-1"))
        assert_full(client.post("/api/games", json={"game": "toy", "seats": ["a", "b"], "options": {}}))
        assert raw.dbsize() == before
        assert [e["payload"].get("text") for e in g.events(g.tokens[0])[1:]] == ["a"]  # reads answer
        assert client.get(g.url()).status_code == 200

        raw.delete("filler")  # space returns: the same retry lands, no restart
        r = note(g, "b", action_id="full-1")
        assert r.status_code == 201, r.json
        assert r.json["seq"] == 3
    finally:
        redis_servers.stop(proc)


@pytest.fixture()
def small_disk(tmp_path):
    """A real 24 MB filesystem (tmpfs), or a skip where mounting is not permitted."""
    where = tmp_path / "disk"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", str(where)], capture_output=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode().strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(path, leave: int) -> None:
    """Write a file until ``leave`` bytes stay free on the disk of ``path``."""
    stats = os.statvfs(path)
    free = stats.f_bavail * stats.f_frsize
    with open(path / "filler", "wb") as out:
        out.write(b"\0" * max(0, free - leave))


def test_a_full_disk_under_the_embedded_redis_stops_writes_not_the_service(small_disk, caplog):
    """DATA_DIR on a 24 MB tmpfs filled to the brim: writes answer 503 storage_full before
    they reach Redis (which would exit on a failed AOF write), reads answer, /readyz
    says why, /metrics shows the free bytes, a warning was logged before; writes land
    again, with no restart, once space returns."""
    from service import app as app_module

    data = small_disk / "data"
    config = {"DATA_DIR": str(data), "CLOCK_SWEEP_SECONDS": 0, "REDIS_URL": None}
    config.update(DISK_RESERVE_BYTES=4 * 1024 * 1024, DISK_WARN_BYTES=12 * 1024 * 1024)
    started = time.monotonic()
    try:
        app = create_app(config)
        client = app.test_client()
        g = GameHandle(client, seats=["a", "b"], options={"rounds": 10})
        assert note(g, "a").status_code == 201
        caplog.clear()
        fill(small_disk, leave=2 * 1024 * 1024)
        time.sleep(1.1)  # the free-space figure is at most a second old

        assert_full(note(g, "b", action_id="disk-1"))
        assert_full(client.post("/api/games", json={"game": "toy", "seats": ["a", "b"], "options": {}}))
        assert any("bytes free" in r.getMessage() for r in caplog.records if r.levelname == "WARNING")
        assert client.get(g.url()).status_code == 200
        assert [e["payload"].get("text") for e in g.events(g.tokens[0])[1:]] == ["a"]
        with app.test_request_context():  # a move socket's frame meets the same refusal
            from service.http import sockets
            from service.wiring import edge, services

            who = services().games.caller(g.id, g.tokens[0])
            frame = {"type": "note", "payload": {"text": "b"}, "action_id": "disk-1"}
            answered = json.loads(sockets.one_frame(g.id, who, json.dumps(frame), edge().socket_limits, "c")[0])
            assert answered["status"] == 503 and answered["body"]["error"]["code"] == "storage_full", answered
        ready = client.get("/readyz")
        assert ready.status_code == 503 and ready.json["status"] == "storage_full", ready.json
        metrics = client.get("/metrics").get_data(as_text=True)
        line = next(m for m in metrics.splitlines() if m.startswith("boardgames_disk_free_bytes"))
        assert float(line.split()[-1]) < 4 * 1024 * 1024

        (small_disk / "filler").unlink()
        time.sleep(1.1)
        r = note(g, "b", action_id="disk-1")
        assert r.status_code == 201 and r.json["seq"] == 3, r.json
        assert client.get("/readyz").status_code == 200
    finally:
        server = app_module._embedded.pop(str(data), (None,))[0]
        if server is not None:
            server.shutdown()
    assert time.monotonic() - started < 60
