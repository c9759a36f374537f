"""The event store on Redis Streams: standalone, embedded and Cluster alike.

A stream entry id is ``0-<seq>`` and holds one field ``e``: the canonical JSON of the
sealed envelope. Appending is one Lua script, so checking the expected last seq (and
that the last entry is the one the new entries chain to: a log that lost entries and
was written again up to the same seq is another log) and the idempotency key and
writing the entries happen atomically; every key of a stream carries its hash tag
(``keys.py``), so on a Redis Cluster the script's keys share one slot.

The hot path costs one round trip: the same script writes the game's lobby line and a
snapshot every K entries, and a conflict answers with the entries the writer missed so
it catches up without reading again. A cold load is one script too: the newest
snapshot and the entries after it.

With ``min_replica_acks`` set, the script and ``WAIT n timeout`` go in one pipeline on
one connection (WAIT counts the replicas that hold that connection's writes), and an
append its replicas did not confirm raises ``NotReplicated``: a 503, not an
acknowledgement, because a failover to one of those replicas would lose it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from redis import exceptions

from events.envelope import canonical_json
from events.shapes import Envelope
from events.store import AppendResult, EventStore, Extras, Loaded, StreamId
from service.services.summaries import full_line

from . import keys, scripts

APPEND_LUA = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local last_seq = 0
if #last > 0 then last_seq = tonumber(string.match(last[1][1], '%-(%d+)$')) end
local action_id = ARGV[2]
if action_id ~= '' then
  local seen = redis.call('HGET', KEYS[2], action_id)
  if seen then
    -- rewritten when replicas must confirm: the WAIT after it then covers the first write
    if ARGV[6] == '1' then redis.call('HSET', KEYS[2], action_id, seen) end
    return {'duplicate', seen}
  end
end
local expected = tonumber(ARGV[1])
if expected == last_seq and last_seq > 0 and #ARGV >= 7 and cjson.decode(ARGV[7])['prev'] ~= cjson.decode(last[1][2][2])['hash'] then
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
for i = 7, #ARGV do
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


def log_keys(stream: StreamId) -> tuple[str, str]:
    """The stream's entries and its action ids."""
    if stream.kind == "game":
        return keys.events(stream.id), keys.idempotency(stream.id)
    if stream.kind == "tournament":
        return keys.tournament_events(stream.id), keys.tournament_idempotency(stream.id)
    if stream.kind == "table":
        return keys.table_events(stream.id), keys.table_idempotency(stream.id)
    return keys.RATINGS_EVENTS, keys.RATINGS_IDEMPOTENCY


class NotReplicated(exceptions.ConnectionError):
    """An append fewer replicas than asked confirmed in time: storage answers 503 (it is
    on the master, and an action id resolves a retry, but it is not acknowledged)."""


class RedisEventStore(EventStore):
    def __init__(
        self,
        redis: Any,
        blocking: Any = None,
        min_replica_acks: int = 0,
        replica_wait_ms: int = 250,
        restore: Callable[[str], bool] | None = None,
        archived_lines: Callable[[list[str]], list[str | None]] | None = None,
    ) -> None:
        """``blocking``: the client for ``tail``'s XREAD BLOCK, whose answer may take the
        whole block time (its socket timeout is longer than ``redis``'s).
        ``min_replica_acks``: replicas that must hold an append before it is answered
        (``WAIT min_replica_acks replica_wait_ms``); 0 answers at once.
        ``restore``: puts an archived game's log back (service/adapters/archive.py) when
        a read finds none in Redis; ``archived_lines``: archived games' lobby lines
        (service/adapters/archive_listing.py), for the lines Redis no longer holds."""
        self.redis = redis
        self.blocking = blocking or redis
        self._acks = min_replica_acks
        self._wait_ms = replica_wait_ms
        self._restore = restore
        self._archived_lines = archived_lines
        self._append = scripts.register(redis, APPEND_LUA)
        self._load = scripts.register(redis, LOAD_LUA)

    def append(
        self,
        stream: StreamId,
        expected_seq: int,
        action_id: str | None,
        envelopes: list[Envelope],
        extras: Extras | None = None,
    ) -> AppendResult:
        """One round trip: check the action id and the expected seq, append, and write
        the extras; on a conflict the answer carries the entries the caller missed."""
        key, idem_key = log_keys(stream)
        x = extras or Extras()
        summary_key = keys.summary(stream.id) if x.summary else key
        snapshot_key = keys.snapshots(stream.id, x.snapshot_version) if x.snapshot_seq is not None else summary_key
        snapshot_seq = "" if x.snapshot_seq is None else x.snapshot_seq
        args = [expected_seq, action_id or "", x.summary, snapshot_seq, x.snapshot, "1" if self._acks else ""]
        args += [canonical_json(e) for e in envelopes]
        script_keys = [key, idem_key, summary_key, snapshot_key]
        if self._acks:
            status, seq, *missed = self._append_confirmed(script_keys, args)
        else:
            status, seq, *missed = self._append(keys=script_keys, args=args)
        status = status.decode() if isinstance(status, bytes) else status
        return AppendResult(status, int(seq), [json.loads(e) for e in missed])

    def _append_confirmed(self, script_keys: list[str], args: list[Any]) -> list[Any]:
        """The script, then WAIT on the same connection: on a cluster, the pipeline of the
        node that holds the stream's slot."""
        client = self.redis
        if hasattr(client, "get_node_from_key"):
            client = client.get_node_from_key(script_keys[0]).redis_connection
        pipe = client.pipeline(transaction=False)
        pipe.eval(APPEND_LUA, len(script_keys), *script_keys, *args)  # the text: a pipeline cannot answer NOSCRIPT
        pipe.execute_command("WAIT", self._acks, self._wait_ms)
        answer, confirmed = pipe.execute()
        status = answer[0].decode() if isinstance(answer[0], bytes) else answer[0]
        if status != "conflict" and int(confirmed) < self._acks:
            raise NotReplicated(f"{confirmed} of {self._acks} replicas confirmed the append within {self._wait_ms} ms")
        result: list[Any] = answer
        return result

    def _restored(self, stream: StreamId) -> bool:
        """Whether an archived game's log was just put back (the caller reads again)."""
        return stream.kind == "game" and self._restore is not None and self._restore(stream.id)

    def first_seq(self, stream: StreamId, action_id: str) -> int | None:
        first = self.redis.hget(log_keys(stream)[1], action_id)
        return None if first is None else int(first)

    def load(self, stream: StreamId, snapshot_version: str, every: int) -> Loaded:
        key = log_keys(stream)[0]
        snapshots, seed = keys.snapshots(stream.id, snapshot_version), keys.seed(stream.id)
        last, *rest = self._load(keys=[key, snapshots, seed], args=[every])
        if int(last) == 0 and self._restored(stream):
            last, *rest = self._load(keys=[key, snapshots, seed], args=[every])
        if int(last) == 0:
            return Loaded(0, None, [])
        found, snapshot, seed_value, *entries = rest
        return Loaded(
            int(last),
            json.loads(snapshot) if int(found) else None,
            [json.loads(e) for e in entries],
            seed_value or None,
        )

    def read(self, stream: StreamId, after: int = 0, upto: int | None = None) -> list[Envelope]:
        end = f"0-{upto}" if upto is not None else "+"
        if upto is not None and upto <= after:
            return []
        entries = self.redis.xrange(log_keys(stream)[0], f"0-{after + 1}", end)
        if not entries and self._restored(stream):
            entries = self.redis.xrange(log_keys(stream)[0], f"0-{after + 1}", end)
        return [json.loads(fields["e"]) for _, fields in entries]

    def tail(self, stream: StreamId, after: int, block_ms: int) -> list[Envelope]:
        found = self.blocking.xread({log_keys(stream)[0]: f"0-{after}"}, block=block_ms)
        out: list[Envelope] = []
        for _, entries in found or []:
            out.extend(json.loads(fields["e"]) for _, fields in entries)
        return out

    def last_seq(self, stream: StreamId) -> int:
        last = self.redis.xrevrange(log_keys(stream)[0], "+", "-", count=1)
        if not last and self._restored(stream):
            last = self.redis.xrevrange(log_keys(stream)[0], "+", "-", count=1)
        return int(last[0][0].split("-")[1]) if last else 0

    def exists(self, stream: StreamId) -> bool:
        return bool(self.redis.exists(log_keys(stream)[0])) or self._restored(stream)

    def snapshot(self, stream: StreamId, version: str, seq: int) -> Any:
        raw = self.redis.hget(keys.snapshots(stream.id, version), seq)
        return None if raw is None else json.loads(raw)

    def keep_snapshot(self, stream: StreamId, version: str, seq: int, state: Any) -> None:
        self.redis.hsetnx(keys.snapshots(stream.id, version), seq, json.dumps(state))

    def snapshot_count(self, stream: StreamId, version: str) -> int:
        return int(self.redis.hlen(keys.snapshots(stream.id, version)))

    def seed(self, stream: StreamId) -> str | None:
        found: str | None = self.redis.get(keys.seed(stream.id))
        if found is None and not self.redis.exists(log_keys(stream)[0]) and self._restored(stream):
            found = self.redis.get(keys.seed(stream.id))
        return found

    def keep_seed(self, stream: StreamId, seed: str) -> None:
        self.redis.set(keys.seed(stream.id), seed)

    def drop_seed(self, stream: StreamId) -> None:
        self.redis.delete(keys.seed(stream.id))

    def ping(self) -> None:
        self.redis.ping()

    def summaries(self, streams: list[StreamId]) -> list[str | None]:
        """One pipeline: on a cluster the lines live in each game's slot, on several nodes.
        An archived game's line comes from the archive (or, compact, from Redis, where
        older versions left it)."""
        if not streams:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for stream in streams:
            pipe.get(keys.summary(stream.id))
        found: list[str | None] = [raw and full_line(s.id, raw) for s, raw in zip(streams, pipe.execute())]
        missing = [i for i, (s, raw) in enumerate(zip(streams, found)) if raw is None and s.kind == "game"]
        if missing and self._archived_lines is not None:
            for i, line in zip(missing, self._archived_lines([streams[i].id for i in missing])):
                found[i] = line
        return found

    def keep_summary(self, stream: StreamId, summary: str) -> None:
        self.redis.set(keys.summary(stream.id), summary)
