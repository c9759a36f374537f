"""The lobby: pages of game summaries served from sorted-set indexes, never a scan.

Each game's summary is written by the append itself, beside its log. The index
(``ports.Lobby``) files a game when it is created and whenever its status changes,
nowhere else, so moves pay nothing for it. A lobby request reads one page of one index
and the summaries of that page only, so its cost does not grow with the number of games.

Games created before these indexes existed are filed once per database by
``build_indexes``: at upgrade (``python -m service lobby-index``), or on a thread aside
that ``prepare`` starts with the app; never inside a request, whose cost would grow
with the number of games (a lobby read once stalled 16.8 s at 1,080 games doing it).
Meanwhile the lobby lists what the indexes hold.

Archived games are in no Redis index: a page merges the indexes' page with the same
page of the archive's listing (``ports.ArchivedGames``), so the lobby lists every game
ever played while Redis holds only the games not archived.

Pages are newest first. ``next`` is an opaque cursor: the creation score and id of the
last game of the page; the next page starts strictly after it, so games created
meanwhile never shift a page.
"""

from __future__ import annotations

import json
import logging
import threading

from events.shapes import JSON, Envelope
from events.store import EventStore, game_stream
from projections.fold import PlatformState
from service.ports import ArchivedGames, GameLog, Lagging
from service.ports import Lobby as LobbyIndex
from service.services.errors import Invalid
from service.services.summaries import summary_line

log = logging.getLogger(__name__)

CURSOR = r"^[0-9]{1,16}:[0-9A-Za-z]{1,64}$"  # what encode_cursor makes; the query schema checks it


def encode_cursor(score: float, game_id: str) -> str:
    return f"{int(score)}:{game_id}"


def decode_cursor(cursor: str) -> tuple[int, str]:
    score, _, game_id = cursor.partition(":")
    if not score.isascii() or not score.isdigit() or not game_id:
        raise Invalid("bad_cursor", "cursor is not a lobby cursor (use the `next` of a page)")
    return int(score), game_id


class Lobby:
    def __init__(
        self,
        index: LobbyIndex,
        store: EventStore,
        log: GameLog,
        lagging: Lagging,
        archived: ArchivedGames | None = None,
    ) -> None:
        self._index = index
        self._archived = archived
        self._store = store
        self._log = log
        self._lagging = lagging

    def page(
        self, game: str | None = None, status: str | None = None, limit: int = 50, cursor: str | None = None
    ) -> JSON:
        """``{games: [summary], next: cursor | None}``: at most ``limit`` games, newest first."""
        self._lagging.flush()
        after = decode_cursor(cursor) if cursor else None
        in_redis, more = self._index.page(game, status, limit, after)
        filed = {game_id: int(score) for game_id, score in in_redis}
        if self._archived is not None:
            archived, more_archived = self._archived.page(game, status, limit, after)
            more = more or more_archived
            for score, game_id, _ in archived:
                filed.setdefault(game_id, score)  # read back from the archive: filed in Redis too
        merged = sorted(filed.items(), key=lambda e: (e[1], e[0]), reverse=True)
        more, found = more or len(merged) > limit, merged[:limit]
        ids = [game_id for game_id, _ in found]
        games = []
        for game_id, raw in zip(ids, self._store.summaries([game_stream(i) for i in ids])):
            summary = json.loads(raw) if raw else self._summarise(game_id)
            if summary is None or (game and summary["game"] != game) or (status and summary["status"] != status):
                continue  # an index a moment behind its summary: the next write files it right
            games.append(summary)
        return {"games": games, "next": encode_cursor(found[-1][1], found[-1][0]) if more and found else None}

    def created(self, game_id: str, at: float) -> None:
        self._lagging.run(("created", game_id), lambda: self._index.created(game_id, at))

    def filed(
        self, game_id: str, before: PlatformState | None, envelopes: list[Envelope], after: PlatformState
    ) -> None:
        """After an append: file the game anew when its status changed (or it was created)."""
        if before is None or before["status"] != after["status"]:
            line = summary_line(game_id, after)
            self._lagging.run(("index", game_id), lambda: self._index.record(line))

    def _summarise(self, game_id: str) -> JSON | None:
        """Write the lobby line of a game whose line is missing (appends write it)."""
        p = self._log.state_or_none(game_id)
        if p is None:
            return None
        summary = summary_line(game_id, p)
        self._store.keep_summary(game_stream(game_id), json.dumps(summary))
        self._lagging.run(("index", game_id), lambda: self._index.record(summary))
        return summary

    def prepare(self) -> None:
        """At start, never in a request: a database with no games yet marks its indexes
        built; one holding games from before them is filed on a thread aside."""
        if self._index.built():
            return
        if self._index.count() == 0:
            self._index.mark_built()
            return
        log.warning("the lobby indexes are not built: filing every game aside (python -m service lobby-index)")
        threading.Thread(target=self._build_aside, name="lobby-index", daemon=True).start()

    def _build_aside(self) -> None:
        try:
            log.info("lobby indexes built: %d games filed", self.build_indexes())
        except Exception:
            log.exception("building the lobby indexes failed; python -m service lobby-index retries")

    def build_indexes(self, batch: int = 500) -> int:
        """File every game of the games index in the lobby's indexes (idempotent: each
        write is a ZADD/ZREM of the game's summary), then mark them built; returns how
        many games were filed. Reads the summaries ``batch`` games per round trip."""
        ids = self._index.all_ids()
        filed = 0
        for start in range(0, len(ids), batch):
            chunk = ids[start : start + batch]
            for game_id, raw in zip(chunk, self._store.summaries([game_stream(i) for i in chunk])):
                summary = json.loads(raw) if raw else self._summarise(game_id)
                if summary is not None:
                    if raw:
                        self._index.record(summary)
                    filed += 1
        self._index.mark_built()
        return filed
