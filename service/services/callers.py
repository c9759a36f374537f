"""Who is calling: a seat, the game's referee, or a spectator (no token).

Tokens are random strings handed out once at creation; the store keeps only their
SHA-256 (``service/adapters/tokens.py``), so a leaked database does not leak seats.

Claiming a seat for an account takes it from every earlier holder of its token (the
game's creator has a copy): the claimant gets a new token, marked ``claimed``, and from
the ``seat.bound`` entry on only a claimed token or the account's session speaks for the
seat (``require_current``). The check reads the game's state, not the token cache, so it
holds on every worker at once.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Protocol, cast

from events.shapes import JSON, Actor
from projections.fold import PlatformState
from projections.games.base import REFEREE, Viewer
from service.services.errors import Unauthenticated


@dataclass(frozen=True)
class Caller:
    seat: int | None = None
    referee: bool = False
    bot: bool = False
    claimed: bool = False
    """A token issued to the seat's account (by a claim, or at creation for a seat bound
    then), or the account's own session: what a bound seat still answers to."""
    operator: bool = False
    """The machine's own reader (a backup's restore check): sees every game whole."""

    @property
    def is_seat(self) -> bool:
        return self.seat is not None

    def actor(self) -> Actor:
        """The writer an entry records; asked of seats and the referee only (guards come first)."""
        return {"role": "referee", "name": "referee"} if self.referee else {"seat": cast(int, self.seat)}

    def describe(self) -> JSON:
        if self.referee:
            return {"role": "referee"}
        if self.is_seat:
            return {"seat": self.seat}
        return {"role": "spectator"}

    def viewer(self, sees_all: bool) -> Viewer:
        """The viewer handed to the game: everything when ``sees_all`` (``Games.sees_all``)."""
        return REFEREE if sees_all else self.seat


SPECTATOR = Caller()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Headers(Protocol):
    """A request's headers as far as a token is read from them (Flask's, or a dict)."""

    def get(self, key: str, default: str, /) -> str: ...


def bearer_token(headers: Headers) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None without one."""
    header = headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("bad_token", "use 'Authorization: Bearer <token>'")
    return token.strip()


CLAIMED = ":claimed"


def role_caller(role: str) -> Caller:
    """The caller a stored role names: ``referee``, ``seat:<n>``, ``seat:<n>:claimed`` (a
    token of the seat's account) or ``bot:<n>`` (a computer seat)."""
    if role == "referee":
        return Caller(referee=True)
    claimed = role.endswith(CLAIMED)
    kind, _, seat = role.removesuffix(CLAIMED).partition(":")
    return Caller(seat=int(seat), bot=kind == "bot", claimed=claimed)


def bound_accounts(p: PlatformState) -> dict[str, str]:
    """The game's seats bound to accounts (seat as a string -> account)."""
    return p.get("accounts") or {}


def require_current(p: PlatformState, caller: Caller) -> None:
    """A seat bound to an account answers only to its account's tokens and session: a
    copy of the token from before the claim (the creator's) no longer speaks or reads."""
    if caller.is_seat and not caller.bot and not caller.claimed and str(caller.seat) in bound_accounts(p):
        raise Unauthenticated(
            "token_revoked", "this seat is now played by an account; the token from before its claim no longer acts"
        )


class UnknownToken(LookupError):
    """No such token for this game (never cached: it may be a game not yet created)."""
