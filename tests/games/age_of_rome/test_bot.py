"""The package's own bot finishes games at every player count, and exercises the card paths
the uniform random games rarely reach (it plays cards whenever a trigger comes)."""
from __future__ import annotations

import random

import pytest

from projections.games.age_of_rome import GAME
from projections.games.age_of_rome.bot import choose
from tests.games.harness import Playout, canonical, refold, start, step, validate_result

from .helpers import check_invariants


@pytest.mark.parametrize("seats", [1, 2, 3, 4])
@pytest.mark.parametrize("game_no", range(3))
def test_bot_games_keep_every_invariant(seats, game_no):
    seed = f"bot-{seats}-{game_no}"
    state, rng, options = start(GAME, seats, seed)
    counter, rand = rng.counter, random.Random(seed)
    log = []
    for _ in range(5000):
        if GAME.result(state) is not None:
            break
        seat, action = choose(GAME, state, rand)
        event = {"type": action["type"], "seat": seat, "payload": action["payload"]}
        log.append((event, counter))
        state, counter = step(GAME, state, event, counter, seed)  # also checks apply never mutates
        check_invariants(state)
    validate_result(GAME.result(state), seats)
    assert canonical(refold(GAME, Playout(seed=seed, seats=seats, options=options, log=log))) == canonical(state)
    if seats >= 3:  # these seeds reach trigger windows with matching cards in hand
        assert any(e["type"] == "play_card" for e, _ in log)
