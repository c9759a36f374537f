"""The shapes of what the store holds, for the type checker and the reader."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

JSON = dict[str, Any]
"""A JSON object as it is folded: the games' states, payloads and views."""


class Actor(TypedDict, total=False):
    """Who wrote an entry: a seat, the referee, or the system (clocks, bots' runner)."""

    seat: int
    role: str
    name: str


class Envelope(TypedDict):
    """One sealed entry of a log (see ``events.envelope``). Format 2 has ``v`` and
    ``payload_digest``; ``redacted`` marks an entry a viewer received without its
    hidden part and is never hashed."""

    seq: int
    type: str
    actor: Actor
    payload: JSON
    action_id: str | None
    ts: str
    prev: str
    hash: str
    v: NotRequired[int]
    payload_digest: NotRequired[str]
    redacted: NotRequired[bool]
