"""The event store in memory: the second backend of the storage port.

It keeps every promise of the Redis store (``tests/platform/test_store_contract.py``
runs the same tests against both), so services can be tested without starting
anything, and the port's contract is shown to be about logs, not about Redis. One
lock makes each call atomic, as the Redis script is.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Any

from events.shapes import Envelope
from events.store import AppendResult, EventStore, Extras, Loaded, StreamId


@dataclass
class _Log:
    entries: list[str] = field(default_factory=list)  # canonical JSON, as Redis keeps them
    actions: dict[str, int] = field(default_factory=dict)
    snapshots: dict[tuple[str, int], str] = field(default_factory=dict)
    seed: str | None = None
    summary: str | None = None


class InMemoryEventStore(EventStore):
    def __init__(self) -> None:
        self._logs: dict[StreamId, _Log] = {}
        self._changed = threading.Condition()

    def _log(self, stream: StreamId) -> _Log:
        return self._logs.setdefault(stream, _Log())

    def append(
        self,
        stream: StreamId,
        expected_seq: int,
        action_id: str | None,
        envelopes: list[Envelope],
        extras: Extras | None = None,
    ) -> AppendResult:
        with self._changed:
            log = self._log(stream)
            last_seq = len(log.entries)
            if action_id and action_id in log.actions:
                return AppendResult("duplicate", log.actions[action_id])
            if (
                expected_seq == last_seq
                and last_seq > 0
                and envelopes
                and envelopes[0]["prev"] != json.loads(log.entries[-1])["hash"]
            ):
                return AppendResult("conflict", last_seq)
            if expected_seq != last_seq:
                missed = [json.loads(e) for e in log.entries[expected_seq:]] if expected_seq < last_seq else []
                return AppendResult("conflict", last_seq, missed)
            log.entries.extend(json.dumps(e) for e in envelopes)
            if action_id:
                log.actions[action_id] = last_seq + 1
            x = extras or Extras()
            if x.summary:
                log.summary = x.summary
            if x.snapshot_seq is not None:
                log.snapshots.setdefault((x.snapshot_version, x.snapshot_seq), x.snapshot)
            self._changed.notify_all()
            return AppendResult("ok", len(log.entries))

    def first_seq(self, stream: StreamId, action_id: str) -> int | None:
        with self._changed:
            return self._log(stream).actions.get(action_id)

    def load(self, stream: StreamId, snapshot_version: str, every: int) -> Loaded:
        with self._changed:
            log = self._log(stream)
            last = len(log.entries)
            if last == 0:
                return Loaded(0, None, [])
            mark = last // every * every
            while mark > 0 and (snapshot_version, mark) not in log.snapshots:
                mark -= every
            snapshot = json.loads(log.snapshots[(snapshot_version, mark)]) if mark > 0 else None
            return Loaded(last, snapshot, [json.loads(e) for e in log.entries[mark:]], log.seed)

    def read(self, stream: StreamId, after: int = 0, upto: int | None = None) -> list[Envelope]:
        with self._changed:
            entries = self._log(stream).entries
            return [json.loads(e) for e in entries[max(after, 0) : upto]]

    def tail(self, stream: StreamId, after: int, block_ms: int) -> list[Envelope]:
        with self._changed:
            self._changed.wait_for(lambda: len(self._log(stream).entries) > after, timeout=block_ms / 1000)
            return [json.loads(e) for e in self._log(stream).entries[after:]]

    def last_seq(self, stream: StreamId) -> int:
        with self._changed:
            return len(self._log(stream).entries)

    def exists(self, stream: StreamId) -> bool:
        return self.last_seq(stream) > 0

    def snapshot(self, stream: StreamId, version: str, seq: int) -> Any:
        with self._changed:
            raw = self._log(stream).snapshots.get((version, seq))
        return None if raw is None else json.loads(raw)

    def keep_snapshot(self, stream: StreamId, version: str, seq: int, state: Any) -> None:
        with self._changed:
            self._log(stream).snapshots.setdefault((version, seq), json.dumps(state))

    def snapshot_count(self, stream: StreamId, version: str) -> int:
        with self._changed:
            return sum(1 for v, _ in self._log(stream).snapshots if v == version)

    def seed(self, stream: StreamId) -> str | None:
        with self._changed:
            return self._log(stream).seed

    def keep_seed(self, stream: StreamId, seed: str) -> None:
        with self._changed:
            self._log(stream).seed = seed

    def drop_seed(self, stream: StreamId) -> None:
        with self._changed:
            self._log(stream).seed = None

    def ping(self) -> None:
        """Memory is always there."""

    def summaries(self, streams: list[StreamId]) -> list[str | None]:
        with self._changed:
            return [self._log(s).summary for s in streams]

    def keep_summary(self, stream: StreamId, summary: str) -> None:
        with self._changed:
            self._log(stream).summary = summary
