"""Platform states on demand: a per-worker cache kept current with XRANGE, and
snapshots every K entries in Redis so a cold fold never starts from zero. Snapshots
are written by the append itself as a game is played (``snapshot_due``); a cold load
is one script call (the newest snapshot and the entries after it).

The cache is trusted only while the log still holds its head: every catch-up reads
from the cached seq itself, so a log that came back shorter (an fsync policy that
lost its last second, a failover to a lagging replica) or that diverged after it is
noticed on the next read, and the state is refolded from the log.

Snapshots are a cache of the fold, never a source of truth: drop them and every state
is rebuilt from the log. Their key names the code that folded them (``code_digest``), so
a snapshot from other code is never read.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

from prometheus_client import Counter

from events import keys
from events.shapes import Envelope
from events.store import EventStore

from . import fold
from .code_digest import fold_version, platform_digest
from .fold import PlatformState
from .games import get as get_game
from .games import registry

CACHE_LOOKUPS = Counter(
    "state_cache_lookups", "Latest-state lookups by the worker cache's answer", ["result"]
)  # hit: cache current or caught up; miss: cold; stale: ahead of the log
FOLDED = Counter("events_folded", "Log entries folded into platform states")
# bound once: in multiprocess mode each ``labels()`` takes a lock and a dict lookup
CACHE_HIT, CACHE_STALE, CACHE_MISS = (CACHE_LOOKUPS.labels(r) for r in ("hit", "stale", "miss"))


class Projector:
    def __init__(self, store: EventStore, redis: Any, snapshot_every: int = 100, cache_size: int = 512) -> None:
        self.store = store
        self.redis = redis
        self.every = snapshot_every
        self.cache_size = cache_size
        self._cache: OrderedDict[str, PlatformState] = OrderedDict()
        self._seeds: dict[str, str | None] = {}
        self._game_types: dict[str, str] = {}
        self._platform = platform_digest()
        self._versions = {name: fold_version(game, self._platform) for name, game in registry().items()}
        self._lock = threading.Lock()

    # -- seeds -----------------------------------------------------------------------
    def seed(self, game_id: str) -> str | None:
        if game_id not in self._seeds:
            self._seeds[game_id] = self.redis.get(keys.seed(game_id))
        return self._seeds[game_id]

    # -- snapshot keys ---------------------------------------------------------------------
    def snapshots_key(self, game_id: str, game_type: str | None = None) -> str:
        """The hash of ``game_id``'s snapshots folded by the code running now."""
        game_type = game_type or self._game_type(game_id)
        if game_type not in self._versions:  # a game registered after start
            game = get_game(game_type)
            if game is None:
                raise fold.FoldError(f"unknown game {game_type!r}")
            self._versions[game_type] = fold_version(game, self._platform)
        return keys.snapshots(game_id, self._versions[game_type])

    def _game_type(self, game_id: str) -> str:
        if game_id not in self._game_types:
            known = self.cached(game_id)
            self._game_types[game_id] = (
                known["game"] if known else self.store.read(keys.events(game_id), after=0, upto=1)[0]["payload"]["game"]
            )
        return self._game_types[game_id]

    def _logged_game_type(self, game_id: str) -> str | None:
        """The game's type (it names the snapshots' version), None where there is no log;
        read once per worker from the first entry."""
        if game_id not in self._game_types:
            first = self.store.read(keys.events(game_id), after=0, upto=1)
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
            entries = self.store.read(keys.events(game_id), after=cached["seq"] - 1)
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
        snapshots = self.snapshots_key(game_id, game_type)
        loaded = self.store.load(keys.events(game_id), snapshots, keys.seed(game_id), self.every)
        if loaded.last_seq == 0:
            return None
        self._seeds.setdefault(game_id, loaded.seed)
        start, entries = loaded.snapshot, loaded.entries
        pstate = self._fold(game_id, entries, start)
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
        with self._lock:
            self._cache.pop(game_id, None)

    # -- any past state ------------------------------------------------------------------
    def state_at(self, game_id: str, seq: int) -> PlatformState:
        with self._lock:
            cached = self._cache.get(game_id)
        if cached is not None and cached["seq"] == seq:
            return cached
        start = self._snapshot_at_or_before(game_id, seq)
        entries = self.store.read(keys.events(game_id), after=start["seq"] if start else 0, upto=seq)
        pstate = self._fold(game_id, entries, start)
        if pstate is None:
            raise fold.FoldError(f"{game_id} has no seq {seq}")
        return pstate

    def fold_onto(self, game_id: str, pstate: PlatformState | None, entries: list[Envelope]) -> PlatformState:
        """Fold new entries (not yet stored) onto a state, with history for undo."""
        after = self._fold(game_id, entries, pstate, write_snapshots=False)
        if after is None:
            raise fold.FoldError("nothing to fold")
        return after

    def _fold(
        self, game_id: str, entries: list[Envelope], start: PlatformState | None, write_snapshots: bool = True
    ) -> PlatformState | None:
        """Fold ``entries`` onto ``start``. An undo whose target lies in this run is
        answered from the states folded here, so one fold never refolds itself."""
        seed = self.seed(game_id)
        pstate = start
        folded: dict[int, PlatformState] = {start["seq"]: start} if start else {}

        def state_at(s: int) -> PlatformState:
            return folded.get(s) or self.state_at(game_id, s)

        for envelope in entries:
            pstate = fold.apply(pstate, envelope, seed, state_at)
            folded[pstate["seq"]] = pstate
            if write_snapshots and self.snapshot_due(pstate["seq"]):
                self.redis.hsetnx(self.snapshots_key(game_id, pstate["game"]), pstate["seq"], json.dumps(pstate))
        if entries:
            FOLDED.inc(len(entries))
        return pstate

    def _snapshot_at_or_before(self, game_id: str, seq: int) -> PlatformState | None:
        mark = (seq // self.every) * self.every
        key = self.snapshots_key(game_id) if mark > 0 else None
        while mark > 0:
            raw = self.redis.hget(key, mark)
            if raw is not None:
                snapshot: PlatformState = json.loads(raw)
                return snapshot
            mark -= self.every
        return None
