"""Binding a game's seat to an account: a ``seat.bound`` entry in that game's log.

A logged-in player claims the seat whose token they hold; the entry is the seat's
own act. A seat is bound once and an account sits in one seat of a game: a second
claim is a 409 and nothing is written (the fold refuses it too, so a log can never
hold two bindings of one seat). Bindings are made while the game is played: once it
has finished its record is final.

The claim answers a new token for the seat: the one claimed with may have copies (the
game's creator holds every seat's), and from the claim on they no longer speak for the
seat (``callers.require_current``).
"""

from __future__ import annotations

from functools import partial

from events.envelope import parse_ts
from events.shapes import JSON, Envelope
from events.writer import Entry
from projections.fold import PlatformState
from service.ports import GameLog, Lagging, Tokens
from service.services.accounts import Accounts
from service.services.errors import Conflict, Forbidden, Unauthenticated
from service.services.games import Games


class Bindings:
    def __init__(self, games: Games, log: GameLog, tokens: Tokens, accounts: Accounts, lagging: Lagging) -> None:
        self._games = games
        self._log = log
        self._tokens = tokens
        self._accounts = accounts
        self._lagging = lagging

    def claim(self, game_id: str, account: str, seat_token: str) -> tuple[bool, JSON]:
        """(bound now, answer): False when the seat was already bound to this same account."""
        try:
            who = self._games.caller(game_id, seat_token)
        except Unauthenticated as exc:
            raise Forbidden("bad_seat_token", "this seat token is not one of this game's seats") from exc
        if who.seat is None or who.bot:
            raise Forbidden("bad_seat_token", "this seat token is not one of this game's seats")
        seat = who.seat
        answer = {"game_id": game_id, "seat": seat, "account": account}

        def build(p: PlatformState) -> list[Entry]:
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

        written = self._log.append(game_id, build)
        token = self._tokens.issue_claimed(game_id, seat)
        return written.status == "created", {**answer, "seq": written.seq, "seat_token": token}

    def indexed(
        self, game_id: str, before: PlatformState | None, envelopes: list[Envelope], after: PlatformState
    ) -> None:
        """After an append: each account bound in it lists the game among its own."""
        for e in envelopes:
            if e["type"] == "seat.bound":
                name, when = e["payload"]["account"], parse_ts(e["ts"])
                self._lagging.run(
                    ("account-game", game_id, name),
                    partial(self._accounts.add_game, name, game_id, when),
                )
