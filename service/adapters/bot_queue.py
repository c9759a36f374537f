"""The computer seats' queue and the cap on what each creator has in play, on Redis.

**The queue is fair across creators.** It is start-time fair queuing: each creator (an
account or an address) has a virtual finish time; a game queued for a computer move
finishes at ``max(virtual now, the creator's last finish) + cost``, where the cost is
the move's think-time budget, and workers pop the smallest. A creator with eight games
of strength-3 computers therefore gets the pool's time in turn with a creator of one
strength-1 game, never eight moves ahead of it; within a creator its games take turns
(each finished move queues its game behind the others). A creator with nothing queued
banks no credit: its finish time is dropped with its last job. All of it lives under
one hash tag, so the scripts run on one node of a cluster.

**The cap** (``claim``): the games a creator has with computer seats, each with its
seats' count and strengths, in one hash per creator; a claim checks the totals over
every other game and records this one, atomically, or answers the totals that refuse
it. Games that have finished are released by the service (``release``)."""

from __future__ import annotations

import time
from typing import Any

from . import scripts

QUEUE = "{bots}:due"  # game -> virtual finish time
FINISH = "{bots}:finish"  # creator -> virtual finish time of its last queued job
OWNER_OF_QUEUED = "{bots}:owner"  # queued game -> its creator
VIRTUAL_NOW = "{bots}:now"  # virtual time: the finish time of the job taken last
QUEUED = "{bots}:queued"  # creator -> how many of its games are queued
TAKEN = "{bots}:taken"  # game -> when a worker took its move (until the worker is done with it)
OWNERS = "bots:owners"  # game -> the creator charged for its computer seats


def in_play(owner: str) -> str:
    """Game -> ``"<seats> <strength sum>"`` of the creator's games with computer seats."""
    return f"bots:{{{owner}}}:games"


ENQUEUE_LUA = """
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
local now = tonumber(redis.call('GET', KEYS[4]) or '0')
local last = tonumber(redis.call('HGET', KEYS[2], ARGV[2]) or '0')
local finish = math.max(now, last) + tonumber(ARGV[3])
redis.call('HSET', KEYS[2], ARGV[2], string.format('%.6f', finish))
redis.call('HINCRBY', KEYS[5], ARGV[2], 1)
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[1], string.format('%.6f', finish), ARGV[1])
return 1
"""

TAKE_LUA = """
local popped = redis.call('ZPOPMIN', KEYS[1])
if #popped == 0 then return false end
local game = popped[1]
redis.call('SET', KEYS[4], popped[2])
redis.call('HSET', KEYS[6], game, ARGV[1])
local owner = redis.call('HGET', KEYS[3], game)
redis.call('HDEL', KEYS[3], game)
if owner then
  if redis.call('HINCRBY', KEYS[5], owner, -1) <= 0 then
    redis.call('HDEL', KEYS[5], owner)
    redis.call('HDEL', KEYS[2], owner)
  end
end
return game
"""

FORGET_LUA = """
redis.call('HDEL', KEYS[5], ARGV[1])
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
local owner = redis.call('HGET', KEYS[3], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
if owner and redis.call('HINCRBY', KEYS[4], owner, -1) <= 0 then
  redis.call('HDEL', KEYS[4], owner)
  redis.call('HDEL', KEYS[2], owner)
end
return 1
"""

CLAIM_LUA = """
local seats, strength = tonumber(ARGV[2]), tonumber(ARGV[3])
local held = redis.call('HGETALL', KEYS[1])
for i = 1, #held, 2 do
  if held[i] ~= ARGV[1] then
    local n, s = string.match(held[i + 1], '(%d+) (%d+)')
    seats, strength = seats + tonumber(n), strength + tonumber(s)
  end
end
if seats > tonumber(ARGV[4]) or strength > tonumber(ARGV[5]) then return {0, seats, strength} end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. ' ' .. ARGV[3])
return {1, seats, strength}
"""


class RedisBotQueue:
    def __init__(self, redis: Any) -> None:
        self._redis = redis
        self._enqueue = scripts.register(redis, ENQUEUE_LUA)
        self._take = scripts.register(redis, TAKE_LUA)
        self._claim = scripts.register(redis, CLAIM_LUA)
        self._forget = scripts.register(redis, FORGET_LUA)

    def due(self, game_id: str, owner: str, cost: float) -> None:
        """Queue ``game_id`` for a computer move (once: a queued game keeps its place)."""
        self._enqueue(keys=[QUEUE, FINISH, OWNER_OF_QUEUED, VIRTUAL_NOW, QUEUED], args=[game_id, owner, cost])

    def take(self) -> str | None:
        """The next game due, marked taken until ``done`` (``stale`` finds it if the
        worker that took it died first)."""
        taken = self._take(keys=[QUEUE, FINISH, OWNER_OF_QUEUED, VIRTUAL_NOW, QUEUED, TAKEN], args=[time.time()])
        return None if taken is None else str(taken)

    def done(self, game_id: str) -> None:
        self._redis.hdel(TAKEN, game_id)

    def stale(self, before: float) -> list[str]:
        """Games taken before ``before`` and never done: their worker died."""
        return [str(g) for g, at in self._redis.hgetall(TAKEN).items() if float(at) < before]

    def length(self) -> int:
        return int(self._redis.zcard(QUEUE))

    def owner(self, game_id: str) -> str | None:
        found = self._redis.hget(OWNERS, game_id)
        return None if found is None else str(found)

    def claim(
        self, owner: str, game_id: str, seats: int, strength: int, max_seats: int, max_strength: int
    ) -> tuple[bool, int, int]:
        """Record ``game_id``'s computer seats against ``owner`` if the totals stay within
        the caps: (granted, total seats, total strength) with this game counted."""
        granted, total_seats, total_strength = self._claim(
            keys=[in_play(owner)], args=[game_id, seats, strength, max_seats, max_strength]
        )
        if granted:
            self._redis.hset(OWNERS, game_id, owner)
        return bool(granted), int(total_seats), int(total_strength)

    def held(self, owner: str) -> list[str]:
        return [str(g) for g in self._redis.hkeys(in_play(owner))]

    def release(self, owner: str, game_id: str) -> None:
        self._redis.hdel(in_play(owner), game_id)
        self._redis.hdel(OWNERS, game_id)

    def forget(self, game_id: str) -> None:
        """The game leaves the queue (its creator's turn with it) and its creator's
        games in play: it left Redis (archived)."""
        self._forget(keys=[QUEUE, FINISH, OWNER_OF_QUEUED, QUEUED, TAKEN], args=[game_id])
        owner = self.owner(game_id)
        if owner is not None:
            self.release(owner, game_id)
