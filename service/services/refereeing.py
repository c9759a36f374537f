"""Referee events: pause, resume, rewind, adjust, forfeit, seating a computer and dismissing
a dispute; after the end, only a signed correction. Each is an event in the log, so the
replay shows the whole trail."""

from __future__ import annotations

from collections.abc import Callable

from events.shapes import JSON
from events.writer import Entry
from projections import fold
from projections.fold import PlatformState
from projections.outcome import final_result
from service.ports import GameLog, Notes, Signer, Tokens
from service.services.callers import Caller
from service.services.computer_seats import ComputerSeats
from service.services.errors import Conflict, Forbidden, Invalid, NotFound
from service.services.undo import check_target


class Refereeing:
    def __init__(
        self, log: GameLog, tokens: Tokens, notes: Notes, computer_seats: ComputerSeats, signer: Signer
    ) -> None:
        self._log = log
        self._tokens = tokens
        self._notes = notes
        self._computer_seats = computer_seats
        self._signer = signer

    def act(self, game_id: str, caller: Caller, kind: str, payload: JSON, creator: str | None = None) -> JSON:
        """Pause, resume, rewind, adjust, forfeit, seat a computer or dismiss a dispute.
        A computer seated here is charged to ``creator`` (None: a tournament director's)."""
        if not caller.referee:
            raise Forbidden("not_referee", "only this game's referee token may do this")
        check = CHECKS[kind]
        self._require_dispute(game_id, payload.get("dispute"))
        if kind == "bot":
            p = self._log.state(game_id)
            check(p, payload)  # refused before anything is charged
            bots = {int(s): n for s, n in p["bots"].items()} | {payload["seat"]: payload["strength"]}
            owner = creator or f"tournament:{p['tournament'] or game_id}"
            self._computer_seats.claim(owner, game_id, bots, capped=creator is not None)

        def build(p: PlatformState) -> list[Entry]:
            check(p, payload)
            return [(f"referee.{kind}", caller.actor(), payload)]

        seq = self._log.append(game_id, build).seq
        if kind == "bot":
            self._tokens.issue_bot(game_id, payload["seat"])
            self._computer_seats.schedule(game_id, self._log.state(game_id))
        return {"seq": seq}

    def correct(self, game_id: str, caller: Caller, body: JSON) -> JSON:
        """Correct a finished game's result: the referee's adjustments, the result they
        give, and the server's signature over both, as one ``referee.correction`` entry."""
        if not caller.referee:
            raise Forbidden("not_referee", "only this game's referee token may do this")
        dispute = body.get("dispute")
        self._require_dispute(game_id, dispute)
        adjustments = [[a["seat"], a["points"]] for a in body["adjustments"]]
        cancel = bool(body.get("cancel"))
        if cancel:
            self._require_clock_forfeit(game_id)

        def build(p: PlatformState) -> list[Entry]:
            if p["status"] != "finished":
                raise Conflict("not_finished", "only a finished game is corrected; adjust it while it is played")
            for seat, _ in adjustments:
                _seat(p, {"seat": seat})
            after: PlatformState = {**p, "adjustments": p["adjustments"] + adjustments}
            if cancel:
                after["cancelled"] = True
            result = final_result(fold.game_of(p), after)
            if _standing(result) == _standing(p["result"]):  # would lengthen the log and re-rate for nothing
                raise Conflict("unchanged_result", "this correction does not change the result")
            payload = {
                "adjustments": adjustments,
                "reason": body["reason"],
                "dispute": dispute,
                "result": result,
            }
            if cancel:
                payload["cancel"] = True
            entry = {"seq": p["seq"] + 1, "prev": p["head"], "payload": payload}
            payload["attestation"] = self._signer.sign(fold.correction_statement(p.get("game_id"), entry))
            return [(fold.CORRECTION, caller.actor(), payload)]

        return {"seq": self._log.append(game_id, build).seq}

    def _require_clock_forfeit(self, game_id: str) -> None:
        """Only a game a clock ended is cancelled after its end (the referee judged the
        service's outage ran the clock out); any other result is corrected by points."""
        entries = self._log.read(game_id)
        end = next((i for i, e in enumerate(entries) if e["type"] == "game.finished"), None)
        if end is None or entries[end - 1]["type"] != "clock.expired":
            raise Conflict("not_a_clock_forfeit", "only a game a clock ended can be cancelled after its end")

    def _require_dispute(self, game_id: str, dispute: str | None) -> None:
        if dispute:
            note = self._notes.get(game_id, dispute)
            if note is None or note.get("kind") != "dispute":
                raise NotFound("not_found", f"no dispute {dispute}")


def _pause(p: PlatformState, payload: JSON) -> None:
    if p["status"] != "active":
        raise Conflict("not_active", f"the game is {p['status']}")


def _resume(p: PlatformState, payload: JSON) -> None:
    if p["status"] != "paused":
        raise Conflict("not_paused", f"the game is {p['status']}")


def _rewind(p: PlatformState, payload: JSON) -> None:
    if p["status"] == "finished":
        raise Conflict("game_finished", "a finished game is not rewound; fork it instead")
    check_target(p, payload["to_seq"])


def _seat(p: PlatformState, payload: JSON) -> None:
    if not 0 <= payload["seat"] < len(p["seats"]):
        raise Invalid("bad_seat", f"no seat {payload['seat']}")


def _not_finished(p: PlatformState) -> None:
    if p["status"] == "finished":
        raise Conflict("game_finished", "the game is over: only a correction (referee/correct) changes its record")


def _adjust(p: PlatformState, payload: JSON) -> None:
    _not_finished(p)
    _seat(p, payload)


def _forfeit(p: PlatformState, payload: JSON) -> None:
    _seat(p, payload)
    if p["status"] == "finished":
        raise Conflict("game_finished", "the game is over")
    if payload["seat"] in p["forfeits"]:
        raise Conflict("already_forfeited", "that seat has already forfeited")


def _bot(p: PlatformState, payload: JSON) -> None:
    _seat(p, payload)
    game = fold.game_of(p)
    if not game.plays_by_computer():
        raise Invalid("no_computer_player", f"{game.title} has no computer player")
    if p["status"] == "finished":
        raise Conflict("game_finished", "the game is over")
    if str(payload["seat"]) in p["bots"]:
        raise Conflict("already_a_computer", "a computer already plays that seat")


def _dismiss(p: PlatformState, payload: JSON) -> None:
    _not_finished(p)
    if not payload.get("dispute"):
        raise Invalid("bad_payload", "dismiss names the dispute it settles")


CHECKS: dict[str, Callable[[PlatformState, JSON], None]] = {
    "pause": _pause,
    "resume": _resume,
    "rewind": _rewind,
    "adjust": _adjust,
    "forfeit": _forfeit,
    "dismiss": _dismiss,
    "bot": _bot,
}


def _standing(result: JSON | None) -> JSON | None:
    """What a result says about the players (scores, ranks, forfeits), without the list
    of adjustments that led to it."""
    return None if result is None else {k: v for k, v in result.items() if k != "adjustments"}
