"""The indexes of open tables on Redis: the listed ones, and each account's
invitations (the tables' logs are in the event store)."""

from __future__ import annotations

from typing import Any

from . import keys


class RedisTableIndex:
    def __init__(self, redis: Any) -> None:
        self._redis = redis

    def listed(self, table_id: str, expires_at: float) -> None:
        self._redis.zadd(keys.TABLES_OPEN, {table_id: expires_at})

    def unlisted(self, table_id: str) -> None:
        self._redis.zrem(keys.TABLES_OPEN, table_id)

    def open_ids(self, count: int) -> list[str]:
        return list(self._redis.zrange(keys.TABLES_OPEN, 0, count - 1))

    def invite(self, account: str, table_id: str, at: float) -> None:
        self._redis.zadd(keys.table_invitations(account), {table_id: at}, nx=True)

    def invitations(self, account: str, count: int) -> list[str]:
        return list(self._redis.zrevrange(keys.table_invitations(account), 0, count - 1))

    def rematch(self, game_id: str) -> str | None:
        found: str | None = self._redis.get(keys.rematch(game_id))
        return found

    def claim_rematch(self, game_id: str, table_id: str) -> str:
        """The table of the game's rematch: this one if none was claimed before."""
        self._redis.set(keys.rematch(game_id), table_id, nx=True)
        return str(self._redis.get(keys.rematch(game_id)))

    def keep_referee(self, table_id: str, token: str) -> None:
        self._redis.set(keys.table_referee(table_id), token)

    def referee(self, table_id: str) -> str | None:
        found: str | None = self._redis.get(keys.table_referee(table_id))
        return found

    def claim_start(self, table_id: str, seconds: int) -> bool:
        """Whether this caller makes the table's game (one at a time; a start that dies
        leaves the claim to expire)."""
        return bool(self._redis.set(keys.table_starting(table_id), "1", nx=True, ex=seconds))
