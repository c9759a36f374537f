"""Shared test helpers: start a game, post an event, and put a state at a chosen step."""

from __future__ import annotations

from functools import cache

from events.rng import SeededRng
from projections.games.age_of_rome import GAME
from projections.games.age_of_rome.content import ANCHORS, BOARD, COMMERCE, MISSIONS, TYPES
from tests.games.harness import start


def new_game(seats: int, seed: str = "t", **options) -> dict:
    state, _, _ = start(GAME, seats, seed, options)
    return state


def act(state: dict, seat, kind: str, counter: int = 0, seed: str = "t", **payload) -> dict:
    return GAME.apply(state, {"type": kind, "seat": seat, "payload": payload}, SeededRng(seed, counter))


def ev(seat, kind: str, **payload) -> dict:
    return {"type": kind, "seat": seat, "payload": payload}


def at(state: dict, *steps: dict) -> dict:
    """The same state, waiting at ``steps`` (and nothing after them)."""
    return dict(state, queue=[dict(s) for s in steps], phase=state["phase"] if state["phase"] != "setup" else "action")


def launch_plot(state: dict, action: str, victim: int = 1) -> dict:
    """Seat 0 opens its plot turn and launches its face-up plot in Gallia (space 0) at ``victim``."""
    return act(
        at(state, {"op": "plot_turn", "seat": 0}),
        0,
        "launch_plot",
        province="gallia",
        space=0,
        action=action,
        victim=victim,
    )


TAKE = {"vote": "place_vote", "draw": "draw_card", "pantheon": "place_pantheon_piece"}


def take_building_actions(state: dict, seat: int = 0) -> dict:
    """Take every vote, draw and Pantheon piece a building now offers ``seat`` (rules version
    3 asks for each; under versions 1 and 2 they happened at once and nothing is asked)."""
    while state["queue"] and state["queue"][0].get("optional") and state["queue"][0]["seat"] == seat:
        kind = TAKE.get(state["queue"][0]["op"])
        if kind is None or {"type": kind, "payload": {}} not in GAME.legal_actions(state, seat):
            break
        state = act(state, seat, kind)
    return state


def keep_first_two(state: dict) -> dict:
    for seat in range(state["seats"]):
        state = act(state, seat, "keep_missions", keep=state["players"][seat]["dealt"][:2])
    return state


@cache
def _every_card(seats: int) -> tuple[list, list]:
    commerce = [c for c in COMMERCE if not (seats <= 2 and COMMERCE[c]["starred"])]
    missions = [m for m in MISSIONS if not (seats <= 2 and MISSIONS[m]["starred"])]
    return sorted(commerce + ANCHORS), sorted(missions)


def check_invariants(state: dict) -> None:
    """Component conservation, no negative stocks, a sane turn order (after every event)."""
    seats, solo = state["seats"], state["solo"]
    owners = seats + (1 if solo else 0)
    for seat, p in enumerate(state["players"]):
        deployed = sum(state["areas"][a][seat] for a in state["areas"])
        assert p["legions"] + p["legion_reserve"] + deployed == BOARD["colour_pieces"]["legions"]
        assert p["votes"] + p["vote_reserve"] + state["senate"].count(seat) == BOARD["colour_pieces"]["votes"]
        on_board = sum(1 for prov in state["provinces"].values() for m in prov["plots"] if m and m["owner"] == seat)
        assert p["plot_markers"] + on_board == BOARD["plot_markers"]
        for key in (
            "denarii",
            "legions",
            "legion_reserve",
            "votes",
            "vote_reserve",
            "vendetta",
            "plot_markers",
            "placed",
        ):
            assert p[key] >= 0, key
        assert p["glory"] >= 1
        assert 1 <= p["followers"] <= 5 and p["placed"] + p["fresh"] <= p["followers"]
        assert 0 <= p["vendetta"] <= 5
        assert len(p["hand"]) <= 5 and len(p["sets"]) <= 3
    if solo:
        r = state["rival"]
        assert r["legions"] + sum(state["areas"][a][1] for a in state["areas"]) == 10
        assert r["votes"] + state["senate"].count(1) == 8
        assert r["glory"] >= 1 and r["legions"] >= 0 and r["votes"] >= 0
    assert all(len(v) == owners and min(v) >= 0 for v in state["areas"].values())
    assert len(state["senate"]) <= 5
    vendetta = sum(p["vendetta"] for p in state["players"]) + (state["rival"]["vendetta"] if solo else 0)
    assert vendetta + state["vendetta_pool"] == BOARD["vendetta_markers_total"]
    every_commerce, every_mission = _every_card(seats)
    held = [c for p in state["players"] for c in p["hand"]] + [
        c for p in state["players"] for s in p["sets"] for c in s["cards"]
    ]
    every = state["commerce_deck"] + state["commerce_discard"] + state["removed_cards"] + held + state["unused_anchors"]
    assert sorted(every) == every_commerce
    dealt = [m for p in state["players"] for m in p["dealt"] + p["missions"]]
    assert sorted(state["mission_deck"] + dealt) == every_mission
    initial = BOARD["tiles_per_type"][str(seats)]
    for t in TYPES:
        built = [sum(1 for prov in state["provinces"].values() if prov["levels"][t] >= lvl) for lvl in (1, 2, 3)]
        assert [a + b for a, b in zip(built, state["tiles"][t])] == initial
    supply = BOARD["pantheon"]["metal_supply"][str(seats)]
    for tier, metals in supply.items():
        for metal, count in metals.items():
            placed = sum(1 for p in state["players"] if p["pantheon"][tier]["metal"] == metal)
            assert placed + state["pantheon_supply"][tier][metal] == count
    assert sorted(state["turn_order"]) == list(range(seats))
    for prov in state["provinces"].values():
        assert 1 <= prov["population"] <= 16


def with_characters(state: dict, *characters: str) -> dict:
    """Replace the random boards by chosen ones (fresh boards, empty hands)."""
    from projections.games.age_of_rome.content import CHARACTERS
    from projections.games.age_of_rome.state import _player

    players = []
    for seat, cid in enumerate(characters):
        p = _player(CHARACTERS[cid])
        p["dealt"] = state["players"][seat]["dealt"]
        players.append(p)
    table = sorted(state["table"])  # seat i at the i-th occupied table seat, clockwise
    return dict(state, players=players, unused_anchors=list(ANCHORS), table=table)


def board(seats: int, *characters: str, **options) -> dict:
    """A game past mission choice, no decks touched, waiting nowhere (tests set the step)."""
    state = new_game(seats, **options)
    state = with_characters(state, *characters)
    state["phase"] = "action"
    state["event"] = "E01"
    state["queue"] = []
    return state
