"""Property tests: determinism, replay at N equals live at N, identical views for every
viewer (Caylus hides nothing), and conservation of components along any game."""

from hypothesis import given, settings
from hypothesis import strategies as st

from projections.games.base import REFEREE
from projections.games.caylus import GAME
from tests.games import harness

from .invariants import check_state

games = st.tuples(st.integers(2, 5), st.text("abcdef0123", min_size=1, max_size=8), st.integers(0, 10_000))
SETTINGS = settings(deadline=None, max_examples=6, derandomize=True)


def prefix(playout, n):
    return harness.Playout(seed=playout.seed, seats=playout.seats, options=playout.options, log=playout.log[:n])


@SETTINGS
@given(games)
def test_the_same_log_folds_to_the_same_state(game):
    seats, seed, rand_seed = game
    # ``play`` itself asserts that the log refolds to the live state; fold it once more.
    out = harness.play(GAME, seats, seed, rand_seed=rand_seed, check_views=False, check_schemas=False)
    assert harness.canonical(harness.refold(GAME, out)) == harness.canonical(out.final)


@SETTINGS
@given(games, st.floats(0, 1))
def test_replay_at_n_equals_the_live_state_at_n(game, where):
    seats, seed, rand_seed = game
    out = harness.play(GAME, seats, seed, rand_seed=rand_seed, check_views=False, check_schemas=False, keep_states=True)
    n = int(where * len(out.log))
    assert harness.canonical(harness.refold(GAME, prefix(out, n))) == harness.canonical(out.states[n])


@SETTINGS
@given(games)
def test_every_viewer_sees_the_same_board_and_the_whole_log(game):
    # §12: no hidden information, so a seat's view cannot depend on anything hidden from it.
    seats, seed, rand_seed = game
    out = harness.play(GAME, seats, seed, rand_seed=rand_seed, check_views=False, check_schemas=False, keep_states=True)
    for state in out.states[:: max(1, len(out.states) // 25)]:
        spectator = GAME.view(state, None)
        assert all(GAME.view(state, viewer) == spectator for viewer in [*range(seats), REFEREE])
        assert spectator["scores"] == [p["pp"] for p in state["players"]]
    for event, _ in out.log[:50]:
        assert all(GAME.redact(event, viewer) == event for viewer in [*range(seats), None])


@SETTINGS
@given(games, st.booleans())
def test_components_are_conserved_along_any_game(game, jeweller):
    seats, seed, rand_seed = game
    harness.play(
        GAME,
        seats,
        seed,
        options={"include_jeweller": jeweller},
        rand_seed=rand_seed,
        check=check_state,
        check_views=False,
        check_schemas=False,
    )


def test_views_have_summary_scores_and_board():
    state, _, _ = harness.start(GAME, 4, "view")
    view = GAME.view(state, 0)
    assert view["summary"].startswith("Turn 1, Phase 2")
    assert len(view["road"]) == 28 and view["road"][6]["building"] == "f_peddler"
    assert view["awaiting"] == {"kind": "place", "seat": state["order"][0]}
    assert [s["places"] for s in view["castle"]["sections"]] == [6, 10, 14]
