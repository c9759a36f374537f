"""One contract for the event store, run against the embedded Redis, a standalone
redis-server and a real 3-master Redis Cluster started on loopback ports."""

from __future__ import annotations

import threading
import uuid

import pytest

from events import keys
from events.connection import connect
from events.envelope import seal
from events.store import RedisEventStore
from tests import redis_servers

pytestmark = pytest.mark.xdist_group("redis-servers")


def envelopes(start_seq: int, count: int, prev: str = "") -> list[dict]:
    out = []
    for seq in range(start_seq, start_seq + count):
        e = seal(seq, "toy.roll", {"seat": 0}, {"n": seq}, prev, None, "2026-01-01T00:00:00Z")
        out.append(e)
        prev = e["hash"]
    return out


class StoreContract:
    """Every backend of the store keeps these promises."""

    @pytest.fixture()
    def store(self, url):
        return RedisEventStore(connect(url))

    @pytest.fixture()
    def gid(self):
        return uuid.uuid4().hex

    def test_appends_then_reads_in_order_with_ids_0_seq(self, store, gid):
        batch = envelopes(1, 3)
        assert store.append(keys.events(gid), keys.idempotency(gid), 0, None, batch).status == "ok"
        assert store.read(keys.events(gid)) == batch
        assert [i for i, _ in store.redis.xrange(keys.events(gid))] == ["0-1", "0-2", "0-3"]
        assert store.last_seq(keys.events(gid)) == 3

    def test_reads_a_range(self, store, gid):
        store.append(keys.events(gid), keys.idempotency(gid), 0, None, envelopes(1, 5))
        assert [e["seq"] for e in store.read(keys.events(gid), after=2, upto=4)] == [3, 4]

    def test_a_stale_expected_seq_is_a_conflict_and_writes_nothing(self, store, gid):
        store.append(keys.events(gid), keys.idempotency(gid), 0, None, envelopes(1, 1))
        result = store.append(keys.events(gid), keys.idempotency(gid), 0, None, envelopes(1, 1))
        assert (result.status, result.seq) == ("conflict", 1)
        assert store.last_seq(keys.events(gid)) == 1

    def test_entries_chained_to_another_head_at_the_expected_seq_are_a_conflict(self, store, gid):
        """The seq matches but the last entry is not the one the new entries chain to (the
        log lost entries and was written again up to that seq): nothing is written."""
        first = envelopes(1, 2)
        store.append(keys.events(gid), keys.idempotency(gid), 0, None, first)
        elsewhere = envelopes(3, 1, prev="0" * 64)
        result = store.append(keys.events(gid), keys.idempotency(gid), 2, None, elsewhere)
        assert (result.status, result.seq, result.missed) == ("conflict", 2, [])
        assert store.read(keys.events(gid)) == first
        chained = envelopes(3, 1, prev=first[-1]["hash"])
        assert store.append(keys.events(gid), keys.idempotency(gid), 2, None, chained).status == "ok"

    def test_a_repeated_action_id_returns_the_first_seq(self, store, gid):
        first = store.append(keys.events(gid), keys.idempotency(gid), 0, "a-1", envelopes(1, 2))
        again = store.append(keys.events(gid), keys.idempotency(gid), 2, "a-1", envelopes(3, 1))
        assert (first.status, again.status, again.seq) == ("ok", "duplicate", 1)
        assert store.last_seq(keys.events(gid)) == 2

    def test_racing_appends_on_one_seq_have_exactly_one_winner(self, store, gid):
        results = []
        barrier = threading.Barrier(8)

        def racer():
            barrier.wait()
            results.append(store.append(keys.events(gid), keys.idempotency(gid), 0, None, envelopes(1, 1)).status)

        threads = [threading.Thread(target=racer) for _ in range(8)]
        [t.start() for t in threads]
        [t.join() for t in threads]
        assert sorted(results) == ["conflict"] * 7 + ["ok"]
        assert store.last_seq(keys.events(gid)) == 1

    def test_tail_returns_new_entries(self, store, gid):
        store.append(keys.events(gid), keys.idempotency(gid), 0, None, envelopes(1, 1))
        timer = threading.Timer(
            0.2,
            lambda: store.append(
                keys.events(gid),
                keys.idempotency(gid),
                1,
                None,
                envelopes(2, 1, store.read(keys.events(gid))[0]["hash"]),
            ),
        )
        timer.start()
        found = store.tail(keys.events(gid), 1, block_ms=5000)
        timer.join()
        assert [e["seq"] for e in found] == [2]

    def test_tail_times_out_empty(self, store, gid):
        assert store.tail(keys.events(gid), 0, block_ms=50) == []


class TestEmbeddedRedis(StoreContract):
    @pytest.fixture(scope="class")
    @classmethod
    def url(cls, redis_url):
        return redis_url


@pytest.mark.skipif(not redis_servers.available(), reason="redis-server is not installed")
class TestStandaloneRedis(StoreContract):
    @pytest.fixture(scope="class")
    @classmethod
    def url(cls, tmp_path_factory):
        proc, url = redis_servers.standalone(tmp_path_factory.mktemp("standalone"))
        yield url
        redis_servers.stop(proc)


@pytest.mark.skipif(not redis_servers.available(), reason="redis-server is not installed")
class TestRedisCluster(StoreContract):
    @pytest.fixture(scope="class")
    @classmethod
    def url(cls, tmp_path_factory):
        procs, url = redis_servers.cluster(tmp_path_factory.mktemp("cluster"))
        yield url
        redis_servers.stop(procs)

    def test_a_games_keys_share_one_slot(self, url):
        client = connect(url)
        gid = "abc"
        slots = {
            client.keyslot(k)
            for k in (
                keys.events(gid),
                keys.idempotency(gid),
                keys.seed(gid),
                keys.tokens(gid),
                keys.notes(gid),
                keys.snapshots(gid, "1"),
            )
        }
        assert len(slots) == 1

    def test_the_whole_api_runs_on_the_cluster(self, url):
        from service.app import create_app
        from tests.platform.helpers import GameHandle

        client = create_app({"REDIS_URL": url, "CLOCK_SWEEP_SECONDS": 0, "SNAPSHOT_EVERY": 3}).test_client()
        g = GameHandle(client, options={"rounds": 2})
        for _ in range(4):
            assert g.play_first().status_code == 201
        assert g.meta()["status"] == "finished"
        r = client.post("/api/verify", data=g.export())
        assert r.json["ok"], r.json
