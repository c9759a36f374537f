"""Provably fair chance: every draw is a function of (secret seed, draw counter).

``draw(i) = SHA-256(seed ":" i)``. Given the seed revealed at the end of a game,
anyone can recompute every shuffle; given only the commitment, nobody can predict one.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def new_seed() -> str:
    return secrets.token_hex(32)


def commitment(seed: str) -> str:
    return hashlib.sha256(seed.encode()).hexdigest()


CONTRIBUTION_HEX = 64
"""A seat's contribution to a deal: 32 random bytes, in hex."""


def mixed(seed: str, contributions: Sequence[str]) -> str:
    """The seed a game's draws come from when its seats contributed to the deal: the
    server's committed seed hashed with every contribution in seat order. The server
    commits before anyone contributes, so it cannot aim its seed at the deal, and no
    seat learns the seed before the end, so none can aim its contribution at it."""
    return hashlib.sha256(":".join([seed, *contributions]).encode()).hexdigest()


class SeededRng:
    """The generator handed to games; ``counter`` is stored beside the game state."""

    def __init__(self, seed: str, counter: int = 0):
        self._seed = seed.encode()
        self.counter = counter

    def _next64(self) -> int:
        digest = hashlib.sha256(self._seed + b":" + str(self.counter).encode()).digest()
        self.counter += 1
        return int.from_bytes(digest[:8], "big")

    def randbelow(self, n: int) -> int:
        """Uniform in [0, n) by rejection sampling, so no value is favoured."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = (1 << 64) - (1 << 64) % n
        while True:
            value = self._next64()
            if value < limit:
                return value % n

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list in Fisher-Yates order; the input is left as it is."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return out

    def choice(self, items: Sequence[T]) -> T:
        return items[self.randbelow(len(items))]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        return self.shuffle(items)[:k]
