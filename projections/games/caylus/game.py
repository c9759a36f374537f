"""The Caylus game object: the protocol of ``base.Game`` over the package's modules."""
from __future__ import annotations

from ..base import REFEREE, Game
from . import rules, turn
from .legal import legal_actions
from .schemas import ACTION_SCHEMAS, OptionsSchema
from .state import clone, setup_state
from .turn import current_decision
from .view import make_view


class Caylus(Game):
    name = "caylus"
    title = "Caylus"
    min_seats = 2
    max_seats = 5
    hidden_information = False
    chance = True
    options_schema = OptionsSchema
    action_schemas = ACTION_SCHEMAS

    def setup(self, options, seats, rng):
        state = setup_state(options, seats, rng)
        turn.advance(state)
        return state

    def awaits(self, state, seat, kind):
        return rules.awaits(state, kind)

    def check(self, state, seat, kind, payload):
        rules.check(state, seat, kind, payload)

    copy = staticmethod(clone)

    def effect(self, state, seat, kind, payload, rng):
        rules.effect(state, seat, kind, payload)

    def advance(self, state, rng):
        turn.advance(state)
        return state

    def to_act(self, state):
        decision = current_decision(state)
        return set() if decision is None else {decision["seat"]}

    def legal_actions(self, state, seat):
        return legal_actions(state, seat)

    def view(self, state, viewer):
        return make_view(state, viewer if viewer in (None, REFEREE) else int(viewer))

    def redact(self, event, viewer):
        return event  # nothing in Caylus is hidden (digest §12)

    def result(self, state):
        return state["result"]

    def scores(self, state):
        return [p["pp"] for p in state["players"]]
