"""Undo costs linear time: folding a log with U undos applies each entry a bounded
number of times, offline (verify) and live (the projector answering ?at=)."""

from __future__ import annotations

import pytest

from projections import fold
from projections.fold import InMemoryHistory
from tests.platform.helpers import GameHandle

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


def test_the_offline_fold_of_many_undos_is_linear(client, platform, counted):
    g = undo_cycles(client, UNDOS)
    log = g.events(g.referee)
    counted["n"], counted["limit"] = 0, 2 * len(log)
    final = InMemoryHistory(log, platform.projector.seed(g.id), every=1000).final()
    assert final["seq"] == len(log) and counted["n"] <= 2 * len(log)


def test_a_cold_past_state_of_a_game_with_many_undos_is_linear(client, redis_client, counted):
    """A worker without snapshots (the worst case of ``?at=``) folds each entry once."""
    from service.services.games import Platform

    g = undo_cycles(client, UNDOS)
    seq = g.meta()["seq"]
    cold = Platform(redis_client, snapshot_every=10**9)
    counted["n"], counted["limit"] = 0, 2 * seq
    assert cold.projector.state_at(g.id, seq - 1)["seq"] == seq - 1
    assert counted["n"] <= 2 * seq


def test_an_undo_to_a_step_that_is_not_in_the_history_does_not_fold(client, platform):
    g = undo_cycles(client, 2)
    log = g.events(g.referee)
    log[-2]["payload"]["to_seq"] = 3  # the note the first undo took back
    log = log[:-1]
    with pytest.raises(fold.FoldError):
        InMemoryHistory(log, platform.projector.seed(g.id)).final()
