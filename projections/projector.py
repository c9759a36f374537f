"""Platform states on demand: a per-worker cache kept current with XRANGE, and
snapshots every K entries in Redis so a cold fold never starts from zero. Snapshots
are written by the append itself as a game is played (``snapshot_due``); a cold load
is one script call (the newest snapshot and the entries after it).

The cache is trusted only while the log still holds its head: every catch-up reads
from the cached seq itself (or, for a live tail, folds entries it just read that chain
onto the cached head: ``advance``), so a log that came back shorter (an fsync policy that
lost its last second, a failover to a lagging replica) or that diverged after it is
noticed on the next read, and the state is refolded from the log.

Besides every K-th state, the state an undo or a rewind went back to across a snapshot
is stored as a snapshot of its own seq, so a cold fold of that undo reads its target
instead of refolding the window before it (whose undos would refold the window before that).

Snapshots are a cache of the fold, never a source of truth: drop them and every state
is rebuilt from the log. Their key names the code that folded them (``code_digest``), so
a snapshot from other code is never read.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from prometheus_client import Counter

from events.shapes import Envelope
from events.store import EventStore, game_stream

from . import fold
from .code_digest import fold_version, platform_digest
from .fold import PlatformState
from .games import get as get_game
from .games import registry

CACHE_LOOKUPS = Counter(
    "state_cache_lookups", "Latest-state lookups by the worker cache's answer", ["result"], namespace="boardgames"
)  # hit: cache current or caught up; miss: cold; stale: ahead of the log
FOLDED = Counter("events_folded", "Log entries folded into platform states", namespace="boardgames")
# bound once: in multiprocess mode each ``labels()`` takes a lock and a dict lookup
CACHE_HIT, CACHE_STALE, CACHE_MISS = (CACHE_LOOKUPS.labels(r) for r in ("hit", "stale", "miss"))


class Projector:
    def __init__(
        self, store: EventStore, snapshot_every: int = 100, cache_size: int = 512, past_states: int = 256
    ) -> None:
        self.store = store
        self.every = snapshot_every
        self.cache_size = cache_size
        self._cache: OrderedDict[str, PlatformState] = OrderedDict()
        self._seeds: dict[str, str | None] = {}
        self._game_types: dict[str, str] = {}
        self._platform = platform_digest()
        self._versions = {name: fold_version(game, self._platform) for name, game in registry().items()}
        self._lock = threading.Lock()
        self._past_states = PastStates(past_states)

    # -- seeds -----------------------------------------------------------------------
    def seed(self, game_id: str) -> str | None:
        if game_id not in self._seeds:
            self._seeds[game_id] = self.store.seed(game_stream(game_id))
        return self._seeds[game_id]

    # -- snapshot versions -----------------------------------------------------------------
    def snapshot_version(self, game_id: str, game_type: str | None = None) -> str:
        """The version of ``game_id``'s snapshots folded by the code running now."""
        game_type = game_type or self._game_type(game_id)
        if game_type not in self._versions:  # a game registered after start
            game = get_game(game_type)
            if game is None:
                raise fold.FoldError(f"unknown game {game_type!r}")
            self._versions[game_type] = fold_version(game, self._platform)
        return self._versions[game_type]

    def _game_type(self, game_id: str) -> str:
        if game_id not in self._game_types:
            known = self.cached(game_id)
            self._game_types[game_id] = (
                known["game"] if known else self.store.read(game_stream(game_id), after=0, upto=1)[0]["payload"]["game"]
            )
        return self._game_types[game_id]

    def _logged_game_type(self, game_id: str) -> str | None:
        """The game's type (it names the snapshots' version), None where there is no log;
        read once per worker from the first entry."""
        if game_id not in self._game_types:
            first = self.store.read(game_stream(game_id), after=0, upto=1)
            if not first:
                return None
            self._game_types[game_id] = str(first[0]["payload"]["game"])
        return self._game_types[game_id]

    # -- the latest state ----------------------------------------------------------------
    def latest(self, game_id: str) -> PlatformState | None:
        """The platform state after the last entry in the log (None: no such game)."""
        with self._lock:
            cached = self._cache.get(game_id)
        if cached is not None:
            # The log may have lost entries this worker saw (an fsync window, a failover
            # to a lagging replica): trust the cache only while the log still holds its head.
            entries = self.store.read(game_stream(game_id), after=cached["seq"] - 1)
            if entries and entries[0]["hash"] == cached["head"]:
                CACHE_HIT.inc()
                pstate = self._fold(game_id, entries[1:], cached)
                if pstate is not None:
                    self.remember(game_id, pstate)
                return pstate
            CACHE_STALE.inc()
            self.forget(game_id)
        else:
            CACHE_MISS.inc()
        game_type = self._logged_game_type(game_id)
        if game_type is None:
            return None
        loaded = self.store.load(game_stream(game_id), self.snapshot_version(game_id, game_type), self.every)
        if loaded.last_seq == 0:
            return None
        self._seeds.setdefault(game_id, loaded.seed)
        start, entries = loaded.snapshot, loaded.entries
        pstate = self._fold(game_id, entries, start)
        if pstate is not None:
            self.remember(game_id, pstate)
        return pstate

    def advance(self, game_id: str, entries: list[Envelope]) -> PlatformState | None:
        """The state after ``entries`` (just read from the log, consecutive) without
        reading it again: the cached state caught up by them when they hold its head or
        chain onto it; None when they do not meet the cache (the caller reads)."""
        with self._lock:
            cached = self._cache.get(game_id)
        if cached is None or not entries:
            return None
        first = entries[0]["seq"]
        if first == cached["seq"] + 1:
            held = entries[0]["prev"] == cached["head"]
        else:
            i = cached["seq"] - first
            held = 0 <= i < len(entries) and entries[i]["hash"] == cached["head"]
        if not held:
            return None
        CACHE_HIT.inc()
        pstate = self._fold(game_id, [e for e in entries if e["seq"] > cached["seq"]], cached, write_snapshots=False)
        if pstate is not None:
            self.remember(game_id, pstate)
        return pstate

    def catch_up(self, game_id: str, pstate: PlatformState | None, missed: list[Envelope]) -> PlatformState | None:
        """Fold entries another writer appended (a conflict's answer) onto a state."""
        pstate = self._fold(game_id, missed, pstate, write_snapshots=False)
        if pstate is not None:
            self.remember(game_id, pstate)
        return pstate

    # -- snapshots -------------------------------------------------------------------------
    def snapshot_due(self, seq: int) -> bool:
        return seq % self.every == 0

    def remember(self, game_id: str, pstate: PlatformState) -> None:
        with self._lock:
            cached = self._cache.get(game_id)
            if cached is None or cached["seq"] < pstate["seq"]:
                self._cache[game_id] = pstate
            self._cache.move_to_end(game_id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def cached(self, game_id: str) -> PlatformState | None:
        """This worker's latest known state, without asking Redis for newer entries."""
        with self._lock:
            return self._cache.get(game_id)

    def forget(self, game_id: str) -> None:
        """Drop what this worker knows of a game (its log is not what the worker saw)."""
        with self._lock:
            self._cache.pop(game_id, None)
        self._past_states.forget(game_id)

    # -- any past state ------------------------------------------------------------------
    def state_at(self, game_id: str, seq: int) -> PlatformState:
        """The platform state after ``seq``, folded from the nearest state known below it."""
        return self._past(game_id, seq, {})

    def _past(self, game_id: str, seq: int, known: dict[int, PlatformState]) -> PlatformState:
        """The state after ``seq``. ``known`` holds the states this fold has reached so far,
        and every entry folded here joins it, undos' targets included: whatever mix of undos
        the log holds, one fold applies each entry at most once. The states asked for are
        kept for later folds too (``PastStates``), so an undo whose target lies before the
        fold's snapshot costs one refold per worker, not one per undo."""
        found = known.get(seq) or self._past_states.get(game_id, seq)
        if found is None:
            with self._lock:
                cached = self._cache.get(game_id)
            found = cached if cached is not None and cached["seq"] == seq else None
        if found is None and seq % self.every:
            found = self._target_snapshot(game_id, seq)
        if found is not None:
            return found
        below = max((s for s in known if s < seq), default=0)
        start = known.get(below)
        snapshot = self._snapshot_at_or_before(game_id, seq) if below < seq - 1 else None
        if snapshot is not None and snapshot["seq"] > below:
            start = snapshot
        entries = self.store.read(game_stream(game_id), after=start["seq"] if start else 0, upto=seq)
        pstate = self._fold(game_id, entries, start, write_snapshots=False, known=known)
        if pstate is None or pstate["seq"] != seq:
            raise fold.FoldError(f"{game_id} has no seq {seq}")
        self._past_states.put(game_id, seq, pstate)
        return pstate

    def fold_onto(self, game_id: str, pstate: PlatformState | None, entries: list[Envelope]) -> PlatformState:
        """Fold new entries (not yet stored) onto a state, with history for undo."""
        after = self._fold(game_id, entries, pstate, write_snapshots=False)
        if after is None:
            raise fold.FoldError("nothing to fold")
        return after

    def _fold(
        self,
        game_id: str,
        entries: list[Envelope],
        start: PlatformState | None,
        write_snapshots: bool = True,
        known: dict[int, PlatformState] | None = None,
    ) -> PlatformState | None:
        """Fold ``entries`` onto ``start``. An undo's target comes from the states this
        fold knows (``known``, shared with any refold it needs: see ``_past``)."""
        seed = self.seed(game_id)
        pstate = start
        folded = {} if known is None else known
        if start is not None:
            folded[start["seq"]] = start

        undo_seq = 0

        def state_at(s: int) -> PlatformState:  # an undo's or a rewind's target
            target = self._past(game_id, s, folded)
            self._keep_target(game_id, target, undo_seq)
            return target

        for envelope in entries:
            undo_seq = envelope["seq"]
            pstate = fold.apply(pstate, envelope, seed, state_at)
            folded[pstate["seq"]] = pstate
            if write_snapshots and self.snapshot_due(pstate["seq"]):
                self._keep_snapshot(game_id, pstate)
        if entries:
            FOLDED.inc(len(entries))
        return pstate

    def _keep_target(self, game_id: str, target: PlatformState, undo_seq: int) -> None:
        """Store the state an undo went back to as a snapshot of its own seq, once, when it
        lies before the snapshot a cold fold of the undo starts from: that fold reads it
        instead of refolding the window before. A target inside the undo's own window is
        reached by that fold anyway, so most undos write nothing more. The stored states stay
        within about two per snapshot window: past that, a cold fold refolds the earlier
        window once (still linear: a fold shares the states it reaches), and an attacker who
        undoes one step at a time stores no more than the log's own snapshots."""
        seq = target["seq"]
        window_start = (undo_seq - 1) // self.every * self.every
        if seq % self.every == 0 or seq >= window_start or self._past_states.kept(game_id, seq):
            return
        self._past_states.mark_kept(game_id, seq)
        version = self.snapshot_version(game_id, target["game"])
        if self.store.snapshot_count(game_stream(game_id), version) >= 2 * (undo_seq // self.every) + 2:
            return  # at most about one target per window beside the K-th states: storage stays bounded by the log
        self._keep_snapshot(game_id, target)

    def _keep_snapshot(self, game_id: str, pstate: PlatformState) -> None:
        version = self.snapshot_version(game_id, pstate["game"])
        self.store.keep_snapshot(game_stream(game_id), version, pstate["seq"], pstate)

    def _snapshot(self, game_id: str, seq: int) -> PlatformState | None:
        found: PlatformState | None = self.store.snapshot(game_stream(game_id), self.snapshot_version(game_id), seq)
        return found

    def _target_snapshot(self, game_id: str, seq: int) -> PlatformState | None:
        snapshot = self._snapshot(game_id, seq)
        if snapshot is not None:
            self._past_states.put(game_id, seq, snapshot)
        return snapshot

    def _snapshot_at_or_before(self, game_id: str, seq: int) -> PlatformState | None:
        mark = (seq // self.every) * self.every
        while mark > 0:
            snapshot = self._snapshot(game_id, mark)
            if snapshot is not None:
                return snapshot
            mark -= self.every
        return None


class PastStates:
    """Past states a worker has refolded, most recent last, ``size`` at most: what undos and
    ``?at=`` ask for again. A log's prefix never changes, so a state at a seq stays true
    while the worker trusts the log (``Projector.forget`` drops a game's)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._states: OrderedDict[tuple[str, int], PlatformState] = OrderedDict()
        self._kept: OrderedDict[tuple[str, int], None] = OrderedDict()
        self._lock = threading.Lock()

    def kept(self, game_id: str, seq: int) -> bool:
        """Whether this worker has stored the state at ``seq`` as an undo target's snapshot."""
        with self._lock:
            return (game_id, seq) in self._kept

    def mark_kept(self, game_id: str, seq: int) -> None:
        with self._lock:
            self._kept[(game_id, seq)] = None
            while len(self._kept) > 16 * self.size:
                self._kept.popitem(last=False)

    def get(self, game_id: str, seq: int) -> PlatformState | None:
        with self._lock:
            found = self._states.get((game_id, seq))
            if found is not None:
                self._states.move_to_end((game_id, seq))
            return found

    def put(self, game_id: str, seq: int, pstate: PlatformState) -> None:
        with self._lock:
            self._states[(game_id, seq)] = pstate
            self._states.move_to_end((game_id, seq))
            while len(self._states) > self.size:
                self._states.popitem(last=False)

    def forget(self, game_id: str) -> None:
        with self._lock:
            for key in [k for k in self._states if k[0] == game_id]:
                del self._states[key]
            for key in [k for k in self._kept if k[0] == game_id]:
                del self._kept[key]
