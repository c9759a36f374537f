"""Under gunicorn's gevent worker a game's tail writes each batch to the streams at its head
itself, one non-blocking send each (service/http/live.py, ``Tail.attach``). A client that
stops reading must then be let go to its own watcher: it holds up no one, and when it reads
again it gets every entry once, in order, in a well-formed chunked body."""

from __future__ import annotations

import re
import socket
import threading
import time

import pytest
import requests

from tests.platform.gunicorn_server import gunicorn, metric, note

pytestmark = pytest.mark.xdist_group("durability")

NOTES = 400  # ~1 KB frames: far more than a stalled client's socket buffers hold


@pytest.fixture()
def base(redis_url):
    # the stalled client below reads again only after every move: no stall timeout meanwhile
    with gunicorn(
        "bench.toy_app:app", REDIS_URL=redis_url, WEB_CONCURRENCY=1, RATE_LIMITS="off", SSE_STALL_SECONDS=300
    ) as (url, _):
        yield url


def stalled_stream(base: str, gid: str) -> socket.socket:
    """A stream opened after seq 1 whose client reads the answer's head, then nothing."""
    host, port = base.split("//")[1].split("/")[0].split(":")
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)  # before connecting: a small window
    sock.connect((host, int(port)))
    sock.sendall(f"GET /api/games/{gid}/stream?after=1 HTTP/1.1\r\nHost: t\r\n\r\n".encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += sock.recv(1)
    assert head.startswith(b"HTTP/1.1 200") and b"chunked" in head.lower(), head
    return sock


def dechunk(sock: socket.socket, last: int) -> bytes:
    """The body read from ``sock`` until the SSE message with id ``last``, chunk by chunk:
    a malformed chunk fails the test."""
    raw, body = b"", b""
    sock.settimeout(30)
    while f"id: {last}\n".encode() not in body:
        raw += sock.recv(65536)
        while (end := raw.find(b"\r\n")) >= 0:
            size = int(raw[:end], 16)
            if len(raw) < end + 2 + size + 2:
                break
            assert raw[end + 2 + size : end + 4 + size] == b"\r\n", raw[: end + 8 + size]
            body += raw[end + 2 : end + 2 + size]
            raw = raw[end + 4 + size :]
    return body


def test_a_client_that_stops_reading_holds_up_no_one_and_misses_nothing(base):
    game = requests.post(base + "/games", json={"game": "toy", "seats": ["a", "b"]}, timeout=10).json()
    gid, mover = game["id"], {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    stalled = stalled_stream(base, gid)
    seen: list[int] = []
    arrived = threading.Condition()

    def follow() -> None:
        with requests.get(f"{base}/games/{gid}/stream?after=1", stream=True, timeout=30) as live:
            for line in live.iter_lines():
                if line.startswith(b"id: "):
                    with arrived:
                        seen.append(int(line[4:]))
                        arrived.notify_all()
                    if seen[-1] == NOTES + 1:
                        return

    threading.Thread(target=follow, daemon=True).start()
    before = metric(base, "boardgames_live_released_total")
    slowest = 0.0
    try:
        for seq in range(2, NOTES + 2):
            assert note(base, gid, mover) == seq
            answered = time.monotonic()
            with arrived:
                assert arrived.wait_for(lambda seq=seq: seq in seen, timeout=10), f"the reading stream waited at {seq}"
            slowest = max(slowest, time.monotonic() - answered)
        assert seen == list(range(2, NOTES + 2))
        assert metric(base, "boardgames_live_released_total") > before, "the stalled stream was let go by the tail"
        # the stalled client reads at last: every entry once, in order
        ids = [int(i) for i in re.findall(rb"^id: (\d+)$", dechunk(stalled, NOTES + 1), flags=re.M)]
        assert ids == list(range(2, NOTES + 2))
    finally:
        stalled.close()
    assert slowest < 5, slowest


def test_a_client_that_never_reads_again_is_let_go_and_its_slot_comes_back(redis_url):
    """A stream whose client takes nothing for SSE_STALL_SECONDS ends: its slot is freed
    (a phone asleep with the page open must not hold one for ever), the mover and the other
    viewers never waited on it, and its socket is shut, not left half-written."""
    with gunicorn(
        "bench.toy_app:app", REDIS_URL=redis_url, WEB_CONCURRENCY=1, RATE_LIMITS="off", SSE_STALL_SECONDS=2
    ) as (base, _):
        game = requests.post(base + "/games", json={"game": "toy", "seats": ["a", "b"]}, timeout=10).json()
        gid, mover = game["id"], {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        stalled = stalled_stream(base, gid)
        try:
            assert metric(base, "boardgames_live_streams") == 1
            for seq in range(2, NOTES + 2):
                assert note(base, gid, mover) == seq
            deadline = time.monotonic() + 30
            while metric(base, "boardgames_live_stalled_total") < 1 and time.monotonic() < deadline:
                time.sleep(0.2)
            assert metric(base, "boardgames_live_stalled_total") == 1
            assert metric(base, "boardgames_live_streams") == 0, "the stalled stream's slot is free"
            stalled.settimeout(30)
            with pytest.raises(ConnectionResetError):  # what it had not read is cut off
                while stalled.recv(65536):
                    pass
        finally:
            stalled.close()
