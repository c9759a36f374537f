"""Annotations on Redis: a stream per game (``game:{id}:notes``), beside its log."""

from __future__ import annotations

import json
from typing import Any

from redis.exceptions import ResponseError

from events.shapes import JSON
from service.services.errors import Invalid

from . import keys


class RedisNotes:
    def __init__(self, redis: Any) -> None:
        self._redis = redis

    def count(self, game_id: str) -> int:
        return int(self._redis.xlen(keys.notes(game_id)))

    def add(self, game_id: str, note: JSON) -> str:
        return str(self._redis.xadd(keys.notes(game_id), {"n": json.dumps(note)}))

    def page(self, game_id: str, after: str | None, limit: int) -> list[tuple[str, JSON]]:
        start = f"({after}" if after else "-"
        try:
            found = self._redis.xrange(keys.notes(game_id), start, "+", count=limit)
        except ResponseError as exc:  # an id Redis does not take (e.g. beyond 2^64)
            raise Invalid("bad_cursor", "after must be the id of an annotation") from exc
        return [(note_id, json.loads(fields["n"])) for note_id, fields in found]

    def get(self, game_id: str, note_id: str) -> JSON | None:
        try:
            found = self._redis.xrange(keys.notes(game_id), note_id, note_id)
        except ResponseError:  # a malformed id names no note
            return None
        return json.loads(found[0][1]["n"]) if found else None


class RedisAnalysisJobs:
    """Evaluation lines, stored beside a game (never in its log)."""

    def __init__(self, redis: Any) -> None:
        self._redis = redis

    def get(self, game_id: str) -> JSON | None:
        raw = self._redis.get(keys.analysis(game_id))
        return json.loads(raw) if raw else None

    def put(self, game_id: str, job: JSON) -> None:
        self._redis.set(keys.analysis(game_id), json.dumps(job))
