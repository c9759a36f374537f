"""Whole games between policies, in memory: how the bots are measured.

A policy is ``(game, state, seat, rand) -> action`` for a seat the game is waiting for.
The match moves the system actor when the game says so, otherwise picks one awaited seat
at random (simultaneous decisions are independent) and asks its policy."""

from __future__ import annotations

import random
from collections.abc import Callable

from events.rng import SeededRng
from events.shapes import JSON
from projections.games.base import Action, Game, State

from .policy import game_weight
from .search import Budget, choose

Policy = Callable[[Game, State, int, random.Random], Action]


def uniform(game: Game, state: State, seat: int, rand: random.Random) -> Action:
    return rand.choice(game.legal_actions(state, seat))


def weighted(game: Game, state: State, seat: int, rand: random.Random) -> Action:
    """The game's own weighted bot (its ``bot.weight``), uniform where it has none."""
    weight = game_weight(game.name)
    actions = game.legal_actions(state, seat)
    if weight is None:
        return rand.choice(actions)
    return rand.choices(actions, weights=[weight(a, state, actions) for a in actions])[0]


def searching(budget: Budget) -> Policy:
    def policy(game: Game, state: State, seat: int, rand: random.Random) -> Action:
        return choose(game, state, seat, state_seats(state), budget, seed=str(rand.random()))

    return policy


def state_seats(state: State) -> int:
    seats = state.get("seats")
    return seats if isinstance(seats, int) else len(state["players"])


def play(game: Game, policies: list[Policy], seed: str, options: JSON | None = None, max_steps: int = 20000) -> JSON:
    """The result of one game in which seat ``s`` is played by ``policies[s]``."""
    schema = game.options_schema() if game.options_schema else None
    opts = schema.load(options or {}) if schema else dict(options or {})
    rng = SeededRng(seed, 0)
    state = game.setup(opts, len(policies), rng)
    counter = rng.counter
    rand = random.Random(seed)
    for _ in range(max_steps):
        result = game.result(state)
        if result is not None:
            return result
        auto = game.automatic(state)
        if auto is not None:
            seat, action = None, auto
        else:
            asked = [s for s in sorted(game.to_act(state)) if game.legal_actions(state, s)]
            seat = rand.choice(asked)
            action = policies[seat](game, state, seat, rand)
        rng = SeededRng(seed, counter)
        state = game.apply(state, {"type": action["type"], "seat": seat, "payload": action["payload"]}, rng)
        counter = rng.counter
    raise RuntimeError(f"{game.name} did not finish in {max_steps} steps")
