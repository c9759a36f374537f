"""Account records and sessions on Redis, every key under the hash tag ``{accounts}``
(one slot on a Redis Cluster, so the scripts below touch their keys atomically).

Records are JSON (the password hash inside) under the normalised name; each look-alike
key of a name points at the name holding it; sessions are the digests of their tokens
with the name and the expiry; each account lists its session digests and its games.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from . import keys, scripts

GAMES_KEPT = 200  # an account's games kept: "my games" shows 200 (services/my_games.py), a profile 100
SESSION_SEP = "\x1f"  # never in a name (control characters are refused)

CREATE_LUA = """
for i = 3, #ARGV do
  local holder = redis.call('HGET', KEYS[2], ARGV[i])
  if holder then return {'taken', holder} end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
for i = 3, #ARGV do redis.call('HSET', KEYS[2], ARGV[i], ARGV[1]) end
return {'ok', ARGV[1]}
"""

# Ends every session of an account: ``sessions`` is the digest -> name hash, ``mine`` the
# account's set of digests. Read and delete in one step: a login landing between a read
# and a delete would keep a session that no later logout-all could find.
END_SESSIONS_LUA = """
local digests = redis.call('SMEMBERS', mine)
for i = 1, #digests, 1000 do
  redis.call('HDEL', sessions, unpack(digests, i, math.min(i + 999, #digests)))
end
redis.call('DEL', mine)
return #digests
"""
LOGOUT_ALL_LUA = "local sessions, mine = KEYS[1], KEYS[2]\n" + END_SESSIONS_LUA

# The new password is written only onto the record the old one was checked against, and
# only while the session asking still exists; every session then ends, in the same step.
# Two changes racing (or a change racing one that ended its session) cannot both win.
CHANGE_PASSWORD_LUA = (
    """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return -1 end
if not redis.call('HGET', KEYS[2], ARGV[4]) then return -2 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
local sessions, mine = KEYS[2], KEYS[3]
"""
    + END_SESSIONS_LUA
)


# A password's hash replaced (a re-hash at login) only on the record it was checked
# against: a password change landing meanwhile must not be undone by the old password.
REHASH_LUA = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""


class RedisAccountRecords:
    def __init__(self, redis: Any) -> None:
        self._redis = redis
        self._create = scripts.register(redis, CREATE_LUA)
        self._logout_all = scripts.register(redis, LOGOUT_ALL_LUA)
        self._change_password = scripts.register(redis, CHANGE_PASSWORD_LUA)
        self._rehash = scripts.register(redis, REHASH_LUA)

    def create(self, name: str, record: str, looks: list[str]) -> str | None:
        """Write the record and claim its looks unless one is held: the holder, or None."""
        status, found = self._create(keys=[keys.ACCOUNTS, keys.ACCOUNT_SKELETONS], args=[name, record, *looks])
        return str(found) if status == "taken" else None

    def record(self, name: str) -> str | None:
        found: str | None = self._redis.hget(keys.ACCOUNTS, name)
        return found

    def holders(self, looks: list[str]) -> list[str | None]:
        """The name holding each look-alike key (None where none does)."""
        return list(self._redis.hmget(keys.ACCOUNT_SKELETONS, looks)) if looks else []

    def index_looks(self, source: str, looks_of: Callable[[str], list[str]]) -> bool:
        """Claim every account's looks as ``looks_of`` computes them, unless the index
        is already by ``source``; whether it ran. A look already held keeps its holder
        (``HSETNX``), so running twice, or beside a creation, changes nothing."""
        if self._redis.get(keys.ACCOUNT_LOOKS_INDEXED) == source:
            return False
        names = (name for name, _ in self._redis.hscan_iter(keys.ACCOUNTS, count=500))
        for batch in _batches(names, 500):
            pipe = self._redis.pipeline(transaction=False)
            for name in batch:
                for look in looks_of(name):
                    pipe.hsetnx(keys.ACCOUNT_SKELETONS, look, name)
            pipe.execute()
        self._redis.delete(keys.ACCOUNT_OLD_SKELETONS)
        self._redis.set(keys.ACCOUNT_LOOKS_INDEXED, source)
        return True

    def rehash(self, name: str, old: str, new: str) -> bool:
        """Replace the record only if it is still ``old`` (whether it was)."""
        return bool(self._rehash(keys=[keys.ACCOUNTS], args=[name, old, new]))

    def change_password(self, name: str, old: str, new: str, session_digest: str) -> int:
        """Sessions revoked; -1 when the record changed since ``old``, -2 when the session ended."""
        return int(
            self._change_password(
                keys=[keys.ACCOUNTS, keys.ACCOUNT_SESSIONS, keys.account_sessions(name)],
                args=[name, old, new, session_digest],
            )
        )

    def add_session(self, name: str, digest: str, expires: int) -> None:
        pipe = self._redis.pipeline(transaction=True)
        pipe.hset(keys.ACCOUNT_SESSIONS, digest, f"{name}{SESSION_SEP}{expires}")
        pipe.sadd(keys.account_sessions(name), digest)
        pipe.execute()

    def session(self, digest: str) -> tuple[str, int | None] | None:
        """(name, expiry) of a session digest, or None."""
        found = self._redis.hget(keys.ACCOUNT_SESSIONS, digest)
        if found is None:
            return None
        name, _, expires = found.partition(SESSION_SEP)
        return name, int(expires) if expires else None

    def drop_session(self, name: str, digest: str) -> None:
        pipe = self._redis.pipeline(transaction=True)
        pipe.hdel(keys.ACCOUNT_SESSIONS, digest)
        pipe.srem(keys.account_sessions(name), digest)
        pipe.execute()

    def drop_sessions(self, name: str) -> int:
        return int(self._logout_all(keys=[keys.ACCOUNT_SESSIONS, keys.account_sessions(name)]))

    def add_game(self, name: str, game_id: str, when: float) -> None:
        """Keeps the account's newest ``GAMES_KEPT`` games: what "my games" and a profile
        show, so an account's key does not grow with every game it ever played."""
        pipe = self._redis.pipeline(transaction=True)
        pipe.zadd(keys.account_games(name), {game_id: when}, nx=True)
        pipe.zremrangebyrank(keys.account_games(name), 0, -GAMES_KEPT - 1)
        pipe.execute()

    def games(self, name: str, limit: int) -> list[str]:
        return list(self._redis.zrevrange(keys.account_games(name), 0, limit - 1))


def _batches(items: Iterator[str], size: int) -> Iterator[list[str]]:
    batch: list[str] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
