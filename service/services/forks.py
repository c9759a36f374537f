"""Forking: a new, unranked game that starts from the state of another at some seq.

The fork's ``game.created`` carries that state and links back to the source entry's
hash; it draws from a seed of its own. A game still being played can be forked only
by its referee: the fork's state holds the source's hidden information (deck orders),
which would become public when the fork ends. So does a fork of such a fork: the
rule is ``Platform.sees_all``, the one that decides views and logs.
"""

from __future__ import annotations

from service.services.callers import Caller
from service.services.errors import Forbidden, Invalid


def fork(platform, game_id: str, caller: Caller, at_seq: int, seats: list[str] | None = None) -> dict:
    p = platform.state(game_id)
    if not platform.sees_all(p, caller):
        raise Forbidden("fork_needs_referee", "a game still being played is forked by its referee only")
    if not 1 <= at_seq <= p["seq"]:
        raise Invalid("bad_seq", f"at_seq must be between 1 and {p['seq']}")
    past = platform.projector.state_at(game_id, at_seq)
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
    return platform.create_game(
        p["game"], names, p["options"], ranked=False, fork=source, rules_version=p["rules_version"]
    )
