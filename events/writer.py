"""One writer for every stream: build, seal, fold-check, compare-and-append, retry.

A write asks the stream's ``build(state)`` for entries, seals each onto the head
(``envelope.seal``), folds each through the stream's fold (a refusal raised there
propagates), adds what follows from them (a game's automatic moves and
``game.finished``), and appends the batch with the store's compare-and-append
script, with the stream's extras (a lobby line, a snapshot) in the same call. A
lost race is answered with the entries missed: the writer folds them in and builds
again, unless the caller named the seq it expected (then ``StaleHead``). An action
id already applied answers with its first seq.

What differs from one stream to another (its keys, where its starting state comes
from, its fold, its seed, what follows an entry, what is written beside it and after
it) is a ``Stream``. The writer knows nothing of HTTP: the service maps ``StaleHead``
and ``Busy`` to its answers in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, Protocol, TypeVar

from .envelope import now_rfc3339, seal
from .refusal import Refusal
from .shapes import JSON, Actor, Envelope
from .store import AppendResult, EventStore, Extras

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
    after the last), ``duplicate`` (the action id was applied before: ``seq`` is its
    first entry's, ``state`` None) or ``noop`` (the build asked for nothing: ``seq``
    is the head's, ``state`` the fold as it is)."""

    status: Literal["created", "duplicate", "noop"]
    seq: int
    state: S | None
    envelopes: list[Envelope]


class Stream(Protocol[S]):
    """One stream as the writer needs it."""

    key: str
    idempotency_key: str
    refusals: tuple[type[Exception], ...]
    """What a build or fold raises to refuse; on a state that may be behind it is
    confirmed on the latest one, and a retried action id gives way to its first answer."""

    def start(self) -> tuple[Head[S], bool]:
        """The state to build on first, and whether it is known to be the latest
        (a worker's cached state may be behind)."""
        ...

    def latest(self) -> Head[S]:
        """The state as the log holds it now, folded afresh."""
        ...

    def catch_up(self, state: S | None, missed: list[Envelope]) -> S | None:
        """``state`` with entries another writer appended folded in."""
        ...

    def seed(self) -> str | None:
        """The salt of the payload digests (None: all payloads are public)."""
        ...

    def fold(self, state: S | None, envelope: Envelope) -> S:
        """``state`` after ``envelope``; raises to refuse it."""
        ...

    def follow(self, state: S) -> Entry | None:
        """An entry that must follow the ones written so far, or None."""
        ...

    def extras(self, before: S | None, envelopes: list[Envelope], after: S) -> Extras | None:
        """What the append writes beside the entries, in the same script."""
        ...

    def appended(self, before: S | None, envelopes: list[Envelope], after: S) -> None:
        """What follows a successful append outside the stream's own keys."""
        ...


class StreamWriter:
    """Appends to any ``Stream`` through one ``EventStore``. ``observe`` hears each
    compare-and-append's answer (``ok``, ``conflict`` or ``duplicate``)."""

    def __init__(self, store: EventStore, observe: Callable[[str], None] | None = None, attempts: int = 20) -> None:
        self.store = store
        self.observe = observe
        self.attempts = attempts

    def first_answer(self, stream: Stream[S], action_id: str | None) -> int | None:
        """The first seq written under ``action_id``, if it has been applied."""
        return None if action_id is None else self.store.first_seq(stream.idempotency_key, action_id)

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
        head, fresh = stream.start()
        refusals: tuple[type[Exception], ...] = (StaleHead, *stream.refusals)
        for _ in range(self.attempts):
            try:
                if expected_seq is not None and expected_seq != head.seq:
                    raise StaleHead(head.seq)
                entries = build(head.state)
                if not entries and not fresh:  # nothing to do, on a state that may be behind: look again
                    head, fresh = stream.latest(), True
                    continue
                if not entries:
                    return Written("noop", head.seq, head.state, [])
                envelopes, final = self._seal(stream, head, entries, action_id)
            except refusals:
                if not fresh:
                    head, fresh = stream.latest(), True
                    continue
                first = self.first_answer(stream, action_id)
                if first is not None:  # a retry: the first answer stands, whatever happened since
                    return Written("duplicate", first, None, [])
                raise
            result = self.store.append(
                stream.key,
                stream.idempotency_key,
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
                stream.appended(head.state, envelopes, final)
                return Written("created", envelopes[0]["seq"], final, envelopes)
            if result.status == "duplicate":
                return Written("duplicate", result.seq, None, [])
            if result.seq <= head.seq or result.missed[0]["prev"] != head.hash:
                # the log lost entries this writer had seen (an fsync window, a failover),
                # perhaps written again since up to the same seq or past it: refold it as
                # it is, never trust what was seen over the log
                head = stream.latest()
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
            found = self.store.read(stream.key, after=first - 1, upto=first + len(ours) - 1)
        else:
            return False
        return [e["hash"] for e in found] == ours

    @staticmethod
    def _seal(
        stream: Stream[S], head: Head[S], entries: Sequence[Entry], action_id: str | None
    ) -> tuple[list[Envelope], S]:
        """Seal the entries onto the head and fold each (the fold refuses what may not
        be appended), then what follows them; the action id marks the first entry."""
        ts, seed = now_rfc3339(), stream.seed()
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
