"""A game's lobby line: a cache of its fold, written by the append beside the log."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from events.shapes import JSON
from projections import fold
from projections.fold import PlatformState


def summary_line(game_id: str, p: PlatformState) -> JSON:
    return {
        "id": game_id,
        "game": p["game"],
        "title": fold.game_of(p).title,
        "seats": [{"seat": i, "name": n} for i, n in enumerate(p["seats"])],
        "status": p["status"],
        "seq": p["seq"],
        "to_act": fold.awaited(p),
        "result": p["result"],
        "created_at": p["created_at"],
        "ranked": p["ranked"],
        "forked_from": p["forked_from"],
        "tournament": p["tournament"],
        "accounts": p.get("accounts") or {},
    }


STATUSES = ("active", "paused", "finished")
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def score_of(summary: JSON) -> int:
    """Creation time in whole microseconds: an integer, so a lobby cursor names it
    exactly (Redis scores are doubles, exact for integers below 2^53)."""
    try:
        created = datetime.fromisoformat(summary["created_at"].replace("Z", "+00:00"))
    except (KeyError, TypeError, ValueError, AttributeError):
        return 0
    return (created - EPOCH) // timedelta(microseconds=1)


# Archives of older versions kept an archived game's lobby line in Redis in a compact
# form: the id is its key's, seats whose numbers are their places are names only, and
# fields holding what a finished game holds by default are left out. ``~`` marks it (a
# full line is an object). Archiving now moves the line out of Redis; these are still read.
COMPACT = "~"
_DEFAULTS: JSON = {"to_act": [], "forked_from": None, "tournament": None, "accounts": {}}
_ORDER = ("id", "game", "title", "seats", "status", "seq", "to_act", "result", "created_at", "ranked", "forked_from")


def full_line(game_id: str, raw: str) -> str:
    """The lobby line the readers know, from either form."""
    if not raw.startswith(COMPACT):
        return raw
    line = json.loads(raw[len(COMPACT) :])
    line["seats"] = [s if isinstance(s, dict) else {"seat": i, "name": s} for i, s in enumerate(line["seats"])]
    line = {"id": game_id, **_DEFAULTS, **line}
    return json.dumps({key: line.pop(key) for key in _ORDER if key in line} | line)
