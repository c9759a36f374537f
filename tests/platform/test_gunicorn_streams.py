"""Under gunicorn with the threaded worker class (gthread), live SSE viewers cannot starve players: a worker serves
at most half its threads as streams and answers 503 beyond, so an action still lands."""

from __future__ import annotations

import threading
import time

import pytest
import requests

from projections.games import GAME_PACKAGES
from projections.games import get as get_game
from tests.platform.gunicorn_server import gunicorn

pytestmark = [
    pytest.mark.xdist_group("durability"),
    pytest.mark.skipif(not GAME_PACKAGES, reason="no game registered yet"),
]


def test_streams_are_capped_and_actions_still_land(tmp_path, redis_url):
    streams = []
    with gunicorn(
        REDIS_URL=redis_url,
        WEB_CONCURRENCY=1,
        GUNICORN_WORKER_CLASS="gthread",
        GUNICORN_THREADS=4,
        SSE_MAX_STREAMS=None,
        SSE_SECONDS=20,
    ) as (base, _):
        game = get_game(GAME_PACKAGES[0])
        created = requests.post(base + "/games", json={"game": game.name, "seats": ["a", "b"]}, timeout=10).json()
        url = f"{base}/games/{created['id']}"
        try:
            check_streams_and_action(url, created, streams)
        finally:
            for r in streams:
                r.close()


def check_streams_and_action(url, created, streams):
    """Open three streams (two fit), then play an action while two are open."""
    statuses = []
    for _ in range(3):
        r = requests.get(url + "/stream", stream=True, timeout=30)
        statuses.append(r.status_code)
        streams.append(r)
    assert statuses == [200, 200, 503], "two streams for four threads, the third refused"
    seat = requests.get(url, timeout=10).json()["to_act"][0]
    headers = {"Authorization": "Bearer " + created["seats"][seat]["token"]}
    action = requests.get(url + "/actions", headers=headers, timeout=10).json()["actions"][0]
    start = time.monotonic()
    r = requests.post(url + "/actions", json=action, headers=headers, timeout=10)
    assert r.status_code == 201 and time.monotonic() - start < 5
    got = []
    reader = threading.Thread(target=lambda: got.append(next(streams[0].iter_lines(chunk_size=None))))
    reader.start()
    reader.join(timeout=10)
    assert got, "the open stream delivered something"
