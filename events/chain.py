"""Checking a hash chain entry by entry: shape, seq, link, hash, and (where the salt
is known) each payload against its digest. Shared by game and tournament audits."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from marshmallow import ValidationError

from .envelope import EnvelopeSchema, entry_hash, is_legacy, payload_digest, payload_nonce
from .shapes import Envelope

_SCHEMA = EnvelopeSchema()


class ChainError(Exception):
    def __init__(self, seq: int, message: str):
        super().__init__(message)
        self.seq = seq
        self.message = message


def chain_format(envelopes: Sequence[object]) -> str:
    """ "2" when every entry is format 2, "legacy" when any is legacy. A game begun before
    format 2 goes on in format 2 after an upgrade (a legacy prefix), but a format-2
    entry is never followed by a legacy one."""
    legacy = [is_legacy(e) for e in envelopes if isinstance(e, dict)]
    if not any(legacy):
        return "2"
    first_new = legacy.index(False) if False in legacy else len(legacy)
    if any(legacy[first_new:]):
        raise ChainError(
            first_new + 1 + legacy[first_new:].index(True),
            "a legacy entry after a format-2 one: the format is never downgraded",
        )
    return "legacy"


def check_links(envelopes: Sequence[object], tick: Callable[[int], None] | None = None) -> None:
    """Every entry is an envelope, numbered from 1, linked to the one before and
    re-hashed; raises ChainError at the first that is not. A legacy entry shown
    redacted cannot be re-hashed (its hash covers the payload it no longer has).
    ``tick(index)`` is called on every entry (a caller's time budget)."""
    prev = ""
    for index, envelope in enumerate(envelopes, start=1):
        if tick is not None:
            tick(index)
        if not isinstance(envelope, dict):
            raise ChainError(index, f"entry {index} is not an object")
        try:
            _SCHEMA.load({k: v for k, v in envelope.items() if k != "redacted"})
        except ValidationError as exc:
            raise ChainError(index, f"seq {index}: not an envelope: {exc.messages}") from exc
        if envelope["seq"] != index:
            raise ChainError(index, f"entry {index} says seq {envelope['seq']}")
        if not is_legacy(envelope) and "payload_digest" not in envelope:
            raise ChainError(index, f"seq {index}: a format-2 entry without payload_digest")
        if envelope["prev"] != prev:
            raise ChainError(index, f"seq {index}: prev does not match the hash of seq {index - 1}")
        if is_legacy(envelope) and envelope.get("redacted"):
            raise ChainError(index, f"seq {index}: a redacted legacy entry cannot be re-hashed")
        if entry_hash(envelope) != envelope["hash"]:
            raise ChainError(index, f"seq {index}: the content does not match its hash")
        prev = envelope["hash"]


def check_payloads(envelopes: Sequence[Envelope], seed: str | None, tick: Callable[[int], None] | None = None) -> None:
    """Every format-2 payload against its digest, salted from ``seed`` (None: a
    stream whose digests are unsalted). A redacted entry fails: it is not the payload."""
    for envelope in envelopes:
        if tick is not None:
            tick(envelope["seq"])
        if is_legacy(envelope):
            continue
        if envelope.get("redacted"):
            raise ChainError(envelope["seq"], f"seq {envelope['seq']}: redacted, its payload cannot be checked")
        if payload_digest(payload_nonce(seed, envelope["seq"]), envelope["payload"]) != envelope["payload_digest"]:
            raise ChainError(envelope["seq"], f"seq {envelope['seq']}: the payload does not match its digest")
