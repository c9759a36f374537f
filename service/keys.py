"""The server's signing key: where it lives, how it rotates, and the receipts it signs.

The private key comes from ``SIGNING_KEY`` (a PEM text, for deployments whose secrets
live in the environment) or from ``<DATA_DIR>/signing-key.pem``, created on first use
with mode 0600 beside the data it vouches for. Rotation (``python -m service key
--rotate``) keeps the old public key in ``<DATA_DIR>/retired-keys/<key_id>.pub`` so
``GET /api/keys`` still publishes it and old receipts and exports keep verifying.
"""
from __future__ import annotations

import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events.signing import ALGORITHM, Signer, decode_public, encode_public, head_statement, key_id

KEY_FILE = "signing-key.pem"
RETIRED = "retired-keys"


def _pem(private: Ed25519PrivateKey) -> bytes:
    return private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption())


def _write_private(path: Path, private: Ed25519PrivateKey) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".new")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(_pem(private))
    os.replace(tmp, path)


def load_signer(data_dir: str, env_pem: str | None = None) -> Signer:
    """The current signer: from the environment's PEM, else the key file (created once)."""
    if env_pem:
        return Signer(serialization.load_pem_private_key(env_pem.encode(), password=None))
    path = Path(data_dir) / KEY_FILE
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{KEY_FILE}.{os.getpid()}.tmp")
        _write_private(tmp, Ed25519PrivateKey.generate())
        try:
            os.link(tmp, path)  # atomic, and refuses if another worker created it first
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
    return Signer(serialization.load_pem_private_key(path.read_bytes(), password=None))


def rotate(data_dir: str) -> Signer:
    """A new key in the key file; the old public key joins the retired ones."""
    old = load_signer(data_dir)
    retired = Path(data_dir) / RETIRED
    retired.mkdir(parents=True, exist_ok=True)
    (retired / f"{old.key_id}.pub").write_text(encode_public(old.public) + "\n")
    _write_private(Path(data_dir) / KEY_FILE, Ed25519PrivateKey.generate())
    return load_signer(data_dir)


def published(signer: Signer, data_dir: str) -> dict:
    """What ``GET /api/keys`` answers: the current key and every retired one."""
    keys = [{**signer.describe(), "status": "current"}]
    retired = Path(data_dir) / RETIRED
    for path in sorted(retired.glob("*.pub")) if retired.is_dir() else []:
        public = decode_public(path.read_text())
        if key_id(public) != signer.key_id:
            keys.append({"key_id": key_id(public), "algorithm": ALGORITHM, "public_key": encode_public(public),
                         "status": "retired"})
    return {"current": signer.key_id, "keys": keys}


def receipt(signer: Signer, game_id: str, pstate: dict) -> dict:
    """A signed statement that the log of ``game_id`` had ``head`` at ``seq``."""
    return signer.sign(head_statement(game_id, pstate["seq"], pstate["head"]))
