"""The package's own bot finishes games at every player count, and exercises the card paths
the uniform random games rarely reach (it plays cards whenever a trigger comes)."""

from __future__ import annotations

import random

import pytest

from projections.games.age_of_rome import GAME
from projections.games.age_of_rome.bot import choose
from tests.games.harness import Playout, canonical, refold, start, step, validate_result

from .helpers import check_invariants
from .test_properties import _hide_from


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
@pytest.mark.parametrize("game_no", range(3))
def test_bot_games_keep_every_invariant(seats, game_no):
    seed = f"bot-{seats}-{game_no}"
    state, rng, options = start(GAME, seats, seed)
    counter, rand = rng.counter, random.Random(seed)
    log, interrupts = [], 0
    for _ in range(5000):
        if GAME.result(state) is not None:
            break
        seat, action = choose(GAME, state, rand)
        event = {"type": action["type"], "seat": seat, "payload": action["payload"]}
        log.append((event, counter))
        asked = GAME.to_act(state)
        interrupt = seat is not None and seat not in asked
        if interrupt:
            # rules version 2: the religious medal's exchange, a standing interrupt offered from
            # public facts only; it never changes who is asked
            assert event["type"] == "exchange" and state["medals"]["religious"] == seat
            assert GAME.legal_actions(_hide_from(state, seat, 3), seat) == GAME.legal_actions(state, seat)
            interrupts += 1
        state, counter = step(GAME, state, event, counter, seed)  # also checks apply never mutates
        if interrupt:
            assert GAME.to_act(state) == asked
        check_invariants(state)
    validate_result(GAME.result(state), seats)
    assert canonical(refold(GAME, Playout(seed=seed, seats=seats, options=options, log=log))) == canonical(state)
    if seats >= 3:  # these seeds reach trigger windows with matching cards in hand
        assert any(e["type"] == "play_card" for e, _ in log)
        assert interrupts > 0  # and a medal holder exchanging while another seat is asked
