"""The simulation harness every game passes (STYLE principle 14).

``play`` drives random games through ``legal_actions`` and, after every event,
checks the invariants the platform relies on:

- ``to_act`` is non-empty until ``result`` is set, and every seat asked can answer;
- every offered action passes its marshmallow schema and is accepted by ``apply``;
- ``apply`` never mutates its input, and a rejected event leaves it untouched;
- states and views are JSON-serialisable (they are snapshotted and sent as JSON);
- folding the recorded log again from setup gives the same state (determinism).

Game test modules call ``play`` (and ``refold``) and add their own invariants through
``check``.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

from events.rng import SeededRng
from projections.games.base import REFEREE, Game, IllegalAction


def canonical(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


@dataclass
class Playout:
    seed: str
    seats: int
    options: dict
    log: list = field(default_factory=list)  # (event, draw counter before it)
    states: list = field(default_factory=list)  # state after setup, then after each event
    final: dict | None = None
    result: dict | None = None


def load_options(game: Game, options: dict | None) -> dict:
    """Validated options; a ``rules_version`` among them is passed on to ``setup`` as the
    platform does from ``game.created`` (it is not an option a client chooses)."""
    options = dict(options or {})
    version = {"rules_version": options.pop("rules_version")} if "rules_version" in options else {}
    schema = game.options_schema() if game.options_schema else None
    return {**(schema.load(options) if schema else options), **version}


def start(game: Game, seats: int, seed: str, options: dict | None = None) -> tuple[dict, SeededRng, dict]:
    opts = load_options(game, options)
    rng = SeededRng(seed, 0)
    return game.setup(opts, seats, rng), rng, opts


def step(game: Game, state: dict, event: dict, counter: int, seed: str) -> tuple[dict, int]:
    """Apply one event the way the platform does; returns (state, new counter)."""
    rng = SeededRng(seed, counter)
    before = canonical(state)
    new = game.apply(state, event, rng)
    assert canonical(state) == before, f"apply mutated its input on {event}"
    return new, rng.counter


def refold(game: Game, playout: Playout) -> dict:
    state, rng, _ = start(game, playout.seats, playout.seed, playout.options)
    counter = rng.counter
    for event, _ in playout.log:
        state, counter = step(game, state, event, counter, playout.seed)
    return state


def check_schema(game: Game, action: dict) -> None:
    schema_cls = game.action_schemas.get(action["type"])
    assert schema_cls is not None, f"no schema for action type {action['type']}"
    errors = schema_cls().validate(action["payload"])
    assert not errors, f"offered action fails its schema: {action} {errors}"


def play(
    game: Game,
    seats: int,
    seed: str,
    options: dict | None = None,
    max_steps: int = 20000,
    rand_seed: int | None = None,
    check=None,
    check_views: bool = True,
    check_schemas: bool = True,
    keep_states: bool = False,
) -> Playout:
    """One random game to the end; ``check(state)`` runs after every event."""
    rand = random.Random(rand_seed if rand_seed is not None else seed)
    state, rng, opts = start(game, seats, seed, options)
    counter = rng.counter
    out = Playout(seed=seed, seats=seats, options=opts)
    if keep_states:
        out.states.append(state)
    json.dumps(state)
    for _ in range(max_steps):
        if game.result(state) is not None:
            break
        auto = game.automatic(state)
        if auto is not None:
            seat, action = None, auto
        else:
            asked = sorted(game.to_act(state))
            assert asked, "to_act is empty but the game has no result"
            offers = {s: game.legal_actions(state, s) for s in asked}
            for s, acts in offers.items():
                assert acts, f"seat {s} is asked to act but has no legal action"
                if check_schemas:
                    for act in acts:
                        check_schema(game, act)
            seat = rand.choice(asked)
            action = rand.choice(offers[seat])
        event = {"type": action["type"], "seat": seat, "payload": action["payload"]}
        try:
            state, new_counter = step(game, state, event, counter, seed)
        except IllegalAction as exc:  # pragma: no cover - a harness failure
            raise AssertionError(f"offered action refused: {event} -> {exc!r}") from exc
        out.log.append((event, counter))
        counter = new_counter
        if keep_states:
            out.states.append(state)
        json.loads(canonical(state))
        if check_views:
            for viewer in [*range(seats), None, REFEREE]:
                json.dumps(game.view(state, viewer))
        if check is not None:
            check(state)
    else:
        raise AssertionError(f"game did not finish within {max_steps} steps")
    assert not game.to_act(state) or game.result(state) is not None
    out.final = state
    out.result = game.result(state)
    validate_result(out.result, seats)
    assert canonical(refold(game, out)) == canonical(state), "refold differs from live state"
    return out


def validate_result(result: dict, seats: int) -> None:
    assert result is not None
    assert len(result["scores"]) == seats and len(result["ranking"]) == seats
    assert all(1 <= r <= seats for r in result["ranking"])
    assert min(result["ranking"]) == 1
    json.dumps(result)


def assert_refused(game: Game, state: dict, event: dict, code: str, seed: str = "t", counter: int = 0) -> IllegalAction:
    """The event is refused with ``code`` and the state is left exactly as it was."""
    before = canonical(state)
    try:
        game.apply(state, event, SeededRng(seed, counter))
    except IllegalAction as exc:
        assert exc.code == code, f"expected {code}, got {exc.code}: {exc.message}"
        assert exc.message
        assert canonical(state) == before, "a refused event changed the state"
        return exc
    raise AssertionError(f"{event} was accepted; expected {code}")
