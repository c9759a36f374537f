"""Ed25519 signatures over statements about a log (``cryptography``'s implementation:
audited, constant-time, and the one Python's ecosystem maintains).

A statement is a small JSON object signed in its canonical spelling; a key is named
by ``key_id`` (the first 16 hex digits of the SHA-256 of its raw public bytes).
``head`` statements ({game_id, seq, head}) are the receipts handed to players;
``export`` statements (the same fields) close an export and say the log ended there
when it was exported; other kinds sign corrections and bundles.
"""

from __future__ import annotations

import base64
import hashlib

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .envelope import canonical_json
from .shapes import JSON

ALGORITHM = "Ed25519"


def public_bytes(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(public: Ed25519PublicKey) -> str:
    return hashlib.sha256(public_bytes(public)).hexdigest()[:16]


def encode_public(public: Ed25519PublicKey) -> str:
    return base64.b64encode(public_bytes(public)).decode()


def decode_public(text: str) -> Ed25519PublicKey:
    """A public key from its base64 raw form (what ``GET /api/keys`` publishes)."""
    raw = base64.b64decode(text.strip(), validate=True)
    return Ed25519PublicKey.from_public_bytes(raw)


class Signer:
    def __init__(self, private: Ed25519PrivateKey):
        self.private = private
        self.public = private.public_key()
        self.key_id = key_id(self.public)

    def sign(self, statement: JSON) -> JSON:
        """The statement with ``key_id`` and ``signature`` (base64) added."""
        body = {**statement, "key_id": self.key_id}
        signature = self.private.sign(canonical_json(body).encode())
        return {**body, "signature": base64.b64encode(signature).decode()}

    def describe(self) -> JSON:
        return {"key_id": self.key_id, "algorithm": ALGORITHM, "public_key": encode_public(self.public)}


def check(signed: object, keys: dict[str, Ed25519PublicKey]) -> str:
    """ "ok", "unknown_key" (signed by none of ``keys``) or "bad" for a signed statement."""
    if not isinstance(signed, dict) or not isinstance(signed.get("signature"), str):
        return "bad"
    public = keys.get(str(signed.get("key_id")))
    if public is None:
        return "unknown_key"
    body = {k: v for k, v in signed.items() if k != "signature"}
    try:
        public.verify(base64.b64decode(signed["signature"], validate=True), canonical_json(body).encode())
    except (InvalidSignature, ValueError):
        return "bad"
    return "ok"


def head_statement(game_id: str, seq: int, head: str) -> JSON:
    return {"kind": "head", "game_id": game_id, "seq": seq, "head": head}


def export_statement(game_id: str | None, seq: int, head: str) -> JSON:
    """What an export's closing line signs: this was the whole log when it was exported.
    A distinct kind, so a receipt (a ``head``) cannot pose as the end of a cut export.
    (A verifier asks it of a legacy log too, which names no game: None.)"""
    return {"kind": "export", "game_id": game_id, "seq": seq, "head": head}


def keyring(texts: list[str]) -> dict[str, Ed25519PublicKey]:
    """Public keys by id, from base64 texts (a bad text raises ValueError)."""
    out: dict[str, Ed25519PublicKey] = {}
    for text in texts:
        public = decode_public(text)
        out[key_id(public)] = public
    return out


def trusted(listing: JSON) -> list[str]:
    """The public keys (base64) of a ``GET /api/keys`` listing that still vouch: every
    published key but the revoked (a revoked key leaked; what it signs proves nothing)."""
    return [k["public_key"] for k in listing["keys"] if k.get("status") != "revoked"]


def revoked(listing: JSON) -> list[str]:
    """The ids of a listing's revoked keys."""
    return [str(k.get("key_id")) for k in listing["keys"] if k.get("status") == "revoked"]


BUNDLE_FORMAT = "tournament-bundle/1"


def bundle_statement(bundle: JSON) -> JSON:
    """What the server signs of a tournament bundle: the digest of everything but the signature."""
    body = canonical_json({k: v for k, v in bundle.items() if k != "signature"})
    return {
        "kind": "tournament-bundle",
        "tournament": (bundle.get("manifest") or {}).get("tournament"),
        "digest": hashlib.sha256(body.encode()).hexdigest(),
    }
