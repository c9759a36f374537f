"""Undo costs linear time: folding a log with U undos applies each entry a bounded
number of times, offline (verify) and live (the projector answering ?at=)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections import fold
from projections.fold import InMemoryHistory
from tests.platform.helpers import GameHandle
from tests.services import services_over

UNDOS = 24


class Budget(Exception):
    pass


@pytest.fixture()
def counted(monkeypatch):
    """Count entries folded; stop at once past a budget (the old fold doubled per undo)."""
    calls = {"n": 0, "limit": None}
    real = fold.apply

    def apply(*args, **kwargs):
        calls["n"] += 1
        if calls["limit"] is not None and calls["n"] > calls["limit"]:
            raise Budget(f"more than {calls['limit']} entries folded")
        return real(*args, **kwargs)

    monkeypatch.setattr(fold, "apply", apply)
    return calls


def undo_cycles(client, cycles):
    """Each cycle: the seat to act writes a note, takes it back, then rolls; each undo
    goes back to the step just after the previous cycle's, so on a fold that refolds
    to answer an undo, every undo re-runs all the earlier ones."""
    g = GameHandle(client, options={"rounds": 50})
    point = g.act(0, "roll").json["seq"]
    for _ in range(cycles):
        seat = g.meta()["to_act"][0]
        assert g.act(seat, "note", {"text": "a"}).status_code == 201
        assert client.post(g.url("/undo"), json={"to_seq": point}, headers=g.seat(seat)).json["status"] == "done"
        point = g.act(seat, "roll").json["seq"]
    return g


def test_the_offline_fold_of_many_undos_is_linear(client, services, counted):
    g = undo_cycles(client, UNDOS)
    log = g.events(g.referee)
    counted["n"], counted["limit"] = 0, 2 * len(log)
    final = InMemoryHistory(log, services.log.seed(g.id), every=1000).final()
    assert final["seq"] == len(log) and counted["n"] <= 2 * len(log)


def test_a_cold_past_state_of_a_game_with_many_undos_is_linear(client, redis_client, counted):
    """A worker without snapshots (the worst case of ``?at=``) folds each entry once."""
    g = undo_cycles(client, UNDOS)
    seq = g.meta()["seq"]
    cold = services_over(redis_client, snapshot_every=10**9)
    counted["n"], counted["limit"] = 0, 2 * seq
    assert cold.log.state_at(g.id, seq - 1)["seq"] == seq - 1
    assert counted["n"] <= 2 * seq


def test_an_undo_to_a_step_that_is_not_in_the_history_does_not_fold(client, services):
    g = undo_cycles(client, 2)
    log = g.events(g.referee)
    log[-2]["payload"]["to_seq"] = 3  # the note the first undo took back
    log = log[:-1]
    with pytest.raises(fold.FoldError):
        InMemoryHistory(log, services.log.seed(g.id)).final()


def undo_windows(client, windows, undos):
    """Undos whose targets lie one snapshot window back, window after window (the app's
    snapshots come every 10 entries): each window's seat takes back ``undos`` notes to the
    roll that ended the window before, then rolls near the window's end. A fold that
    answers such an undo by refolding from the earlier snapshot, remembering nothing,
    re-runs the earlier window's undos each time: its cost multiplies per window."""
    g = GameHandle(client, options={"rounds": 50})
    while g.meta()["seq"] < 9:
        g.act(g.meta()["to_act"][0], "roll")
    point = g.meta()["seq"]
    for _ in range(windows):
        seat = g.meta()["to_act"][0]
        for _ in range(undos):
            assert g.act(seat, "note", {"text": "a"}).status_code == 201
            assert client.post(g.url("/undo"), json={"to_seq": point}, headers=g.seat(seat)).json["status"] == "done"
        while (g.meta()["seq"] + 1) % 10 != 9:
            assert g.act(seat, "note", {"text": "b"}).status_code == 201
        point = g.act(seat, "roll").json["seq"]
    return g


def test_undos_across_snapshot_windows_fold_each_entry_once(client, redis_client, counted):
    """Trust round three, 1: with 4 undos per window over 6 windows, the run that writes the
    game folds each entry a bounded number of times, and every past view of a cold worker
    (the replay page, a worker's first read, the sweeper after a restart) folds one
    snapshot window at most: each undo's target was stored as a snapshot when first folded."""
    counted["n"] = 0
    g = undo_windows(client, windows=6, undos=4)
    seq = g.meta()["seq"]
    assert counted["n"] <= 3 * seq, "writing the game refolded earlier windows"
    for at in range(seq, 0, -1):
        cold = services_over(redis_client, snapshot_every=10)
        counted["n"], counted["limit"] = 0, 10  # one window at most: each undo's target is a snapshot
        assert cold.log.state_at(g.id, at)["seq"] == at
    counted["n"], counted["limit"] = 0, 10
    fresh = services_over(redis_client, snapshot_every=10)
    assert fresh.log.state(g.id)["seq"] == seq


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.one_of(st.just(("roll", 0)), st.just(("note", 0)), st.tuples(st.just("undo"), st.integers(-8, 40))),
        min_size=5,
        max_size=120,
    )
)
def test_refold_cost_is_linear_in_the_log_for_any_mix_of_undos(client, redis_client, counted, ops):
    """Whatever the mix of rolls, notes, undos taken at once and undos approved by the
    other seat, to any step of the history: writing the log and every cold past state
    fold each entry a bounded number of times."""
    counted["n"], counted["limit"] = 0, None
    g = GameHandle(client, options={"rounds": 50})
    for kind, pick in ops:
        meta = g.meta()
        if meta["status"] != "active":
            break
        seat = meta["to_act"][0]
        if kind != "undo":
            g.act(seat, kind, {"text": "a"} if kind == "note" else {})
            continue
        points = [1] + [m["seq"] for m in meta["moves"]]
        target = points[pick % len(points)]  # from the start, or (pick < 0) from the most recent
        answer = client.post(g.url("/undo"), json={"to_seq": target}, headers=g.seat(seat)).json
        if answer.get("status") == "requested":
            other = 1 - seat
            client.post(g.url(f"/undo/{answer['request_id']}/approve"), headers=g.seat(other))
    seq = g.meta()["seq"]
    assert counted["n"] <= 3 * seq
    cold = services_over(redis_client, snapshot_every=10)
    for at in range(seq, 0, -1):
        counted["n"], counted["limit"] = 0, 2 * seq
        assert cold.log.state_at(g.id, at)["seq"] == at


def test_an_undo_within_its_own_window_stores_no_snapshot_of_its_target(client, redis_client):
    """Only a target before the snapshot a cold fold of the undo starts from is worth a
    snapshot of its own; the other undos (nearly all of them) write nothing more."""
    g = undo_cycles(client, 3)  # seq 2..10: every target lies in the undo's own window
    snapshots = [k for k in redis_client.keys(f"*{g.id}*") if "snap" in k]
    stored = {int(f) for key in snapshots for f in redis_client.hkeys(key)}
    assert all(seq % 10 == 0 for seq in stored), stored
