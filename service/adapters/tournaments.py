"""Tournaments' secrets and index on Redis.

Beside each tournament's stream, a hash that is never exported holds the digests of the
director's and players' tokens and the seat and referee tokens of its games; a lock
keeps registrations out while a round is being paired; a sorted set lists the newest.
"""

from __future__ import annotations

from typing import Any

from . import keys

PAIRING_SECONDS = 300  # a pairing that dies leaves the lock to expire


class RedisTournamentSecrets:
    def __init__(self, redis: Any) -> None:
        self._redis = redis

    def get(self, tid: str, name: str) -> str | None:
        found: str | None = self._redis.hget(keys.tournament_secrets(tid), name)
        return found

    def get_many(self, tid: str, names: list[str]) -> dict[str, str | None]:
        return dict(zip(names, self._redis.hmget(keys.tournament_secrets(tid), names))) if names else {}

    def put(self, tid: str, values: dict[str, str]) -> None:
        self._redis.hset(keys.tournament_secrets(tid), mapping=values)

    def drop(self, tid: str) -> None:
        self._redis.delete(keys.tournament_secrets(tid))

    def listed(self, tid: str, at: float) -> None:
        self._redis.zadd(keys.TOURNAMENTS_INDEX, {tid: at})

    def newest(self, count: int) -> list[str]:
        return list(self._redis.zrevrange(keys.TOURNAMENTS_INDEX, 0, count - 1))

    def lock_pairing(self, tid: str) -> bool:
        return bool(self._redis.set(keys.tournament_pairing_lock(tid), "1", nx=True, ex=PAIRING_SECONDS))

    def unlock_pairing(self, tid: str) -> None:
        self._redis.delete(keys.tournament_pairing_lock(tid))

    def pairing(self, tid: str) -> bool:
        return bool(self._redis.exists(keys.tournament_pairing_lock(tid)))
