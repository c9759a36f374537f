"""Storage faults with real servers killed for real: the worker cache heals when the
log comes back shorter, an unreachable Redis is answered 503 + Retry-After, a retry
of one action id is answered with its seq however the racers interleave."""

from __future__ import annotations

import os
import signal
import threading

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
    """The toy game's note (text "a" or "b"), which does not pass the turn."""
    return g.act(seat, "note", {"text": text}, **extra)


def kill(proc) -> None:
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)


def test_a_worker_cache_ahead_of_the_log_is_noticed_and_refolded(tmp_path):
    """Redis comes back from its last save with fewer events than this worker cached
    (an fsync policy that lost its last second): moves land again at once, on the log."""
    proc, url = redis_servers.standalone(tmp_path)
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    try:
        client = create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0}).test_client()
        g = GameHandle(client, seats=["a", "b"], options={"rounds": 10})
        assert [note(g, "a").json["seq"] for i in range(3)] == [2, 3, 4]
        redis.Redis.from_url(url).save()
        assert [note(g, "b").json["seq"] for i in range(3)] == [5, 6, 7]  # cached, then lost
        kill(proc)
        proc = redis_servers.restart(port, tmp_path)

        r = note(g, "b")
        assert r.status_code == 201, r.json
        assert r.json["seq"] == 5
        texts = [e["payload"]["text"] for e in g.events(g.tokens[0])[1:]]
        assert texts == ["a", "a", "a", "b"]
        # and once the log passes the seq the cache had, the worker still reads it
        for _ in range(3):
            assert note(g, "a").status_code == 201
        assert client.get(g.url("/view"), headers=g.seat(0)).json["seq"] == 8
    finally:
        redis_servers.stop(proc)


def test_a_log_written_again_to_the_seq_a_worker_cached_is_not_chained_onto(tmp_path):
    """Redis comes back from its last save; another worker, cold, writes the log again up
    to the very seq this worker had cached. The seq matches, the entries do not: the
    append must not chain onto a head the log no longer holds (a broken chain, and a move
    judged on a state that is not the log's), but refold and judge on the log."""
    proc, url = redis_servers.standalone(tmp_path)
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    try:
        ahead = create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0}).test_client()
        cold = create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0}).test_client()
        g = GameHandle(ahead, seats=["a", "b"], options={"rounds": 10})
        assert [note(g, "a").json["seq"] for i in range(2)] == [2, 3]
        redis.Redis.from_url(url).save()
        assert [note(g, "a").json["seq"] for i in range(2)] == [4, 5]  # cached here, then lost
        kill(proc)
        proc = redis_servers.restart(port, tmp_path)
        g.client = cold
        assert [note(g, "b").json["seq"] for i in range(2)] == [4, 5]  # the log again, to seq 5

        g.client = ahead
        r = note(g, "a")
        assert (r.status_code, r.json["seq"]) == (201, 6), r.json
        assert r.json["view"]["notes"][0] == ["a", "a", "b", "b", "a"], "judged on the log, not the lost entries"
        report = ahead.post("/api/verify", data=g.export(g.referee)).json
        assert report["checks"]["chain"] == "ok" and report["first_bad_seq"] is None, report
        assert r.json["receipt"]["head"] == g.meta()["head_hash"]
    finally:
        redis_servers.stop(proc)


def test_a_killed_standalone_redis_is_answered_503_with_retry_after_then_recovers(tmp_path):
    proc, url = redis_servers.standalone(tmp_path, "--appendonly", "yes", "--appendfsync", "always")
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    try:
        client = create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0}).test_client()
        g = GameHandle(client, seats=["a", "b"], options={"rounds": 10})
        assert note(g, "a").status_code == 201
        kill(proc)
        for answer in (
            note(g, "b"),
            client.get(g.url("/view")),
            client.get("/api/games"),
            client.post("/api/games", json={"game": "toy", "seats": ["a", "b"]}),
        ):
            assert answer.status_code == 503, answer.get_data(as_text=True)
            assert answer.headers["Retry-After"] == "1"
            assert answer.json["error"]["code"] == "storage_unavailable"
        assert client.get("/readyz").status_code == 503
        assert client.get("/healthz").status_code == 200
        proc = redis_servers.restart(port, tmp_path, "--appendonly", "yes")
        assert client.get("/readyz").status_code == 200
        assert note(g, "a").json["seq"] == 3
    finally:
        redis_servers.stop(proc)


def test_concurrent_retries_of_one_action_id_all_answer_its_seq(app, redis_client):
    """Eight racers post the same action id, twenty rounds: exactly one 201 per round,
    every other answer 200 with the same seq, and the log holds the action once."""
    g = GameHandle(app.test_client(), seats=["a", "b"], options={"rounds": 50})
    for round_ in range(20):
        seat = g.meta()["to_act"][0]
        barrier, answers = threading.Barrier(8), []

        def post(expected, action_id=f"r{round_}", barrier=barrier, seat=seat, answers=answers):
            c = app.test_client()
            body = {"type": "roll", "payload": {}, "action_id": action_id, **expected}
            barrier.wait()
            r = c.post(g.url("/actions"), json=body, headers=g.seat(seat))
            answers.append((r.status_code, r.json.get("seq", r.json)))

        start = g.meta()["seq"]
        racers = [threading.Thread(target=post, args=({"expected_seq": start} if i % 2 else {},)) for i in range(8)]
        [t.start() for t in racers]
        [t.join(timeout=30) for t in racers]
        assert sorted(status for status, _ in answers) == [200] * 7 + [201], answers
        assert {seq for _, seq in answers} == {start + 1}, answers
    ids = [e.get("action_id") for e in g.events(g.referee)]
    assert len([i for i in ids if i]) == 20


def test_a_reused_action_id_with_another_payload_is_refused(client):
    g = GameHandle(client, seats=["a", "b"], options={"rounds": 10})
    first = note(g, "a", action_id="x1")
    assert first.status_code == 201
    again = note(g, "a", action_id="x1")
    assert (again.status_code, again.json["seq"]) == (200, first.json["seq"])
    other = note(g, "b", action_id="x1")
    assert other.status_code == 409
    assert other.json["error"]["code"] == "action_id_reused"
    assert other.json["error"]["details"] == {"action_id": "x1", "seq": first.json["seq"]}
    assert note(g, "a", seat=1, action_id="x1").status_code == 409  # another seat's move under that id
    assert [e["seq"] for e in g.events()] == [1, 2]


def test_a_frozen_redis_is_answered_503_within_two_seconds_and_heals(tmp_path):
    """Redis stopped (SIGSTOP: connections open, no answer): ordinary requests answer
    503 + Retry-After, /readyz says unready, and routes that need no storage answer,
    each within about two seconds (rate limits on: the limiter's own Redis call is
    bounded too); once Redis resumes, the same requests succeed."""
    import time

    import requests

    from tests.platform.gunicorn_server import create, gunicorn

    proc, url = redis_servers.standalone(tmp_path)
    try:
        with gunicorn(REDIS_URL=url, RATE_LIMITS="on") as (base, _):
            game = create(base)
            os.kill(proc.pid, signal.SIGSTOP)
            try:
                for path, status in (
                    (f"/games/{game['id']}", 503),
                    ("/game-types", 200),
                    (f"/games/{game['id']}", 503),
                ):
                    started = time.monotonic()
                    r = requests.get(base + path, timeout=30)
                    took = time.monotonic() - started
                    assert r.status_code == status, (path, r.status_code, r.text)
                    assert took < 2.5, (path, took)
                    if status == 503:
                        assert r.json()["error"]["code"] == "storage_unavailable"
                        assert r.headers["Retry-After"] == "1"
                    else:
                        assert "Retry-After" not in r.headers
                started = time.monotonic()
                ready = requests.get(base.removesuffix("/api") + "/readyz", timeout=30)
                assert ready.status_code == 503 and time.monotonic() - started < 2.5
            finally:
                os.kill(proc.pid, signal.SIGCONT)
            assert requests.get(f"{base}/games/{game['id']}", timeout=30).status_code == 200
    finally:
        redis_servers.stop(proc)


class LostAnswer:
    """A TCP relay in front of a real Redis that, once armed, delivers the next append
    (the script's EVALSHA) and then breaks the connection before its answer reaches
    the server: the fault of a failover or a reset between Redis and the worker. The
    Redis client then sends the command again on a new connection."""

    def __init__(self, redis_port: int):
        import hashlib
        import socket

        from service.adapters.event_store import APPEND_LUA

        self.socket = socket
        self.target = ("127.0.0.1", redis_port)
        self.marker = hashlib.sha1(APPEND_LUA.encode()).hexdigest().encode()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"redis://127.0.0.1:{self.listener.getsockname()[1]}/0"
        self.armed, self.dropped = threading.Event(), threading.Event()
        self.swallow = None
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                near, _ = self.listener.accept()
            except OSError:
                return
            far = self.socket.create_connection(self.target)
            threading.Thread(target=self._up, args=(near, far), daemon=True).start()
            threading.Thread(target=self._down, args=(far, near), daemon=True).start()

    def _up(self, near, far) -> None:
        try:
            while data := near.recv(65536):
                if self.armed.is_set() and self.marker in data:
                    self.armed.clear()
                    self.swallow = near
                far.sendall(data)
        except OSError:
            pass
        self._close(near, far)

    def _down(self, far, near) -> None:
        try:
            while data := far.recv(65536):
                if self.swallow is near:  # Redis ran the script; its answer is lost
                    self.swallow = None
                    self.dropped.set()
                    break
                near.sendall(data)
        except OSError:
            pass
        self._close(near, far)

    def _close(self, *sockets) -> None:
        for s in sockets:
            try:
                s.shutdown(self.socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def close(self) -> None:
        self.listener.close()


def test_an_append_whose_answer_was_lost_is_written_once_and_answered_as_written(tmp_path):
    """The connection breaks after Redis ran the append, before its answer arrived; the
    client sends it again. The second run finds the entries already there: the writer
    must know them for its own, not fold them as another writer's and build again (a
    second copy of the move, or a 422 for a move that was written)."""
    proc, url = redis_servers.standalone(tmp_path)
    relay = LostAnswer(int(url.rsplit(":", 1)[1].split("/")[0]))
    try:
        client = create_app({"REDIS_URL": relay.url, "CLOCK_SWEEP_SECONDS": 0}).test_client()
        g = GameHandle(client, seats=["a", "b"], options={"rounds": 10})
        assert note(g, "a").json["seq"] == 2

        answers = []
        for seat, type_, payload, extra in (
            (0, "note", {"text": "b"}, {}),  # the seat may note again: a rebuild would write it twice
            (0, "roll", {}, {}),  # the turn passes: a rebuild would refuse what was written
            (1, "roll", {}, {"action_id": "r1"}),  # the second run finds its own action id
        ):
            relay.armed.set()
            r = g.act(seat, type_, payload, **extra)
            assert relay.dropped.is_set(), "the fault was not injected"
            relay.dropped.clear()
            answers.append((r.status_code, r.json.get("seq", r.json)))
        assert answers == [(201, 3), (201, 4), (201, 5)]
        logged = [(e["seq"], e["type"], e["payload"]) for e in g.events(g.referee)[1:]]
        assert logged == [
            (2, "toy.note", {"text": "a"}),
            (3, "toy.note", {"text": "b"}),
            (4, "toy.roll", {}),
            (5, "toy.roll", {}),
        ]
        assert client.post("/api/verify", data=g.export(g.referee)).json["checks"]["chain"] == "ok"
    finally:
        relay.close()
        redis_servers.stop(proc)
