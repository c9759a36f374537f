"""The Caylus game object: the protocol of ``base.Game``, each part named from the module that holds it."""

from __future__ import annotations

from typing import Any

from ..base import REFEREE, Game, Options, Result, Rng, State, Viewer
from . import legal, rules, schemas, turn, versions
from . import state as states
from .components import FINAL, NON_GOLD
from .state import setup_state
from .turn import current_decision
from .view import make_view


class Caylus(Game):
    # The parts this package keeps in its modules (projections/games/README.md)
    name = "caylus"
    options_schema = schemas.OptionsSchema
    action_schemas = schemas.ACTION_SCHEMAS
    rules_version = versions.CURRENT
    awaits = staticmethod(rules.awaits)
    check = staticmethod(rules.check)
    copy = staticmethod(states.copy)
    effect = staticmethod(rules.effect)
    legal_actions = staticmethod(legal.legal_actions)

    title = "Caylus"
    min_seats, max_seats = 2, 5
    max_log_entries = 5_000  # the longest of tests/golden/caylus: 414 entries
    hidden_information, chance = False, True

    def setup(self, options: Options, seats: int, rng: Rng) -> State:
        state = setup_state(options, seats, rng)
        turn.advance(state)
        return state

    def advance(self, state: State, rng: Rng) -> State:
        turn.advance(state)
        return state

    def to_act(self, state: State) -> set[int]:
        decision = current_decision(state)
        return set() if decision is None else {decision["seat"]}

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return make_view(state, viewer if viewer in (None, REFEREE) else int(viewer))

    def result(self, state: State) -> Result | None:
        result: Result | None = state["result"]
        return result

    def scores(self, state: State) -> list[float] | None:
        return [p["pp"] for p in state["players"]]

    evaluation_scale = 4.0

    def evaluate(self, state: State) -> list[float] | None:
        """Prestige plus what the final conversion would make of the goods and deniers
        held now (3 per gold, a third per other cube, a quarter per denier, unrounded)."""
        return [
            p["pp"]
            + p["gold"] * FINAL["pp_per_gold"]
            + sum(p[c] for c in NON_GOLD) / FINAL["cubes_per_pp"]
            + p["deniers"] / FINAL["deniers_per_pp"]
            for p in state["players"]
        ]
