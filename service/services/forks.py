"""Forking: a new, unranked game that starts from the state of another at some seq.

The fork's ``game.created`` carries that state and links back to the source entry's
hash; it draws from a seed of its own. A game still being played can be forked only
by its referee: the fork's state holds the source's hidden information (deck orders),
which would become public when the fork ends. So does a fork of such a fork: the
rule is ``Games.sees_all``, the one that decides views and logs.
"""

from __future__ import annotations

from events.shapes import JSON
from service.ports import GameLog
from service.services.callers import Caller
from service.services.errors import Forbidden, Invalid
from service.services.games import CreateGame, Games


def fork(games: Games, log: GameLog, game_id: str, caller: Caller, at_seq: int, seats: list[str] | None = None) -> JSON:
    p = log.state(game_id)
    if not games.sees_all(p, caller):
        raise Forbidden("fork_needs_referee", "a game still being played is forked by its referee only")
    if not 1 <= at_seq <= p["seq"]:
        raise Invalid("bad_seq", f"at_seq must be between 1 and {p['seq']}")
    past = log.state_at(game_id, at_seq)
    names = seats or p["seats"]
    if len(names) != len(p["seats"]):
        raise Invalid("bad_seat_count", f"a fork keeps the {len(p['seats'])} seats of its source")
    source = {
        "game_id": game_id,
        "at_seq": at_seq,
        "head": past["head"],
        "state": past["state"],
        "draws": past["draws"],
    }
    command = CreateGame(p["game"], names, p["options"], ranked=False, fork=source, rules_version=p["rules_version"])
    return games.create(command)
