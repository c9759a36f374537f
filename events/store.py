"""The event store: compare-and-append and reads over Redis Streams.

A stream entry id is ``0-<seq>`` and holds one field ``e``: the canonical JSON of the
sealed envelope. Appending is one Lua script, so checking the expected last seq and
the idempotency key and writing the entries happen atomically, on a standalone Redis
and (all keys in one hash slot) on a Redis Cluster alike.
"""
from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass

from .envelope import canonical_json

APPEND_LUA = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local last_seq = 0
if #last > 0 then last_seq = tonumber(string.match(last[1][1], '%-(%d+)$')) end
local action_id = ARGV[2]
if action_id ~= '' then
  local seen = redis.call('HGET', KEYS[2], action_id)
  if seen then return {'duplicate', seen} end
end
if tonumber(ARGV[1]) ~= last_seq then return {'conflict', tostring(last_seq)} end
local seq = last_seq
for i = 3, #ARGV do
  seq = seq + 1
  redis.call('XADD', KEYS[1], '0-' .. seq, 'e', ARGV[i])
end
if action_id ~= '' then redis.call('HSET', KEYS[2], action_id, last_seq + 1) end
return {'ok', tostring(seq)}
"""


@dataclass
class AppendResult:
    status: str  # "ok" | "conflict" | "duplicate"
    seq: int  # ok: last seq written; conflict: current last seq; duplicate: the first seq of that action


class EventStore(ABC):
    """Append-only streams of sealed envelopes, one per key."""

    @abstractmethod
    def append(self, key: str, idem_key: str, expected_seq: int, action_id: str | None, envelopes: list[dict]) -> AppendResult:
        ...

    @abstractmethod
    def read(self, key: str, after: int = 0, upto: int | None = None) -> list[dict]:
        ...

    @abstractmethod
    def tail(self, key: str, after: int, block_ms: int) -> list[dict]:
        ...

    @abstractmethod
    def last_seq(self, key: str) -> int:
        ...


class RedisEventStore(EventStore):
    def __init__(self, redis):
        self.redis = redis
        self._append = redis.register_script(APPEND_LUA)

    def append(self, key, idem_key, expected_seq, action_id, envelopes):
        args = [expected_seq, action_id or ""] + [canonical_json(e) for e in envelopes]
        status, seq = self._append(keys=[key, idem_key], args=args)
        status = status.decode() if isinstance(status, bytes) else status
        return AppendResult(status, int(seq))

    def read(self, key, after=0, upto=None):
        end = f"0-{upto}" if upto is not None else "+"
        if upto is not None and upto <= after:
            return []
        entries = self.redis.xrange(key, f"0-{after + 1}", end)
        return [json.loads(fields["e"]) for _, fields in entries]

    def tail(self, key, after, block_ms):
        found = self.redis.xread({key: f"0-{after}"}, block=block_ms)
        out = []
        for _, entries in found or []:
            out.extend(json.loads(fields["e"]) for _, fields in entries)
        return out

    def last_seq(self, key):
        last = self.redis.xrevrange(key, "+", "-", count=1)
        return int(last[0][0].split("-")[1]) if last else 0
