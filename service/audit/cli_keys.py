"""Public keys given on the command line: a base64 key, or a file holding one (or the
JSON that ``GET /api/keys`` answers, whose keys are taken except the revoked ones: a
revoked key leaked, so the offline verifiers trust it no more than the server does)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events.signing import keyring, revoked, trusted


def read_keys(given: list[str]) -> dict[str, Ed25519PublicKey]:
    """The keys by id; each revoked key of a listing dropped is named on stderr. Keys
    given that are all revoked are a ValueError: nothing would check the signatures."""
    texts: list[str] = []
    for item in given:
        path = Path(item)
        text = path.read_text() if path.is_file() else item
        try:
            published = json.loads(text)
        except ValueError:
            texts.append(text)
            continue
        if isinstance(published, dict) and "keys" in published:
            texts.extend(trusted(published))
            for key_id in revoked(published):
                print(f"revoked key {key_id} dropped: it vouches for nothing", file=sys.stderr)
        elif isinstance(published, dict) and "public_key" in published:
            if published.get("status") == "revoked":
                print(f"revoked key {published.get('key_id')} dropped: it vouches for nothing", file=sys.stderr)
            else:
                texts.append(published["public_key"])
        else:
            texts.append(text)
    if given and not texts:
        raise ValueError("every key given is revoked")
    return keyring(texts)
