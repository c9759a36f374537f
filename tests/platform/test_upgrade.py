"""Upgrading a live server keeps every game under the rules it started with.

Real gunicorn on a real Redis (a ``redis-server`` started here, which stays up while
the app servers are replaced, as in a deployment). The game is the test-only
``counting`` game of ``tests/platform/upgrade/``: the app module ``serve.py`` registers
whichever ``counting_game`` module comes first on PYTHONPATH. The first server runs
release 1 (``v1/``, rules version 1: an addition counts once); it is stopped, and a
second server starts on release 2 (``v2/``, rules version 2: an addition counts double,
written as a branch on ``self.version(state)``). Games begun before the upgrade fold and
continue under version 1; games begun after it play version 2; everything is observed
through the HTTP API.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import requests

from service.adapters import keys
from service.adapters.connection import connect
from tests import redis_servers
from tests.platform.gunicorn_server import gunicorn

pytestmark = [
    pytest.mark.xdist_group("durability"),
    pytest.mark.skipif(not redis_servers.available(), reason="redis-server is not installed"),
]
RELEASES = Path(__file__).resolve().parent / "upgrade"


def serve(release: str, redis_url: str):
    path = os.pathsep.join([str(RELEASES / release), os.getcwd()])
    return gunicorn(
        app="tests.platform.upgrade.serve:app",
        REDIS_URL=redis_url,
        PYTHONPATH=path,
        WEB_CONCURRENCY=1,
        SNAPSHOT_EVERY=2,
    )


class Client:
    def __init__(self, base):
        self.base = base

    def create(self):
        r = requests.post(self.base + "/games", json={"game": "counting", "seats": ["ann", "bob"]}, timeout=10)
        assert r.status_code == 201, r.text
        return {"id": r.json()["id"], "tokens": [s["token"] for s in r.json()["seats"]]}

    def add(self, game, seat, n):
        r = requests.post(
            f"{self.base}/games/{game['id']}/actions",
            json={"type": "add", "payload": {"n": n}},
            headers={"Authorization": f"Bearer {game['tokens'][seat]}"},
            timeout=10,
        )
        assert r.status_code == 201, r.text
        return r.json()["view"]["scores"]

    def get(self, game, tail=""):
        r = requests.get(f"{self.base}/games/{game['id']}{tail}", timeout=10)
        assert r.status_code == 200, r.text
        return r


def test_games_begun_before_an_upgrade_keep_their_rules_and_new_games_take_the_new_ones(tmp_path):
    proc, url = redis_servers.standalone(tmp_path)
    try:
        with serve("v1", url) as (base, _):
            api = Client(base)
            types = {t["name"]: t for t in requests.get(base + "/game-types", timeout=10).json()}
            assert types["counting"]["rules_version"] == 1
            old = api.create()
            assert api.add(old, 0, 3) == [3, 0]
            assert api.add(old, 1, 2) == [3, 2]
            assert api.add(old, 0, 1) == [4, 2]
            api.get(old, "/view?at=3")  # a cold replay writes snapshots under release 1's code
            before = api.get(old, "/view").json()
        redis = connect(url)
        release_1_snapshots = set(redis.keys(keys.snapshots(old["id"], "*")))
        assert release_1_snapshots

        with serve("v2", url) as (base, _):
            api = Client(base)
            types = {t["name"]: t for t in requests.get(base + "/game-types", timeout=10).json()}
            assert types["counting"]["rules_version"] == 2
            assert api.get(old).json()["rules_version"] == 1
            assert api.get(old, "/view").json() == before  # the new code folds the old log as it was
            assert api.add(old, 1, 3) == [4, 5]  # still version 1: 3 counts 3
            new = api.create()
            assert api.get(new).json()["rules_version"] == 2
            assert api.add(new, 0, 3) == [6, 0]  # version 2: 3 counts 6
            assert api.add(new, 1, 1) == [6, 2]
            for n in (1, 1, 1, 1, 1, 1):  # the old game to its end, under version 1
                seat = api.get(old).json()["to_act"][0]
                api.add(old, seat, n)
            meta = api.get(old).json()
            assert meta["status"] == "finished" and meta["result"]["scores"] == [7, 8]
            api.get(old, "/view?at=2")  # a cold replay under release 2's code
            report = requests.post(base + "/verify", data=api.get(old, "/export").text, timeout=10).json()
            assert report["ok"] and report["rules_version"] == 1, report
        assert set(redis.keys(keys.snapshots(old["id"], "*"))) > release_1_snapshots  # new code, new key
    finally:
        redis_servers.stop(proc)
