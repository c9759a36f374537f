"""Annotations on a step of a game: comments, and disputes the referee settles.

They live in their own stream (``game:{id}:notes``) so annotating never moves the
game's seq; a dispute's resolution is the referee event that names it.
"""

from __future__ import annotations

import json

from redis.exceptions import ResponseError

from events import keys
from events.envelope import now_rfc3339
from service.services import names
from service.services.callers import Caller
from service.services.errors import Conflict, Forbidden, Invalid

MAX_TEXT = 2000
MAX_SPECTATOR_NOTES = 1000  # a game's notes beyond which spectators may add no more (seats and referee may)
MAX_NOTES = 5000


def author_of(p: dict, caller: Caller, requested: str | None) -> tuple[str, str]:
    """(role, name) of a note's author: the role always comes from the token; only a
    spectator chooses a name, and not one that looks like a role or a seat's name."""
    if caller.is_seat:
        return "seat", p["seats"][caller.seat]
    if caller.referee:
        return "referee", "referee"
    if not requested:
        return "spectator", "spectator"
    return "spectator", names.check_new(
        requested, what="name", max_length=40, reserved=(*names.ROLE_WORDS, *p["seats"])
    )


def add(platform, game_id: str, caller: Caller, seq: int, text: str, kind: str, author: str | None) -> dict:
    p = platform.state(game_id)
    text = (text or "").strip()
    if not text or len(text) > MAX_TEXT:
        raise Invalid("bad_text", f"an annotation has 1 to {MAX_TEXT} characters")
    if not 1 <= seq <= p["seq"]:  # a step the game has not reached (yet): a conflict with its state
        raise Conflict("bad_seq", f"seq must be between 1 and {p['seq']}", {"seq": p["seq"]})
    if kind == "dispute" and not caller.is_seat:
        raise Forbidden("not_a_seat", "only a seat raises a dispute")
    platform.require_speaks_for_seat(p, caller)
    role, author = author_of(p, caller, author)
    count = platform.redis.xlen(keys.notes(game_id))
    if count >= MAX_NOTES or (role == "spectator" and count >= MAX_SPECTATOR_NOTES):
        raise Conflict("too_many_annotations", "this game has as many annotations as it takes", {"count": count})
    note = {
        "seq": seq,
        "kind": kind,
        "text": text,
        "author": author,
        "role": role,
        "ts": now_rfc3339(),
        "seat": caller.seat,
    }
    note_id = platform.redis.xadd(keys.notes(game_id), {"n": json.dumps(note)})
    return {"id": note_id, **note, "resolution": None}


def listing(platform, game_id: str, after: str | None = None, limit: int = 100) -> dict:
    """``{annotations, next}``: up to ``limit`` notes in order, after the note id ``after``."""
    p = platform.state(game_id)
    start = f"({after}" if after else "-"
    try:
        found = platform.redis.xrange(keys.notes(game_id), start, "+", count=limit + 1)
    except ResponseError as exc:  # an id Redis does not take (e.g. beyond 2^64)
        raise Invalid("bad_cursor", "after must be the id of an annotation") from exc
    out = []
    for note_id, fields in found[:limit]:
        note = json.loads(fields["n"])
        note.setdefault("role", "seat" if note.get("seat") is not None else "unverified")  # notes older than roles
        out.append({"id": note_id, **note, "resolution": p["resolutions"].get(note_id)})
    return {"annotations": out, "next": out[-1]["id"] if len(found) > limit else None}


def dispute_exists(redis, game_id: str, note_id: str) -> bool:
    try:
        found = redis.xrange(keys.notes(game_id), note_id, note_id)
    except ResponseError:  # a malformed id is simply not a dispute
        return False
    return bool(found) and json.loads(found[0][1]["n"])["kind"] == "dispute"
