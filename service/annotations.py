"""Annotations on a step of a game: comments, and disputes the referee settles.

They live in their own stream (``game:{id}:notes``) so annotating never moves the
game's seq; a dispute's resolution is the referee event that names it.
"""
from __future__ import annotations

import json

from redis.exceptions import ResponseError

from events import keys
from events.envelope import now_rfc3339

from .callers import Caller
from .errors import ApiError

MAX_TEXT = 2000


def add(platform, game_id: str, caller: Caller, seq: int, text: str, kind: str, author: str | None) -> dict:
    p = platform.state(game_id)
    text = (text or "").strip()
    if not text or len(text) > MAX_TEXT:
        raise ApiError(400, "bad_text", f"an annotation has 1 to {MAX_TEXT} characters")
    if not 1 <= seq <= p["seq"]:
        raise ApiError(400, "bad_seq", f"seq must be between 1 and {p['seq']}")
    if kind == "dispute" and not caller.is_seat:
        raise ApiError(403, "not_a_seat", "only a seat raises a dispute")
    if caller.is_seat:
        author = p["seats"][caller.seat]
    elif caller.referee:
        author = "referee"
    else:
        author = (author or "spectator").strip()[:60] or "spectator"
    note = {"seq": seq, "kind": kind, "text": text, "author": author, "ts": now_rfc3339(), "seat": caller.seat}
    note_id = platform.redis.xadd(keys.notes(game_id), {"n": json.dumps(note)})
    return {"id": note_id, **note, "resolution": None}


def listing(platform, game_id: str) -> list[dict]:
    p = platform.state(game_id)
    out = []
    for note_id, fields in platform.redis.xrange(keys.notes(game_id)):
        note = json.loads(fields["n"])
        out.append({"id": note_id, **note, "resolution": p["resolutions"].get(note_id)})
    return out


def dispute_exists(redis, game_id: str, note_id: str) -> bool:
    try:
        found = redis.xrange(keys.notes(game_id), note_id, note_id)
    except ResponseError:  # a malformed id is simply not a dispute
        return False
    return bool(found) and json.loads(found[0][1]["n"])["kind"] == "dispute"
