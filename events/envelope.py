"""The event envelope: one immutable entry of a game's log, hash-chained.

``hash = sha256(canonical_json(envelope without "hash"))`` and ``prev`` is the hash of
the entry before (the empty string for seq 1), so changing any byte of any entry
breaks the chain at that entry.
"""
from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone

from marshmallow import Schema, fields, validate

GENESIS = ""


def canonical_json(obj) -> str:
    """One spelling per value: sorted keys, no spaces, UTF-8 kept as is."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def entry_hash(envelope: dict) -> str:
    body = {k: v for k, v in envelope.items() if k != "hash"}
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def now_rfc3339() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds").replace("+00:00", "Z")


def parse_ts(ts: str) -> float:
    return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp()


def seal(seq: int, type_: str, actor: dict, payload: dict, prev: str, action_id: str | None, ts: str) -> dict:
    """A complete envelope for ``seq`` chained to ``prev``."""
    envelope = {
        "seq": seq,
        "type": type_,
        "actor": actor,
        "payload": payload,
        "action_id": action_id,
        "ts": ts,
        "prev": prev,
    }
    envelope["hash"] = entry_hash(envelope)
    return envelope


class ActorSchema(Schema):
    seat = fields.Integer(validate=validate.Range(min=0))
    role = fields.String(validate=validate.OneOf(["referee", "system"]))
    name = fields.String()


class EnvelopeSchema(Schema):
    """The shape of every stored entry; ``verify`` loads exports through it."""

    seq = fields.Integer(required=True, validate=validate.Range(min=1))
    type = fields.String(required=True, validate=validate.Length(min=1, max=100))
    actor = fields.Nested(ActorSchema, required=True)
    payload = fields.Dict(required=True)
    action_id = fields.String(allow_none=True, load_default=None)
    ts = fields.String(required=True)
    prev = fields.String(required=True)
    hash = fields.String(required=True, validate=validate.Length(equal=64))
