"""The lobby's indexes on Redis: sorted sets of game ids scored by creation time.

A game is filed, in one pipelined round trip, under two sets (its status, its game
type + status) when it is created and whenever its status changes, nowhere else, so
moves pay nothing for it. A page of one status is one ``ZREVRANGEBYSCORE ... LIMIT`` of
one set; a page of every status merges the same read of the three status sets (one
pipeline), so no game is held a third and fourth time in sets of all statuses (what
stays in Redis for every game ever played: docs/DEPLOY.md, "Archive"). Ties in score
are ordered by id, as Redis orders them.
"""

from __future__ import annotations

import time
from typing import Any

from events.shapes import JSON
from service.services.summaries import STATUSES, score_of

from . import keys

BUILT = "lobby:built"  # set once the indexes hold every game (backfilled from games:index)


def index_key(status: str, game: str | None = None) -> str:
    return ":".join(["lobby"] + (["game", game] if game else []) + ["status", status])


ARCHIVE_DUE = "archive:due"  # finished games by when they finished: the archiver's candidates (archive.py)
UNFILTERED = ("lobby:all", "lobby:game:*")  # sets of every status, no longer kept: lobby-index drops them


class RedisLobby:
    def __init__(self, redis: Any) -> None:
        self._redis = redis

    def created(self, game_id: str, at: float) -> None:
        self._redis.zadd(keys.GAMES_INDEX, {game_id: at})

    def record(self, summary: JSON) -> None:
        game_id, game, status = summary["id"], summary["game"], summary["status"]
        score = score_of(summary)
        pipe = self._redis.pipeline(transaction=False)
        for key in (index_key(status), index_key(status, game)):
            pipe.zadd(key, {game_id: score})
        for other in STATUSES:
            if other != status:
                pipe.zrem(index_key(other), game_id)
                pipe.zrem(index_key(other, game), game_id)
        if status == "finished":
            pipe.zadd(ARCHIVE_DUE, {game_id: time.time()})
        pipe.execute()

    def page(
        self, game: str | None, status: str | None, limit: int, cursor: tuple[int, str] | None
    ) -> tuple[list[tuple[str, float]], bool]:
        pipe = self._redis.pipeline(transaction=False)
        for key in [index_key(s, game) for s in ([status] if status else STATUSES)]:
            if cursor:
                pipe.zrangebyscore(key, cursor[0], cursor[0])
                pipe.zrevrangebyscore(key, f"({cursor[0]}", "-inf", start=0, num=limit + 1, withscores=True)
            else:
                pipe.zrevrange(key, 0, limit, withscores=True)
        answers = pipe.execute()
        if cursor:
            score, last_id = cursor
            ties = [(m, float(score)) for tied in answers[::2] for m in tied if m < last_id]
            answers = [ties, *answers[1::2]]
        filed = {str(i): float(s) for found in answers for i, s in found}  # once, even mid-move between sets
        merged = sorted(filed.items(), key=_newest, reverse=True)
        return merged[:limit], len(merged) > limit

    def all_ids(self) -> list[str]:
        return list(self._redis.zrange(keys.GAMES_INDEX, 0, -1))

    def count(self) -> int:
        return int(self._redis.zcard(keys.GAMES_INDEX))

    def built(self) -> bool:
        return bool(self._redis.exists(BUILT))

    def mark_built(self) -> None:
        """Marks the indexes built and drops the sets of every status older versions kept."""
        for pattern in UNFILTERED:
            stale = [k for k in self._redis.scan_iter(match=pattern, count=1000) if ":status:" not in k]
            if stale:
                self._redis.delete(*stale)
        self._redis.set(BUILT, "1")


def _newest(entry: tuple[str, float]) -> tuple[float, str]:
    return entry[1], entry[0]
