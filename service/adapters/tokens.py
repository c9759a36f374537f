"""Game tokens on Redis: each game's hash of token digests to roles.

Tokens are random strings handed out once; Redis keeps only their SHA-256, so a leaked
database does not leak seats. A token never changes once issued, so each worker keeps
what it has resolved (an LRU) and asks Redis once per token, not once per request.
Whether a token still speaks for its seat (a claim takes a seat from earlier holders)
is decided by the game's state, not here (``callers.require_current``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from service.services.callers import CLAIMED, Caller, UnknownToken, new_token, role_caller, token_digest

from . import keys


class RedisTokens:
    def __init__(self, redis: Any, cache_size: int = 65536, restore: Callable[[str], bool] | None = None) -> None:
        """``restore``: puts an archived game's log and tokens back (adapters/archive.py)
        when a look-up finds the game holds no tokens in Redis."""
        self._redis = redis
        self._restore = restore
        self._lookup = lru_cache(maxsize=cache_size)(self._fetch)

    def issue(self, game_id: str, seats: int, bound: frozenset[int] = frozenset()) -> tuple[list[str], str]:
        seat_tokens = [new_token() for _ in range(seats)]
        referee_token = new_token()
        mapping = {token_digest(t): f"seat:{i}{CLAIMED if i in bound else ''}" for i, t in enumerate(seat_tokens)}
        mapping[token_digest(referee_token)] = "referee"
        self._redis.hset(keys.tokens(game_id), mapping=mapping)
        return seat_tokens, referee_token

    def issue_bot(self, game_id: str, seat: int) -> None:
        """A computer seat's own token, kept server-side for the bot runner: it plays
        through the same door as a person."""
        token = new_token()
        self._redis.hset(keys.tokens(game_id), token_digest(token), f"bot:{seat}")
        self._redis.hset(keys.bots(game_id), str(seat), token)

    def issue_claimed(self, game_id: str, seat: int) -> str:
        token = new_token()
        self._redis.hset(keys.tokens(game_id), token_digest(token), f"seat:{seat}{CLAIMED}")
        return token

    def resolve(self, game_id: str, token: str) -> Caller:
        return self._lookup(game_id, token_digest(token))

    def _fetch(self, game_id: str, digest: str) -> Caller:
        """Only tokens Redis knows are cached: a failed look-up asks again next time."""
        role = self._redis.hget(keys.tokens(game_id), digest)
        if role is None and self._restore and not self._redis.exists(keys.tokens(game_id)) and self._restore(game_id):
            role = self._redis.hget(keys.tokens(game_id), digest)
        if role is None:
            raise UnknownToken(game_id)
        return role_caller(role)

    def bot_token(self, game_id: str, seat: int) -> str | None:
        found: str | None = self._redis.hget(keys.bots(game_id), str(seat))
        return found
