"""Property tests (hypothesis): determinism, replay at N equals live at N, views unchanged
by what is hidden from the viewer, conservation of components."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from projections.games.base import REFEREE
from projections.games.shadow_of_the_emperor import GAME
from tests.games import harness

from .test_random_games import check_invariants

SETTINGS = settings(deadline=None, max_examples=5, derandomize=True)
seeds = st.integers(min_value=0, max_value=10**6)
counts = st.sampled_from([2, 3, 4])


def playout(seats: int, seed: int, **kw):
    return harness.play(GAME, seats, f"prop-{seats}-{seed}", check_schemas=False, check_views=False, **kw)


def refold_prefix(out, n: int) -> dict:
    state, rng, _ = harness.start(GAME, out.seats, out.seed, out.options)
    counter = rng.counter
    for event, _ in out.log[:n]:
        state, counter = harness.step(GAME, state, event, counter, out.seed)
    return state


@SETTINGS
@given(seats=counts, seed=seeds)
def test_the_same_log_folds_to_the_same_state(seats, seed):
    out = playout(seats, seed)
    # play() already refolded once against the live state; one more fold must agree too.
    assert harness.canonical(harness.refold(GAME, out)) == harness.canonical(out.final)


@SETTINGS
@given(seats=counts, seed=seeds, data=st.data())
def test_replay_at_n_equals_the_live_state_at_n(seats, seed, data):
    out = playout(seats, seed, keep_states=True)
    n = data.draw(st.integers(min_value=0, max_value=len(out.log)))
    assert harness.canonical(refold_prefix(out, n)) == harness.canonical(out.states[n])


def hide_from(state: dict, viewer, salt: int) -> dict:
    """A state differing only in what ``viewer`` may not see: other seats' VP and votes."""
    other = copy.deepcopy(state)
    for seat, player in enumerate(other["players"]):
        if seat != viewer:
            player["vp"] += 3 + salt
    for seat in list(other["votes"]):
        if int(seat) != viewer:
            other["votes"][seat] = "rival" if other["votes"][seat] == "emperor" else "emperor"
    return other


@SETTINGS
@given(seats=counts, seed=seeds, salt=st.integers(0, 5))
def test_a_view_ignores_what_is_hidden_from_its_viewer(seats, seed, salt):
    out = playout(seats, seed, keep_states=True)
    for state in out.states[:: max(1, len(out.states) // 40)] + [s for s in out.states if s["votes"]]:
        if state["phase"] == "finished":
            continue
        for viewer in [*range(seats), None]:
            assert GAME.view(state, viewer) == GAME.view(hide_from(state, viewer, salt), viewer)
        assert GAME.view(state, REFEREE) != GAME.view(hide_from(state, None, salt), REFEREE)


@SETTINGS
@given(seats=counts, seed=seeds)
def test_components_are_conserved_after_every_event(seats, seed):
    out = playout(seats, seed, check=check_invariants)
    assert out.result is not None


def test_votes_are_hidden_in_the_log_of_random_games():
    out = harness.play(GAME, 4, "votes-log", check_schemas=False, check_views=False)
    votes = [event for event, _ in out.log if event["type"] == "vote"]
    assert votes
    for event in votes:
        for viewer in range(4):
            shown = GAME.redact(event, viewer)
            assert (shown["payload"] == event["payload"]) == (viewer == event["seat"])
        assert GAME.redact(event, None)["payload"] == {"hidden": True}
