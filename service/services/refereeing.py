"""Referee events: pause, resume, rewind, adjust, forfeit, seating a computer and dismissing
a dispute; after the end, only a signed correction. Each is an event in the log, so the
replay shows the whole trail."""

from __future__ import annotations

from projections import fold
from projections.outcome import final_result
from service.services.annotations import dispute_exists
from service.services.callers import Caller, issue_bot_token
from service.services.errors import Conflict, Forbidden, Invalid, NotFound
from service.services.undo import check_target


def referee_action(platform, game_id: str, caller: Caller, kind: str, payload: dict) -> dict:
    if not caller.referee:
        raise Forbidden("not_referee", "only this game's referee token may do this")
    check = CHECKS[kind]
    dispute = payload.get("dispute")
    if dispute and not dispute_exists(platform.redis, game_id, dispute):
        raise NotFound("not_found", f"no dispute {dispute}")

    def build(p):
        check(p, payload)
        return [(f"referee.{kind}", caller.actor(), payload)]

    _, seq = platform.append_entries(game_id, build)
    if kind == "bot":
        issue_bot_token(platform.redis, game_id, payload["seat"])
        platform._schedule_bots(game_id, platform.state(game_id))
    return {"seq": seq}


def _pause(p, payload):
    if p["status"] != "active":
        raise Conflict("not_active", f"the game is {p['status']}")


def _resume(p, payload):
    if p["status"] != "paused":
        raise Conflict("not_paused", f"the game is {p['status']}")


def _rewind(p, payload):
    if p["status"] == "finished":
        raise Conflict("game_finished", "a finished game is not rewound; fork it instead")
    check_target(p, payload["to_seq"])


def _seat(p, payload):
    if not 0 <= payload["seat"] < len(p["seats"]):
        raise Invalid("bad_seat", f"no seat {payload['seat']}")


def _not_finished(p):
    if p["status"] == "finished":
        raise Conflict("game_finished", "the game is over: only a correction (referee/correct) changes its record")


def _adjust(p, payload):
    _not_finished(p)
    _seat(p, payload)


def _forfeit(p, payload):
    _seat(p, payload)
    if p["status"] == "finished":
        raise Conflict("game_finished", "the game is over")
    if payload["seat"] in p["forfeits"]:
        raise Conflict("already_forfeited", "that seat has already forfeited")


def _bot(p, payload):
    _seat(p, payload)
    game = fold.game_of(p)
    if not game.plays_by_computer():
        raise Invalid("no_computer_player", f"{game.title} has no computer player")
    if p["status"] == "finished":
        raise Conflict("game_finished", "the game is over")
    if str(payload["seat"]) in p["bots"]:
        raise Conflict("already_a_computer", "a computer already plays that seat")


def _dismiss(p, payload):
    _not_finished(p)
    if not payload.get("dispute"):
        raise Invalid("bad_payload", "dismiss names the dispute it settles")


CHECKS = {
    "pause": _pause,
    "resume": _resume,
    "rewind": _rewind,
    "adjust": _adjust,
    "forfeit": _forfeit,
    "dismiss": _dismiss,
    "bot": _bot,
}


def correct(platform, game_id: str, caller: Caller, body: dict) -> dict:
    """Correct a finished game's result: the referee's adjustments, the result they
    give, and the server's signature over both, as one ``referee.correction`` entry."""
    if not caller.referee:
        raise Forbidden("not_referee", "only this game's referee token may do this")
    dispute = body.get("dispute")
    if dispute and not dispute_exists(platform.redis, game_id, dispute):
        raise NotFound("not_found", f"no dispute {dispute}")
    adjustments = [[a["seat"], a["points"]] for a in body["adjustments"]]

    def build(p):
        if p["status"] != "finished":
            raise Conflict("not_finished", "only a finished game is corrected; adjust it while it is played")
        for seat, _ in adjustments:
            _seat(p, {"seat": seat})
        after = {**p, "adjustments": p["adjustments"] + adjustments}
        result = final_result(fold.game_of(p), after)
        if _standing(result) == _standing(p["result"]):  # would lengthen the log and re-rate for nothing
            raise Conflict("unchanged_result", "this correction does not change the result")
        payload = {
            "adjustments": adjustments,
            "reason": body["reason"],
            "dispute": dispute,
            "result": result,
        }
        entry = {"seq": p["seq"] + 1, "prev": p["head"], "payload": payload}
        payload["attestation"] = platform.signer.sign(fold.correction_statement(p.get("game_id"), entry))
        return [(fold.CORRECTION, caller.actor(), payload)]

    _, seq = platform.append_entries(game_id, build)
    return {"seq": seq}


def _standing(result: dict | None) -> dict | None:
    """What a result says about the players (scores, ranks, forfeits), without the list
    of adjustments that led to it."""
    return None if result is None else {k: v for k, v in result.items() if k != "adjustments"}
