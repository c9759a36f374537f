"""Server-Sent Events: a live tail of a game's log (XREAD BLOCK), as a spectator
sees it. A connection lasts ``seconds`` and the browser reconnects with
Last-Event-ID, so a gthread worker's threads are never held for long."""
from __future__ import annotations

import json
import time

from events import keys
from projections.fold import awaited
from projections.views import redacted_envelope


def event_stream(platform, game_id: str, after: int | None, seconds: float):
    if after is None:
        after = platform.state(game_id)["seq"]
    deadline = time.monotonic() + seconds
    yield "retry: 1000\n\n"
    while time.monotonic() < deadline:
        entries = platform.store.tail(keys.events(game_id), after, block_ms=2000)
        if not entries:
            yield ": keep-alive\n\n"
            continue
        p = platform.state(game_id)
        to_act = awaited(p)
        for envelope in entries:
            data = {**redacted_envelope(p["game"], envelope, None), "to_act": to_act, "status": p["status"],
                    "head": p["head"], "latest": p["seq"]}
            yield f"id: {envelope['seq']}\nevent: appended\ndata: {json.dumps(data)}\n\n"
            after = envelope["seq"]
