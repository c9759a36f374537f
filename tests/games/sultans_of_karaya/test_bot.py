"""The package bot, including out-of-turn royal claims (and, under the G2 variant, out-of-turn
revolts), plays games to the end."""

from __future__ import annotations

import json
import random

import pytest

from events.rng import SeededRng
from projections.games.sultans_of_karaya import GAME
from projections.games.sultans_of_karaya.bot import choose
from tests.games.harness import load_options, validate_result

from .invariants import check_state
from .test_properties import permute_unseen


@pytest.mark.parametrize("seats", [5, 9, 15])
def test_bot_games_with_interrupts_finish(seats):
    rand = random.Random(f"claims-{seats}")  # a random game in which the bot does claim at every count
    state = GAME.setup(load_options(GAME, {}), seats, SeededRng("bot", 0))
    counter, claims = 1000, 0
    while GAME.result(state) is None:
        seat, action = choose(GAME, state, rand)
        claims += action["type"] == "royal_claim" and seat not in GAME.to_act(state)
        rng = SeededRng("bot", counter)
        state = GAME.apply(state, {"type": action["type"], "seat": seat, "payload": action["payload"]}, rng)
        counter = rng.counter
        check_state(state)
    validate_result(GAME.result(state), seats)
    assert claims > 0


def blind_to_unseen_cards(state: dict, rand: random.Random) -> None:
    """Every seat's view (and the spectator's) and ``to_act`` ignore the cards that viewer cannot see."""
    for viewer in [*range(state["seats"]), None]:
        other = permute_unseen(state, viewer, rand)
        assert GAME.view(other, viewer) == GAME.view(state, viewer)
        assert GAME.to_act(other) == GAME.to_act(state)


@pytest.mark.parametrize("seats", [5, 8, 11, 15])
def test_ten_bot_games_with_out_of_turn_revolts_finish_without_leaks(seats):
    """G2 variant `slave_call_any_time`: the bot posts the call out of turn now and then; every
    event keeps the invariants; after each out-of-turn call the same seats are asked for the same
    window whatever the cards the caller cannot see, and no view depends on unseen cards."""
    calls = 0
    for seed in range(10):
        rand = random.Random(f"{seats}-{seed}")
        state = GAME.setup(load_options(GAME, {"slave_call_any_time": True}), seats, SeededRng(f"any-{seed}", 0))
        counter = 1000
        while GAME.result(state) is None:
            seat, action = choose(GAME, state, rand)
            event = {"type": action["type"], "seat": seat, "payload": action["payload"]}
            interrupt = action["type"] == "call_revolt" and seat not in GAME.to_act(state)
            rng = SeededRng(f"any-{seed}", counter)
            after = GAME.apply(state, event, rng)
            if interrupt:
                calls += 1
                if after["round"] == state["round"] and not after["finished"]:
                    assert seat not in GAME.to_act(after) and after["round_state"]["revealed"][seat]
                other = GAME.apply(permute_unseen(state, seat, rand), event, SeededRng(f"any-{seed}", counter))
                if not other["finished"] and other["round"] == after["round"]:
                    assert GAME.to_act(other) == GAME.to_act(after)
                    assert other["round_state"]["pending"] == after["round_state"]["pending"]
                if not after["finished"]:  # a finished game shows everything to everyone
                    blind_to_unseen_cards(after, rand)
            elif rand.random() < 0.03 and not after["finished"]:
                blind_to_unseen_cards(after, rand)
            counter = rng.counter
            state = after
            check_state(state)
            json.dumps(state)
        validate_result(GAME.result(state), seats)
        assert len(state["history"]) == 5
    assert calls > 0
