"""Everything the service runs on, built in one place.

``build`` makes the adapters (every Redis call lives in ``service/adapters/``), the game
log on the event store, and each service with only the ports it reads; it wires what
follows an append (clocks, computer seats, the lobby, account lists, ratings). The web
app (``service/app.py``), the bot runner and the command line all start here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from events.store import EventStore
from events.writer import StreamWriter
from projections.projector import Projector
from service.adapters.accounts import RedisAccountRecords
from service.adapters.archive import Archiver
from service.adapters.archive_listing import ArchiveListing
from service.adapters.bot_queue import RedisBotQueue
from service.adapters.chat import RedisChat
from service.adapters.connection import UNAVAILABLE
from service.adapters.event_store import RedisEventStore
from service.adapters.lobby import RedisLobby
from service.adapters.notes import RedisAnalysisJobs, RedisNotes
from service.adapters.notices import RedisNoticeQueue, RedisNoticeSettings
from service.adapters.schedules import RedisSchedules
from service.adapters.tables import RedisTableIndex
from service.adapters.tokens import RedisTokens
from service.adapters.tournaments import RedisTournamentSecrets
from service.metrics import APPEND_RESULTS
from service.ports import (
    ArchivedGames,
    ArchiveStore,
    BotQueue,
    GameLog,
    Mailer,
    Notes,
    NoticeQueue,
    NoticeSettings,
    Now,
    Pusher,
    Schedules,
    Signer,
    Tokens,
)
from service.services.accounts import Accounts, FailedLogins
from service.services.analysis import Analysis
from service.services.bindings import Bindings
from service.services.bot_runner import STALE_SECONDS, BotRunner
from service.services.broadcast import Broadcast
from service.services.chat import Chat
from service.services.clocks import Clocks
from service.services.computer_seats import NO_CAPS, Caps, ComputerSeats
from service.services.game_log import StoredGameLog
from service.services.games import Games
from service.services.lobby import Lobby
from service.services.lobby_writes import LobbyWrites
from service.services.notices import DIGEST_SECONDS, Notices, NoticeSender, still_awaited
from service.services.ratings import Ratings
from service.services.refereeing import Refereeing
from service.services.tables import Tables
from service.services.tournaments import Tournaments


@dataclass(frozen=True)
class Services:
    """The services and the ports the edges (routes, command line, bot runner) call."""

    store: EventStore
    log: GameLog
    tokens: Tokens
    notes: Notes
    schedules: Schedules
    bot_queue: BotQueue
    signer: Signer
    lagging: LobbyWrites
    accounts: Accounts
    ratings: Ratings
    lobby: Lobby
    clocks: Clocks
    computer_seats: ComputerSeats
    games: Games
    refereeing: Refereeing
    bindings: Bindings
    analysis: Analysis
    tournaments: Tournaments
    broadcast: Broadcast
    tables: Tables
    chat: Chat
    notices: Notices
    notice_queue: NoticeQueue
    notice_settings: NoticeSettings
    now: Now

    def notice_sender(self, mailer: Mailer | None, pusher: Pusher | None, base_url: str) -> NoticeSender:
        return NoticeSender(
            self.notice_queue, self.notice_settings, mailer, pusher, base_url, self.now, still_awaited(self.store)
        )

    def bot_runner(self, strengths: Any = None, slots: int = 1, stale_seconds: float = STALE_SECONDS) -> BotRunner:
        return BotRunner(
            self.games,
            self.log,
            self.tokens,
            self.schedules,
            self.bot_queue,
            self.computer_seats,
            self.analysis,
            strengths,
            slots=slots,
            stale_seconds=stale_seconds,
        )


def build(
    redis: Any,
    signer: Signer,
    *,
    blocking: Any = None,
    snapshot_every: int = 100,
    accounts: Accounts | None = None,
    failed_logins: FailedLogins | None = None,
    password_hasher: Any = None,
    session_days: float = 30,
    computer_caps: Caps = NO_CAPS,
    min_replica_acks: int = 0,
    replica_wait_ms: int = 250,
    archive: ArchiveStore | None = None,
    notice_digest: float = DIGEST_SECONDS,
    now: Now = time.time,
) -> Services:
    """The services over one Redis (``blocking``: the client of long blocking reads;
    ``min_replica_acks``: replicas that confirm each append, within ``replica_wait_ms``;
    ``now``: the clock every service reads)."""
    listing = ArchiveListing(redis, archive) if archive is not None else None
    restore = Archiver(redis, archive, listing).restore if archive is not None else None
    store = RedisEventStore(
        redis,
        blocking=blocking,
        min_replica_acks=min_replica_acks,
        replica_wait_ms=replica_wait_ms,
        restore=restore,
        archived_lines=listing.lines if listing is not None else None,
    )
    return build_on(
        store,
        RedisTokens(redis, restore=restore),
        RedisNotes(redis),
        RedisSchedules(redis),
        RedisBotQueue(redis),
        RedisLobby(redis),
        RedisAnalysisJobs(redis),
        RedisTournamentSecrets(redis),
        RedisTableIndex(redis),
        RedisChat(redis),
        accounts
        or Accounts(
            RedisAccountRecords(redis),
            password_hasher=password_hasher,
            session_days=session_days,
            failed_logins=failed_logins,
            clock=now,
        ),
        signer,
        RedisNoticeQueue(redis),
        RedisNoticeSettings(redis),
        snapshot_every=snapshot_every,
        computer_caps=computer_caps,
        notice_digest=notice_digest,
        now=now,
        archived=listing,
    )


def build_on(
    store: EventStore,
    tokens: Tokens,
    notes: Notes,
    schedules: Schedules,
    bot_queue: BotQueue,
    lobby_index: RedisLobby,
    jobs: RedisAnalysisJobs,
    secrets: RedisTournamentSecrets,
    table_index: RedisTableIndex,
    chat: RedisChat,
    accounts: Accounts,
    signer: Signer,
    notice_queue: NoticeQueue,
    notice_settings: NoticeSettings,
    snapshot_every: int = 100,
    computer_caps: Caps = NO_CAPS,
    notice_digest: float = DIGEST_SECONDS,
    now: Now = time.time,
    archived: ArchivedGames | None = None,
) -> Services:
    lagging = LobbyWrites(UNAVAILABLE)
    writer = StreamWriter(store, observe=lambda status: APPEND_RESULTS[status].inc(), now=now)
    log = StoredGameLog(store, Projector(store, snapshot_every=snapshot_every), writer)
    ratings = Ratings(store, writer, log, lagging)
    lobby = Lobby(lobby_index, store, log, lagging, archived)
    clocks = Clocks(log, schedules, lagging, now)
    computer_seats = ComputerSeats(bot_queue, log, lagging, computer_caps)
    games = Games(log, tokens, accounts, lobby, clocks, computer_seats)
    bindings = Bindings(games, log, tokens, accounts, lagging)
    notices = Notices(notice_queue, notice_settings, notes, notice_digest, now)
    tournaments = Tournaments(
        store, StreamWriter(store, now=now), secrets, games, log, tokens, computer_seats, accounts, ratings, signer
    )
    for listener in (
        clocks.scheduled,
        computer_seats.scheduled,
        bindings.indexed,
        ratings.recorded_after,
        lobby.filed,
        notices.queued,
    ):
        log.on_appended(listener)
    return Services(
        store=store,
        log=log,
        tokens=tokens,
        notes=notes,
        schedules=schedules,
        bot_queue=bot_queue,
        signer=signer,
        lagging=lagging,
        accounts=accounts,
        ratings=ratings,
        lobby=lobby,
        clocks=clocks,
        computer_seats=computer_seats,
        games=games,
        refereeing=Refereeing(log, tokens, notes, computer_seats, signer),
        bindings=bindings,
        analysis=Analysis(games, log, jobs, schedules),
        tournaments=tournaments,
        broadcast=Broadcast(tournaments, log, signer),
        tables=Tables(store, StreamWriter(store, now=now), table_index, games, accounts, now, notices.notify),
        chat=Chat(games, log, chat, accounts, now),
        notices=notices,
        notice_queue=notice_queue,
        notice_settings=notice_settings,
        now=now,
    )
