"""Age of Rome as a ``base.Game``: the layout gives the schemas, the rules version, the checks
(``legal``), the copy, ``view``, ``redact`` and ``determinize``; the rest delegates here."""

from __future__ import annotations

from projections.games.base import Game, refuse

from . import legal, resolve
from . import state as initial
from . import view as views
from .flow import run
from .options import DEFAULTS


class AgeOfRome(Game, layout=__package__):
    title = "Age of Rome"
    min_seats, max_seats = 1, 4
    hidden_information = chance = True

    def setup(self, options, seats, rng):
        if not 1 <= seats <= 4:
            refuse("bad_seat_count", "Age of Rome seats 1 to 4 players")
        state = initial.setup({**DEFAULTS, **(options or {})}, seats, rng)
        run(state, rng)
        return state

    def effect(self, state, seat, kind, payload, rng):
        resolve.perform(state, seat, kind, payload, dict(state["queue"][0]), rng)

    def advance(self, state, rng):
        run(state, rng)
        return state

    def to_act(self, state):
        return {s for s in legal.waiting_seats(state) if s is not None}

    def legal_actions(self, state, seat):
        return legal.offers_for(state, seat) if seat is not None else []

    def result(self, state):
        return state["result"]

    def automatic(self, state):
        step = legal.front(state)
        if step is not None and step["op"] == "rival_turn":
            return {"type": "rival_card", "payload": {}}
        return None

    def reveals(self, before, event, after):
        return views.reveals(before, after)

    evaluation_scale = 6.0

    def scores(self, state):
        return [p["glory"] for p in state["players"]]
