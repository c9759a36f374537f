"""``python -m service lobby-index``: file every stored game in the lobby's indexes.

The upgrade step for a database whose games predate the indexes (new games are filed
as they are written). Idempotent; a server that finds the indexes unbuilt also runs it
on a thread aside at start, so this only makes the lobby whole sooner. It talks to the
server's Redis: ``REDIS_URL``, else the embedded server's socket in ``DATA_DIR``."""

from __future__ import annotations

import json
import os
import sys


def main() -> int:
    from service import bootstrap
    from service.adapters.connection import SOCKET_NAME, UNAVAILABLE, connect
    from service.config import from_env
    from service.signing import signer_for

    config = from_env()
    url = config["REDIS_URL"] or "unix://" + os.path.join(os.path.abspath(config["DATA_DIR"]), SOCKET_NAME)
    built = bootstrap.build(connect(url), signer_for(config["DATA_DIR"], config["SIGNING_KEY"]))
    try:
        filed = built.lobby.build_indexes()
    except UNAVAILABLE as exc:
        print(f"the server's Redis does not answer at {url}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"lobby_indexes": "built", "games": filed}))
    return 0
