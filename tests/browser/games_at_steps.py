"""Games brought to a few steps through the HTTP API (random legal moves by every seat),
for the tests that look at pages at the start, in the middle and at the end of a game."""
from __future__ import annotations

import random

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
