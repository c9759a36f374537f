"""The event store: compare-and-append and reads over Redis Streams.

A stream entry id is ``0-<seq>`` and holds one field ``e``: the canonical JSON of the
sealed envelope. Appending is one Lua script, so checking the expected last seq (and
that the last entry is the one the new entries chain to: a log that lost entries and
was written again up to the same seq is another log) and the idempotency key and
writing the entries happen atomically, on a standalone Redis
and (all keys in one hash slot) on a Redis Cluster alike.

The hot path costs one round trip: the same script writes the game's lobby line and a
snapshot every K entries (both in the game's slot), and a conflict answers with the
entries the writer missed so it catches up without reading again. A cold load is one
script too: the newest snapshot and the entries after it.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from .envelope import canonical_json
from .shapes import Envelope

APPEND_LUA = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local last_seq = 0
if #last > 0 then last_seq = tonumber(string.match(last[1][1], '%-(%d+)$')) end
local action_id = ARGV[2]
if action_id ~= '' then
  local seen = redis.call('HGET', KEYS[2], action_id)
  if seen then return {'duplicate', seen} end
end
local expected = tonumber(ARGV[1])
if expected == last_seq and last_seq > 0 and #ARGV >= 6 and cjson.decode(ARGV[6])['prev'] ~= cjson.decode(last[1][2][2])['hash'] then
  return {'conflict', tostring(last_seq)}  -- the seq the writer expected, another entry there: refold
end
if expected ~= last_seq then
  local out = {'conflict', tostring(last_seq)}
  if expected < last_seq then
    for _, entry in ipairs(redis.call('XRANGE', KEYS[1], '0-' .. (expected + 1), '+')) do
      out[#out + 1] = entry[2][2]
    end
  end
  return out
end
local seq = last_seq
for i = 6, #ARGV do
  seq = seq + 1
  redis.call('XADD', KEYS[1], '0-' .. seq, 'e', ARGV[i])
end
if action_id ~= '' then redis.call('HSET', KEYS[2], action_id, last_seq + 1) end
if ARGV[3] ~= '' then redis.call('SET', KEYS[3], ARGV[3]) end
if ARGV[4] ~= '' then redis.call('HSETNX', KEYS[4], ARGV[4], ARGV[5]) end
return {'ok', tostring(seq)}
"""

LOAD_LUA = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 then return {'0'} end
local last_seq = tonumber(string.match(last[1][1], '%-(%d+)$'))
local every = tonumber(ARGV[1])
local mark = math.floor(last_seq / every) * every
local found, snapshot = 0, ''
while mark > 0 do
  local raw = redis.call('HGET', KEYS[2], mark)
  if raw then found, snapshot = mark, raw break end
  mark = mark - every
end
local seed = redis.call('GET', KEYS[3]) or ''
local out = {tostring(last_seq), tostring(found), snapshot, seed}
for _, entry in ipairs(redis.call('XRANGE', KEYS[1], '0-' .. (found + 1), '+')) do
  out[#out + 1] = entry[2][2]
end
return out
"""


@dataclass
class AppendResult:
    status: str  # "ok" | "conflict" | "duplicate"
    seq: int  # ok: last seq written; conflict: current last seq; duplicate: the first seq of that action
    missed: list[Envelope] = field(default_factory=list)  # conflict: the entries after the expected seq


@dataclass
class Extras:
    """What an append writes beside the log, in the game's slot and the same script:
    the lobby's line for the game and, every K entries, a snapshot of the fold."""

    summary_key: str
    summary: str = ""
    snapshot_key: str = ""
    snapshot_seq: int | None = None
    snapshot: str = ""


@dataclass
class Loaded:
    """A log as one script call finds it: the last seq (0: no such log), the newest
    snapshot at or before it (or None), the entries after that snapshot and the
    game's seed (None where there is none)."""

    last_seq: int
    snapshot: Any  # the fold's state at that seq, opaque to the store
    entries: list[Envelope]
    seed: str | None = None


class EventStore(ABC):
    """Append-only streams of sealed envelopes, one per key."""

    @abstractmethod
    def append(
        self,
        key: str,
        idem_key: str,
        expected_seq: int,
        action_id: str | None,
        envelopes: list[Envelope],
        extras: Extras | None = None,
    ) -> AppendResult: ...

    @abstractmethod
    def first_seq(self, idem_key: str, action_id: str) -> int | None:
        """The first seq appended under ``action_id`` (None: not applied)."""

    @abstractmethod
    def load(self, key: str, snapshots_key: str, seed_key: str, every: int) -> Loaded: ...

    @abstractmethod
    def read(self, key: str, after: int = 0, upto: int | None = None) -> list[Envelope]: ...

    @abstractmethod
    def tail(self, key: str, after: int, block_ms: int) -> list[Envelope]: ...

    @abstractmethod
    def last_seq(self, key: str) -> int: ...


class RedisEventStore(EventStore):
    def __init__(self, redis: Any, blocking: Any = None) -> None:
        """``blocking``: the client for ``tail``'s XREAD BLOCK, whose answer may take the
        whole block time (its socket timeout is longer than ``redis``'s)."""
        self.redis = redis
        self.blocking = blocking or redis
        self._append = redis.register_script(APPEND_LUA)
        self._load = redis.register_script(LOAD_LUA)

    def append(
        self,
        key: str,
        idem_key: str,
        expected_seq: int,
        action_id: str | None,
        envelopes: list[Envelope],
        extras: Extras | None = None,
    ) -> AppendResult:
        """One round trip: check the action id and the expected seq, append, and write
        the extras; on a conflict the answer carries the entries the caller missed."""
        x = extras or Extras(summary_key=key)
        args = [expected_seq, action_id or "", x.summary, "" if x.snapshot_seq is None else x.snapshot_seq, x.snapshot]
        args += [canonical_json(e) for e in envelopes]
        keys_ = [key, idem_key, x.summary_key, x.snapshot_key or x.summary_key]
        status, seq, *missed = self._append(keys=keys_, args=args)
        status = status.decode() if isinstance(status, bytes) else status
        return AppendResult(status, int(seq), [json.loads(e) for e in missed])

    def first_seq(self, idem_key: str, action_id: str) -> int | None:
        first = self.redis.hget(idem_key, action_id)
        return None if first is None else int(first)

    def load(self, key: str, snapshots_key: str, seed_key: str, every: int) -> Loaded:
        last, *rest = self._load(keys=[key, snapshots_key, seed_key], args=[every])
        if int(last) == 0:
            return Loaded(0, None, [])
        found, snapshot, seed, *entries = rest
        return Loaded(
            int(last), json.loads(snapshot) if int(found) else None, [json.loads(e) for e in entries], seed or None
        )

    def read(self, key: str, after: int = 0, upto: int | None = None) -> list[Envelope]:
        end = f"0-{upto}" if upto is not None else "+"
        if upto is not None and upto <= after:
            return []
        entries = self.redis.xrange(key, f"0-{after + 1}", end)
        return [json.loads(fields["e"]) for _, fields in entries]

    def tail(self, key: str, after: int, block_ms: int) -> list[Envelope]:
        found = self.blocking.xread({key: f"0-{after}"}, block=block_ms)
        out: list[Envelope] = []
        for _, entries in found or []:
            out.extend(json.loads(fields["e"]) for _, fields in entries)
        return out

    def last_seq(self, key: str) -> int:
        last = self.redis.xrevrange(key, "+", "-", count=1)
        return int(last[0][0].split("-")[1]) if last else 0
