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

FAST = settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
COUNTS = range(GAME.min_seats, GAME.max_seats + 1)

_GAMES: dict = {}


def recorded(seats: int, seed: int):
    """One short recorded game per (seats, seed), kept for the properties below."""
    key = (seats, seed)
    if key not in _GAMES:
        _GAMES[key] = harness.play(
            GAME,
            seats,
            f"prop-{seats}-{seed}",
            options={"rounds": 2},
            keep_states=True,
            check_views=False,
            check_schemas=False,
        )
    return _GAMES[key]


def unseen_locations(state: dict, viewer) -> list:
    """Where the viewer cannot know the card: hidden seats it holds no note on, and the spare."""
    rd = state["round_state"]
    notes = rd["known"][viewer] if isinstance(viewer, int) else {}
    spots = [
        s
        for s in range(state["seats"])
        if rd["alive"][s] and not rd["revealed"][s] and s != viewer and str(s) not in notes
    ]
    if "spare" not in notes:
        spots.append("spare")
    return spots


def permute_unseen(state: dict, viewer, rand: random.Random) -> dict:
    """The same state with the cards the viewer does not know shuffled among their places,
    and the drawn neutrals among them possibly traded for set-aside ones (nobody knows which
    neutrals were drawn); the public composition of the round is kept."""
    from projections.games.sultans_of_karaya.components import NEUTRAL_POOL

    out = copy.deepcopy(state)
    rd = out["round_state"]
    spots = unseen_locations(out, viewer)
    pool = [rd["spare"] if s == "spare" else rd["cards"][s] for s in spots]
    rand.shuffle(pool)
    neutrals = [c for c in pool if c in NEUTRAL_POOL] + rd["set_aside"]
    rand.shuffle(neutrals)
    drawn = iter(neutrals)
    pool = [next(drawn) if c in NEUTRAL_POOL else c for c in pool]
    rd["set_aside"] = sorted(drawn)
    for spot, card in zip(spots, pool):
        if spot == "spare":
            rd["spare"] = card
        else:
            rd["cards"][spot] = card
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


WINDOW_OPENERS = {"assassinate", "detain", "call_revolt"}
PUBLIC_OUTCOME = {
    "investigate",
    "swap",
    "hide",
    "execute",
    "detain",
    "assassinate",
    "call_revolt",
    "dance",
    "foretell",
    "look",
    "predict",
    "royal_claim",
}


@pytest.mark.parametrize("seats", [5, 9, 15])
@FAST
@given(seed=st.integers(0, 3), shuffle=st.integers(0, 2**16))
def test_who_is_asked_next_never_depends_on_cards_the_actor_cannot_see(seats, seed, shuffle):
    """Shuffle the cards the actor does not know, replay its event: it is still legal, and the
    same seats are asked for the same step (windows included), unless the round ended."""
    from events.rng import SeededRng

    playout = recorded(seats, seed)
    rand = random.Random(shuffle)
    for n, (event, counter) in enumerate(playout.log):
        before = playout.states[n]
        if event["type"] not in PUBLIC_OUTCOME or (event["type"] not in WINDOW_OPENERS and rand.random() < 0.8):
            continue  # every window opener, a fifth of the other events
        live = playout.states[n + 1]
        other = GAME.apply(permute_unseen(before, event["seat"], rand), event, SeededRng(playout.seed, counter))
        if other["round"] != live["round"] or live["round"] != before["round"] or live["finished"] or other["finished"]:
            continue  # a death showed a card face up and ended the round: a public outcome
        assert GAME.to_act(other) == GAME.to_act(live), event
        mine, theirs = other["round_state"]["pending"], live["round_state"]["pending"]
        assert {k: v for k, v in mine.items() if k != "id"} == {k: v for k, v in theirs.items() if k != "id"}


@pytest.mark.parametrize("seats", [6, 10, 15])
def test_a_forbid_window_asks_by_public_facts_and_looks_the_same_to_every_seat(seats):
    """禁止拘留 (rules version 3): every Sultan and Guard may forbid a detention, so the window
    asks every living seat but the detaining Guard's that is face up holding one, or face down
    while one is unaccounted for: a function of the spectator's view. Each asked seat sees the
    window exactly as a spectator does, whatever the cards it cannot see; its own answers depend
    on its own card only (forbid and accept for a Sultan or Guard, accept for anyone else)."""
    rand = random.Random(seats)
    opened = 0
    for seed in range(4):
        playout = recorded(seats, seed)
        for n, (event, _) in enumerate(playout.log):
            after = playout.states[n + 1]
            pending = after["round_state"]["pending"]
            if event["type"] != "detain" or after["finished"] or after["round"] != playout.states[n]["round"]:
                continue
            if pending is None or pending["kind"] != "window":
                continue
            opened += 1
            public = GAME.view(after, None)
            hidden_may = public["unaccounted"]["sultan"] + public["unaccounted"]["guard"] > 0
            assert pending["eligible"] == [
                row["seat"]
                for row in public["seats"]
                if row["alive"]
                and row["seat"] != event["seat"]
                and (row["card"] in ("sultan", "guard") if row["revealed"] else hidden_may)
            ]
            for viewer in pending["eligible"]:
                seen = GAME.view(after, viewer)
                assert seen["awaiting"] == public["awaiting"] and seen["to_act"] == public["to_act"]
                other = permute_unseen(after, viewer, rand)
                assert GAME.view(other, viewer) == seen and GAME.to_act(other) == GAME.to_act(after)
                card = after["round_state"]["cards"][viewer]
                answers = [a["payload"]["choice"] for a in GAME.legal_actions(after, viewer) if a["type"] == "respond"]
                assert answers == (["forbid", "accept"] if card in ("sultan", "guard") else ["accept"])
    assert opened > 0
