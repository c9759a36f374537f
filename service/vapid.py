"""The server's VAPID key pair for Web Push: ``<DATA_DIR>/vapid-key.pem``, beside the
signing key, generated on first use (py-vapid). Browsers subscribe with its public key
(``GET /api/notices/key``); every push is signed with the private one."""

from __future__ import annotations

import base64
import os
from pathlib import Path

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from py_vapid import Vapid02

KEY_FILE = "vapid-key.pem"


def load_vapid(data_dir: str) -> Vapid02:
    path = Path(data_dir) / KEY_FILE
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        key = Vapid02()
        key.generate_keys()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key.private_pem())
    return Vapid02.from_file(str(path))


def application_server_key(key: Vapid02) -> str:
    """The public key as browsers take it (``applicationServerKey``): the uncompressed
    point, base64url without padding."""
    raw = key.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
