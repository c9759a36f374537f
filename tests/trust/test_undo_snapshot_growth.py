"""The snapshots kept for undo targets stay bounded by the log: each undo whose target
lies before its window's snapshot stores that target's whole state, so a seat that takes
back one step at a time, each undo one entry, stores a state per entry of the log."""

from __future__ import annotations

from tests.platform.helpers import GameHandle


def stored_snapshots(redis_client, game_id) -> set[int]:
    keys = [k for k in redis_client.keys(f"*{game_id}*") if "snap" in k]
    return {int(f) for key in keys for f in redis_client.hkeys(key)}


def test_undos_one_step_back_at_a_time_store_a_bounded_number_of_states(client, redis_client):
    """Seat 0 writes 30 notes, then takes them back one at a time (each a self-undo, one
    entry): 25 entries more, and as many whole states stored as undos (the app snapshots
    every 10 entries). A log of n entries should hold on the order of n / 10 states."""
    g = GameHandle(client, options={"rounds": 50})
    g.act(0, "roll")
    g.act(1, "roll")
    while g.meta()["seq"] < 35:
        assert g.act(0, "note", {"text": "a"}).status_code == 201
    targets = [seq for seq, seat in ((m["seq"], m["seat"]) for m in g.meta()["moves"]) if seat == 0][::-1][2:27]
    for to_seq in targets:
        answer = client.post(g.url("/undo"), json={"to_seq": to_seq}, headers=g.seat(0))
        assert answer.status_code == 201 and answer.json["status"] == "done", answer.json
    seq = g.meta()["seq"]
    stored = stored_snapshots(redis_client, g.id)
    assert len(stored) <= 2 * (seq // 10) + 2, f"{len(stored)} whole states stored for a log of {seq} entries"
