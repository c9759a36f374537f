"""Hypothesis properties: determinism, replay at N, views blind to what is hidden, conservation."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from projections.games.age_of_rome import GAME
from projections.games.base import REFEREE
from tests.games.harness import Playout, canonical, play, refold

from .helpers import check_invariants

FAST = settings(max_examples=3, deadline=None, derandomize=True)
seats = st.integers(min_value=1, max_value=4)
seeds = st.text(alphabet="abcdef0123456789", min_size=1, max_size=6)


@FAST
@given(seats, seeds)
def test_same_log_same_state(n, seed):
    out = play(GAME, n, seed, check_views=False, check_schemas=False)
    assert canonical(refold(GAME, out)) == canonical(refold(GAME, out)) == canonical(out.final)


@FAST
@given(seats, seeds, st.floats(min_value=0, max_value=1))
def test_replay_at_n_equals_live_state_at_n(n, seed, where):
    out = play(GAME, n, seed, check_views=False, check_schemas=False, keep_states=True)
    cut = int(where * len(out.log))
    prefix = Playout(seed=seed, seats=n, options=out.options, log=out.log[:cut])
    assert canonical(refold(GAME, prefix)) == canonical(out.states[cut])


def _hide_from(state: dict, viewer, rotate: int) -> dict:
    """Change only what ``viewer`` may not see: other hands, missions and every deck's order."""
    other = json.loads(json.dumps(state))
    pool = other["commerce_deck"]
    for seat, player in enumerate(other["players"]):
        if seat == viewer:
            continue
        swap = [c for c in player["hand"] if c[0] != "A"]
        for _i, card in enumerate(swap):
            if pool:
                pool.append(card)
                player["hand"][player["hand"].index(card)] = pool.pop(0)
        for key in ("missions", "dealt"):  # swap secret missions with unseen deck cards
            for i in range(len(player[key])):
                if other["mission_deck"]:
                    other["mission_deck"].append(player[key][i])
                    player[key][i] = other["mission_deck"].pop(0)
    for key in ("commerce_deck", "event_deck", "mission_deck"):
        deck = other[key]
        if deck:
            k = rotate % len(deck)
            other[key] = deck[k:] + deck[:k]
    if other["rival"] and other["rival"]["deck"]:
        deck = other["rival"]["deck"]
        other["rival"]["deck"] = deck[1:] + deck[:1]
    return other


@FAST
@given(seats, seeds, st.floats(min_value=0, max_value=1), st.integers(min_value=1, max_value=7))
def test_a_seats_view_ignores_what_is_hidden_from_it(n, seed, where, rotate):
    out = play(GAME, n, seed, check_views=False, check_schemas=False, keep_states=True)
    state = out.states[int(where * (len(out.states) - 2))]
    for viewer in [*range(n), None]:
        changed = _hide_from(state, viewer, rotate)
        assert canonical(GAME.view(changed, viewer)) == canonical(GAME.view(state, viewer))
        assert GAME.to_act(changed) == GAME.to_act(state)


@FAST
@given(seats, seeds)
def test_components_are_conserved_after_every_event(n, seed):
    play(GAME, n, seed, check=check_invariants, check_views=False, check_schemas=False)


def test_hidden_things_are_hidden_from_the_others():
    out = play(GAME, 3, "views", check_views=False, check_schemas=False, keep_states=True)
    state = out.states[len(out.states) // 2]
    mine = GAME.view(state, 0)
    assert mine["players"][0]["missions"] == state["players"][0]["missions"]
    assert mine["players"][1]["missions"] is None and mine["players"][1]["hand"] is None
    assert mine["players"][1]["hand_count"] == len(state["players"][1]["hand"])
    spectator = GAME.view(state, None)
    assert all(p["hand"] is None and p["missions"] is None for p in spectator["players"])
    assert "event_deck" not in spectator and spectator["event_deck_count"] == len(state["event_deck"])
    referee = GAME.view(state, REFEREE)
    assert referee["players"][1]["hand"] == state["players"][1]["hand"]


def test_kept_missions_are_redacted_in_the_log():
    event = {"type": "keep_missions", "seat": 0, "payload": {"keep": ["M01", "M02"]}}
    assert GAME.redact(event, 1)["payload"] == {} and GAME.redact(event, None)["payload"] == {}
    assert GAME.redact(event, 0) == event and GAME.redact(event, REFEREE) == event


def test_drawing_from_a_shuffled_deck_reveals():
    out = play(GAME, 2, "reveal", check_views=False, check_schemas=False, keep_states=True)
    flags = [GAME.reveals(out.states[i], e, out.states[i + 1]) for i, (e, _) in enumerate(out.log)]
    assert any(flags) and not all(flags)


def test_keeping_missions_reveals_nothing_but_an_event_card_does():
    from .helpers import act, new_game

    state = new_game(2)
    kept = act(state, 0, "keep_missions", keep=state["players"][0]["dealt"][:2])
    assert not GAME.reveals(state, {"type": "keep_missions"}, kept)
    started = act(kept, 1, "keep_missions", keep=kept["players"][1]["dealt"][:2])
    assert GAME.reveals(kept, {"type": "keep_missions"}, started)  # the last choice starts round 1
