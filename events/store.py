"""The event store: the storage port every log is written and read through.

A log is named by a ``StreamId`` (a game's, a tournament's, the ratings'), never by
storage keys: how a backend lays a stream out is its own business. Two backends keep
the same promises (``tests/platform/test_store_contract.py``): Redis Streams
(``service/adapters/event_store.py``: standalone, embedded and Cluster) and memory
(``service/adapters/memory_store.py``: fast service tests, nothing to start).

The promises: entries are sealed envelopes appended in seq order from 1; an append
names the seq it expects the log to end at and is refused (a conflict, answering the
entries the writer missed) when it does not, or when the last entry is not the one the
new entries chain to; an action id applied once answers its first seq forever; the
append writes its ``Extras`` (a game's lobby line, a snapshot) in the same atomic step.
Snapshots, the seed and the lobby line live beside a game's log, in its slot.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, Literal

from .shapes import Envelope

StreamKind = Literal["game", "tournament", "ratings", "table"]


@dataclass(frozen=True)
class StreamId:
    """Which log: a game's (``id`` the game id), a tournament's, or the one ratings log."""

    kind: StreamKind
    id: str = ""


def game_stream(game_id: str) -> StreamId:
    return StreamId("game", game_id)


def tournament_stream(tid: str) -> StreamId:
    return StreamId("tournament", tid)


def table_stream(table_id: str) -> StreamId:
    """An open table's log; the game made from it has the same id."""
    return StreamId("table", table_id)


RATINGS_STREAM = StreamId("ratings")


@dataclass
class AppendResult:
    status: str  # "ok" | "conflict" | "duplicate"
    seq: int  # ok: last seq written; conflict: current last seq; duplicate: the first seq of that action
    missed: list[Envelope] = field(default_factory=list)  # conflict: the entries after the expected seq


@dataclass
class Extras:
    """What an append writes beside a game's log in the same atomic step: the lobby's
    line for the game and, every K entries, a snapshot of the fold (under the version
    of the code that folded it)."""

    summary: str = ""
    snapshot_version: str = ""
    snapshot_seq: int | None = None
    snapshot: str = ""


@dataclass
class Loaded:
    """A log as one call finds it: the last seq (0: no such log), the newest snapshot at
    a multiple of ``every`` at or before it (or None), the entries after that snapshot
    and the game's seed (None where there is none)."""

    last_seq: int
    snapshot: Any  # the fold's state at that seq, opaque to the store
    entries: list[Envelope]
    seed: str | None = None


class EventStore(ABC):
    """Append-only logs of sealed envelopes, one per stream."""

    @abstractmethod
    def append(
        self,
        stream: StreamId,
        expected_seq: int,
        action_id: str | None,
        envelopes: list[Envelope],
        extras: Extras | None = None,
    ) -> AppendResult:
        """Compare-and-append, with the extras, in one atomic step."""

    @abstractmethod
    def first_seq(self, stream: StreamId, action_id: str) -> int | None:
        """The first seq appended under ``action_id`` (None: not applied)."""

    @abstractmethod
    def load(self, stream: StreamId, snapshot_version: str, every: int) -> Loaded:
        """The newest snapshot of ``snapshot_version`` at a multiple of ``every``, the
        entries after it and the seed, in one step."""

    @abstractmethod
    def read(self, stream: StreamId, after: int = 0, upto: int | None = None) -> list[Envelope]:
        """The entries with ``after < seq <= upto`` (to the end without ``upto``)."""

    @abstractmethod
    def tail(self, stream: StreamId, after: int, block_ms: int) -> list[Envelope]:
        """Entries after ``after``, waiting up to ``block_ms`` for one."""

    @abstractmethod
    def last_seq(self, stream: StreamId) -> int:
        """The last seq of the log (0: no such log)."""

    @abstractmethod
    def exists(self, stream: StreamId) -> bool:
        """Whether the log has an entry, without reading one."""

    # -- beside a game's log -----------------------------------------------------------
    @abstractmethod
    def snapshot(self, stream: StreamId, version: str, seq: int) -> Any:
        """The snapshot of ``version`` at exactly ``seq``, or None."""

    @abstractmethod
    def keep_snapshot(self, stream: StreamId, version: str, seq: int, state: Any) -> None:
        """Store a snapshot unless one is there (the first stays: both are the same fold)."""

    @abstractmethod
    def snapshot_count(self, stream: StreamId, version: str) -> int:
        """How many snapshots of ``version`` the log has beside it."""

    @abstractmethod
    def seed(self, stream: StreamId) -> str | None:
        """The game's secret seed (None: none kept)."""

    @abstractmethod
    def keep_seed(self, stream: StreamId, seed: str) -> None: ...

    @abstractmethod
    def drop_seed(self, stream: StreamId) -> None:
        """Forget the seed of a game whose creation failed: it leaves nothing behind."""

    @abstractmethod
    def ping(self) -> None:
        """Raise when the storage cannot be reached (what ``/readyz`` asks)."""

    @abstractmethod
    def summaries(self, streams: list[StreamId]) -> list[str | None]:
        """The lobby lines the appends wrote, one per stream (None where there is none)."""

    @abstractmethod
    def keep_summary(self, stream: StreamId, summary: str) -> None:
        """Write a game's lobby line (the lobby refolds a missing one)."""
