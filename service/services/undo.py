"""Undo: immediate when only the caller acted since and nothing hidden was shown;
otherwise a request every other seat (or the referee) must approve."""

from __future__ import annotations

import uuid

from events.shapes import JSON
from events.writer import Entry
from projections.fold import PlatformState, effective_points
from service.ports import GameLog
from service.services.callers import Caller
from service.services.errors import Conflict, Forbidden, NotFound, Unprocessable
from service.services.guards import require_active, require_speaks_for_seat


def check_target(p: PlatformState, to_seq: int) -> list[list[object]]:
    if to_seq not in effective_points(p):
        raise Unprocessable("not_an_effective_step", f"seq {to_seq} is not a step of the current history")
    after = [h for h in p["history"] if h[0] > to_seq]
    if not after:
        raise Unprocessable("nothing_to_undo", f"nothing happened after seq {to_seq}")
    return after


def request_undo(log: GameLog, game_id: str, caller: Caller, to_seq: int) -> JSON:
    if not caller.is_seat:
        raise Forbidden("not_a_seat", "only a seat asks for an undo; the referee rewinds")
    outcome: JSON = {}

    def build(p: PlatformState) -> list[Entry]:
        outcome.clear()  # a build on a state that was behind may have decided otherwise
        require_active(p)
        require_speaks_for_seat(p, caller)
        if p["pending_undo"]:
            raise Conflict("undo_pending", "another undo request is waiting for answers")
        after = check_target(p, to_seq)
        if all(seat == caller.seat and not revealing for _, seat, revealing in after):
            outcome["status"] = "done"
            return [("game.undo", caller.actor(), {"to_seq": to_seq})]
        outcome["status"], outcome["request_id"] = "requested", uuid.uuid4().hex[:12]
        return [("game.undo_requested", caller.actor(), {"to_seq": to_seq, "request_id": outcome["request_id"]})]

    seq = log.append(game_id, build).seq
    return {**outcome, "seq": seq}


def answer_undo(log: GameLog, game_id: str, caller: Caller, request_id: str, approve: bool) -> JSON:
    def build(p: PlatformState) -> list[Entry]:
        require_speaks_for_seat(p, caller)
        req = p["pending_undo"]
        if not req or req["id"] != request_id:
            raise NotFound("not_found", "no such pending undo request")
        if not caller.referee and caller.seat not in req["needed"]:
            raise Forbidden("not_asked", "this seat is not asked to answer this request")
        if caller.is_seat and caller.seat in req["approvals"]:
            raise Conflict("already_answered", "this seat has already approved")
        kind = "game.undo_approved" if approve else "game.undo_declined"
        return [(kind, caller.actor(), {"request_id": request_id})]

    seq = log.append(game_id, build).seq
    p = log.state(game_id)
    status = "pending" if p["pending_undo"] else ("declined" if not approve else "done")
    return {"status": status, "seq": seq}
