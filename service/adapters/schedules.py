"""The platform's schedules on Redis: sorted sets of games by when something is due.

``games:deadlines`` (a clock runs out), ``analysis:due`` (an evaluation line was
asked for; the computer seats have their fair queue, ``bot_queue.py``). Several workers
and the bot pool share them; popping is atomic (ZPOPMIN), so each due item is taken once.
Beside them: the clock sweepers' heartbeat (``clocks:heartbeat``), the maintenance
flag (``clocks:maintenance``) and the games it paused (``clocks:held``).
"""

from __future__ import annotations

from typing import Any

from . import keys


class RedisSchedules:
    def __init__(self, redis: Any) -> None:
        self._redis = redis

    def clock_due(self, game_id: str, at: float | None) -> None:
        if at is None:
            self._redis.zrem(keys.DEADLINES, game_id)
        else:
            self._redis.zadd(keys.DEADLINES, {game_id: at})

    def clocks_due(self, now: float) -> list[str]:
        return list(self._redis.zrangebyscore(keys.DEADLINES, "-inf", now))

    def heartbeat(self, now: float) -> None:
        self._redis.set(keys.HEARTBEAT, repr(now))

    def last_heartbeat(self) -> float | None:
        beat = self._redis.get(keys.HEARTBEAT)
        return None if beat is None else float(beat)

    def maintenance(self, on: bool) -> None:
        if on:
            self._redis.set(keys.MAINTENANCE, "1")
        else:
            self._redis.delete(keys.MAINTENANCE)

    def in_maintenance(self) -> bool:
        return bool(self._redis.exists(keys.MAINTENANCE))

    def held(self, game_id: str, on: bool) -> None:
        if on:
            self._redis.sadd(keys.HELD, game_id)
        else:
            self._redis.srem(keys.HELD, game_id)

    def held_games(self) -> list[str]:
        return sorted(str(g) for g in self._redis.smembers(keys.HELD))

    def analysis_due(self, game_id: str, at: float) -> None:
        self._redis.zadd(keys.ANALYSIS_DUE, {game_id: at})

    def next_analysis(self) -> str | None:
        return self._pop(keys.ANALYSIS_DUE)

    def _pop(self, key: str) -> str | None:
        popped = self._redis.zpopmin(key)
        return str(popped[0][0]) if popped else None
