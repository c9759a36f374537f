"""Who is calling: a seat, the game's referee, or a spectator (no token).

Tokens are random strings handed out once at creation; Redis keeps only their
SHA-256, so a leaked database does not leak seats. A token never changes once issued,
so each worker keeps what it has resolved (``TokenCache``) and asks Redis once per
token, not once per request.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from functools import lru_cache

from events import keys
from projections.games.base import REFEREE
from service.services.errors import Unauthenticated


@dataclass(frozen=True)
class Caller:
    seat: int | None = None
    referee: bool = False
    bot: bool = False

    @property
    def is_seat(self) -> bool:
        return self.seat is not None

    def actor(self) -> dict:
        return {"role": "referee", "name": "referee"} if self.referee else {"seat": self.seat}

    def describe(self) -> dict:
        if self.referee:
            return {"role": "referee"}
        if self.is_seat:
            return {"seat": self.seat}
        return {"role": "spectator"}

    def viewer(self, finished: bool):
        """The viewer handed to the game: everything once finished or for the referee."""
        if finished or self.referee:
            return REFEREE
        return self.seat


SPECTATOR = Caller()


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_tokens(redis, game_id: str, seats: int) -> tuple[list[str], str]:
    seat_tokens = [new_token() for _ in range(seats)]
    referee_token = new_token()
    mapping = {token_digest(t): f"seat:{i}" for i, t in enumerate(seat_tokens)}
    mapping[token_digest(referee_token)] = "referee"
    redis.hset(keys.tokens(game_id), mapping=mapping)
    return seat_tokens, referee_token


def bearer_token(headers) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header; None without one."""
    header = headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthenticated("bad_token", "use 'Authorization: Bearer <token>'")
    return token.strip()


def role_caller(role: str) -> Caller:
    """The caller a stored role names: ``referee``, ``seat:<n>`` or ``bot:<n>`` (a computer seat)."""
    if role == "referee":
        return Caller(referee=True)
    kind, _, seat = role.partition(":")
    return Caller(seat=int(seat), bot=kind == "bot")


def resolve(redis, game_id: str, token: str | None) -> Caller:
    if not token:
        return SPECTATOR
    role = redis.hget(keys.tokens(game_id), token_digest(token))
    if role is None:
        raise Unauthenticated("bad_token", "this token is not valid for this game")
    return role_caller(role)


class UnknownToken(LookupError):
    """No such token for this game (never cached: it may be a game not yet created)."""


class TokenCache:
    """Per-worker token resolution, bounded (LRU). Only tokens Redis knows are kept:
    a failed look-up raises and asks again next time."""

    def __init__(self, redis, size: int = 65536):
        self.redis = redis
        self._lookup = lru_cache(maxsize=size)(self._fetch)

    def _fetch(self, game_id: str, digest: str) -> Caller:
        role = self.redis.hget(keys.tokens(game_id), digest)
        if role is None:
            raise UnknownToken(game_id)
        return role_caller(role)

    def resolve(self, game_id: str, token: str) -> Caller:
        """The caller holding ``token`` in this game; UnknownToken if it holds none."""
        return self._lookup(game_id, token_digest(token))


def issue_bot_token(redis, game_id: str, seat: int) -> None:
    """A computer seat gets a token of its own, kept server-side for the bot runner:
    it plays through the same door as a person."""
    token = new_token()
    redis.hset(keys.tokens(game_id), token_digest(token), f"bot:{seat}")
    redis.hset(keys.bots(game_id), str(seat), token)
