"""Public keys given on the command line: a base64 key, or a file holding one (or the
JSON that ``GET /api/keys`` answers, whose every key is taken)."""

from __future__ import annotations

import json
from pathlib import Path

from events.signing import keyring


def read_keys(given: list[str]) -> dict:
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
            texts.extend(k["public_key"] for k in published["keys"])
        elif isinstance(published, dict) and "public_key" in published:
            texts.append(published["public_key"])
        else:
            texts.append(text)
    return keyring(texts)
