"""More than one machine: two app servers (separate gunicorn masters, each with its own
worker caches) against one 3-master Redis Cluster play the same games correctly."""

from __future__ import annotations

import pytest
import requests

from service.adapters import keys
from service.adapters.connection import connect
from tests import redis_servers
from tests.platform.gunicorn_server import gunicorn
from tests.sse import entries

pytestmark = [
    pytest.mark.xdist_group("redis-servers"),
    pytest.mark.skipif(not redis_servers.available(), reason="redis-server is not installed"),
]


@pytest.fixture(scope="module")
def cluster_url(tmp_path_factory):
    procs, url = redis_servers.cluster(tmp_path_factory.mktemp("cluster"))
    yield url
    redis_servers.stop(procs)


def stream_events(url: str) -> list[dict]:
    """The entries the live stream sends (it closes itself after SSE_SECONDS)."""
    with requests.get(url + "/stream?after=0", stream=True, timeout=30) as r:
        assert r.status_code == 200
        return list(entries(r.iter_lines()))


def test_create_on_one_move_on_the_other_watch_on_either(cluster_url):
    env = {"REDIS_URL": cluster_url, "WEB_CONCURRENCY": 2, "SSE_SECONDS": 1, "ACCESS_LOG": ""}
    with gunicorn("bench.toy_app:app", **env) as (one, _), gunicorn("bench.toy_app:app", **env) as (two, _):
        created = requests.post(
            one + "/games", json={"game": "toy", "seats": ["a", "b"], "options": {"rounds": 3}}, timeout=10
        ).json()
        gid = created["id"]
        auth = [{"Authorization": f"Bearer {s['token']}"} for s in created["seats"]]
        servers = [two, one]
        for move in range(6):  # alternate servers and seats: every worker cache goes stale in turn
            base = servers[move % 2]
            r = requests.post(
                f"{base}/games/{gid}/actions",
                json={"type": "roll", "action_id": f"m{move}"},
                headers=auth[move % 2],
                timeout=10,
            )
            assert r.status_code == 201, r.text
            retry = requests.post(
                f"{servers[(move + 1) % 2]}/games/{gid}/actions",
                json={"type": "roll", "action_id": f"m{move}"},
                headers=auth[move % 2],
                timeout=10,
            )
            assert (retry.status_code, retry.json()["seq"]) == (200, r.json()["seq"])
        # the same game on either server, but for now: the time each server answered at
        metas = [{**requests.get(f"{base}/games/{gid}", timeout=10).json(), "now": None} for base in (one, two)]
        assert metas[0] == metas[1] and metas[0]["status"] == "finished" and metas[0]["seq"] == 8
        views = [requests.get(f"{base}/games/{gid}/view", headers=auth[0], timeout=10).json() for base in (one, two)]
        assert views[0] == views[1]
        watched = [stream_events(f"{base}/games/{gid}") for base in (one, two)]
        assert [e["seq"] for e in watched[0]] == [e["seq"] for e in watched[1]] == list(range(1, 9))
        exports = [requests.get(f"{base}/games/{gid}/export", timeout=10).text for base in (one, two)]
        assert exports[0] == exports[1]
        for base in (one, two):
            verdict = requests.post(base + "/verify", data=exports[0], timeout=30).json()
            assert verdict["ok"], verdict
        lobby = [
            [g for g in requests.get(base + "/games?limit=100", timeout=10).json()["games"] if g["id"] == gid]
            for base in (one, two)
        ]
        assert lobby[0] == lobby[1] and lobby[0][0]["status"] == "finished"
    client = connect(cluster_url)
    assert client.keyslot(keys.summary(gid)) == client.keyslot(keys.events(gid))
