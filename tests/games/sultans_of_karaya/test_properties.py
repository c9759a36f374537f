"""Hypothesis properties: determinism, replay at N, views blind to what is hidden, redaction."""
from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from projections.games.base import REFEREE
from projections.games.sultans_of_karaya import GAME
from tests.games import harness

from .invariants import check_state

FAST = settings(max_examples=4, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow])
COUNTS = range(GAME.min_seats, GAME.max_seats + 1)

_GAMES: dict = {}


def recorded(seats: int, seed: int):
    """One short recorded game per (seats, seed), kept for the properties below."""
    key = (seats, seed)
    if key not in _GAMES:
        _GAMES[key] = harness.play(GAME, seats, f"prop-{seats}-{seed}", options={"rounds": 2},
                                   keep_states=True, check_views=False)
    return _GAMES[key]


def unseen_locations(state: dict, viewer) -> list:
    """Where the viewer cannot know the card: hidden seats it holds no note on, and the spare."""
    rd = state["round_state"]
    notes = rd["known"][viewer] if isinstance(viewer, int) else {}
    spots = [s for s in range(state["seats"])
             if rd["alive"][s] and not rd["revealed"][s] and s != viewer and str(s) not in notes]
    if "spare" not in notes:
        spots.append("spare")
    return spots


def permute_unseen(state: dict, viewer, rand: random.Random) -> dict:
    """The same state with the cards the viewer does not know shuffled among their places
    (and with the set-aside neutrals, whose identity nobody knows)."""
    out = copy.deepcopy(state)
    rd = out["round_state"]
    spots = unseen_locations(out, viewer)
    pool = [rd["spare"] if s == "spare" else rd["cards"][s] for s in spots] + rd["set_aside"]
    rand.shuffle(pool)
    for spot, card in zip(spots, pool):
        if spot == "spare":
            rd["spare"] = card
        else:
            rd["cards"][spot] = card
    rd["set_aside"] = sorted(pool[len(spots):])
    return out


@pytest.mark.parametrize("seats", COUNTS)
@FAST
@given(seed=st.integers(0, 3), step=st.integers(0, 10_000), shuffle=st.integers(0, 2**16))
def test_a_seat_view_ignores_the_cards_it_does_not_know(seats, seed, step, shuffle):
    playout = recorded(seats, seed)
    state = playout.states[step % len(playout.states)]
    if state["finished"]:
        return
    rand = random.Random(shuffle)
    for viewer in [*range(seats), None]:
        other = permute_unseen(state, viewer, rand)
        assert GAME.view(other, viewer) == GAME.view(state, viewer)
        assert GAME.to_act(other) == GAME.to_act(state)


@pytest.mark.parametrize("seats", [5, 10, 15])
@FAST
@given(seed=st.integers(0, 3), step=st.integers(0, 10_000))
def test_replay_at_n_equals_the_live_state_at_n(seats, seed, step):
    playout = recorded(seats, seed)
    n = step % (len(playout.log) + 1)
    state, rng, _ = harness.start(GAME, seats, playout.seed, playout.options)
    counter = rng.counter
    for event, _ in playout.log[:n]:
        state, counter = harness.step(GAME, state, event, counter, playout.seed)
    assert harness.canonical(state) == harness.canonical(playout.states[n])


@pytest.mark.parametrize("seats", [6, 13])
@FAST
@given(seed=st.integers(0, 3))
def test_same_log_same_state_and_components_conserved(seats, seed):
    playout = recorded(seats, seed)
    assert harness.canonical(harness.refold(GAME, playout)) == harness.canonical(playout.final)
    for state in playout.states:
        check_state(state)


@pytest.mark.parametrize("seats", [7, 15])
@FAST
@given(seed=st.integers(0, 3))
def test_the_log_hides_secret_swaps_and_sealed_answers_from_others(seats, seed):
    playout = recorded(seats, seed)
    for event, _ in playout.log:
        for viewer in [*range(seats), None]:
            shown = GAME.redact(event, viewer)
            if viewer == event["seat"]:
                assert shown == event
            elif event["type"] == "hide":
                assert "with" not in shown["payload"]
            elif event["type"] == "respond":
                assert "choice" not in shown["payload"]
            else:
                assert shown == event
        assert GAME.redact(event, REFEREE) == event
