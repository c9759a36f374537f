"""Fair clocks: no clock runs before a seat's first move (a seat that never moves cancels
the game, unrated); the time the service was down is credited, not charged; maintenance
holds every running clock. All as entries, so verify folds what the server showed."""

from __future__ import annotations

import time

from projections import ratings
from tests.accounts.helpers import auth, bound_game, new_account, roll_out
from tests.platform.helpers import GameHandle


def stop(client, g):
    """End a clocked game, so no other test's clock sweep finds it running."""
    if g.meta()["status"] != "finished":
        client.post(g.url("/referee/forfeit"), json={"seat": 0, "reason": "end of test"}, headers=g.ref())


def verified(client, g):
    report = client.post("/api/verify", data=g.export()).json
    assert report["ok"], report
    return report


def started(client, base=60.0, first_move=None):
    """A two-seat toy game whose seats have both made their (untimed) first move."""
    clock = {"base": base, "increment": 0} | ({"first_move": first_move} if first_move else {})
    g = GameHandle(client, options={"rounds": 5}, clock=clock)
    assert g.act(0, "roll").status_code == 201
    assert g.act(1, "roll").status_code == 201
    return g


def test_no_clock_runs_before_a_seats_first_move(client, services):
    g = GameHandle(client, clock={"base": 5, "increment": 2, "first_move": 60})
    meta = g.meta()["clocks"]
    assert meta["running"] == [0] and meta["moved"] == [] and meta["first_move"] == 60
    assert services.clocks.expire(now=meta["since"] + 30) == []  # far past the 5 s clock
    time.sleep(0.3)
    assert g.act(0, "roll").status_code == 201
    clocks = g.meta()["clocks"]
    assert clocks["remaining"] == [5.0, 5.0], "the first move is untimed and earns no increment"
    assert clocks["opening"][0] < 60 and clocks["running"] == [1]
    time.sleep(0.3)
    assert g.act(1, "roll").status_code == 201
    clocks = g.meta()["clocks"]
    assert clocks["remaining"] == [5.0, 5.0] and clocks["moved"] == [0, 1] and clocks["running"] == [0]
    time.sleep(0.3)
    assert g.act(0, "roll").status_code == 201  # from here the clocks run, with the increment
    remaining = g.meta()["clocks"]["remaining"]
    assert 6.5 < remaining[0] < 6.8 and remaining[1] == 5.0
    stop(client, g)
    verified(client, g)


def test_the_second_seat_that_never_moves_cancels_the_game_unrated(client, services):
    g = GameHandle(client, clock={"base": 5, "increment": 0, "first_move": 20})
    assert g.act(0, "roll").status_code == 201
    since = g.meta()["clocks"]["since"]
    assert services.clocks.expire(now=since + 19) == []
    assert g.id in services.clocks.expire(now=since + 21)
    meta = g.meta()
    assert meta["status"] == "finished" and meta["result"]["cancelled"] is True
    assert meta["result"]["forfeited"] == [] and meta["result"]["ranking"] == [1, 1]
    assert [e["type"] for e in g.events()][-2:] == ["clock.cancelled", "game.finished"]
    p = services.log.state(g.id)
    assert not ratings.is_rateable({**p, "accounts": {"0": "x", "1": "y"}})
    r = g.act(1, "roll")
    assert r.status_code == 409, r.json
    verified(client, g)


def test_the_first_move_setting_is_checked(client):
    for bad in (0, -1, 86401, "10", None):
        r = client.post(
            "/api/games", json={"game": "toy", "seats": ["a", "b"], "clock": {"base": 5, "first_move": bad}}
        )
        assert r.status_code == 400 and r.json["error"]["code"] == "bad_request", (bad, r.json)


def test_an_outage_is_credited_and_never_forfeits(client, services):
    g = started(client, base=2.0)
    time.sleep(0.3)
    services.schedules.heartbeat(time.time())  # the last sweep before every process stopped
    time.sleep(2.2)  # the outage: longer than the seat's whole clock
    credited = services.clocks.credit_outage(after=1.0)
    assert 2.1 < credited[g.id] < 3.0
    assert services.clocks.expire() == []
    entry = g.events()[-1]
    assert entry["type"] == "clock.credited" and entry["payload"]["reason"] == "outage"
    meta = g.meta()
    assert meta["status"] == "active" and 1.4 < meta["clocks"]["remaining"][0] < 1.8, meta["clocks"]
    again = services.clocks.credit_outage(after=1.0)  # a second worker starting with it
    assert g.id not in again and [e["type"] for e in g.events()].count("clock.credited") == 1
    stop(client, g)
    verified(client, g)


def test_a_move_right_after_a_storage_outage_is_credited_before_any_flag_falls(client, services):
    """The sweeper's sweeps failed (the storage was unreachable) and it has not looked
    again yet when the seat on the move comes back: the move credits the outage first and
    is taken, rather than forfeiting the seat for the time nobody could move."""
    g = started(client, base=2.0)
    services.schedules.heartbeat(time.time())  # the last sweep before the storage went away
    services.clocks.owe_credit(after=1.0)  # what the sweeper does when a sweep fails
    time.sleep(2.5)  # the outage: longer than the seat's whole clock
    seat = g.meta()["to_act"][0]
    try:
        moved = g.act(seat, "roll")
        assert moved.status_code == 201, moved.json
        types = [e["type"] for e in g.events()]
        assert "clock.credited" in types and "clock.expired" not in types, types
        assert services.clocks.pay_owed_credit() == {}  # paid once
    finally:
        services.clocks.pay_owed_credit()
        stop(client, g)
    verified(client, g)


def test_a_fresh_heartbeat_credits_nothing(client, services):
    g = started(client)
    services.schedules.heartbeat(time.time())
    assert services.clocks.credit_outage(after=3.0) == {}
    assert "clock.credited" not in [e["type"] for e in g.events()]
    stop(client, g)


def test_maintenance_holds_every_running_clock_and_moves_stay_possible(client, services):
    g = started(client, base=3.0)
    paused = GameHandle(client, clock={"base": 3, "increment": 0})
    client.post(paused.url("/referee/pause"), json={}, headers=paused.ref())
    try:
        held = services.clocks.hold("upgrade")
        assert g.id in held and paused.id not in held and services.schedules.in_maintenance()
        meta = g.meta()["clocks"]
        assert meta["held"] is True and meta["running"] == []
        assert g.events()[-1]["type"] == "clock.paused"
        assert services.clocks.expire(now=time.time() + 3600) == []
        assert g.act(0, "roll").status_code == 201  # a move is still taken; no clock starts
        assert g.meta()["clocks"]["running"] == []
        before = g.meta()["clocks"]["remaining"]
        late = GameHandle(client, clock={"base": 3, "increment": 0})  # created during maintenance: held too
        assert late.meta()["clocks"]["held"] is True and late.meta()["clocks"]["running"] == []
        time.sleep(0.5)
    finally:
        released = services.clocks.release("upgrade done")
    assert g.id in released and late.id in released and not services.schedules.in_maintenance()
    assert late.meta()["clocks"]["running"] == [0]
    stop(client, late)
    meta = g.meta()["clocks"]
    assert meta["held"] is False and meta["running"] == [1] and meta["remaining"] == before
    assert [e["type"] for e in g.events()][-1] == "clock.resumed"
    assert services.clocks.release("twice") == []
    stop(client, g)
    verified(client, g)
    stop(client, paused)


def test_the_referee_cancels_a_clock_forfeit_the_outage_caused(client, services):
    """A forfeit the service's own stop caused (say the server ran without its sweeper,
    so no heartbeat, no credit): the referee's signed correction with ``cancel`` turns it
    into a cancelled game, and the rating it gave is taken back out."""
    accounts = [new_account(client, "outage") for _ in range(2)]
    created = bound_game(client, [s for _, s in accounts], options={"rounds": 5}, clock={"base": 5})
    gid, referee = created["id"], auth(created["referee_token"])
    for seat in created["seats"]:
        moved = client.post(
            f"/api/games/{gid}/actions", json={"type": "roll", "payload": {}}, headers=auth(seat["token"])
        )
        assert moved.status_code == 201, moved.get_json()
    assert gid in services.clocks.expire(now=time.time() + 3600)
    assert client.get(f"/api/games/{gid}").get_json()["result"]["forfeited"] == [0]
    assert gid in client.get("/api/ratings").get_json()["games"]

    body = {"adjustments": [], "reason": "the server was down for a minute", "cancel": True}
    fixed = client.post(f"/api/games/{gid}/referee/correct", json=body, headers=referee)
    assert fixed.status_code == 201, fixed.get_json()
    result = client.get(f"/api/games/{gid}").get_json()["result"]
    assert result["cancelled"] is True and result["forfeited"] == []
    assert gid not in client.get("/api/ratings").get_json()["games"]
    again = client.post(f"/api/games/{gid}/referee/correct", json=body, headers=referee)
    assert again.status_code == 409 and again.get_json()["error"]["code"] == "unchanged_result"
    report = client.post("/api/verify", data=client.get(f"/api/games/{gid}/export").get_data(as_text=True)).json
    assert report["ok"] and report["checks"]["signature"] == "ok", report


def test_only_a_game_a_clock_ended_is_cancelled_after_its_end(client):
    accounts = [new_account(client, "played") for _ in range(2)]
    created = bound_game(client, [s for _, s in accounts], options={"rounds": 1})
    before = roll_out(client, created)
    body = {"adjustments": [], "reason": "no", "cancel": True}
    r = client.post(f"/api/games/{created['id']}/referee/correct", json=body, headers=auth(created["referee_token"]))
    assert r.status_code == 409 and r.get_json()["error"]["code"] == "not_a_clock_forfeit"
    assert client.get(f"/api/games/{created['id']}").get_json()["seq"] == before["seq"]


def dispute(client, g, seat):
    r = client.post(
        g.url("/annotations"), json={"seq": 1, "text": "he moved my piece", "kind": "dispute"}, headers=g.seat(seat)
    )
    assert r.status_code == 201, r.json
    return r.json["id"]


def test_a_dispute_stops_the_clocks_until_the_referee_settles_it_where_the_clock_says_so(client, services):
    g = GameHandle(client, options={"rounds": 5}, clock={"base": 3, "pause_on_dispute": True})
    g.act(0, "roll")
    g.act(1, "roll")
    raised = dispute(client, g, 1)
    assert g.events()[-1]["type"] == "clock.paused" and g.events()[-1]["payload"]["dispute"] == raised
    clocks = g.meta()["clocks"]
    assert clocks["running"] == [] and clocks["disputes"] == [raised]
    assert services.clocks.expire(now=time.time() + 3600) == []
    before = clocks["remaining"]
    time.sleep(0.3)
    settled = client.post(g.url("/referee/dismiss"), json={"dispute": raised, "reason": "no"}, headers=g.ref())
    assert settled.status_code == 201, settled.json
    clocks = g.meta()["clocks"]
    assert clocks["running"] == [0] and clocks["disputes"] == [] and clocks["remaining"] == before
    stop(client, g)
    verified(client, g)


def test_without_the_setting_a_dispute_leaves_the_clocks_running(client):
    g = started(client)
    dispute(client, g, 1)
    assert g.events()[-1]["type"] == "dispute.raised" and g.meta()["clocks"]["running"] == [0]
    stop(client, g)
