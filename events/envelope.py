"""The event envelope: one immutable entry of a game's log, hash-chained.

Format 2 (``"v": 2``): ``payload_digest = sha256(nonce || canonical_json(payload))``
and ``hash = sha256(canonical_json(envelope without "hash" and "payload"))``, so the
chain commits to each payload only through its salted digest. A game's nonce for
seq n is ``HMAC-SHA256(seed, "payload:n")``: nobody can compute it before the seed is
revealed in ``game.finished``, so a redacted entry (public payload + digest) says
nothing about what it hides; afterwards anyone can check every payload. Streams
with no secret (tournaments) use an empty nonce: their payloads are all public.

Legacy format (no ``v``): ``hash = sha256(canonical_json(envelope without "hash"))``
over the payload itself. Logs recorded before format 2 still fold and verify, but a
redacted legacy entry cannot be checked, and its hash can be used to test guesses of
what it hides.

``prev`` is the hash of the entry before (the empty string for seq 1), so changing
any byte of any entry breaks the chain at that entry.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from marshmallow import Schema, fields, validate

from .shapes import JSON, Actor, Envelope

GENESIS = ""
FORMAT = 2


def canonical_json(obj: object) -> str:
    """One spelling per value: sorted keys, no spaces, UTF-8 kept as is."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def is_legacy(envelope: Mapping[str, Any]) -> bool:
    """An entry of the format before salted payload digests (no ``v`` field)."""
    return "v" not in envelope


def entry_hash(envelope: Mapping[str, Any]) -> str:
    """The hash of an entry: over its digest (format 2) or its payload (legacy).
    Display-only keys (``redacted``) are never part of it."""
    skip = {"hash", "redacted"} if is_legacy(envelope) else {"hash", "redacted", "payload"}
    body = {k: v for k, v in envelope.items() if k not in skip}
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def payload_nonce(seed: str | None, seq: int) -> bytes:
    """The salt of entry ``seq``'s digest: secret until ``seed`` is revealed; empty for
    a stream without a seed (its payloads are public)."""
    if seed is None:
        return b""
    return hmac.new(seed.encode(), f"payload:{seq}".encode(), hashlib.sha256).digest()


def payload_digest(nonce: bytes, payload: JSON) -> str:
    return hashlib.sha256(nonce + canonical_json(payload).encode()).hexdigest()


def rfc3339(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def now_rfc3339() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


def parse_ts(ts: str) -> float:
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp()


def seal(
    seq: int,
    type_: str,
    actor: Actor,
    payload: JSON,
    prev: str,
    action_id: str | None,
    ts: str,
    seed: str | None = None,
) -> Envelope:
    """A complete format-2 envelope for ``seq`` chained to ``prev``; ``seed`` salts the
    payload digest (None for a stream whose payloads are all public)."""
    envelope: Envelope = {
        "v": FORMAT,
        "seq": seq,
        "type": type_,
        "actor": actor,
        "payload": payload,
        "payload_digest": payload_digest(payload_nonce(seed, seq), payload),
        "action_id": action_id,
        "ts": ts,
        "prev": prev,
        "hash": "",
    }
    envelope["hash"] = entry_hash(envelope)
    return envelope


class ActorSchema(Schema):
    seat = fields.Integer(validate=validate.Range(min=0))
    role = fields.String(validate=validate.OneOf(["referee", "system"]))
    name = fields.String()


class EnvelopeSchema(Schema):
    """The shape of every stored entry; ``verify`` loads exports through it."""

    v = fields.Integer(validate=validate.Equal(FORMAT))
    payload_digest = fields.String(validate=validate.Length(equal=64))
    seq = fields.Integer(required=True, validate=validate.Range(min=1))
    type = fields.String(required=True, validate=validate.Length(min=1, max=100))
    actor = fields.Nested(ActorSchema, required=True)
    payload = fields.Dict(required=True)
    action_id = fields.String(allow_none=True, load_default=None)
    ts = fields.String(required=True)
    prev = fields.String(required=True)
    hash = fields.String(required=True, validate=validate.Length(equal=64))
