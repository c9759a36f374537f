"""The lobby lines of archived games, kept in the archive store, not in Redis.

Each archiving pass writes the lines of the games it took out of Redis as segments
(``listing/<n>.jsonl.gz``: full lobby lines, newest first, at most ``SEGMENT_GAMES``
each) and rewrites the small index ``listing/index.json`` (per segment: its name, how
many games, the newest and oldest creation score, the game types and statuses it holds).
Redis keeps two keys whatever the number of games archived: ``archive:listing`` (the
index's version, so every process reloads it when a pass wrote) and the pass's lock.

A lobby page of archived games reads the index (cached while its version holds), then
segments newest first (immutable: cached by name), skipping those of other types or
wholly after the cursor, and stops once no further segment can hold a game newer than
the page's last. It keeps each game's newest line before filtering by status, so a line
a later pass wrote (the game finished meanwhile) hides the older one in every page. A game read back and archived again is listed again only
when its line changed meanwhile (``Archiver`` compares it with the line the read put
back); the new segment's index entry then names it under ``replaces``, and no page shows
its older lines again. A game's line by id (``lines``: "my games", a
profile) is the trailer of the game's own archive object, cached.
"""

from __future__ import annotations

import gzip
import itertools
import json
import secrets
import time
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

from redis import exceptions

from events.shapes import JSON
from service.ports import ArchiveStore
from service.services.summaries import score_of

from . import scripts

VERSION = "archive:listing"  # bumped after each index write: the index's cached copies are stale
LOCK = "archive:pass"  # one archiving pass at a time: the index is read, extended and written back
LOCK_SECONDS = 60  # a pass killed frees the lock this soon; a live one renews it as it goes
RENEW_SECONDS = 10
RENEW_LUA = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('EXPIRE', KEYS[1], ARGV[2])
"""
UNLOCK_LUA = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
"""
INDEX = "index.json"
SEGMENT_GAMES = 5000  # lines per segment: a page decodes whole segments
SEGMENTS_CACHED = 16
LINES_CACHED = 20000

Row = tuple[int, str, JSON]  # (creation score, id, lobby line)


class ArchiveUnavailable(exceptions.ConnectionError):
    """The archive store did not answer: the read answers 503 like a storage outage."""


class PassRunning(Exception):
    """Another archiving pass holds the lock (or took it over from this one)."""


def _read(read: Any, name: str) -> bytes | None:
    try:
        found: bytes | None = read(name)
    except Exception as exc:
        raise ArchiveUnavailable(f"the archive store did not answer: {exc}") from exc
    return found


class _Lru(OrderedDict[str, Any]):
    def __init__(self, size: int) -> None:
        super().__init__()
        self._size = size

    def get_fresh(self, key: str) -> Any:
        found = self.get(key)
        if found is not None:
            self.move_to_end(key)
        return found

    def keep(self, key: str, value: Any) -> Any:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self._size:
            self.popitem(last=False)
        return value


class ArchiveListing:
    def __init__(self, redis: Any, store: ArchiveStore) -> None:
        self._redis = redis
        self._store = store
        self._index: tuple[str | None, list[JSON], dict[str, str]] = ("", [], {})
        self._segments = _Lru(SEGMENTS_CACHED)
        self._lines = _Lru(LINES_CACHED)
        self._token = ""
        self._renewed = 0.0
        self._renew = scripts.register(redis, RENEW_LUA)
        self._unlock = scripts.register(redis, UNLOCK_LUA)

    # Writing: the archiving pass, under the lock.

    def lock(self) -> bool:
        """Takes the pass's lock under a token of this pass's own, for ``LOCK_SECONDS``
        (``hold`` renews it): a pass killed blocks the next one a minute, not an hour."""
        token = secrets.token_hex(16)
        if not self._redis.set(LOCK, token, nx=True, ex=LOCK_SECONDS):
            return False
        self._token, self._renewed = token, time.monotonic()
        return True

    def hold(self) -> None:
        """Renews the lock if it is ``RENEW_SECONDS`` old, while it is still this pass's
        (compare and expire); raises ``PassRunning`` when it is not: the pass must stop
        before it writes the index or drops a game."""
        if time.monotonic() - self._renewed < RENEW_SECONDS:
            return
        if not self._renew(keys=[LOCK], args=[self._token, LOCK_SECONDS]):
            raise PassRunning("this pass's lock expired and another pass may hold it")
        self._renewed = time.monotonic()

    def unlock(self) -> None:
        """Frees the lock if it is still this pass's (compare and delete)."""
        self._unlock(keys=[LOCK], args=[self._token])

    def add(self, lines: Iterable[JSON], replaced: Iterable[str] = ()) -> int:
        """Files the lines of games leaving Redis (the caller holds the lock): written to
        the store before their Redis keys go, so a game is always listed somewhere.
        ``replaced``: games among them listed before, whose older lines no page shows
        again. Returns how many segments were written."""
        rows = sorted(((score_of(line), line["id"], line) for line in lines), key=_key, reverse=True)
        if not rows:
            return 0
        index, replaced = self._read_index(), set(replaced)
        number = max((int(s["name"].split(".")[0]) for s in index), default=0)
        for start in range(0, len(rows), SEGMENT_GAMES):
            chunk = rows[start : start + SEGMENT_GAMES]
            number += 1
            name = f"{number:08d}.jsonl.gz"
            body = "".join(json.dumps(line, separators=(",", ":")) + "\n" for _, _, line in chunk)
            self._store.put_listing(name, gzip.compress(body.encode(), compresslevel=9))
            index.append(
                {
                    "name": name,
                    "count": len(chunk),
                    "newest": chunk[0][0],
                    "oldest": chunk[-1][0],
                    "games": sorted({line["game"] for _, _, line in chunk}),
                    "statuses": sorted({line["status"] for _, _, line in chunk}),
                }
                | ({"replaces": sorted({i for _, i, _ in chunk} & replaced)} if replaced else {})
            )
        self._store.put_listing(INDEX, json.dumps({"segments": index}).encode())
        self._redis.incr(VERSION)
        return (len(rows) + SEGMENT_GAMES - 1) // SEGMENT_GAMES

    # Reading: the lobby and the lines of given games.

    def page(
        self, game: str | None, status: str | None, limit: int, cursor: tuple[int, str] | None
    ) -> tuple[list[Row], bool]:
        """Up to ``limit`` archived games newest first, strictly after ``cursor``, and
        whether more follow."""
        index, relisted = self._current_index()
        candidates = [  # not by status: a newer line of another status hides a game's older one
            s for s in index if (game is None or game in s["games"]) and (cursor is None or s["oldest"] <= cursor[0])
        ]
        candidates.sort(key=lambda s: (s["newest"], s["name"]), reverse=True)

        def shown(line: JSON) -> bool:
            return (game is None or line["game"] == game) and (status is None or line["status"] == status)

        best: dict[str, tuple[str, Row]] = {}  # id -> (segment, row): the newest segment's line, any status
        names_after = [s["name"] for s in candidates[1:]] + [""]
        newest_after = list(itertools.accumulate(reversed(names_after), max))[::-1]  # the newest segment read later
        for segment, later in zip(candidates, newest_after):
            # A game's lines all have its creation score: a segment newer than none of the
            # first ``limit`` + 1 cannot replace one of them.
            ranked = sorted((row for _, row in best.values() if shown(row[2])), key=_key, reverse=True)
            if len(ranked) > limit and segment["newest"] < ranked[limit][0]:
                break
            taken = 0
            for row in self._segment(segment["name"]):
                if taken > limit and (status is None or later < segment["name"]):
                    break  # else a segment read later, newer, may hide (by status) a line taken here
                if (cursor is not None and _key(row) >= cursor) or relisted.get(row[1], "") > segment["name"]:
                    continue  # before the cursor, or a line a newer segment replaced
                if row[1] not in best or best[row[1]][0] < segment["name"]:
                    best[row[1]] = (segment["name"], row)
                    taken += shown(row[2])
        ranked = sorted((row for _, row in best.values() if shown(row[2])), key=_key, reverse=True)
        for _, game_id, line in ranked[:limit]:
            self._lines.keep(game_id, json.dumps(line))
        return ranked[:limit], len(ranked) > limit

    def lines(self, ids: list[str]) -> list[str | None]:
        """Each archived game's lobby line (None: not archived, or archived before its
        archive object held its line, when Redis still holds it)."""
        return [self._lines.get_fresh(game_id) or self._line_of(game_id) for game_id in ids]

    def _line_of(self, game_id: str) -> str | None:
        data = _read(self._store.get, game_id)
        if data is None:
            return None
        line = json.loads(gzip.decompress(data).decode().rsplit("\n", 2)[-2]).get("summary")
        return None if line is None else str(self._lines.keep(game_id, line))

    def _current_index(self) -> tuple[list[JSON], dict[str, str]]:
        """The index, and the newest segment listing each game listed more than once."""
        version = self._redis.get(VERSION)
        if version != self._index[0]:
            index = self._read_index()
            relisted = {i: s["name"] for s in sorted(index, key=lambda s: s["name"]) for i in s.get("replaces", [])}
            self._index = (version, index, relisted)
            self._lines.clear()  # a line read back, changed and archived again
        return self._index[1], self._index[2]

    def _read_index(self) -> list[JSON]:
        raw = _read(self._store.get_listing, INDEX)
        segments: list[JSON] = json.loads(raw)["segments"] if raw else []
        return segments

    def _segment(self, name: str) -> list[Row]:
        found: list[Row] | None = self._segments.get_fresh(name)
        if found is None:
            raw = _read(self._store.get_listing, name)
            lines = [json.loads(text) for text in gzip.decompress(raw).decode().splitlines()] if raw else []
            found = self._segments.keep(name, [(score_of(line), line["id"], line) for line in lines])
        return found


def _key(row: Row) -> tuple[int, str]:
    return row[0], row[1]
