"""The initial state: boards dealt, decks shuffled, missions dealt (setup steps of the digest §5)."""

from __future__ import annotations

from typing import Any

from projections.games.base import Options, Rng, State

from .content import ANCHORS, AREAS, BOARD, CHARACTERS, COMMERCE, EVENTS, MISSIONS, RING, SOLO, TIERS, TYPES
from .table import faced


def _player(character: dict[str, Any]) -> dict[str, Any]:
    colour = BOARD["colour_pieces"]
    return {
        "character": character["id"],
        "denarii": character["denarii"],
        "glory": character["glory"],
        "legions": character["legions"],
        "legion_reserve": colour["legions"] - character["legions"],
        "votes": character["votes"],
        "vote_reserve": colour["votes"] - character["votes"],
        "followers": 1,
        "placed": 0,
        "fresh": 0,
        "vendetta": character["vendetta"],
        "tokens_used": [],
        "plot_markers": BOARD["plot_markers"],
        "hand": [],
        "sets": [],
        "dealt": [],
        "missions": [],
        "pantheon": {tier["id"]: {"own": 0, "metal": None} for tier in TIERS},
        "milestones": [],
    }


def small_table(seats: int) -> bool:
    """Two players and solo use the two-player removals (digest §10, §11)."""
    return seats <= 2


def setup(options: Options, seats: int, rng: Rng) -> State:
    solo = seats == 1
    pool = sorted(c for c, data in CHARACTERS.items() if options["optional_characters"] or not data["optional"])
    characters = rng.sample(pool, seats)
    players = [_player(CHARACTERS[c]) for c in characters]
    anchors = list(ANCHORS)
    for player in players:
        if CHARACTERS[player["character"]]["anchor"]:
            player["hand"].append(anchors.pop(0))
    # players take the occupied table seats at random (the solo human always sits at 0)
    table = [0, SOLO_TABLE] if solo else rng.shuffle(BOARD["occupied_table_seats"][str(seats)])
    owners = seats + (1 if solo else 0)
    starred_out = small_table(seats)
    commerce = [c for c, card in COMMERCE.items() if not (starred_out and card["starred"])]
    missions = [m for m, card in MISSIONS.items() if not (starred_out and card["starred"])]
    key = str(seats)
    state: State = {
        "seats": seats,
        "solo": solo,
        "options": dict(options),
        "round": 1,
        "phase": "setup",
        "table": table,
        "orientation": 0,
        "start_province": RING[0],
        "event": None,
        "direction": "cw",
        "turn_order": list(range(seats)),
        "players": players,
        "unused_anchors": anchors,
        "removed_cards": [],
        "provinces": {
            p: {
                "levels": {t: 0 for t in TYPES},
                "population": 1,
                "followers": {t: [] for t in TYPES},
                "plots": [None] * BOARD["plot_spaces"],
            }
            for p in RING
        },
        "tiles": {t: list(BOARD["tiles_per_type"][key]) for t in TYPES},
        "medals": {t: None for t in TYPES},
        "pantheon_supply": {tier: dict(metals) for tier, metals in BOARD["pantheon"]["metal_supply"][key].items()},
        "milestones": [{"pos": p, "fixed": True} for p in BOARD["milestones"]["fixed"]]
        + [{"pos": p, "fixed": False} for p in BOARD["milestones"]["descending"]],
        "areas": {a: [0] * owners for a in AREAS},
        "senate": [],
        "colosseum": [],
        "vendetta_pool": BOARD["vendetta_markers_total"] - sum(p["vendetta"] for p in players),
        "event_deck": rng.shuffle(sorted(EVENTS)),
        "events_done": [],
        "commerce_deck": rng.shuffle(commerce),
        "commerce_discard": [],
        "mission_deck": rng.shuffle(missions),
        "rival": None,
        "queue": [{"op": "keep_missions", "waiting": list(range(seats))}, {"op": "round_start"}],
        "result": None,
    }
    first = rng.randbelow(seats)
    state["start_province"] = faced(state, first)
    for player in players:
        player["dealt"] = state["mission_deck"][:3]
        state["mission_deck"] = state["mission_deck"][3:]
    if solo:
        level = options["solo_difficulty"]
        state["rival"] = {
            "glory": SOLO["start_glory"][level],
            "legions": SOLO["legions"],
            "votes": SOLO["votes"],
            "vendetta": 0,
            "deck": rng.shuffle(sorted(c["id"] for c in SOLO["deck"])),
            "discard": [],
        }
    return state


SOLO_TABLE = BOARD["solo_rival_table_seat"]


def _copy_player(p: dict[str, Any]) -> dict[str, Any]:
    new = dict(p)
    for key in ("hand", "sets", "dealt", "missions", "tokens_used", "milestones"):
        new[key] = list(p[key])
    new["pantheon"] = {tier: dict(slot) for tier, slot in p["pantheon"].items()}
    return new


_LISTS = (
    "table",
    "turn_order",
    "unused_anchors",
    "removed_cards",
    "senate",
    "colosseum",
    "event_deck",
    "events_done",
    "commerce_deck",
    "commerce_discard",
    "mission_deck",
)


def copy_provinces(provinces: dict[str, Any]) -> dict[str, Any]:
    """The provinces with every part an event changes new (the view shows them so too)."""
    return {
        name: {
            "levels": dict(p["levels"]),
            "population": p["population"],
            "followers": {t: list(f) for t, f in p["followers"].items()},
            "plots": [dict(m) if m else None for m in p["plots"]],
        }
        for name, p in provinces.items()
    }


def copy(state: State) -> State:
    """A copy deep enough for ``apply`` to change freely (faster than a generic deep copy).

    Options and the result are never changed in place, so they are shared.
    """
    new = dict(state)
    for key in _LISTS:
        new[key] = list(state[key])
    new["players"] = [_copy_player(p) for p in state["players"]]
    new["provinces"] = copy_provinces(state["provinces"])
    new["tiles"] = {t: list(v) for t, v in state["tiles"].items()}
    new["medals"] = dict(state["medals"])
    new["pantheon_supply"] = {t: dict(v) for t, v in state["pantheon_supply"].items()}
    new["milestones"] = [dict(m) for m in state["milestones"]]
    new["areas"] = {a: list(v) for a, v in state["areas"].items()}
    new["queue"] = [dict(step) for step in state["queue"]]
    if state["rival"] is not None:
        new["rival"] = dict(state["rival"], deck=list(state["rival"]["deck"]), discard=list(state["rival"]["discard"]))
    return new
