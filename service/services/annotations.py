"""Annotations on a step of a game: comments, and disputes the referee settles.

They live in their own stream (``game:{id}:notes``) so a comment never moves the
game's seq; a dispute in a game still in play is also a ``dispute.raised`` entry of the
log (so it streams), and its resolution is the referee event that names it.
"""

from __future__ import annotations

from events.envelope import now_rfc3339
from events.shapes import JSON
from events.writer import Entry
from projections.fold import PlatformState
from service.ports import GameLog, Notes
from service.services import names
from service.services.callers import Caller
from service.services.clocks import SYSTEM, SYSTEM_ACTION_PREFIX
from service.services.errors import Conflict, Forbidden, Invalid
from service.services.guards import require_speaks_for_seat

MAX_TEXT = 2000
MAX_SPECTATOR_NOTES = 1000  # a game's notes beyond which spectators may add no more (seats and referee may)
MAX_NOTES = 5000


def author_of(p: PlatformState, caller: Caller, requested: str | None) -> tuple[str, str]:
    """(role, name) of a note's author: the role always comes from the token; only a
    spectator chooses a name, and not one that looks like a role or a seat's name."""
    if caller.seat is not None:
        return "seat", p["seats"][caller.seat]
    if caller.referee:
        return "referee", "referee"
    if not requested:
        return "spectator", "spectator"
    return "spectator", names.check_new(
        requested, what="name", max_length=40, reserved=(*names.ROLE_WORDS, *p["seats"])
    )


def add(
    log: GameLog, notes: Notes, game_id: str, caller: Caller, seq: int, text: str, kind: str, author: str | None
) -> JSON:
    p = log.state(game_id)
    text = (text or "").strip()
    if not text or len(text) > MAX_TEXT:
        raise Invalid("bad_text", f"an annotation has 1 to {MAX_TEXT} characters")
    if not 1 <= seq <= p["seq"]:  # a step the game has not reached (yet): a conflict with its state
        raise Conflict("bad_seq", f"seq must be between 1 and {p['seq']}", {"seq": p["seq"]})
    if kind == "dispute" and not caller.is_seat:
        raise Forbidden("not_a_seat", "only a seat raises a dispute")
    require_speaks_for_seat(p, caller)
    role, author = author_of(p, caller, author)
    count = notes.count(game_id)
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
    note_id = notes.add(game_id, note)
    if kind == "dispute":
        _raise(log, game_id, note_id, caller, seq)
    return {"id": note_id, **note, "resolution": None}


def _raise(log: GameLog, game_id: str, dispute: str, caller: Caller, seq: int) -> None:
    """A dispute of a game in play is a log entry (``dispute.raised``), so it streams to the
    referee's console and the director's page; in a game whose clocks pause for a dispute
    (a setting of its clock) a ``clock.paused`` with ``dispute`` stops them until the
    referee's entry naming it. A finished game's log is final: its disputes stay notes."""

    def build(p: PlatformState) -> list[Entry]:
        if p["status"] == "finished":
            return []
        entries: list[Entry] = [
            ("dispute.raised", caller.actor(), {"dispute": dispute, "seat": caller.seat, "at_seq": seq})
        ]
        clocks = p["clocks"]
        if clocks and clocks.get("pause_on_dispute"):
            entries.append(("clock.paused", SYSTEM, {"reason": "dispute", "dispute": dispute}))
        return entries

    log.append(game_id, build, action_id=f"{SYSTEM_ACTION_PREFIX}dispute:{dispute}")


def listing(log: GameLog, notes: Notes, game_id: str, after: str | None = None, limit: int = 100) -> JSON:
    """``{annotations, next}``: up to ``limit`` notes in order, after the note id ``after``."""
    p = log.state(game_id)
    found = notes.page(game_id, after, limit + 1)
    out = []
    for note_id, note in found[:limit]:
        note.setdefault("role", "seat" if note.get("seat") is not None else "unverified")  # notes older than roles
        out.append({"id": note_id, **note, "resolution": p["resolutions"].get(note_id)})
    return {"annotations": out, "next": out[-1]["id"] if len(found) > limit else None}
