"""``python -m service maintenance on|off``: hold every running clock for maintenance.

``on`` appends ``clock.paused`` to every game whose clock runs and sets the maintenance
flag; ``off`` appends ``clock.resumed`` to the games it paused. Entries, not a switch in
memory: a replay and ``verify`` fold the same clocks the server showed. It talks to the
server's Redis: ``REDIS_URL``, else the embedded server's socket in ``DATA_DIR`` (which
runs while the server does)."""

from __future__ import annotations

import json
import os
import sys


def main(state: str, reason: str) -> int:
    from service import bootstrap
    from service.adapters.connection import SOCKET_NAME, UNAVAILABLE, connect
    from service.config import from_env
    from service.signing import signer_for

    config = from_env()
    url = config["REDIS_URL"] or "unix://" + os.path.join(os.path.abspath(config["DATA_DIR"]), SOCKET_NAME)
    built = bootstrap.build(connect(url), signer_for(config["DATA_DIR"], config["SIGNING_KEY"]))
    try:
        games = built.clocks.hold(reason) if state == "on" else built.clocks.release(reason)
    except UNAVAILABLE as exc:
        print(f"the server's Redis does not answer at {url}: {exc}", file=sys.stderr)
        return 2
    print(json.dumps({"maintenance": state, "games": games}, indent=2))
    return 0
