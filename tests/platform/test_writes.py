"""Concurrent writers, idempotent retries and the hash chain of the log."""

from __future__ import annotations

import threading

from events.envelope import entry_hash
from tests.platform.helpers import GameHandle


def test_racing_posts_on_one_expected_seq_exactly_one_wins(app):
    client = app.test_client()
    g = GameHandle(client, seats=["a", "b"], options={"rounds": 10})
    statuses, barrier = [], threading.Barrier(12)

    def post():
        c = app.test_client()
        barrier.wait()
        statuses.append(
            c.post(
                g.url("/actions"), json={"type": "note", "payload": {"text": "a"}, "expected_seq": 1}, headers=g.seat(0)
            ).status_code
        )

    threads = [threading.Thread(target=post) for _ in range(12)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert sorted(statuses) == [201] + [409] * 11
    seqs = [e["seq"] for e in g.events()]
    assert seqs == [1, 2]


def test_racing_posts_without_expected_seq_all_land_without_gap_or_duplicate(app):
    client = app.test_client()
    g = GameHandle(client, seats=["a", "b"])
    barrier = threading.Barrier(10)
    statuses = []

    def post():
        barrier.wait()
        statuses.append(
            app.test_client()
            .post(g.url("/actions"), json={"type": "note", "payload": {"text": "b"}}, headers=g.seat(0))
            .status_code
        )

    threads = [threading.Thread(target=post) for _ in range(10)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert statuses == [201] * 10
    assert [e["seq"] for e in g.events(g.referee)] == list(range(1, 12))


def test_a_retry_with_the_same_action_id_returns_the_first_result(client):
    g = GameHandle(client)
    first = g.act(0, "roll", action_id="retry-1")
    again = g.act(0, "roll", action_id="retry-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json["seq"] == first.json["seq"] == 2
    assert g.meta()["seq"] == 2


def test_every_entry_is_chained_to_the_one_before(client):
    g = GameHandle(client, options={"rounds": 2})
    for _ in range(4):
        g.play_first()
    log = g.events(g.referee)
    assert log[0]["prev"] == ""
    for before, entry in zip(log, log[1:]):
        assert entry["prev"] == before["hash"]
    assert all(entry_hash(e) == e["hash"] for e in log)
    assert g.meta()["head_hash"] == log[-1]["hash"]
