"""One writer for every stream: build, seal, fold-check, compare-and-append, retry.

A write asks ``build(state)`` for entries, seals each onto the head
(``envelope.seal``), folds each through the stream's fold (a refusal raised there
propagates), adds what follows from them (a game's automatic moves and
``game.finished``), and appends the batch with the store's compare-and-append, with
the stream's extras (a lobby line, a snapshot) in the same call. A lost race is
answered with the entries missed: the writer folds them in and builds again, unless
the caller named the seq it expected (then ``StaleHead``). An action id already
applied answers with its first seq.

What differs from one stream to another is handed to the writer as a ``Stream``: its
id, the head to start from, its fold, how to refold it from the log, what follows an
entry, what is written beside it, its seed. The writer calls only those; what follows
a successful append outside the log (caches, schedules, indexes) is the caller's, from
the ``Written`` it gets back. The writer knows nothing of HTTP: the service maps
``StaleHead`` and ``Busy`` to its answers in one place.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from .envelope import rfc3339, seal
from .refusal import Refusal
from .shapes import JSON, Actor, Envelope
from .store import AppendResult, EventStore, Extras, StreamId

S = TypeVar("S")

Entry = tuple[str, Actor, JSON]
"""(type, actor, payload): what a build asks to append."""

MAX_FOLLOWING = 10001
"""How many entries may follow one write (a game's automatic moves and its end)."""


class WriteConflict(Refusal):
    """The append could not be made as asked; nothing was written."""


class StaleHead(WriteConflict):
    """The stream is not at the seq the caller expected; ``seq`` is where it is."""

    def __init__(self, seq: int) -> None:
        super().__init__("stale_seq", f"the game is at seq {seq}", {"seq": seq})
        self.seq = seq


class Busy(WriteConflict):
    """Every attempt lost its race to another writer."""

    def __init__(self, attempts: int) -> None:
        super().__init__("busy", "too many concurrent writers; try again")
        self.attempts = attempts


@dataclass
class Head(Generic[S]):
    """A stream's fold and where it stands: the last seq and that entry's hash
    (0 and "" for a stream with no entries; ``state`` is then None)."""

    state: S | None
    seq: int = 0
    hash: str = ""


@dataclass
class Written(Generic[S]):
    """What a write did: ``created`` (``seq`` is the first entry's, ``state`` the fold
    after the last, ``before`` the fold it was built on), ``duplicate`` (the action id
    was applied before: ``seq`` is its first entry's, ``state`` None) or ``noop`` (the
    build asked for nothing: ``seq`` is the head's, ``state`` the fold as it is)."""

    status: Literal["created", "duplicate", "noop"]
    seq: int
    state: S | None
    envelopes: list[Envelope]
    before: S | None = None


def _nothing_follows(state: object) -> Entry | None:
    return None


def _nothing_beside(before: object, envelopes: list[Envelope], after: object) -> Extras | None:
    return None


@dataclass
class Stream(Generic[S]):
    """One stream as a write needs it, handed to the writer whole.

    ``head`` is the state to build on first and ``fresh`` whether it is known to be the
    latest (a worker's cached state may be behind); ``refold`` folds the log afresh;
    ``fold`` is the state after one more envelope (raising one of ``refusals`` refuses
    it: on a state that may be behind the refusal is confirmed on the latest one, and a
    retried action id gives way to its first answer); ``follow`` names an entry that
    must follow those written so far; ``extras`` what the append writes beside them;
    ``seed`` salts the payload digests (None: every payload is public); ``learn``
    takes in entries another writer appended (by default, folding them)."""

    id: StreamId
    head: Head[S]
    fresh: bool
    refold: Callable[[], Head[S]]
    fold: Callable[[S | None, Envelope], S]
    follow: Callable[[S], Entry | None] = _nothing_follows
    extras: Callable[[S | None, list[Envelope], S], Extras | None] = _nothing_beside
    seed: str | None = None
    refusals: tuple[type[Exception], ...] = ()
    learn: Callable[[S | None, list[Envelope]], S | None] | None = None
    """How entries another writer appended are taken in (a lost race's answer); by
    default they are folded one by one."""

    def catch_up(self, state: S | None, missed: list[Envelope]) -> S | None:
        if self.learn is not None:
            return self.learn(state, missed)
        for envelope in missed:
            state = self.fold(state, envelope)
        return state


class StreamWriter:
    """Appends to any ``Stream`` through one ``EventStore``. ``observe`` hears each
    compare-and-append's answer (``ok``, ``conflict`` or ``duplicate``)."""

    def __init__(
        self,
        store: EventStore,
        observe: Callable[[str], None] | None = None,
        attempts: int = 20,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.observe = observe
        self.attempts = attempts
        self.now = now  # the entries' timestamps: the service's clock

    def first_answer(self, stream: Stream[S], action_id: str | None) -> int | None:
        """The first seq written under ``action_id``, if it has been applied."""
        return None if action_id is None else self.store.first_seq(stream.id, action_id)

    def write(
        self,
        stream: Stream[S],
        build: Callable[[S | None], Sequence[Entry]],
        action_id: str | None = None,
        expected_seq: int | None = None,
    ) -> Written[S]:
        """Append what ``build(state)`` returns and what follows it.

        ``build`` validates against the state and may raise; on a lost race it runs
        again on the new state, unless the caller named ``expected_seq`` (then
        ``StaleHead``). One round trip in the common case: the stream's starting
        state is the head the append script checks."""
        head, fresh = stream.head, stream.fresh
        refusals: tuple[type[Exception], ...] = (StaleHead, *stream.refusals)
        for _ in range(self.attempts):
            try:
                if expected_seq is not None and expected_seq != head.seq:
                    raise StaleHead(head.seq)
                entries = build(head.state)
                if not entries and not fresh:  # nothing to do, on a state that may be behind: look again
                    head, fresh = stream.refold(), True
                    continue
                if not entries:
                    return Written("noop", head.seq, head.state, [])
                envelopes, final = self._seal(stream, head, entries, action_id)
            except refusals:
                if not fresh:
                    head, fresh = stream.refold(), True
                    continue
                first = self.first_answer(stream, action_id)
                if first is not None:  # a retry: the first answer stands, whatever happened since
                    return Written("duplicate", first, None, [])
                raise
            result = self.store.append(
                stream.id,
                head.seq,
                action_id,
                envelopes,
                stream.extras(head.state, envelopes, final),
            )
            if self.observe is not None:
                self.observe(result.status)
            if result.status != "ok" and self._landed(stream, envelopes, result):
                result.status = "ok"  # this very append, sent again after its answer was lost
            if result.status == "ok":
                return Written("created", envelopes[0]["seq"], final, envelopes, head.state)
            if result.status == "duplicate":
                return Written("duplicate", result.seq, None, [])
            if result.seq <= head.seq or result.missed[0]["prev"] != head.hash:
                # the log lost entries this writer had seen (an fsync window, a failover),
                # perhaps written again since up to the same seq or past it: refold it as
                # it is, never trust what was seen over the log
                head = stream.refold()
            else:  # a conflict behind the head: the entries missed come with it
                head = Head(stream.catch_up(head.state, result.missed), result.seq, result.missed[-1]["hash"])
            fresh = True
            if expected_seq is not None:
                first = self.first_answer(stream, action_id)
                if first is not None:
                    return Written("duplicate", first, None, [])
                raise StaleHead(result.seq)
        raise Busy(self.attempts)

    def _landed(self, stream: Stream[S], envelopes: list[Envelope], result: AppendResult) -> bool:
        """Whether the log already holds these very envelopes. The Redis client sends a
        command again when the connection breaks before its answer arrives, so the
        script may run twice: the second run answers a conflict (the entries missed are
        our own) or, under an action id, a duplicate. Sealed entries carry their prev
        and a timestamp in microseconds, so equal hashes mean this write, not another's."""
        ours = [e["hash"] for e in envelopes]
        first = envelopes[0]["seq"]
        if result.status == "conflict":
            found = result.missed[: len(ours)] if result.missed and result.missed[0]["seq"] == first else []
        elif result.status == "duplicate" and result.seq == first:
            found = self.store.read(stream.id, after=first - 1, upto=first + len(ours) - 1)
        else:
            return False
        return [e["hash"] for e in found] == ours

    def _seal(
        self, stream: Stream[S], head: Head[S], entries: Sequence[Entry], action_id: str | None
    ) -> tuple[list[Envelope], S]:
        """Seal the entries onto the head and fold each (the fold refuses what may not
        be appended), then what follows them; the action id marks the first entry."""
        ts, seed = rfc3339(self.now()), stream.seed
        envelopes: list[Envelope] = []
        state = head.state

        def add(entry: Entry, aid: str | None) -> S:
            last = envelopes[-1] if envelopes else None
            seq, prev = (last["seq"], last["hash"]) if last else (head.seq, head.hash)
            envelope = seal(seq + 1, *entry, prev, aid, ts, seed)
            after = stream.fold(state, envelope)
            envelopes.append(envelope)
            return after

        for i, entry in enumerate(entries):
            state = add(entry, action_id if i == 0 else None)
        assert state is not None  # there was at least one entry
        for _ in range(MAX_FOLLOWING):
            following = stream.follow(state)
            if following is None:
                break
            state = add(following, None)
        return envelopes, state
