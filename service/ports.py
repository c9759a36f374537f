"""The ports: the few things the services need from the world, as typed protocols.

Services receive the ports they read, built once by ``service/bootstrap.py``; every Redis
call behind them lives in ``service/adapters/``. The storage port of the logs themselves
is ``events.store.EventStore`` (Redis and memory backends); the game log
(``service/services/game_log.py``) is built on it and is storage-neutral.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Protocol

from events.shapes import JSON, Envelope
from events.writer import Entry, Written
from projections.fold import PlatformState
from service.services.callers import Caller

Build = Callable[[PlatformState], Sequence[Entry]]
"""What a write appends to a game, decided on the state it is built on (it may raise to refuse)."""

Now = Callable[[], float]
"""The service's clock: seconds since the epoch. ``time.time`` in production; tests inject
one they advance (days pass without sleeping). Entries' timestamps, clocks, table expiry,
notices and chat all read it."""

AppendListener = Callable[[str, PlatformState | None, list[Envelope], PlatformState], None]
"""Told of each append to a game's log: the game, the state before, the entries, the state after."""


class GameLog(Protocol):
    """A game's log and its folds: every read is a fold, every write an append."""

    def state(self, game_id: str) -> PlatformState:
        """The latest state; 404 for no such game, 500 ``unreadable_log`` for one that no
        longer folds."""
        ...

    def state_or_none(self, game_id: str) -> PlatformState | None:
        """The latest state, or None for no game or one that no longer folds (logged)."""
        ...

    def cached(self, game_id: str) -> PlatformState | None:
        """This worker's latest known state, without reading the log (may be behind)."""
        ...

    def state_at(self, game_id: str, seq: int) -> PlatformState: ...

    def forget(self, game_id: str) -> None:
        """Drop what this worker knows of the game: its next read folds from the log."""
        ...

    def exists(self, game_id: str) -> bool: ...

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Envelope]: ...

    def tail(self, game_id: str, after: int, block_ms: int) -> list[Envelope]: ...

    def followed(self, game_id: str, entries: list[Envelope]) -> PlatformState:
        """The latest state once ``entries`` (just tailed) are in: folded onto this
        worker's state without a read when they meet it, else read as ``state``."""
        ...

    def seed(self, game_id: str) -> str | None: ...

    def create(self, game_id: str, seed: str, entries: Sequence[Entry]) -> Written[PlatformState]:
        """Keep the seed and append the first entries; nothing is left behind on refusal."""
        ...

    def append(
        self, game_id: str, build: Build, action_id: str | None = None, expected_seq: int | None = None
    ) -> Written[PlatformState]: ...

    def on_appended(self, listener: AppendListener) -> None:
        """Run ``listener`` after every append (writes outside the game's slot: they lag
        behind on an unreachable node, never failing the move)."""
        ...


class Tokens(Protocol):
    """Who holds which token of a game (Redis keeps only their digests)."""

    def issue(self, game_id: str, seats: int, bound: frozenset[int] = frozenset()) -> tuple[list[str], str]:
        """A token per seat (``claimed`` for seats bound to accounts) and the referee's."""
        ...

    def issue_bot(self, game_id: str, seat: int) -> None: ...

    def issue_claimed(self, game_id: str, seat: int) -> str: ...

    def resolve(self, game_id: str, token: str) -> Caller:
        """The caller holding ``token``; ``callers.UnknownToken`` for none."""
        ...

    def bot_token(self, game_id: str, seat: int) -> str | None: ...


class Lobby(Protocol):
    """The lobby's indexes of games by type and status, newest first."""

    def created(self, game_id: str, at: float) -> None: ...

    def record(self, summary: JSON) -> None:
        """File a game under the indexes of its type and status."""
        ...

    def page(
        self, game: str | None, status: str | None, limit: int, cursor: tuple[int, str] | None
    ) -> tuple[list[tuple[str, float]], bool]:
        """(game id, score) of one page, and whether more follow."""
        ...

    def all_ids(self) -> list[str]: ...

    def count(self) -> int:
        """How many games were ever created (the games index's size)."""
        ...

    def built(self) -> bool: ...

    def mark_built(self) -> None: ...


class Schedules(Protocol):
    """When the platform must act by itself: clocks running out, computer seats awaited,
    evaluation lines asked for."""

    def clock_due(self, game_id: str, at: float | None) -> None:
        """Sweep ``game_id`` at ``at`` (None: its clocks are stopped)."""
        ...

    def clocks_due(self, now: float) -> list[str]: ...

    def heartbeat(self, now: float) -> None:
        """The clock sweeper ran at ``now``: the service was taking moves."""
        ...

    def last_heartbeat(self) -> float | None: ...

    def maintenance(self, on: bool) -> None: ...

    def in_maintenance(self) -> bool: ...

    def held(self, game_id: str, on: bool) -> None:
        """File (or drop) a game whose clocks maintenance paused."""
        ...

    def held_games(self) -> list[str]: ...

    def analysis_due(self, game_id: str, at: float) -> None: ...

    def next_analysis(self) -> str | None: ...


class BotQueue(Protocol):
    """The computer seats' queue, fair across creators, and what each creator has in
    play (``service/adapters/bot_queue.py``)."""

    def due(self, game_id: str, owner: str, cost: float) -> None: ...

    def take(self) -> str | None: ...

    def done(self, game_id: str) -> None: ...

    def stale(self, before: float) -> list[str]: ...

    def length(self) -> int: ...

    def owner(self, game_id: str) -> str | None: ...

    def claim(
        self, owner: str, game_id: str, seats: int, strength: int, max_seats: int, max_strength: int
    ) -> tuple[bool, int, int]: ...

    def held(self, owner: str) -> list[str]: ...

    def release(self, owner: str, game_id: str) -> None: ...

    def forget(self, game_id: str) -> None:
        """Out of the queue and of its creator's games in play (archived)."""


class Notes(Protocol):
    """Annotations: their own stream beside a game's log (they move no seq)."""

    def count(self, game_id: str) -> int: ...

    def add(self, game_id: str, note: JSON) -> str: ...

    def page(self, game_id: str, after: str | None, limit: int) -> list[tuple[str, JSON]]:
        """Up to ``limit`` notes after the note id ``after``; ``Invalid`` for a bad id."""
        ...

    def get(self, game_id: str, note_id: str) -> JSON | None:
        """The note ``note_id`` (None: none, or not a note id)."""
        ...


class AnalysisJobs(Protocol):
    def get(self, game_id: str) -> JSON | None: ...

    def put(self, game_id: str, job: JSON) -> None: ...


class TournamentSecrets(Protocol):
    """What a tournament keeps beside its stream and never exports: token digests, its
    games' tokens; and its pairing lock and the index of tournaments."""

    def get(self, tid: str, name: str) -> str | None: ...

    def get_many(self, tid: str, names: list[str]) -> dict[str, str | None]: ...

    def put(self, tid: str, values: dict[str, str]) -> None: ...

    def drop(self, tid: str) -> None: ...

    def listed(self, tid: str, at: float) -> None: ...

    def newest(self, count: int) -> list[str]: ...

    def lock_pairing(self, tid: str) -> bool:
        """Take the pairing lock (False: another request holds it)."""
        ...

    def unlock_pairing(self, tid: str) -> None: ...

    def pairing(self, tid: str) -> bool: ...


class AccountRecords(Protocol):
    """Account records (JSON, the password hash inside), their look-alike keys, sessions
    (by token digest) and each account's games. Writes that must not race are atomic."""

    def create(self, name: str, record: str, looks: list[str]) -> str | None:
        """Write the record and claim its looks unless one is held: the holder, or None."""
        ...

    def record(self, name: str) -> str | None: ...

    def holders(self, looks: list[str]) -> list[str | None]: ...

    def index_looks(self, source: str, looks_of: Callable[[str], list[str]]) -> bool:
        """Claim every account's looks by ``looks_of`` unless indexed by ``source`` already."""
        ...

    def rehash(self, name: str, old: str, new: str) -> bool: ...

    def change_password(self, name: str, old: str, new: str, session_digest: str) -> int: ...

    def add_session(self, name: str, digest: str, expires: int) -> None: ...

    def session(self, digest: str) -> tuple[str, int | None] | None: ...

    def drop_session(self, name: str, digest: str) -> None: ...

    def drop_sessions(self, name: str) -> int: ...

    def add_game(self, name: str, game_id: str, when: float) -> None: ...

    def games(self, name: str, limit: int) -> list[str]: ...


class TableIndex(Protocol):
    """The listed open tables, soonest to expire first, and each account's invitations."""

    def listed(self, table_id: str, expires_at: float) -> None: ...

    def unlisted(self, table_id: str) -> None: ...

    def open_ids(self, count: int) -> list[str]: ...

    def invite(self, account: str, table_id: str, at: float) -> None: ...

    def invitations(self, account: str, count: int) -> list[str]: ...

    def rematch(self, game_id: str) -> str | None: ...

    def keep_referee(self, table_id: str, token: str) -> None:
        """The referee token of the game a table started, for the account named its referee."""
        ...

    def referee(self, table_id: str) -> str | None: ...

    def claim_start(self, table_id: str, seconds: int) -> bool:
        """Whether this caller makes the full table's game (one at a time)."""
        ...

    def claim_rematch(self, game_id: str, table_id: str) -> str:
        """The rematch table of a game: ``table_id`` unless another was claimed first."""
        ...


class ChatStore(Protocol):
    """A game's table chat, beside its log: messages, hide marks, settings, mutes, rates."""

    def add(self, game_id: str, message: JSON) -> str: ...

    def read(self, game_id: str, after: str | None, count: int) -> list[tuple[str, JSON]]: ...

    def has(self, game_id: str, message_id: str) -> bool: ...

    def hide(self, game_id: str, message_id: str, mark: JSON) -> bool: ...

    def hidden(self, game_id: str) -> dict[str, JSON]: ...

    def settings(self, game_id: str) -> dict[str, str]: ...

    def keep_settings(self, game_id: str, settings: dict[str, str]) -> None: ...

    def bump(self, game_id: str) -> None:
        """Counts a change; ``settings`` then carries the count as ``version``."""
        ...

    def mute(self, game_id: str, reader: str, seat: int, muted: bool) -> list[int]: ...

    def muted(self, game_id: str, reader: str) -> list[int]: ...

    def spend(self, game_id: str, writer: str, limit: int, window: int) -> int:
        """0 if the writer may send now, else the seconds until it may."""
        ...


class Signer(Protocol):
    """The server's signing key: what it signs, anyone can check (``GET /api/keys``)."""

    def sign(self, statement: JSON) -> JSON: ...

    def describe(self) -> JSON:
        """The public key as ``GET /api/keys`` lists it."""
        ...


class Lagging(Protocol):
    """Writes outside a game's slot that may lag behind but never fail the move."""

    def run(self, key: Hashable, write: Callable[[], object]) -> None: ...

    def flush(self) -> None: ...


class NoticeQueue(Protocol):
    """Notices waiting to leave, one digest per account (``service/adapters/notices.py``)."""

    def add(self, account: str, notice: JSON, due: float) -> None: ...

    def take(self, now: float) -> tuple[str, int, list[JSON]] | None:
        """One account whose digest is due: (account, failed tries so far, its notices)."""
        ...

    def retry(self, account: str, notices: list[JSON], when: float) -> None: ...

    def done(self, account: str) -> None: ...

    def count(self, outcome: str, n: int = 1) -> None: ...

    def stats(self) -> dict[str, int]: ...

    def length(self) -> int: ...


class NoticeSettings(Protocol):
    """Each account's notice settings and Web Push subscriptions."""

    def get(self, account: str) -> JSON: ...

    def put(self, account: str, values: JSON) -> None: ...

    def unsubscribe_token(self, account: str) -> str: ...

    def account_of_unsubscribe(self, token: str) -> str | None: ...

    def subscribe(self, account: str, subscription: JSON) -> None: ...

    def unsubscribe_push(self, account: str, endpoint: str) -> None: ...

    def subscriptions(self, account: str) -> list[JSON]: ...


class Mailer(Protocol):
    def send(self, to: str, subject: str, body: str, headers: dict[str, str]) -> None: ...


class Pusher(Protocol):
    def push(self, subscription: JSON, message: JSON) -> bool:
        """Send one Web Push message; False: the subscription is gone (drop it)."""
        ...


class ArchiveStore(Protocol):
    """Where archived games are kept, each object written whole or not at all: one per
    game (its log), and the listing's segments and index (``adapters/archive_listing.py``);
    a directory (``service/adapters/archive.py``) or an S3-compatible bucket
    (``service/adapters/s3_archive.py``), chosen by configuration."""

    def put(self, game_id: str, data: bytes) -> None: ...

    def get(self, game_id: str) -> bytes | None:
        """The game's archived bytes; None when it was never archived."""
        ...

    def put_listing(self, name: str, data: bytes) -> None: ...

    def get_listing(self, name: str) -> bytes | None:
        """A segment or the index of the archived games' lobby lines; None: not written."""
        ...


class ArchivedGames(Protocol):
    """The lobby lines of archived games, out of Redis (``adapters/archive_listing.py``)."""

    def page(
        self, game: str | None, status: str | None, limit: int, cursor: tuple[int, str] | None
    ) -> tuple[list[tuple[int, str, JSON]], bool]:
        """(score, id, line) of up to ``limit`` archived games newest first, strictly
        after ``cursor``, and whether more follow."""
        ...

    def lines(self, ids: list[str]) -> list[str | None]:
        """Each game's archived lobby line (None: not archived)."""
        ...
