"""The server's signing key: where it lives, how it rotates, and the receipts it signs.

The private key comes from ``SIGNING_KEY`` (a PEM text, for deployments whose secrets
live in the environment) or from ``<DATA_DIR>/signing-key.pem``, created on first use
with mode 0600 beside the data it vouches for. Rotation (``python -m service key
--rotate``) keeps the old public key in ``<DATA_DIR>/retired-keys/<key_id>.pub`` so
``GET /api/keys`` still publishes it and old receipts and exports keep verifying.
Running workers notice a new key file with their next signature (``KeyFileSigner``): no restart.
Revocation (``key --revoke KEY_ID``, for a leaked key) moves a retired key to
``revoked-keys/``: it stays published as ``revoked`` and the server's own verify no
longer accepts anything it signed (the logs themselves are exported again, signed by
the current key). The current key is revoked by rotating first.
"""

from __future__ import annotations

import os
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from events.shapes import JSON
from events.signing import ALGORITHM, Signer, decode_public, encode_public, head_statement, key_id
from projections.fold import PlatformState
from service import ports

KEY_FILE = "signing-key.pem"
RETIRED = "retired-keys"
REVOKED = "revoked-keys"


def _pem(private: Ed25519PrivateKey) -> bytes:
    return private.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _write_private(path: Path, private: Ed25519PrivateKey) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".new")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(_pem(private))
    os.replace(tmp, path)


def _signer_of(pem: bytes) -> Signer:
    private = serialization.load_pem_private_key(pem, password=None)
    if not isinstance(private, Ed25519PrivateKey):
        raise ValueError("the signing key is not an Ed25519 private key")
    return Signer(private)


def load_signer(data_dir: str, env_pem: str | None = None) -> Signer:
    """The current signer: from the environment's PEM, else the key file (created once)."""
    if env_pem:
        return _signer_of(env_pem.encode())
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
    return _signer_of(path.read_bytes())


class KeyFileSigner:
    """The signer of ``<DATA_DIR>/signing-key.pem``, re-read when the file changes, so a
    rotation reaches every running worker with its next signature. One stat per
    signature costs microseconds beside the Ed25519 signing itself."""

    def __init__(self, data_dir: str) -> None:
        self.path = Path(data_dir) / KEY_FILE
        self.signer = load_signer(data_dir)
        self.seen = self._stamp()

    def _stamp(self) -> tuple[int, int, int] | None:
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return None
        return st.st_ino, st.st_mtime_ns, st.st_size

    def current(self) -> Signer:
        stamp = self._stamp()
        if stamp is not None and stamp != self.seen:
            self.signer = _signer_of(self.path.read_bytes())
            self.seen = stamp
        return self.signer

    def sign(self, statement: JSON) -> JSON:
        return self.current().sign(statement)

    def describe(self) -> JSON:
        return self.current().describe()

    @property
    def key_id(self) -> str:
        return self.current().key_id

    @property
    def public(self) -> Ed25519PublicKey:
        return self.current().public


def signer_for(data_dir: str, env_pem: str | None = None) -> Signer | KeyFileSigner:
    """What the app signs with: a fixed key from the environment, else the key file."""
    return load_signer(data_dir, env_pem) if env_pem else KeyFileSigner(data_dir)


def revoke(data_dir: str, kid: str) -> None:
    """Mark a retired key revoked (ValueError for the current key or an unknown one)."""
    if load_signer(data_dir).key_id == kid:
        raise ValueError("the current key is revoked by rotating first (key --rotate), then revoking the old one")
    source = Path(data_dir) / RETIRED / f"{kid}.pub"
    if not source.exists():
        raise ValueError(f"no retired key {kid}")
    target = Path(data_dir) / REVOKED
    target.mkdir(parents=True, exist_ok=True)
    os.replace(source, target / f"{kid}.pub")


def rotate(data_dir: str) -> Signer:
    """A new key in the key file; the old public key joins the retired ones."""
    old = load_signer(data_dir)
    retired = Path(data_dir) / RETIRED
    retired.mkdir(parents=True, exist_ok=True)
    (retired / f"{old.key_id}.pub").write_text(encode_public(old.public) + "\n")
    _write_private(Path(data_dir) / KEY_FILE, Ed25519PrivateKey.generate())
    return load_signer(data_dir)


def published(signer: ports.Signer, data_dir: str) -> JSON:
    """What ``GET /api/keys`` answers: the current key and every retired one."""
    current = signer.describe()
    keys = [{**current, "status": "current"}]
    for folder, status in ((RETIRED, "retired"), (REVOKED, "revoked")):
        where = Path(data_dir) / folder
        for path in sorted(where.glob("*.pub")) if where.is_dir() else []:
            public = decode_public(path.read_text())
            if key_id(public) != current["key_id"]:
                keys.append(
                    {
                        "key_id": key_id(public),
                        "algorithm": ALGORITHM,
                        "public_key": encode_public(public),
                        "status": status,
                    }
                )
    return {"current": current["key_id"], "keys": keys}


def receipt(signer: ports.Signer, game_id: str, pstate: PlatformState) -> JSON:
    """A signed statement that the log of ``game_id`` had ``head`` at ``seq``."""
    return signer.sign(head_statement(game_id, pstate["seq"], pstate["head"]))
