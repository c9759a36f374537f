"""Table chat on Redis: a stream per game beside its log (never folded), the referee's
hide marks, the chat's settings, each reader's mutes and the writers' rate counters, all
under the game's hash tag."""

from __future__ import annotations

import json
from typing import Any

from events.shapes import JSON

from . import keys

KEPT = 5000  # messages kept per game (the oldest go first)


class RedisChat:
    def __init__(self, redis: Any) -> None:
        self._redis = redis

    def add(self, game_id: str, message: JSON) -> str:
        found: str = self._redis.xadd(keys.chat(game_id), {"m": json.dumps(message)}, maxlen=KEPT, approximate=True)
        return found

    def read(self, game_id: str, after: str | None, count: int) -> list[tuple[str, JSON]]:
        start = f"({after}" if after else "-"
        return [(i, json.loads(f["m"])) for i, f in self._redis.xrange(keys.chat(game_id), start, "+", count=count)]

    def has(self, game_id: str, message_id: str) -> bool:
        return bool(self._redis.xrange(keys.chat(game_id), message_id, message_id, count=1))

    def hide(self, game_id: str, message_id: str, mark: JSON) -> bool:
        return bool(self._redis.hsetnx(keys.chat_hidden(game_id), message_id, json.dumps(mark)))

    def hidden(self, game_id: str) -> dict[str, JSON]:
        return {i: json.loads(m) for i, m in self._redis.hgetall(keys.chat_hidden(game_id)).items()}

    def settings(self, game_id: str) -> dict[str, str]:
        found: dict[str, str] = self._redis.hgetall(keys.chat_settings(game_id))
        return found

    def keep_settings(self, game_id: str, settings: dict[str, str]) -> None:
        self._redis.hset(keys.chat_settings(game_id), mapping=settings)

    def bump(self, game_id: str) -> None:
        """Counts a change (a message, a hide, new settings) in the settings' ``version``,
        so one read of the settings says whether anything changed."""
        self._redis.hincrby(keys.chat_settings(game_id), "version", 1)

    def mute(self, game_id: str, reader: str, seat: int, muted: bool) -> list[int]:
        key = keys.chat_mutes(game_id, reader)
        if muted:
            self._redis.sadd(key, seat)
        else:
            self._redis.srem(key, seat)
        return self.muted(game_id, reader)

    def muted(self, game_id: str, reader: str) -> list[int]:
        return sorted(int(s) for s in self._redis.smembers(keys.chat_mutes(game_id, reader)))

    def spend(self, game_id: str, writer: str, limit: int, window: int) -> int:
        """Counts a message against the writer's window; 0 if it may go, else the seconds
        until the window ends."""
        key = keys.chat_rate(game_id, writer)
        pipe = self._redis.pipeline()
        pipe.set(key, 0, ex=window, nx=True)  # the window starts with its first message (INCR keeps the TTL)
        pipe.incr(key)
        pipe.ttl(key)
        _, count, ttl = pipe.execute()
        return 0 if int(count) <= limit else max(1, int(ttl))
