"""Games brought to a few steps through the HTTP API, for the tests that look at pages at
the start, in the middle and at the end of a game: random legal moves by every seat
(``advance``), or a seeded game replayed move by move (``Scripted``), the same every run."""

from __future__ import annotations

import random
from contextlib import contextmanager

from projections.games import registry

from .corpus import script
from .helpers import Server

# small tables and the games' own default options keep a full game short
SEATS = {"caylus": 2, "carcassonne_castle": 2, "shadow_of_the_emperor": 3, "sultans_of_karaya": 5, "age_of_rome": 2}
NAMES = {"en": ["Ada", "Brunel", "Curie", "Darwin", "Euler"], "zh-Hant": ["阿珠", "寶玉", "春嬌", "大同", "二妹"]}


def new_game(server: Server, game: str, lang: str = "en") -> dict:
    spec = {t["name"]: t for t in server.ok("GET", "/game-types")}[game]
    seats = min(max(SEATS.get(game, 2), spec["min_seats"]), spec["max_seats"])
    created = server.create(game, NAMES[lang][:seats])
    created["tokens"] = [s["token"] for s in created["seats"]]
    return created


def advance(server: Server, created: dict, moves: int, rand: random.Random, seats=None) -> dict:
    """Up to ``moves`` random legal moves (fewer if the game ends); returns the meta."""
    seats = list(range(len(created["tokens"]))) if seats is None else seats
    refused: list = []
    for _ in range(moves):
        if not server.bot_move(created["id"], created["tokens"], seats, rand, refused):
            break
    assert not refused, refused[:3]
    return server.meta(created["id"])


def finish(server: Server, created: dict, rand: random.Random, limit: int = 6000) -> dict:
    meta = advance(server, created, limit, rand)
    assert meta["status"] == "finished", f"no end after {limit} moves"
    return meta


# -- seeded games, the same at every run ------------------------------------------------
@contextmanager
def fixed_seed(seed: str):
    """The next games the test server creates (it runs in this process) get ``seed``
    instead of a secret random one, so their deals and draws are the same every run."""
    import service.services.games as platform_module

    real = platform_module.new_seed
    platform_module.new_seed = lambda: seed
    try:
        yield
    finally:
        platform_module.new_seed = real


class Scripted:
    """A seeded game on the test server and the moves that play it to its end: ``to(step)``
    posts them up to a step (a fraction of the whole game picks a point of it)."""

    def __init__(self, server: Server, game: str, seats: int, seed: str, lang: str = "en"):
        self.server, self.moves, self.done = server, script(game, seats, seed), 0
        names = (NAMES[lang] * 3)[:seats] if seats <= 5 else [f"{NAMES[lang][i % 5]}{i}" for i in range(seats)]
        with fixed_seed(seed):
            self.created = server.create(game, names)
        self.created["tokens"] = [s["token"] for s in self.created["seats"]]

    def at(self, fraction: float) -> int:
        return round(len(self.moves) * fraction)

    def to(self, step: int) -> dict:
        gid, tokens = self.created["id"], self.created["tokens"]
        for seat, action in self.moves[self.done : step]:
            self.server.ok("POST", f"/games/{gid}/actions", tokens[seat], json=action)
        self.done = max(self.done, step)
        return self.server.meta(gid)


def sweep_games(game: str) -> list[tuple[int, str]]:
    """Which seeded games a sweep plays of ``game``: its smallest and largest table (two
    seeds where there is one size), so the sweeps see several deals and table sizes."""
    rules = registry()[game]
    counts = [rules.min_seats, rules.max_seats] if rules.max_seats > rules.min_seats else [rules.min_seats] * 2
    return [(n, f"sweep:{game}:{n}:{i}") for i, n in enumerate(counts)]
