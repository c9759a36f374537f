"""Turn-based clocks: days per move, renewed at each move, and a bank of vacation days
a seat draws on once a move's days are spent. Time is advanced by retiming the log's
entries and by the sweep's ``now``, never by sleeping."""

from __future__ import annotations

import time
from datetime import UTC, datetime

from projections.fold import DAY, InMemoryHistory
from tests.platform.helpers import GameHandle

TURNS = {"per_move_days": 2, "vacation_days": 3}


def at(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def retimed(log: list[dict], offsets: list[float]) -> list[dict]:
    """The log as if entry i had been written ``offsets[i]`` seconds after the first."""
    start = 1_800_000_000.0
    return [{**e, "ts": at(start + off)} for e, off in zip(log, offsets, strict=True)]


# Seat 0 rolls, seat 1 rolls, seat 0 writes a note: the log's entries 1 to 3.
OPENING = [(0, "roll", None), (1, "roll", None), (0, "note", {"text": "a"})]


def turn_based(client, moves: int = 0) -> GameHandle:
    """A turn-based toy game (ten rounds, so it outlasts the test) after ``moves`` of OPENING."""
    g = GameHandle(client, options={"rounds": 10}, clock=TURNS)
    for seat, action, payload in OPENING[:moves]:
        g.act(seat, action, payload)
    return g


def clocks_when(g: GameHandle, services, offsets: list[float]) -> dict:
    """The clocks folded from ``g``'s log as if entry i had been written ``offsets[i]``
    seconds after the first."""
    return InMemoryHistory(retimed(g.events(g.referee), offsets), services.log.seed(g.id)).final()["clocks"]


def stop(client, g):
    client.post(g.url("/referee/forfeit"), json={"seat": 0, "reason": "end of test"}, headers=g.ref())


def test_game_created_records_the_turn_based_clock_and_the_api_shows_it(client):
    g = turn_based(client)
    created = g.events(g.referee)[0]["payload"]["clock"]
    assert created["per_move_days"] == 2 and created["vacation_days"] == 3
    clocks = g.meta()["clocks"]
    assert clocks["per_move"] == 2 * DAY and clocks["vacation"] == [3 * DAY, 3 * DAY]
    assert clocks["first_move"] == 2 * DAY  # the first move has a move's days too
    stop(client, g)


def test_a_move_renews_its_days_and_only_an_awaited_seat_is_charged(client, services):
    g = turn_based(client, moves=3)
    # seat 0 took a day and a half for its third move; seat 1 was not awaited meanwhile
    clocks = clocks_when(g, services, [0, 3600, 7200, 7200 + 1.5 * DAY])
    assert clocks["remaining"][0] == 2 * DAY  # renewed by its move
    assert clocks["vacation"] == [3 * DAY, 3 * DAY]
    stop(client, g)


def test_a_late_move_draws_on_vacation_days(client, services):
    g = turn_based(client, moves=3)
    clocks = clocks_when(g, services, [0, 3600, 7200, 7200 + 2.5 * DAY])  # half a day past the move's two
    assert clocks["vacation"] == [2.5 * DAY, 3 * DAY]
    assert clocks["remaining"][0] == 2 * DAY
    stop(client, g)


def test_a_seat_out_of_days_and_vacation_forfeits(client, services):
    g = turn_based(client, moves=2)
    assert g.id not in services.clocks.expire(now=time.time() + 4.9 * DAY)  # vacation still holds it
    assert g.id in services.clocks.expire(now=time.time() + 5.1 * DAY)
    meta = g.meta()
    assert meta["status"] == "finished" and meta["result"]["forfeited"] == [0]


def test_a_seat_that_never_moves_cancels_the_game_after_a_moves_days(client, services):
    g = turn_based(client)
    assert g.id not in services.clocks.expire(now=time.time() + 1.9 * DAY)
    assert g.id in services.clocks.expire(now=time.time() + 2.1 * DAY)
    assert g.meta()["status"] == "finished"


def test_a_bad_turn_based_clock_is_refused_with_nothing_written(client):
    before = client.get("/api/games").json
    for clock in (
        {"per_move_days": 5},
        {"per_move_days": 2, "base": 60},
        {"per_move_days": 2, "vacation_days": -1},
        {"per_move_days": 2, "increment": 5},
        {"base": 60, "vacation_days": 3},
        {"per_move_days": "2"},
        {},
    ):
        r = client.post("/api/games", json={"game": "toy", "seats": ["a", "b"], "clock": clock})
        assert r.status_code == 400, (clock, r.json)
        assert r.json["error"]["details"]
    assert client.get("/api/games").json == before


def test_a_live_clock_folds_as_before(client):
    g = GameHandle(client, options={"rounds": 10}, clock={"base": 60, "increment": 5})
    clocks = g.meta()["clocks"]
    assert "vacation" not in clocks and "per_move" not in clocks and clocks["remaining"] == [60.0, 60.0]
    stop(client, g)
