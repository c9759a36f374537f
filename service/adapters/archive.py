"""Finished games out of Redis: a game's log, compressed, in an archive store.

Archiving a game writes its entries (the sealed, hash-chained envelopes an export is
made of), its seed, action ids, seat tokens and lobby line as gzip'd JSON lines to the
store (a directory here, or an S3-compatible bucket: ``s3_archive.py``); the pass then
files the lobby lines of the games it archived in the archive's listing
(``archive_listing.py``), and, per game, in one script that first checks the log still
ends where the archive does and no token was issued meanwhile, deletes the keys that
held them (entries, action ids, seed, tokens, computer seats' tokens, fold snapshots,
lobby line); the game leaves the games index, the lobby's sets, ``archive:due``, a
clock's deadline and the computer seats' queue and cap. No
key or set member of an archived game's stays in Redis (but its annotations, chat and
rematch offer when it has them; its rating entries live in the ratings log): the lobby
lists it from the listing, "my games" reads its line from its archive.
Reading an archived game, or one of its tokens, puts its log and line back into Redis
first (``restore``) and files it in the lobby again, so replay, export, verify, fork and
annotations work as before; the next archiving pass takes it out again.

``sweep`` picks the games: finished ones (from ``archive:due``, which the lobby fills as
games finish) whose last entry is older than a given age, and abandoned ones (unrated,
not finished, no entry for a longer age) from the lobby's set of active games. One pass
runs at a time (a lock in Redis, under the pass's own token, renewed as the pass goes and
expiring a minute after a pass died): the listing's index is read, extended and written back.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import logging
import os
import tempfile
from collections.abc import Iterator
from datetime import datetime
from typing import Any, NamedTuple

from service.ports import ArchiveStore
from service.services.summaries import COMPACT, STATUSES, full_line

from . import keys, scripts
from .archive_listing import SEGMENT_GAMES, ArchiveListing, ArchiveUnavailable, PassRunning
from .bot_queue import RedisBotQueue
from .lobby import ARCHIVE_DUE, RedisLobby, index_key
from .schedules import RedisSchedules

log = logging.getLogger(__name__)

DROP_LUA = """
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
if #last == 0 or last[1][1] ~= ARGV[1] then return 0 end
if redis.call('HLEN', KEYS[2]) ~= tonumber(ARGV[2]) then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], unpack(KEYS, 3))
return 1
"""
DROP_LINE_LUA = """
if redis.call('EXISTS', KEYS[2]) == 1 or redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
"""
CHUNK = 500  # games whose last entry one pipeline reads


class DirectoryArchive:
    """One file per game under ``root`` (``<id>.jsonl.gz``) and the listing under
    ``root/listing``, each written whole or not at all."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self._root = os.fspath(root)
        os.makedirs(os.path.join(self._root, "listing"), exist_ok=True)

    def put(self, game_id: str, data: bytes) -> None:
        _write(self._root, f"{game_id}.jsonl.gz", data)

    def get(self, game_id: str) -> bytes | None:
        return _read(os.path.join(self._root, f"{game_id}.jsonl.gz"))

    def put_listing(self, name: str, data: bytes) -> None:
        _write(os.path.join(self._root, "listing"), name, data)

    def get_listing(self, name: str) -> bytes | None:
        return _read(os.path.join(self._root, "listing", name))


def _write(folder: str, name: str, data: bytes) -> None:
    """Whole or not at all; a write that fails (a full disk) leaves no ``.part`` file
    taking the space that is short."""
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, os.path.join(folder, name))
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as found:
            return found.read()
    except FileNotFoundError:
        return None


class Written(NamedTuple):
    """A game's archive object written: what the drop script checks (its last entry's
    id, its tokens' count), its lobby line, and the line the listing holds for it
    already (a game read back from the archive)."""

    game_id: str
    size: int
    check: list[Any]
    line: str | None
    listed: str | None


class Archiver:
    """Moves games' logs between Redis and the archive store, and their lobby lines
    into the archive's listing."""

    def __init__(self, redis: Any, archive: ArchiveStore, listing: ArchiveListing | None = None) -> None:
        self._redis = redis
        self._archive = archive
        self._listing = listing or ArchiveListing(redis, archive)
        self._drop = scripts.register(redis, DROP_LUA)
        self._drop_line = scripts.register(redis, DROP_LINE_LUA)
        self._bots = RedisBotQueue(redis)
        self._schedules = RedisSchedules(redis)

    def archive(self, game_id: str) -> int:
        """Archives the game; the archive's size in bytes (0: nothing to archive, another
        pass is running, or the log grew or a token was issued while it was written: it
        stays in Redis)."""
        if not self._listing.lock():
            return 0
        try:
            return self._archive_all([game_id], self._snapshots()).get(game_id, 0)
        finally:
            self._listing.unlock()

    def _archive_all(self, ids: list[str], snapshots: dict[str, list[str]]) -> dict[str, int]:
        """Writes each game's archive object, then the listing of their lines, then drops
        their keys: a game is in Redis or in the listing (both for a moment) at every
        step. A game read back is listed again only if its line changed meanwhile (the
        new line replaces the old). The archive's size per game dropped."""
        written = []
        for game_id in ids:
            self._listing.hold()
            found = self._write(game_id)
            if found is not None:
                written.append(found)
        self._listing.hold()
        changed = [w for w in written if w.line and w.line != w.listed]
        self._mark_listed({w.game_id: w.listed or PENDING for w in changed})
        self._listing.add([json.loads(w.line) for w in changed if w.line], [w.game_id for w in changed if w.listed])
        self._mark_listed({w.game_id: w.line for w in changed if w.line})
        sizes = {}
        for w in written:
            self._listing.hold()
            drop = [keys.events(w.game_id), keys.tokens(w.game_id), keys.summary(w.game_id), keys.listed(w.game_id)]
            drop += [keys.idempotency(w.game_id), keys.seed(w.game_id), keys.bots(w.game_id)]
            if self._drop(keys=drop + snapshots.get(w.game_id, []), args=w.check):
                self._unfile(w.game_id, w.line)
                sizes[w.game_id] = w.size
        return sizes

    def _mark_listed(self, lines: dict[str, str]) -> None:
        """Remembers each game's line in the listing until its drop deletes the mark: a
        game whose drop is refused (its log grew) or whose pass died before dropping it
        is listed again with its older line replaced, whatever its new status."""
        pipe = self._redis.pipeline(transaction=False)
        for game_id, line in lines.items():
            pipe.set(keys.listed(game_id), line)
        pipe.execute()

    def _write(self, game_id: str) -> Written | None:
        """Puts the game's log, seed, action ids, tokens and lobby line in the store."""
        pipe = self._redis.pipeline(transaction=False)
        pipe.xrange(keys.events(game_id))
        for key in (keys.tokens, keys.idempotency, keys.bots):
            pipe.hgetall(key(game_id))
        for key in (keys.summary, keys.seed, keys.listed):
            pipe.get(key(game_id))
        entries, tokens, actions, bots, summary, seed, listed = pipe.execute()
        if not entries:
            return None
        lines = [fields["e"] for _, fields in entries]
        line = full_line(game_id, summary) if summary else None
        trailer = {"seed": seed, "actions": actions, "tokens": tokens, "bots": bots, "summary": line}
        data = _pack(lines, trailer)
        self._archive.put(game_id, data)
        return Written(game_id, len(data), [entries[-1][0], len(tokens)], line, listed)

    def _unfile(self, game_id: str, line: str | None) -> None:
        """The game leaves the games index, the lobby's sets, the archiver's due set, and
        the schedules (a clock's deadline, the computer seats' queue and cap): a worker
        would otherwise read it back to end or play it."""
        self._bots.forget(game_id)
        self._schedules.clock_due(game_id, None)
        self._schedules.held(game_id, False)
        pipe = self._redis.pipeline(transaction=False)
        pipe.zrem(keys.GAMES_INDEX, game_id)
        pipe.zrem(ARCHIVE_DUE, game_id)
        game = json.loads(line)["game"] if line else None
        for status in STATUSES:
            pipe.zrem(index_key(status), game_id)
            if game:
                pipe.zrem(index_key(status, game), game_id)
        pipe.execute()

    def restore(self, game_id: str) -> bool:
        """Puts an archived game's log, tokens and lobby line back into Redis (a no-op
        when they are there) and files it in the lobby again: the next pass archives it
        again (finished, or still abandoned)."""
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
        if trailer.get("summary"):  # an append writes it anew; archives of old versions left it in Redis
            pipe.set(keys.summary(game_id), trailer["summary"], nx=True)
            pipe.set(keys.listed(game_id), trailer["summary"])  # the line the listing holds
        try:
            pipe.execute()
        except Exception as exc:  # another reader restored it first: the stream's ids are taken
            if "equal or smaller" not in str(exc):
                raise
        line = self._redis.get(keys.summary(game_id))
        if line:
            RedisLobby(self._redis).record(json.loads(full_line(game_id, line)))
        return True

    def sweep(self, finished_after: float, abandoned_after: float, now: float) -> dict[str, int]:
        """Archives the finished games idle for ``finished_after`` seconds and the unrated
        unfinished ones idle for ``abandoned_after``: counts and bytes written (none when
        another pass holds the lock)."""
        done = {"finished": 0, "abandoned": 0, "bytes": 0, "lines_moved": 0}
        if not self._listing.lock():
            raise PassRunning("another archiving pass holds the lock: this one did nothing")
        try:
            self._seed_due()
            done["lines_moved"] = self._move_old_lines()
            snapshots = self._snapshots()
            due = self._redis.zrangebyscore(ARCHIVE_DUE, "-inf", now - finished_after)
            for kind, ids, age in (("finished", due, finished_after), ("abandoned", self._active(), abandoned_after)):
                chosen = []
                for game_id, last in self._last_entries(ids):
                    if last is None:
                        if kind == "finished":
                            self._redis.zrem(ARCHIVE_DUE, game_id)
                        continue
                    if now - _seconds(json.loads(last)["ts"]) < age:
                        continue
                    if kind == "abandoned" and self._ranked(game_id):
                        continue
                    chosen.append(game_id)
                for start in range(0, len(chosen), SEGMENT_GAMES):
                    sizes = self._archive_all(chosen[start : start + SEGMENT_GAMES], snapshots)
                    done[kind] += len(sizes)
                    done["bytes"] += sum(sizes.values())
        finally:
            self._listing.unlock()
        return done

    def _move_old_lines(self) -> int:
        """Once per database: the games older versions archived kept their compact lobby
        line and their lobby sets' entries in Redis. Each one's line goes into its archive
        object's trailer and the listing, then leaves Redis (unless the game was read
        back meanwhile: the next pass archives it as any other). How many moved."""
        if self._redis.exists(LINES_MOVED):
            return 0
        moved = 0
        for status in STATUSES:
            ids = self._redis.zrange(index_key(status), 0, -1)
            for start in range(0, len(ids), SEGMENT_GAMES):
                chunk = ids[start : start + SEGMENT_GAMES]
                self._listing.hold()
                pipe = self._redis.pipeline(transaction=False)
                for game_id in chunk:
                    pipe.get(keys.summary(game_id))
                    pipe.exists(keys.events(game_id))
                found = pipe.execute()
                old = {i: raw for i, raw, held in zip(chunk, found[::2], found[1::2]) if raw and not held}
                lines = {i: self._add_line(i, raw) for i, raw in old.items() if raw.startswith(COMPACT)}
                self._listing.add(json.loads(line) for line in lines.values() if line)
                for game_id, line in lines.items():
                    summary = [keys.summary(game_id), keys.events(game_id)]
                    if line and self._drop_line(keys=summary, args=[old[game_id]]):
                        self._unfile(game_id, line)
                        moved += 1
        self._redis.set(LINES_MOVED, "1")
        return moved

    def _add_line(self, game_id: str, compact: str) -> str | None:
        """Writes the game's full lobby line into its archive object's trailer."""
        data = self._archive.get(game_id)
        if data is None:
            return None
        *lines, last = gzip.decompress(data).decode().splitlines()
        trailer = {**json.loads(last), "summary": full_line(game_id, compact)}
        self._archive.put(game_id, _pack(lines, trailer))
        return str(trailer["summary"])

    def _snapshots(self) -> dict[str, list[str]]:
        """Every game's fold snapshot keys, by game: one SCAN per pass, not one per game."""
        found: dict[str, list[str]] = {}
        for key in self._redis.scan_iter(match="game:*:snapshots:*", count=1000):
            found.setdefault(key[key.index("{") + 1 : key.index("}")], []).append(key)
        return found

    def _active(self) -> list[str]:
        return list(self._redis.zrange(index_key("active"), 0, -1))

    def _last_entries(self, ids: list[str]) -> Iterator[tuple[str, str | None]]:
        """Each game's last entry (None: no log in Redis), ``CHUNK`` games per round trip."""
        for start in range(0, len(ids), CHUNK):
            chunk = ids[start : start + CHUNK]
            pipe = self._redis.pipeline(transaction=False)
            self._listing.hold()
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
PENDING = "-"  # a game's mark while its line is being listed: no line equals it, so it is listed again
LINES_MOVED = "archive:lines-moved"  # the lines older versions left in Redis are in the listing


def _pack(entries: list[str], trailer: dict[str, Any]) -> bytes:
    """An archive object: the entries, then the trailer, as gzip'd JSON lines."""
    return gzip.compress(("\n".join([*entries, json.dumps(trailer)]) + "\n").encode(), compresslevel=9)


def _seconds(ts: str) -> float:
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp()
