"""Binding a game's seat to an account: a ``seat.bound`` entry in that game's log.

A logged-in player claims the seat whose token they hold; the entry is the seat's
own act. A seat is bound once and an account sits in one seat of a game: a second
claim is a 409 and nothing is written (the fold refuses it too, so a log can never
hold two bindings of one seat). Bindings are made while the game is played: once it
has finished its record is final.
"""

from __future__ import annotations

from service.services.errors import Conflict, Forbidden, Unauthenticated


def claim(platform, game_id: str, account: str, seat_token: str) -> tuple[bool, dict]:
    """(bound now, answer): False when the seat was already bound to this same account."""
    try:
        who = platform.caller(game_id, seat_token)
    except Unauthenticated as exc:
        raise Forbidden("bad_seat_token", "this seat token is not one of this game's seats") from exc
    if not who.is_seat or who.bot:
        raise Forbidden("bad_seat_token", "this seat token is not one of this game's seats")
    seat = who.seat
    answer = {"game_id": game_id, "seat": seat, "account": account}

    def build(p: dict) -> list:
        bound = p.get("accounts") or {}
        if bound.get(str(seat)) == account:  # a concurrent claim of the same seat won: as if retried
            return []
        if p["status"] == "finished":
            raise Conflict("game_finished", "the game is over")
        if str(seat) in bound:
            raise Conflict("seat_taken", "this seat is bound to another account", {"seat": seat})
        if account in bound.values():
            raise Conflict(
                "account_seated",
                "this account already sits in another seat of this game",
                {"seat": int(next(s for s, a in bound.items() if a == account))},
            )
        if str(seat) in p["bots"]:
            raise Conflict("computer_seat", "a computer plays this seat")
        return [("seat.bound", {"seat": seat}, {"seat": seat, "account": account})]

    bound_now, seq = platform.append_entries(game_id, build)
    return bound_now, {**answer, "seq": seq}
