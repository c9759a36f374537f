"""One contract for the event store, run against memory, the embedded Redis, a standalone
redis-server and a real 3-master Redis Cluster started on loopback ports."""

from __future__ import annotations

import threading
import uuid

import pytest

from events.envelope import seal
from events.store import Extras, game_stream
from service.adapters import keys
from service.adapters.connection import connect
from service.adapters.event_store import RedisEventStore
from service.adapters.memory_store import InMemoryEventStore
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
        return game_stream(uuid.uuid4().hex)

    def test_appends_then_reads_in_order_with_ids_0_seq(self, store, gid):
        batch = envelopes(1, 3)
        assert store.append(gid, 0, None, batch).status == "ok"
        assert store.read(gid) == batch
        assert store.last_seq(gid) == 3 and store.exists(gid) and not store.exists(game_stream("none"))

    def test_reads_a_range(self, store, gid):
        store.append(gid, 0, None, envelopes(1, 5))
        assert [e["seq"] for e in store.read(gid, after=2, upto=4)] == [3, 4]

    def test_a_stale_expected_seq_is_a_conflict_and_writes_nothing(self, store, gid):
        store.append(gid, 0, None, envelopes(1, 1))
        result = store.append(gid, 0, None, envelopes(1, 1))
        assert (result.status, result.seq) == ("conflict", 1)
        assert store.last_seq(gid) == 1

    def test_entries_chained_to_another_head_at_the_expected_seq_are_a_conflict(self, store, gid):
        """The seq matches but the last entry is not the one the new entries chain to (the
        log lost entries and was written again up to that seq): nothing is written."""
        first = envelopes(1, 2)
        store.append(gid, 0, None, first)
        elsewhere = envelopes(3, 1, prev="0" * 64)
        result = store.append(gid, 2, None, elsewhere)
        assert (result.status, result.seq, result.missed) == ("conflict", 2, [])
        assert store.read(gid) == first
        chained = envelopes(3, 1, prev=first[-1]["hash"])
        assert store.append(gid, 2, None, chained).status == "ok"

    def test_a_repeated_action_id_returns_the_first_seq(self, store, gid):
        first = store.append(gid, 0, "a-1", envelopes(1, 2))
        again = store.append(gid, 2, "a-1", envelopes(3, 1))
        assert (first.status, again.status, again.seq) == ("ok", "duplicate", 1)
        assert store.last_seq(gid) == 2

    def test_racing_appends_on_one_seq_have_exactly_one_winner(self, store, gid):
        results = []
        barrier = threading.Barrier(8)

        def racer():
            barrier.wait()
            results.append(store.append(gid, 0, None, envelopes(1, 1)).status)

        threads = [threading.Thread(target=racer) for _ in range(8)]
        [t.start() for t in threads]
        [t.join() for t in threads]
        assert sorted(results) == ["conflict"] * 7 + ["ok"]
        assert store.last_seq(gid) == 1

    def test_tail_returns_new_entries(self, store, gid):
        store.append(gid, 0, None, envelopes(1, 1))
        timer = threading.Timer(
            0.2,
            lambda: store.append(
                gid,
                1,
                None,
                envelopes(2, 1, store.read(gid)[0]["hash"]),
            ),
        )
        timer.start()
        found = store.tail(gid, 1, block_ms=5000)
        timer.join()
        assert [e["seq"] for e in found] == [2]

    def test_tail_times_out_empty(self, store, gid):
        assert store.tail(gid, 0, block_ms=50) == []

    def test_the_extras_are_written_with_the_entries_and_a_load_starts_at_the_newest_snapshot(self, store, gid):
        batch = envelopes(1, 5)
        extras = Extras(summary='{"line": 1}', snapshot_version="v1", snapshot_seq=4, snapshot='{"at": 4}')
        assert store.append(gid, 0, None, batch, extras).status == "ok"
        assert store.summaries([gid, game_stream("none")]) == ['{"line": 1}', None]
        assert store.snapshot(gid, "v1", 4) == {"at": 4} and store.snapshot(gid, "v2", 4) is None
        store.keep_seed(gid, "s" * 64)
        loaded = store.load(gid, "v1", every=2)
        assert (loaded.last_seq, loaded.snapshot, [e["seq"] for e in loaded.entries]) == (5, {"at": 4}, [5])
        assert loaded.seed == "s" * 64
        assert store.load(gid, "v2", every=2).snapshot is None  # another code's snapshots are not read
        assert store.load(game_stream("none"), "v1", every=2).last_seq == 0

    def test_a_kept_snapshot_is_never_replaced_and_a_seed_can_be_dropped(self, store, gid):
        store.keep_snapshot(gid, "v1", 10, {"first": True})
        store.keep_snapshot(gid, "v1", 10, {"first": False})
        assert store.snapshot(gid, "v1", 10) == {"first": True}
        assert store.snapshot_count(gid, "v1") == 1 and store.snapshot_count(gid, "v2") == 0
        store.keep_seed(gid, "seed")
        assert store.seed(gid) == "seed"
        store.drop_seed(gid)
        assert store.seed(gid) is None
        store.keep_summary(gid, "line")
        assert store.summaries([gid]) == ["line"]
        store.ping()


class TestMemory(StoreContract):
    @pytest.fixture()
    def store(self):
        return InMemoryEventStore()


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
