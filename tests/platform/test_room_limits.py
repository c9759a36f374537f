"""A room of players on one address, through gunicorn with the rate limits on at their
defaults: sixty people create accounts and register for a tournament as themselves from
the same address (a venue's NAT), then thirty spectators open the tournament page and
follow it, and nobody is answered 429.

The requests are the ones the pages make (service/static/tournaments/tournaments.js,
service/static/js/account.js), ten at a time, as a room does not click all in the same
millisecond. Argon2 runs at the test suite's cost (tests/conftest.py): this test is
about the limits, not the hashing."""

from __future__ import annotations

import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import requests

from tests.platform.gunicorn_server import gunicorn

PASSWORD = "correct horse battery"
PLAYERS, SPECTATORS, REFRESHES, AT_ONCE = 60, 30, 4, 10


def test_a_room_behind_one_address_signs_up_registers_and_watches_without_429(redis_url, redis_client):
    for key in redis_client.scan_iter(match="*ratelimit*"):
        redis_client.delete(key)
    statuses: Counter[int] = Counter()
    with gunicorn(REDIS_URL=redis_url, RATE_LIMITS="on", WEB_CONCURRENCY=2) as (base, _):

        def call(method: str, path: str, token: str | None = None, **kw):
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            r = requests.request(method, base + path, headers=headers, timeout=60, **kw)
            statuses[r.status_code] += 1
            assert r.status_code != 429, (method, path, r.text)
            assert r.status_code < 300, (method, path, r.status_code, r.text)
            return r.json()

        made = call(
            "POST",
            "/tournaments",
            json={"game": "carcassonne_castle", "name": "Club night", "options": {"table_size": 2, "rounds": 3}},
        )
        tid, director = made["id"], made["director_token"]

        def page_load(token: str | None = None) -> None:
            call("GET", "/game-types")
            call("GET", f"/tournaments/{tid}")
            call("GET", f"/tournaments/{tid}/standings")

        def player(i: int) -> None:
            account = call("POST", "/accounts", json={"name": f"P{i}x{uuid.uuid4().hex[:6]}", "password": PASSWORD})
            call("GET", "/me", account["token"])
            page_load()
            me = call("POST", f"/tournaments/{tid}/players", account["token"], json={})
            page_load()
            call("GET", f"/tournaments/{tid}/players/{me['pid']}/games", me["player_token"])

        with ThreadPoolExecutor(AT_ONCE) as pool:
            list(pool.map(player, range(PLAYERS)))
        assert len(call("GET", f"/tournaments/{tid}")["players"]) == PLAYERS
        call("POST", f"/tournaments/{tid}/rounds", director)

        def spectator(_: int) -> None:
            for _ in range(REFRESHES):
                page_load()
                call("GET", f"/tournaments/{tid}/rounds/1")

        with ThreadPoolExecutor(AT_ONCE) as pool:
            list(pool.map(spectator, range(SPECTATORS)))
    assert statuses[429] == 0 and sum(statuses.values()) > PLAYERS * 9 + SPECTATORS * REFRESHES * 4, statuses
