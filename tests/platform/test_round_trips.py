"""What one action costs in Redis: the commands the app sends, watched with MONITOR on the
real Redis (a script's own calls are reported as ``lua`` and are not round trips)."""

from __future__ import annotations

import json
import time
import uuid

from projections.code_digest import fold_version
from service.adapters import keys
from service.adapters.connection import connect
from service.app import create_app
from service.http import live
from service.http.blueprints import schema_instance
from service.http.schemas import ActionSchema
from tests.conftest import TOY
from tests.platform.helpers import GameHandle
from tests.services import services_over

HOUSEKEEPING = {"PING", "HELLO", "CLIENT", "SELECT", "AUTH"}  # a connection's own set-up and health checks


def commands_during(redis_client, fn) -> list[str]:
    """The command names clients sent while ``fn`` ran, in order (set-up and health
    checks of connections aside)."""
    marker = f"end-{uuid.uuid4().hex}"
    sent = []
    with redis_client.monitor() as monitor:
        fn()
        redis_client.echo(marker)
        while True:
            cmd = monitor.next_command()
            if marker in cmd["command"]:
                return sent
            name = cmd["command"].split()[0].upper()
            if cmd["client_type"] != "lua" and name not in HOUSEKEEPING:
                sent.append(name)


def fresh_app(redis_url, every=10):
    """A second app on the same Redis: another worker, with its own caches."""
    return create_app({"REDIS_URL": redis_url, "CLOCK_SWEEP_SECONDS": 0, "TESTING": True, "SNAPSHOT_EVERY": every})


def test_a_move_costs_one_round_trip(client, redis_client):
    g = GameHandle(client, options={"rounds": 5})
    g.act(0, "roll")
    g.act(1, "roll")  # both tokens now known to this worker
    sent = commands_during(redis_client, lambda: g.act(0, "roll", action_id="one-trip"))
    assert sent == ["EVALSHA"]
    assert g.meta()["seq"] == 4


def test_a_conflict_catches_up_from_the_scripts_answer(redis_url, redis_client):
    one, two = fresh_app(redis_url).test_client(), fresh_app(redis_url).test_client()
    g = GameHandle(one, options={"rounds": 5})
    other = GameHandle.__new__(GameHandle)
    other.__dict__.update(g.__dict__, client=two)
    assert other.act(0, "note", {"text": "a"}).status_code == 201  # the second worker knows the game at seq 2
    assert g.act(0, "note", {"text": "b"}).status_code == 201  # the first moves on to seq 3
    # The second worker's cache is at seq 2: its append conflicts and the answer carries
    # entry 3, folded in before the retry; no read of the log in between.
    answer = {}
    sent = commands_during(redis_client, lambda: answer.update(r=other.act(0, "note", {"text": "a"})))
    assert sent == ["EVALSHA", "EVALSHA"]
    assert (answer["r"].status_code, answer["r"].json["seq"]) == (201, 4)
    assert [e["seq"] for e in g.events(g.referee)] == [1, 2, 3, 4]


def test_a_refusal_on_a_stale_cache_is_checked_on_the_latest_state(redis_url):
    one, two = fresh_app(redis_url).test_client(), fresh_app(redis_url).test_client()
    g = GameHandle(one, options={"rounds": 5})
    other = GameHandle.__new__(GameHandle)
    other.__dict__.update(g.__dict__, client=two)
    assert other.act(0, "roll").status_code == 201  # worker two: seat 1 to act
    assert g.act(1, "roll").status_code == 201  # worker one (it catches up): seat 0 to act
    r = other.act(0, "roll")  # worker two still thinks seat 1 is to act
    assert (r.status_code, r.json["seq"]) == (201, 4)
    assert other.act(0, "roll").status_code == 422  # and a real refusal stays one


def test_a_retry_refused_on_the_new_state_answers_the_first_result(client):
    g = GameHandle(client, options={"rounds": 5})
    first = g.act(0, "roll", action_id="again")
    again = g.act(0, "roll", action_id="again")  # seat 0 is no longer to act
    assert (first.status_code, again.status_code, again.json["seq"]) == (201, 200, 2)


def test_an_unknown_game_is_found_without_reading_a_log(client, redis_client):
    answers = []
    sent = commands_during(
        redis_client,
        lambda: answers.append(
            client.post("/api/games/nosuchgame/actions", json={"type": "roll"}, headers={"Authorization": "Bearer x"})
        ),
    )
    assert answers[0].status_code == 404
    assert not {"XRANGE", "XREVRANGE", "EVALSHA"} & set(sent), sent


def test_a_token_is_resolved_once_per_worker(client, redis_client):
    g = GameHandle(client, options={"rounds": 5})
    g.act(0, "roll")
    sent = commands_during(redis_client, lambda: [g.act(1, "roll"), g.act(0, "roll")])
    assert sent.count("HGET") == 1  # seat 1's token; seat 0's was resolved before


def test_a_cold_load_is_one_round_trip(client, redis_url, redis_client):
    g = GameHandle(client, options={"rounds": 20})
    for _ in range(25):
        g.play_first()
    services_over(redis_client, snapshot_every=10).log.state(
        g.id
    )  # Redis has the script, as it does once any worker ran
    cold = services_over(redis_client, snapshot_every=10)
    found = {}
    sent = commands_during(redis_client, lambda: found.update(p=cold.log.state(g.id)))
    # the first entry names the game's type (the snapshots' version), then one script
    assert sent == ["XRANGE", "EVALSHA"]
    assert found["p"]["seq"] == 26 and found["p"]["head"] == g.events(g.referee)[-1]["hash"]


def test_snapshots_are_written_while_a_game_is_played(app, client, redis_client):
    g = GameHandle(client, options={"rounds": 11})
    for _ in range(21):  # to seq 22; the app snapshots every 10 entries
        assert g.play_first().status_code == 201
    stored = redis_client.hgetall(keys.snapshots(g.id, fold_version(TOY)))
    assert sorted(map(int, stored)) == [10, 20]
    cold = services_over(redis_client, snapshot_every=10**9)  # folds from the log alone
    for seq in (10, 20):
        assert json.loads(stored[str(seq)]) == cold.log.state_at(g.id, seq)


def test_the_append_writes_the_lobby_line_in_the_games_slot(client, redis_client):
    g = GameHandle(client, options={"rounds": 1})
    g.play_first()
    line = json.loads(redis_client.get(keys.summary(g.id)))
    assert (line["seq"], line["to_act"], line["status"]) == (2, [1], "active")
    g.play_first()
    line = json.loads(redis_client.get(keys.summary(g.id)))
    assert (line["status"], line["seq"]) == ("finished", 4)
    listed = [s for s in client.get("/api/games?limit=100").json["games"] if s["id"] == g.id]
    assert listed == [line]


def test_schemas_are_built_once():
    from service.services.games import action_schema

    assert schema_instance(ActionSchema) is schema_instance(ActionSchema)
    assert action_schema("toy", "play") is action_schema("toy", "play")
    assert action_schema("toy", "nope") is None


def test_unknown_action_types_are_not_remembered(client):
    """The per-worker schema cache holds the games' own actions only: a caller posting
    a thousand made-up types (any seat of any game it created) must not grow it."""
    from service.services import games

    cached = getattr(games, "_built_schema", games.action_schema)  # the cache of built schemas

    g = GameHandle(client)
    g.act(0, "play", {"card": g.legal(0)[0]["payload"]["card"]})
    before = cached.cache_info().currsize
    for i in range(1000):
        r = g.act(1, f"made-up-{i}")
        assert r.status_code == 400 and r.json["error"]["code"] == "unknown_action"
    assert cached.cache_info().currsize == before


def test_a_live_tail_reads_each_entry_once(client, redis_url, redis_client):
    """Another worker's tail of a watched game: the move's script, perhaps the tail's
    next XREAD, and nothing else; the state after the entry is folded from what XREAD
    gave, with no read of the log."""
    g = GameHandle(client, options={"rounds": 5})
    g.act(0, "roll")
    g.act(1, "roll")  # both tokens known to this worker
    watcher = services_over(redis_client, blocking=connect(redis_url, socket_timeout=30))
    tails = live.LiveTails(watcher.log, watcher.games)
    with tails.watch(g.id) as tail:
        seq = tail.seq
        deadline = time.monotonic() + 30
        while tail.latest is None and time.monotonic() < deadline:  # the tail is blocked in XREAD
            g.act(0, "note", {"text": "warm"})
            tail.after(seq, timeout=5)
            seq = tail.seq
        sent = commands_during(redis_client, lambda: (g.act(0, "roll"), tail.after(seq, timeout=30)))
        assert tail.seq == seq + 1 and tail.latest is not None and tail.latest.state["seq"] == seq + 1
    assert set(sent) <= {"EVALSHA", "XREAD"} and sent.count("XREAD") <= 1, sent


def test_tailed_entries_that_do_not_meet_the_cache_are_read_again(client, redis_client):
    """A batch that does not chain onto the worker's cached head (a log that lost and
    rewrote entries, or a gap) is not folded onto it: the state comes from the log."""
    g = GameHandle(client, options={"rounds": 5})
    g.act(0, "roll")
    watcher = services_over(redis_client)
    cached = watcher.log.state(g.id)
    g.act(1, "roll")
    g.act(0, "roll")
    entries = watcher.log.read(g.id, after=cached["seq"])
    forged = [{**entries[0], "prev": "not-the-head"}]
    sent = commands_during(redis_client, lambda: watcher.log.followed(g.id, forged))
    assert "XRANGE" in sent  # read again, not folded onto the cache
    assert watcher.log.cached(g.id)["head"] == entries[-1]["hash"]
    # entries the cache now holds (a worker's own move, tailed after its answer): no read
    found = {}
    sent = commands_during(redis_client, lambda: found.update(p=watcher.log.followed(g.id, entries[1:])))
    assert sent == [] and found["p"]["seq"] == entries[-1]["seq"]
