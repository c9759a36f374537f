"""The lobby's indexes are never built inside a request: with 10,000 games stored from
before the indexes existed, the first lobby read is as fast as the tenth; the upgrade
step (``python -m service lobby-index``) or the thread the app starts aside files them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import pytest
import redis

from service.adapters import keys
from service.adapters.lobby import BUILT, index_key
from service.app import create_app
from tests import redis_servers

pytestmark = [pytest.mark.skipif(not redis_servers.available(), reason="redis-server is not installed")]

GAMES = 10_000
EPOCH = datetime(2025, 1, 1, tzinfo=UTC)


def store_old_games(url: str, count: int) -> list[str]:
    """Games as a database from before the lobby indexes holds them: each one's summary
    and its place in the games index, nothing filed in the lobby's sets."""
    raw = redis.Redis.from_url(url)
    ids = [f"old{n:06d}" for n in range(count)]
    pipe = raw.pipeline(transaction=False)
    for n, game_id in enumerate(ids):
        summary = {
            "id": game_id,
            "game": "toy",
            "title": "Toy",
            "seats": [{"seat": 0, "name": "a"}, {"seat": 1, "name": "b"}],
            "status": "active",
            "seq": 1,
            "to_act": [0],
            "result": None,
            "created_at": (EPOCH + timedelta(seconds=n)).isoformat(),
            "ranked": False,
            "forked_from": None,
            "tournament": None,
            "accounts": {},
        }
        pipe.set(keys.summary(game_id), json.dumps(summary))
        pipe.zadd(keys.GAMES_INDEX, {game_id: 1_700_000_000 + n})
    pipe.execute()
    return ids


def timed_get(client, url):
    began = time.perf_counter()
    r = client.get(url)
    assert r.status_code == 200, r.json
    return time.perf_counter() - began


def test_the_first_lobby_read_over_10000_old_games_is_as_fast_as_the_tenth(tmp_path):
    proc, url = redis_servers.standalone(tmp_path)
    try:
        store_old_games(url, GAMES)
        raw = redis.Redis.from_url(url)
        assert not raw.exists(BUILT)
        began = time.perf_counter()
        client = create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0, "DATA_DIR": str(tmp_path)}).test_client()
        times = [timed_get(client, "/api/games?limit=20") for _ in range(10)]
        deadline = time.monotonic() + 60
        while not raw.exists(BUILT) and time.monotonic() < deadline:  # filed aside, not in a request
            time.sleep(0.01)
        filed_in = time.perf_counter() - began
        # A read that filed the games itself would take as long as the filing (1-2 s here
        # when quiet); a loaded machine slows both alike, so the filing's time is the scale.
        assert times[0] < max(3 * times[9], 0.25, filed_in / 4), (times, filed_in)
        assert raw.zcard(index_key("active")) == GAMES
        page = client.get("/api/games?limit=3").json["games"]
        assert [g["id"] for g in page] == ["old009999", "old009998", "old009997"]
    finally:
        redis_servers.stop(proc)


def test_the_upgrade_step_files_old_games_and_a_fresh_database_is_built_at_start(tmp_path):
    """The upgrade step also drops the sets of every status that older versions kept."""
    proc, url = redis_servers.standalone(tmp_path)
    try:
        raw = redis.Redis.from_url(url)
        create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0, "DATA_DIR": str(tmp_path)})
        assert raw.exists(BUILT)  # no games yet: every game is filed as it is written
        raw.flushall()
        store_old_games(url, 50)
        raw.zadd("lobby:all", {"old000001": 1})  # the sets of every status older versions kept
        raw.zadd("lobby:game:toy", {"old000001": 1})
        env = {**os.environ, "REDIS_URL": url, "DATA_DIR": str(tmp_path)}
        done = subprocess.run(
            [sys.executable, "-m", "service", "lobby-index"], env=env, capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout) == {"lobby_indexes": "built", "games": 50}
        assert raw.exists(BUILT) and raw.zcard(index_key("active")) == 50
        assert not raw.exists("lobby:all", "lobby:game:toy") and raw.zcard(index_key("active", "toy")) == 50
    finally:
        redis_servers.stop(proc)
