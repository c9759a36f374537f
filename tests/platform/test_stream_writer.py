"""The one stream writer (events/writer.py): its loop on a small stream of its own over
an in-memory store, and its refusals as the API answers them."""

from __future__ import annotations

import pytest

from events.envelope import seal
from events.store import Extras, StreamId, game_stream
from events.writer import Busy, Head, StaleHead, Stream, StreamWriter
from service.adapters.memory_store import InMemoryEventStore
from tests.platform.helpers import GameHandle

COUNTER = StreamId("tournament", "counter")  # any stream id: the writer does not care which


class CountingStore(InMemoryEventStore):
    """The memory store, counting appends; ``before_append`` runs first (a rival)."""

    def __init__(self):
        super().__init__()
        self.before_append = None
        self.calls = 0

    def append(self, stream, expected_seq, action_id, envelopes, extras: Extras | None = None):
        self.calls += 1
        if self.before_append is not None:
            self.before_append()
        return super().append(stream, expected_seq, action_id, envelopes, extras)

    def log(self):
        return self.read(COUNTER)


class Refused(Exception):
    pass


def fold_counter(state, envelope):
    """A stream whose state is the sum of its entries' ``n``; a negative ``n`` is refused."""
    if envelope["type"] == "add" and envelope["payload"]["n"] < 0:
        raise Refused(envelope["seq"])
    return (state or 0) + envelope["payload"]["n"]


def latest(store):
    state = None
    entries = store.read(COUNTER)
    for e in entries:
        state = fold_counter(state, e)
    return Head(state, entries[-1]["seq"], entries[-1]["hash"]) if entries else Head(None)


def Counter(store, cached=None):
    """The counter stream: a sum over 10 is followed by a ``cap`` entry; ``cached`` stands
    in for a worker's cache that may be behind."""
    return Stream(
        id=COUNTER,
        head=latest(store) if cached is None else cached,
        fresh=cached is None,
        refold=lambda: latest(store),
        fold=fold_counter,
        follow=lambda state: ("cap", {"role": "system"}, {"n": 10 - state}) if state > 10 else None,
        refusals=(Refused,),
    )


def add(n):
    return lambda state: [("add", {"role": "system"}, {"n": n})]


def test_created_duplicate_and_noop():
    store = CountingStore()
    writer = StreamWriter(store)
    first = writer.write(Counter(store), add(3), action_id="a")
    assert (first.status, first.seq, first.state) == ("created", 1, 3)
    again = writer.write(Counter(store), add(4), action_id="a")
    assert (again.status, again.seq, again.state) == ("duplicate", 1, None)
    nothing = writer.write(Counter(store), lambda state: [])
    assert (nothing.status, nothing.seq, nothing.state) == ("noop", 1, 3)
    assert store.calls == 2 and [e["seq"] for e in store.log()] == [1]


def test_nothing_to_do_on_a_cached_state_is_confirmed_on_the_latest():
    store = CountingStore()
    writer = StreamWriter(store)
    writer.write(Counter(store), add(2))
    behind = Counter(store, cached=Head(None))
    written = writer.write(behind, lambda state: [] if state is None else [("add", {"role": "system"}, {"n": 1})])
    assert (written.status, written.state) == ("created", 3)


def test_entries_are_chained_folded_and_followed():
    store = CountingStore()
    written = StreamWriter(store).write(Counter(store), add(12), action_id="x")
    log = store.log()
    assert [e["type"] for e in log] == ["add", "cap"] and written.state == 10
    assert [e["action_id"] for e in log] == ["x", None]
    assert log[1]["prev"] == log[0]["hash"] and log[0]["prev"] == ""


def test_a_lost_race_catches_up_from_the_entries_missed():
    store = CountingStore()
    writer = StreamWriter(store)
    writer.write(Counter(store), add(1))
    stale = Counter(store, cached=latest(store))
    writer.write(Counter(store), add(2))
    seen = []
    written = writer.write(stale, lambda state: seen.append(state) or [("add", {"role": "system"}, {"n": 4})])
    assert seen == [1, 3] and (written.seq, written.state) == (3, 7)
    assert store.calls == 4  # the catch-up came with the conflict's answer: no read


def test_expected_seq_behind_the_head_is_stale_with_the_heads_seq():
    store = CountingStore()
    writer = StreamWriter(store)
    writer.write(Counter(store), add(1))
    writer.write(Counter(store), add(1))
    with pytest.raises(StaleHead) as raised:
        writer.write(Counter(store), add(1), expected_seq=1)
    assert raised.value.seq == 2
    stale = Counter(store, cached=Head(1, 1, store.log()[0]["hash"]))
    with pytest.raises(StaleHead) as raised:  # the cache was behind: the latest head decides
        writer.write(stale, add(1), expected_seq=1)
    assert raised.value.seq == 2


def test_a_refusal_on_a_cached_state_is_confirmed_on_the_latest_and_gives_way_to_a_first_answer():
    store = CountingStore()
    writer = StreamWriter(store)
    writer.write(Counter(store), add(5), action_id="five")
    behind = Counter(store, cached=Head(None))

    def build(state):
        if state is None:
            raise Refused("behind")
        return [("add", {"role": "system"}, {"n": 1})]

    assert writer.write(behind, build).state == 6
    with pytest.raises(Refused):
        writer.write(Counter(store), add(-1))
    retried = writer.write(Counter(store), add(-1), action_id="five")
    assert (retried.status, retried.seq) == ("duplicate", 1)


def test_every_attempt_lost_is_busy():
    store = CountingStore()
    writer = StreamWriter(store, attempts=3)

    def rival():  # another writer gets in first, every time
        log = store.log()
        entry = seal(len(log) + 1, "add", {"role": "system"}, {"n": 0}, log[-1]["hash"] if log else "", None, "t")
        InMemoryEventStore.append(store, COUNTER, len(log), None, [entry])

    store.before_append = rival
    with pytest.raises(Busy):
        writer.write(Counter(store), add(1))
    assert store.calls == 3


def test_a_game_build_asking_for_nothing_appends_nothing(services, client):
    g = GameHandle(client)
    seq = g.meta()["seq"]
    assert services.log.append(g.id, lambda p: []).status == "noop"
    written = services.log.append(g.id, lambda p: [], action_id="nothing")
    assert (written.status, written.seq) == ("noop", seq)
    assert g.meta()["seq"] == seq and services.store.first_seq(game_stream(g.id), "nothing") is None


def test_the_writers_refusals_are_the_apis_409s(app, client, monkeypatch):
    g = GameHandle(client, options={"rounds": 10})
    g.act(0, "note", {"text": "a"})
    stale = g.act(0, "note", {"text": "b"}, expected_seq=1)
    assert stale.status_code == 409
    assert stale.json["error"]["code"] == "stale_seq" and stale.json["error"]["details"] == {"seq": 2}

    def lose_every_race(*args, **kwargs):
        raise Busy(20)

    monkeypatch.setattr(StreamWriter, "write", lose_every_race)
    busy = g.act(0, "note", {"text": "a"})
    assert (busy.status_code, busy.json["error"]["code"]) == (409, "busy"), busy.json
