"""The Caylus game object: the protocol of ``base.Game`` over the package's modules."""

from __future__ import annotations

from ..base import REFEREE, Game
from . import rules, turn
from .components import FINAL, NON_GOLD
from .legal import legal_actions
from .schemas import ACTION_SCHEMAS, OptionsSchema
from .state import clone, setup_state
from .turn import current_decision
from .view import make_view


class Caylus(Game):
    name = "caylus"
    title = "Caylus"
    min_seats, max_seats = 2, 5
    hidden_information, chance = False, True
    options_schema = OptionsSchema
    action_schemas = ACTION_SCHEMAS

    def setup(self, options, seats, rng):
        state = setup_state(options, seats, rng)
        turn.advance(state)
        return state

    awaits = staticmethod(rules.awaits)
    check = staticmethod(rules.check)
    copy = staticmethod(clone)
    effect = staticmethod(rules.effect)

    def advance(self, state, rng):
        turn.advance(state)
        return state

    def to_act(self, state):
        decision = current_decision(state)
        return set() if decision is None else {decision["seat"]}

    legal_actions = staticmethod(legal_actions)

    def view(self, state, viewer):
        return make_view(state, viewer if viewer in (None, REFEREE) else int(viewer))

    def result(self, state):
        return state["result"]

    def scores(self, state):
        return [p["pp"] for p in state["players"]]

    evaluation_scale = 4.0

    def evaluate(self, state):
        """Prestige plus what the final conversion would make of the goods and deniers
        held now (3 per gold, a third per other cube, a quarter per denier, unrounded)."""
        return [
            p["pp"]
            + p["gold"] * FINAL["pp_per_gold"]
            + sum(p[c] for c in NON_GOLD) / FINAL["cubes_per_pp"]
            + p["deniers"] / FINAL["deniers_per_pp"]
            for p in state["players"]
        ]
