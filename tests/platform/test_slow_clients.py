"""Slow and greedy clients against gunicorn's default configuration: half-sent
requests do not stop normal ones, one client cannot take every live-stream slot,
and live streams cost one Redis read per game however many watch."""

from __future__ import annotations

import socket
import time

import pytest
import redis
import requests

from tests import redis_servers
from tests.platform.gunicorn_server import create, gunicorn, play

pytestmark = [
    pytest.mark.xdist_group("durability"),
    pytest.mark.skipif(not redis_servers.available(), reason="redis-server is not installed"),
]


@pytest.fixture()
def standalone(tmp_path):
    proc, url = redis_servers.standalone(tmp_path)
    yield url
    redis_servers.stop(proc)


def port_of(base: str) -> int:
    return int(base.split(":")[2].split("/")[0])


def open_stream(port: int, game_id: str, source: str = "127.0.0.1") -> tuple[socket.socket, int]:
    """A raw SSE request from ``source`` (any 127.x.y.z address is this machine)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.sendall(f"GET /api/games/{game_id}/stream HTTP/1.1\r\nHost: t\r\n\r\n".encode())
    head = b""
    while b"\r\n" not in head:
        head += sock.recv(4096)
    return sock, int(head.split()[1])


def half_sent(port: int, count: int, body: bool) -> list[socket.socket]:
    """Connections that send part of a request and then nothing."""
    socks = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        if body:
            sock.sendall(
                b"POST /api/games HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
                b'Content-Length: 500\r\n\r\n{"game"'
            )
        else:
            sock.sendall(b"GET /api/game-types HTTP/1.1\r\nHost: t\r\nX-Slow: ")
        socks.append(sock)
    return socks


def test_200_half_sent_requests_do_not_stop_normal_requests(standalone):
    with gunicorn(REDIS_URL=standalone) as (base, _):
        game = create(base)
        slow = half_sent(port_of(base), 100, body=False) + half_sent(port_of(base), 100, body=True)
        try:
            time.sleep(0.5)
            started = time.monotonic()
            answers = [requests.get(base + "/game-types", timeout=5).status_code for _ in range(20)]
            assert answers == [200] * 20
            assert play(base, game).status_code == 201
            assert time.monotonic() - started < 10
        finally:
            for sock in slow:
                sock.close()


def test_one_client_cannot_take_every_live_stream_slot(standalone):
    with gunicorn(REDIS_URL=standalone, WEB_CONCURRENCY=1, SSE_SECONDS=20) as (base, _):
        games = [create(base) for _ in range(4)]
        greedy = [open_stream(port_of(base), games[i % 3]["id"]) for i in range(33)]
        try:
            statuses = [status for _, status in greedy]
            assert statuses == [200] * 32 + [429], statuses
            other, status = open_stream(port_of(base), games[3]["id"], source="127.0.0.2")
            other.close()
            assert status == 200, "another client still gets a stream"
        finally:
            for sock, _ in greedy:
                sock.close()


def test_live_streams_cost_one_redis_read_per_game_however_many_watch(standalone):
    admin = redis.Redis.from_url(standalone)

    def reads() -> int:
        stats = admin.info("commandstats")
        return sum(stats.get(f"cmdstat_{c}", {}).get("calls", 0) for c in ("xread", "xrange", "xrevrange"))

    with gunicorn(REDIS_URL=standalone, WEB_CONCURRENCY=1, SSE_SECONDS=20) as (base, _):
        game = create(base)
        watchers = [open_stream(port_of(base), game["id"], source=f"127.0.1.{i}")[0] for i in range(30)]
        try:
            before = reads()
            time.sleep(3)
            idle = reads() - before
            assert idle <= 4, f"30 idle watchers of one game cost {idle} reads in 3 s"
            assert play(base, game).status_code == 201
            for sock in watchers:
                got = b""
                while b"event: appended" not in got:
                    got += sock.recv(65536)
        finally:
            for sock in watchers:
                sock.close()
