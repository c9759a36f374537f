"""Finished games out of Redis: a game's log, compressed, in an archive store.

Archiving a game writes its entries (the sealed, hash-chained envelopes an export is
made of), its seed, action ids and seat tokens as gzip'd JSON lines to the store (a
directory here, or an S3-compatible bucket: ``s3_archive.py``), then, in one script that
first checks the log still ends where the archive does and no token was issued
meanwhile, deletes the keys that held them (entries, action ids, seed, tokens, computer
seats' tokens, fold snapshots) and rewrites the lobby line compact; the game leaves the
games index too. What stays in Redis is what the lobby lists it by: its compact line and
its two lobby sets (and annotations; its rating entries live in the ratings log).
Reading an archived game, or one of its tokens, puts its log back into Redis first
(``restore``), so replay, export, verify, fork and annotations work as before; the next
archiving pass takes it out again.

``sweep`` picks the games: finished ones (from ``archive:due``, which the lobby fills as
games finish) whose last entry is older than a given age, and abandoned ones (unrated,
not finished, no entry for a longer age) from the lobby's set of active games.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from collections.abc import Iterator
from datetime import datetime
from typing import Any

from redis import exceptions

from service.ports import ArchiveStore
from service.services.summaries import compact_line, full_line

from . import keys, scripts
from .lobby import ARCHIVE_DUE, index_key

DROP_LUA = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 or last[1][1] ~= ARGV[1] then return 0 end
if redis.call('HLEN', KEYS[2]) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] ~= '' and redis.call('EXISTS', KEYS[3]) == 1 then redis.call('SET', KEYS[3], ARGV[3]) end
redis.call('DEL', KEYS[1], KEYS[2], unpack(KEYS, 4))
return 1
"""
CHUNK = 500  # games whose last entry one pipeline reads


class ArchiveUnavailable(exceptions.ConnectionError):
    """The archive store did not answer: the read answers 503 like a storage outage."""


class DirectoryArchive:
    """One file per game under ``root`` (``<id>.jsonl.gz``), written whole or not at all."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self._root = os.fspath(root)
        os.makedirs(root, exist_ok=True)

    def _path(self, game_id: str) -> str:
        return os.path.join(self._root, f"{game_id}.jsonl.gz")

    def put(self, game_id: str, data: bytes) -> None:
        fd, tmp = tempfile.mkstemp(dir=self._root, suffix=".part")
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, self._path(game_id))

    def get(self, game_id: str) -> bytes | None:
        try:
            with open(self._path(game_id), "rb") as found:
                return found.read()
        except FileNotFoundError:
            return None


class Archiver:
    """Moves a game's log between Redis and the archive store."""

    def __init__(self, redis: Any, archive: ArchiveStore) -> None:
        self._redis = redis
        self._archive = archive
        self._drop = scripts.register(redis, DROP_LUA)

    def archive(self, game_id: str) -> int:
        """Archives the game; the archive's size in bytes (0: nothing to archive, or the
        log grew or a token was issued while it was written: it stays in Redis)."""
        entries = self._redis.xrange(keys.events(game_id))
        if not entries:
            return 0
        lines = [fields["e"] for _, fields in entries]
        tokens = self._redis.hgetall(keys.tokens(game_id))
        trailer = {
            "seed": self._redis.get(keys.seed(game_id)),
            "actions": self._redis.hgetall(keys.idempotency(game_id)),
            "tokens": tokens,
            "bots": self._redis.hgetall(keys.bots(game_id)),
        }
        data = gzip.compress(("\n".join([*lines, json.dumps(trailer)]) + "\n").encode(), compresslevel=9)
        self._archive.put(game_id, data)
        summary = self._redis.get(keys.summary(game_id))
        snapshots = list(self._redis.scan_iter(match=f"game:{{{game_id}}}:snapshots:*", count=100))
        drop = [keys.events(game_id), keys.tokens(game_id), keys.summary(game_id)]
        drop += [keys.idempotency(game_id), keys.seed(game_id), keys.bots(game_id), *snapshots]
        if not self._drop(keys=drop, args=[entries[-1][0], len(tokens), compact_line(summary) if summary else ""]):
            return 0
        self._redis.zrem(keys.GAMES_INDEX, game_id)  # the lobby lists it from its status sets
        return len(data)

    def restore(self, game_id: str) -> bool:
        """Puts an archived game's log and tokens back into Redis (a no-op when they are there)."""
        try:
            data = self._archive.get(game_id)
        except Exception as exc:
            raise ArchiveUnavailable(f"the archive store did not answer: {exc}") from exc
        if data is None:
            return False
        *lines, last = gzip.decompress(data).decode().splitlines()
        trailer = json.loads(last)
        pipe = self._redis.pipeline(transaction=False)
        for line in lines:
            pipe.xadd(keys.events(game_id), {"e": line}, id=f"0-{json.loads(line)['seq']}")
        if trailer["seed"] is not None:
            pipe.set(keys.seed(game_id), trailer["seed"])
        for key, name in ((keys.idempotency, "actions"), (keys.tokens, "tokens"), (keys.bots, "bots")):
            if trailer.get(name):  # a retry of an old action id answers 200 with its seq, as before
                pipe.hset(key(game_id), mapping=trailer[name])
        try:
            pipe.execute()
        except Exception as exc:  # another reader restored it first: the stream's ids are taken
            if "equal or smaller" not in str(exc):
                raise
        line = self._redis.get(keys.summary(game_id))
        if line and json.loads(full_line(game_id, line))["status"] == "finished":
            self._redis.zadd(ARCHIVE_DUE, {game_id: 0})  # the next pass archives it again
        return True

    def sweep(self, finished_after: float, abandoned_after: float, now: float) -> dict[str, int]:
        """Archives the finished games idle for ``finished_after`` seconds and the unrated
        unfinished ones idle for ``abandoned_after``: counts and bytes written."""
        done = {"finished": 0, "abandoned": 0, "bytes": 0}
        self._seed_due()
        due = self._redis.zrangebyscore(ARCHIVE_DUE, "-inf", now - finished_after)
        for kind, ids, age in (("finished", due, finished_after), ("abandoned", self._active(), abandoned_after)):
            for game_id, last in self._last_entries(ids):
                if last is not None and now - _seconds(json.loads(last)["ts"]) < age:
                    continue
                if kind == "abandoned" and (last is None or self._ranked(game_id)):
                    continue
                size = self.archive(game_id) if last is not None else 0
                if kind == "finished" and (size or last is None):
                    self._redis.zrem(ARCHIVE_DUE, game_id)
                if size:
                    done[kind] += 1
                    done["bytes"] += size
        return done

    def _active(self) -> list[str]:
        return list(self._redis.zrange(index_key("active"), 0, -1))

    def _last_entries(self, ids: list[str]) -> Iterator[tuple[str, str | None]]:
        """Each game's last entry (None: no log in Redis), ``CHUNK`` games per round trip."""
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start : start + CHUNK]
            pipe = self._redis.pipeline(transaction=False)
            for game_id in chunk:
                pipe.xrevrange(keys.events(game_id), "+", "-", count=1)
            for game_id, last in zip(chunk, pipe.execute()):
                yield game_id, last[0][1]["e"] if last else None

    def _ranked(self, game_id: str) -> bool:
        raw = self._redis.get(keys.summary(game_id))
        return bool(raw and json.loads(full_line(game_id, raw)).get("ranked"))

    def _seed_due(self) -> None:
        """Once per database: the games that finished before ``archive:due`` existed are due."""
        if self._redis.exists(DUE_SEEDED):
            return
        finished = self._redis.zrange(index_key("finished"), 0, -1)
        for start in range(0, len(finished), CHUNK):
            self._redis.zadd(ARCHIVE_DUE, {game_id: 0 for game_id in finished[start : start + CHUNK]}, nx=True)
        self._redis.set(DUE_SEEDED, "1")


DUE_SEEDED = "archive:due:seeded"


def _seconds(ts: str) -> float:
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp()
