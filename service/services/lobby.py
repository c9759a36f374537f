"""The lobby: pages of game summaries served from sorted-set indexes, never a scan.

Each game's summary lives in its own key (written by the append itself). The game is
filed, in one pipelined round trip, under four sorted sets scored by its creation time
(all games, its game type, its status, type + status) when it is created and whenever
its status changes, nowhere else, so moves pay nothing for it. A lobby request reads
one page of one index (``ZREVRANGEBYSCORE ... LIMIT``) and the summaries of that page
only, so its cost does not grow with the number of games.

Pages are newest first. ``next`` is an opaque cursor: the creation score and id of the
last game of the page; the next page starts strictly after it (ties in score are
ordered by id, as Redis orders them), so games created meanwhile never shift a page.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from events import keys
from service.services.errors import Invalid

STATUSES = ("active", "paused", "finished")
BUILT = "lobby:built"  # set once the indexes hold every game (backfilled from games:index)
_checked: set[int] = set()  # id() of the clients that have seen BUILT in this process


def index_key(game: str | None = None, status: str | None = None) -> str:
    parts = ["lobby"] + (["game", game] if game else []) + (["status", status] if status else [])
    return ":".join(parts) if len(parts) > 1 else "lobby:all"


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def score_of(summary: dict) -> int:
    """Creation time in whole microseconds: an integer, so a cursor names it exactly
    (Redis scores are doubles, exact for integers below 2^53)."""
    try:
        created = datetime.fromisoformat(summary["created_at"].replace("Z", "+00:00"))
    except (KeyError, TypeError, ValueError, AttributeError):
        return 0
    return (created - EPOCH) // timedelta(microseconds=1)


def record(redis, summary: dict) -> None:
    """File a game under the indexes of its type and status (one round trip)."""
    game_id, game, status = summary["id"], summary["game"], summary["status"]
    score = score_of(summary)
    pipe = redis.pipeline(transaction=False)
    for key in (index_key(), index_key(game), index_key(status=status), index_key(game, status)):
        pipe.zadd(key, {game_id: score})
    for other in STATUSES:
        if other != status:
            pipe.zrem(index_key(status=other), game_id)
            pipe.zrem(index_key(game, other), game_id)
    pipe.execute()


def _backfill(platform) -> None:
    """Once per database: file the games created before these indexes existed."""
    redis = platform.redis
    if id(redis) in _checked:
        return
    if redis.exists(BUILT):
        _checked.add(id(redis))
        return
    for game_id in redis.zrange(keys.GAMES_INDEX, 0, -1):
        raw = redis.get(keys.summary(game_id))
        summary = json.loads(raw) if raw else platform._summarise(game_id, platform._latest_or_none(game_id))
        if summary is not None and raw:
            record(redis, summary)
    redis.set(BUILT, "1")
    _checked.add(id(redis))


CURSOR = r"^[0-9]{1,16}:[0-9A-Za-z]{1,64}$"  # what encode_cursor makes; the query schema checks it


def encode_cursor(score: float, game_id: str) -> str:
    return f"{int(score)}:{game_id}"


def decode_cursor(cursor: str) -> tuple[int, str]:
    score, _, game_id = cursor.partition(":")
    if not score.isascii() or not score.isdigit() or not game_id:
        raise Invalid("bad_cursor", "cursor is not a lobby cursor (use the `next` of a page)")
    return int(score), game_id


def page(
    platform, game: str | None = None, status: str | None = None, limit: int = 50, cursor: str | None = None
) -> dict:
    """``{games: [summary], next: cursor | None}``: at most ``limit`` games, newest first."""
    redis = platform.redis
    _backfill(platform)
    key = index_key(game, status)
    if cursor:
        score, last_id = decode_cursor(cursor)
        ties = [(m, score) for m in reversed(redis.zrangebyscore(key, score, score)) if m < last_id]
        rest = redis.zrevrangebyscore(key, f"({score}", "-inf", start=0, num=limit + 1, withscores=True)
        found = (ties + rest)[: limit + 1]
    else:
        found = redis.zrevrange(key, 0, limit, withscores=True)
    more = len(found) > limit
    found = found[:limit]
    ids = [game_id for game_id, _ in found]
    raws = platform._summaries(ids)
    games = []
    for game_id, raw in zip(ids, raws):
        summary = json.loads(raw) if raw else platform._summarise(game_id, platform._latest_or_none(game_id))
        if summary is None or (game and summary["game"] != game) or (status and summary["status"] != status):
            continue  # an index a moment behind its summary: the next write files it right
        games.append(summary)
    return {"games": games, "next": encode_cursor(found[-1][1], found[-1][0]) if more else None}
