"""Random complete games through the shared harness, with the game's invariants checked
after every event: components conserved, no negative stock, the cap, turn order sane."""

from __future__ import annotations

import pytest

from projections.games.shadow_of_the_emperor import GAME
from projections.games.shadow_of_the_emperor.components import (
    ARCHDIOCESES,
    CARD_ORDER,
    EMPIRE_CITIES,
    PIECES,
    THALER_CAP,
    stack_sizes,
)
from tests.games import harness

GAMES_PER_COUNT = 50
SCHEMA_CHECKED = 1
"""Every offered action is run through its marshmallow schema in the first game of each
player count only (views in the first two): validating a few hundred offers per turn
dominates the suite's time on a loaded machine. ``test_listed_equals_accepted`` and the
``check_views`` games cover the rest."""


def check_invariants(state: dict) -> None:
    """One pass over the board: every piece counted once, stocks never negative."""
    seats = state["seats"]
    nobles, knights, cities = [0] * seats, [0] * seats, [0] * seats
    empire = 0
    if state["throne"] is not None:
        nobles[state["throne"]["owner"]] += 1
    for eid, area in state["electorates"].items():
        if not area["in_play"]:
            assert (
                area["elector"] is None
                and not any(area["nobles"])
                and not any(area["cities"])
                and not any(area["castles"])
            )
        elector = area["elector"]
        if elector is not None:
            nobles[elector["owner"]] += 1
            assert not (eid in ARCHDIOCESES and elector["couple"]), "an archdiocese elector is a single baron"
        for slot in area["nobles"]:
            if slot is not None:
                (knights if slot.get("knight") else nobles)[slot["owner"]] += 1
        for owner in area["castles"]:
            if owner is not None:
                knights[owner] += 1
        for city in area["cities"]:
            if city == "empire":
                empire += 1
            elif city is not None:
                cities[city] += 1
    for eminence in state["gray_eminences"]:
        nobles[eminence["owner"]] += 1
    if state["limbo"]:
        nobles[state["limbo"]["noble"]["owner"]] += 1
    stacks = stack_sizes(seats)
    taken = dict.fromkeys(CARD_ORDER, 0)
    for seat, player in enumerate(state["players"]):
        assert player["nobles"] + nobles[seat] == PIECES["nobles"]
        assert player["knights"] + knights[seat] == PIECES["knights"]
        assert player["cities"] + cities[seat] == PIECES["cities"]
        assert min(player["nobles"], player["knights"], player["cities"]) >= 0
        assert player["thalers"] >= 0
        if state["options"]["cap_every_gain"]:  # off: only income is capped (G12)
            assert player["thalers"] <= THALER_CAP
        assert player["vp"] >= 0
        for card in player["display"]:
            taken[card] += 1
    for card in CARD_ORDER:
        assert 0 <= state["stacks"][card] and state["stacks"][card] + taken[card] == stacks[card]
    assert empire + state["empire_in_box"] == EMPIRE_CITIES
    if state["phase"] not in ("setup", "finished"):
        assert state["throne"] is not None or state["await"] is not None
    pending = state["await"]
    if pending and pending["kind"] == "turn":
        assert not state["players"][pending["seat"]]["passed"]
        assert pending["seat"] == state["active"]


def _cases():
    for seats in (2, 3, 4):
        for index in range(GAMES_PER_COUNT):
            yield pytest.param(seats, index, id=f"{seats}p-{index}")


@pytest.mark.parametrize("seats,index", list(_cases()))
def test_random_game_ends_with_a_valid_result(seats, index):
    playout = harness.play(
        GAME,
        seats,
        f"soe-{seats}-{index}",
        check=check_invariants,
        check_schemas=index < SCHEMA_CHECKED,
        check_views=index < 2 * SCHEMA_CHECKED,
    )
    assert playout.final["phase"] == "finished"
    assert playout.final["round"] == 5
    assert playout.result["scores"] == [p["vp"] for p in playout.final["players"]]


@pytest.mark.parametrize("tiebreak", ["shared", "thalers_then_emperor"])
@pytest.mark.parametrize("counts", [True, False])
def test_every_variant_finishes(tiebreak, counts):
    options = {
        "tiebreak": tiebreak,
        "elector_counts_for_influence": counts,
        "brandenburg_pays": counts,
        "cap_every_gain": counts,
    }
    for seats in (2, 4):
        playout = harness.play(
            GAME,
            seats,
            f"variant-{tiebreak}-{counts}-{seats}",
            options=options,
            check=check_invariants,
            check_schemas=False,
            check_views=False,  # the options change no view field; views are checked above
        )
        assert playout.result is not None


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_rules_version_1_games_finish(seats):
    """Games recorded under rules version 1 (no declining) still play out, schemas checked."""
    for index in range(5):
        playout = harness.play(
            GAME,
            seats,
            f"v1-{seats}-{index}",
            options={"rules_version": 1},
            check=check_invariants,
            check_schemas=index == 0,
            check_views=index == 0,
        )
        assert playout.final["phase"] == "finished" and GAME.version(playout.final) == 1


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_rules_version_2_games_finish(seats):
    """Games recorded under rules version 2 (displaced nobles placed wherever possible) still
    play out, schemas checked."""
    for index in range(3):
        playout = harness.play(
            GAME,
            seats,
            f"v2-{seats}-{index}",
            options={"rules_version": 2},
            check=check_invariants,
            check_schemas=index == 0,
            check_views=index == 0,
        )
        assert playout.final["phase"] == "finished" and GAME.version(playout.final) == 2


def test_the_type_first_bot_plays_a_whole_game():
    import random

    from projections.games.shadow_of_the_emperor.bot import choose

    rand = random.Random(7)
    state, rng, _ = harness.start(GAME, 4, "bot")
    counter = rng.counter
    while GAME.result(state) is None:
        seat, action = choose(GAME, state, rand)
        state, counter = harness.step(GAME, state, {**action, "seat": seat}, counter, "bot")
        check_invariants(state)
    harness.validate_result(GAME.result(state), 4)
