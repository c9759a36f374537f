"""The one stream writer (events/writer.py): its loop on a small stream of its own over
an in-memory store, and its refusals as the API answers them."""

from __future__ import annotations

import pytest

from events import keys
from events.envelope import seal
from events.store import AppendResult, EventStore, Extras, Loaded
from events.writer import Busy, Head, StaleHead, StreamWriter
from service import wiring
from tests.platform.helpers import GameHandle


class MemoryStore(EventStore):
    """The append script's contract in memory; ``before_append`` runs first (a rival)."""

    def __init__(self):
        self.logs: dict[str, list[dict]] = {}
        self.seen: dict[str, dict[str, int]] = {}
        self.before_append = None
        self.calls = 0

    def append(self, key, idem_key, expected_seq, action_id, envelopes, extras: Extras | None = None):
        self.calls += 1
        if self.before_append is not None:
            self.before_append()
        log, seen = self.logs.setdefault(key, []), self.seen.setdefault(idem_key, {})
        if action_id is not None and action_id in seen:
            return AppendResult("duplicate", seen[action_id])
        if expected_seq == len(log) and log and envelopes[0]["prev"] != log[-1]["hash"]:
            return AppendResult("conflict", len(log))  # the seq expected, another entry there
        if expected_seq != len(log):
            return AppendResult("conflict", len(log), list(log[expected_seq:]))
        if action_id is not None:
            seen[action_id] = len(log) + 1
        log.extend(envelopes)
        return AppendResult("ok", len(log))

    def first_seq(self, idem_key, action_id):
        return self.seen.get(idem_key, {}).get(action_id)

    def load(self, key, snapshots_key, seed_key, every):
        return Loaded(len(self.logs.get(key, [])), None, list(self.logs.get(key, [])))

    def read(self, key, after=0, upto=None):
        return self.logs.get(key, [])[after:upto]

    def tail(self, key, after, block_ms):
        return self.read(key, after)

    def last_seq(self, key):
        return len(self.logs.get(key, []))


class Refused(Exception):
    pass


class Counter:
    """A stream whose state is the sum of its entries' ``n``; a negative ``n`` is refused,
    and a sum over 10 is followed by a ``cap`` entry. ``cached`` stands in for a
    worker's cache that may be behind."""

    refusals = (Refused,)

    def __init__(self, store, cached=None):
        self.store, self.cached = store, cached
        self.key, self.idempotency_key = "counter", "counter:idem"

    def start(self):
        return (self.latest(), True) if self.cached is None else (self.cached, False)

    def latest(self):
        entries = self.store.read(self.key)
        state = None
        for e in entries:
            state = self.fold(state, e)
        return Head(state, entries[-1]["seq"], entries[-1]["hash"]) if entries else Head(None)

    def catch_up(self, state, missed):
        for e in missed:
            state = self.fold(state, e)
        return state

    def seed(self):
        return None

    def fold(self, state, envelope):
        if envelope["type"] == "add" and envelope["payload"]["n"] < 0:
            raise Refused(envelope["seq"])
        return (state or 0) + envelope["payload"]["n"]

    def follow(self, state):
        return ("cap", {"role": "system"}, {"n": 10 - state}) if state > 10 else None

    def extras(self, before, envelopes, after):
        return None

    def appended(self, before, envelopes, after):
        self.last_appended = (before, after)


def add(n):
    return lambda state: [("add", {"role": "system"}, {"n": n})]


def test_created_duplicate_and_noop():
    store = MemoryStore()
    writer = StreamWriter(store)
    first = writer.write(Counter(store), add(3), action_id="a")
    assert (first.status, first.seq, first.state) == ("created", 1, 3)
    again = writer.write(Counter(store), add(4), action_id="a")
    assert (again.status, again.seq, again.state) == ("duplicate", 1, None)
    nothing = writer.write(Counter(store), lambda state: [])
    assert (nothing.status, nothing.seq, nothing.state) == ("noop", 1, 3)
    assert store.calls == 2 and [e["seq"] for e in store.logs["counter"]] == [1]


def test_nothing_to_do_on_a_cached_state_is_confirmed_on_the_latest():
    store = MemoryStore()
    writer = StreamWriter(store)
    writer.write(Counter(store), add(2))
    behind = Counter(store, cached=Head(None))
    written = writer.write(behind, lambda state: [] if state is None else [("add", {"role": "system"}, {"n": 1})])
    assert (written.status, written.state) == ("created", 3)


def test_entries_are_chained_folded_and_followed():
    store = MemoryStore()
    written = StreamWriter(store).write(Counter(store), add(12), action_id="x")
    log = store.logs["counter"]
    assert [e["type"] for e in log] == ["add", "cap"] and written.state == 10
    assert [e["action_id"] for e in log] == ["x", None]
    assert log[1]["prev"] == log[0]["hash"] and log[0]["prev"] == ""


def test_a_lost_race_catches_up_from_the_entries_missed():
    store = MemoryStore()
    writer = StreamWriter(store)
    writer.write(Counter(store), add(1))
    stale = Counter(store, cached=Counter(store).latest())
    writer.write(Counter(store), add(2))
    seen = []
    written = writer.write(stale, lambda state: seen.append(state) or [("add", {"role": "system"}, {"n": 4})])
    assert seen == [1, 3] and (written.seq, written.state) == (3, 7)
    assert store.calls == 4  # the catch-up came with the conflict's answer: no read


def test_expected_seq_behind_the_head_is_stale_with_the_heads_seq():
    store = MemoryStore()
    writer = StreamWriter(store)
    writer.write(Counter(store), add(1))
    writer.write(Counter(store), add(1))
    with pytest.raises(StaleHead) as raised:
        writer.write(Counter(store), add(1), expected_seq=1)
    assert raised.value.seq == 2
    stale = Counter(store, cached=Head(1, 1, store.logs["counter"][0]["hash"]))
    with pytest.raises(StaleHead) as raised:  # the cache was behind: the latest head decides
        writer.write(stale, add(1), expected_seq=1)
    assert raised.value.seq == 2


def test_a_refusal_on_a_cached_state_is_confirmed_on_the_latest_and_gives_way_to_a_first_answer():
    store = MemoryStore()
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
    store = MemoryStore()
    writer = StreamWriter(store, attempts=3)
    log = store.logs.setdefault("counter", [])

    def rival():  # another writer gets in first, every time
        log.append(seal(len(log) + 1, "add", {"role": "system"}, {"n": 0}, log[-1]["hash"] if log else "", None, "t"))

    store.before_append = rival
    with pytest.raises(Busy):
        writer.write(Counter(store), add(1))
    assert store.calls == 3


def test_a_game_build_asking_for_nothing_appends_nothing(platform, client):
    g = GameHandle(client)
    seq = g.meta()["seq"]
    assert platform.append_entries(g.id, lambda p: []) == (False, seq)
    assert platform.append_entries(g.id, lambda p: [], action_id="nothing") == (False, seq)
    assert g.meta()["seq"] == seq and platform.store.first_seq(keys.idempotency(g.id), "nothing") is None


def test_the_writers_refusals_are_the_apis_409s(app, client, monkeypatch):
    g = GameHandle(client, options={"rounds": 10})
    g.act(0, "note", {"text": "a"})
    stale = g.act(0, "note", {"text": "b"}, expected_seq=1)
    assert stale.status_code == 409
    assert stale.json["error"]["code"] == "stale_seq" and stale.json["error"]["details"] == {"seq": 2}
    monkeypatch.setattr(wiring.of(app).platform.writer, "attempts", 0)
    busy = g.act(0, "note", {"text": "a"})
    assert (busy.status_code, busy.json["error"]["code"]) == (409, "busy"), busy.json
