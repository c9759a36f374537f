"""The game log: every read of a game is a fold, every write an append.

One class over the storage port (``events.store.EventStore``), the projector (the
worker's cache, snapshots, past states) and the stream writer. A write hands the writer
the game's stream whole (``events.writer.Stream``): the head to start from (the
worker's cached state), the fold, what follows an entry (the game's automatic moves,
``game.finished``) and what the append writes beside the entries (the lobby line, a
snapshot every K entries). After an append the cache is updated and each listener is
told (``on_appended``): schedules, indexes and ratings, outside the game's slot, each
through ``Lagging`` so an unreachable node never fails the move.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence

from events.shapes import Actor, Envelope
from events.store import EventStore, Extras, game_stream
from events.writer import Entry, Head, Stream, StreamWriter, Written
from projections import fold
from projections.fold import PlatformState
from projections.games.base import IllegalAction
from projections.outcome import final_result
from projections.projector import Projector
from service.ports import AppendListener, Build
from service.services.errors import Broken, Conflict, Refusal, Unprocessable, not_found
from service.services.summaries import summary_line

log = logging.getLogger(__name__)
SYSTEM: Actor = {"role": "system"}
# Entries past a game's bound that the referee and the system (clocks) may still append:
# room to end a game stuck at its bound (a forfeit, an adjudication, a timeout).
OFFICIALS_HEADROOM = 100
LOG_FULL = "log_full"  # the refusal of a write past the bound


class StoredGameLog:
    def __init__(self, store: EventStore, projector: Projector, writer: StreamWriter) -> None:
        self._store = store
        self._projector = projector
        self._writer = writer
        self._listeners: list[AppendListener] = []

    # -- reading -------------------------------------------------------------------------
    def state(self, game_id: str) -> PlatformState:
        try:
            pstate = self._projector.latest(game_id)
        except (fold.FoldError, IllegalAction) as exc:
            log.exception("game %s does not fold", game_id)
            raise Broken("unreadable_log", "this game's log does not fold under the current rules") from exc
        if pstate is None:
            raise not_found("game")
        return pstate

    def state_or_none(self, game_id: str) -> PlatformState | None:
        """One game that no longer folds under these rules must not take a page listing
        many games down for everyone."""
        try:
            return self._projector.latest(game_id)
        except (fold.FoldError, IllegalAction, KeyError, TypeError, ValueError):
            log.exception("game %s does not fold", game_id)
            return None

    def cached(self, game_id: str) -> PlatformState | None:
        return self._projector.cached(game_id)

    def state_at(self, game_id: str, seq: int) -> PlatformState:
        return self._projector.state_at(game_id, seq)

    def forget(self, game_id: str) -> None:
        self._projector.forget(game_id)

    def exists(self, game_id: str) -> bool:
        return self._projector.cached(game_id) is not None or self._store.exists(game_stream(game_id))

    def read(self, game_id: str, after: int = 0, upto: int | None = None) -> list[Envelope]:
        return self._store.read(game_stream(game_id), after=after, upto=upto)

    def tail(self, game_id: str, after: int, block_ms: int) -> list[Envelope]:
        return self._store.tail(game_stream(game_id), after, block_ms)

    def followed(self, game_id: str, entries: list[Envelope]) -> PlatformState:
        try:
            pstate = self._projector.advance(game_id, entries)
        except (fold.FoldError, IllegalAction):
            log.exception("game %s: tailed entries do not fold onto the cached state", game_id)
            pstate = None
        return pstate if pstate is not None else self.state(game_id)

    def seed(self, game_id: str) -> str | None:
        return self._projector.seed(game_id)

    # -- writing -------------------------------------------------------------------------
    def create(self, game_id: str, seed: str, entries: Sequence[Entry]) -> Written[PlatformState]:
        self._store.keep_seed(game_stream(game_id), seed)
        try:
            return self._write(game_id, lambda p: entries, expected_seq=0)
        except BaseException:
            self._store.drop_seed(game_stream(game_id))  # a game never created leaves nothing behind
            raise

    def append(
        self, game_id: str, build: Build, action_id: str | None = None, expected_seq: int | None = None
    ) -> Written[PlatformState]:
        """Append what ``build(state)`` returns and what follows it (``StaleHead`` when
        ``expected_seq`` is not the head; ``Busy`` after too many lost races)."""

        def on_the_game(p: PlatformState | None) -> Sequence[Entry]:
            if p is None:
                raise not_found("game")
            entries = build(p)
            _within_bound(p, entries)
            return entries

        return self._write(game_id, on_the_game, action_id, expected_seq)

    def _write(
        self,
        game_id: str,
        build: Callable[[PlatformState | None], Sequence[Entry]],
        action_id: str | None = None,
        expected_seq: int | None = None,
    ) -> Written[PlatformState]:
        written = self._writer.write(self._stream(game_id), build, action_id, expected_seq)
        if written.status == "created" and written.state is not None:
            self._projector.remember(game_id, written.state)
            for listener in self._listeners:
                try:
                    listener(game_id, written.before, written.envelopes, written.state)
                except Exception:  # the move is written: what follows it never fails it
                    log.exception("after the append to %s, %r failed", game_id, listener)
        return written

    def on_appended(self, listener: AppendListener) -> None:
        self._listeners.append(listener)

    def _stream(self, game_id: str) -> Stream[PlatformState]:
        cached = self._projector.cached(game_id)
        head, fresh = (self._latest_head(game_id), True) if cached is None else (_head(cached), False)
        return Stream(
            id=game_stream(game_id),
            head=head,
            fresh=fresh,
            refold=lambda: self._latest_head(game_id),
            fold=lambda p, envelope: self._fold(game_id, p, envelope),
            follow=lambda p: self._follow(game_id, p),
            extras=lambda p, envelopes, final: self._extras(game_id, p, envelopes, final),
            seed=self._projector.seed(game_id),
            refusals=(Refusal,),
        )

    def _latest_head(self, game_id: str) -> Head[PlatformState]:
        return _head(self._projector.latest(game_id))

    def _fold(self, game_id: str, p: PlatformState | None, envelope: Envelope) -> PlatformState:
        try:
            return self._projector.fold_onto(game_id, p, [envelope])
        except IllegalAction as exc:
            raise Unprocessable(exc.code, exc.message, exc.details) from exc
        except fold.FoldError as exc:  # e.g. anything but a correction after game.finished
            raise Conflict("not_accepted", str(exc)) from exc

    def _follow(self, game_id: str, p: PlatformState) -> Entry | None:
        """The system's next automatic move, else ``game.finished`` once a result exists."""
        game = fold.game_of(p)
        auto = game.automatic(p["state"]) if p["status"] == "active" else None
        if auto is not None:
            return f"{p['game']}.{auto['type']}", SYSTEM, auto["payload"]
        result = final_result(game, p) if p["status"] != "finished" else None
        if result is not None:
            return "game.finished", SYSTEM, {"result": result, "seed": self._projector.seed(game_id)}
        return None

    def _extras(self, game_id: str, p: PlatformState | None, envelopes: list[Envelope], final: PlatformState) -> Extras:
        """The lobby line, and the snapshot of the fold at a multiple of K when the batch
        reaches one."""
        extras = Extras(
            summary=json.dumps(summary_line(game_id, final)),
            snapshot_version=self._projector.snapshot_version(game_id, final["game"]),
        )
        due = [e["seq"] for e in envelopes if self._projector.snapshot_due(e["seq"])]
        if due:
            at = due[-1]
            snap = (
                final
                if at == final["seq"]
                else self._projector.fold_onto(game_id, p, [e for e in envelopes if e["seq"] <= at])
            )
            extras.snapshot_seq, extras.snapshot = at, json.dumps(snap)
        return extras


def _within_bound(p: PlatformState, entries: Sequence[Entry]) -> None:
    """409 ``log_full`` when ``entries`` would take the log past its game type's
    ``max_log_entries`` (``OFFICIALS_HEADROOM`` more for the referee and the system).
    What follows an accepted entry (automatic moves, ``game.finished``) is never cut off."""
    bound = fold.game_of(p).max_log_entries
    officials = all(actor.get("role") in ("referee", "system") for _, actor, _ in entries)
    if p["seq"] + len(entries) > bound + (OFFICIALS_HEADROOM if officials else 0):
        raise Conflict(
            LOG_FULL,
            f"this game's log has reached its bound of {bound} entries; only the referee may end it now",
            {"max_log_entries": bound, "seq": p["seq"]},
        )


def _head(p: PlatformState | None) -> Head[PlatformState]:
    return Head(p, p["seq"], p["head"]) if p else Head(None)
