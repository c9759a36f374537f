"""The Caylus game object: the protocol of ``base.Game`` over the package's modules (the
layout gives the schemas, ``rules``' awaits, check and effect, the copy and ``legal_actions``)."""

from __future__ import annotations

from ..base import REFEREE, Game
from . import turn
from .components import FINAL, NON_GOLD
from .state import setup_state
from .turn import current_decision
from .view import make_view


class Caylus(Game, layout=__package__):
    title = "Caylus"
    min_seats, max_seats = 2, 5
    hidden_information, chance = False, True

    def setup(self, options, seats, rng):
        state = setup_state(options, seats, rng)
        turn.advance(state)
        return state

    def advance(self, state, rng):
        turn.advance(state)
        return state

    def to_act(self, state):
        decision = current_decision(state)
        return set() if decision is None else {decision["seat"]}

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
