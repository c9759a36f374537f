"""Age of Rome as a ``base.Game``: the protocol methods delegate to the rules modules."""

from __future__ import annotations

from projections.games.base import Game, refuse

from . import determinize, legal, resolve, versions
from . import state as initial
from . import view as views
from .flow import run
from .options import DEFAULTS
from .schemas import ACTION_SCHEMAS, OptionsSchema


class AgeOfRome(Game):
    name = "age_of_rome"
    title = "Age of Rome"
    min_seats, max_seats = 1, 4
    hidden_information = chance = True
    options_schema = OptionsSchema
    action_schemas = ACTION_SCHEMAS
    rules_version = versions.CURRENT

    def setup(self, options, seats, rng):
        if not 1 <= seats <= 4:
            refuse("bad_seat_count", "Age of Rome seats 1 to 4 players")
        state = initial.setup({**DEFAULTS, **(options or {})}, seats, rng)
        run(state, rng)
        return state

    may_act = staticmethod(legal.may_act)
    awaits = staticmethod(legal.awaits)
    check = staticmethod(legal.check)
    copy = staticmethod(initial.copy_state)

    def effect(self, state, seat, kind, payload, rng):
        resolve.perform(state, seat, kind, payload, dict(state["queue"][0]), rng)

    def advance(self, state, rng):
        run(state, rng)
        return state

    def to_act(self, state):
        return {s for s in legal.waiting_seats(state) if s is not None}

    def legal_actions(self, state, seat):
        return legal.offers_for(state, seat) if seat is not None else []

    view = staticmethod(views.view)
    redact = staticmethod(views.redact)

    def result(self, state):
        return state["result"]

    def automatic(self, state):
        step = legal.front(state)
        if step is not None and step["op"] == "rival_turn":
            return {"type": "rival_card", "payload": {}}
        return None

    def reveals(self, before, event, after):
        return views.reveals(before, after)

    determinize = staticmethod(determinize.deal)

    evaluation_scale = 6.0

    def scores(self, state):
        return [p["glory"] for p in state["players"]]
