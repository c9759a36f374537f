"""The Sultans of Karaya game object: the protocol of base.Game over the modules of this package
(the layout gives the schemas, the rules version, ``legal``'s may_act, awaits, check, to_act and
legal_actions, ``rules.effect``, the copy, ``view``, ``redact`` and ``determinize``)."""

from __future__ import annotations

from projections.games.base import Game, refuse

from .components import MAX_SEATS, MIN_SEATS
from .flow import Engine
from .schemas import OptionsSchema
from .state import new_game

PRIVATE_TYPES = {"investigate", "swap", "hide", "look", "capture"}


DEFAULTS = OptionsSchema().load({})
"""The options a test calling ``setup`` directly leaves out (the platform always passes all)."""


class SultansOfKaraya(Game, layout=__package__):
    title = "Sultans of Karaya"
    min_seats, max_seats = MIN_SEATS, MAX_SEATS
    hidden_information = chance = True

    def check_options(self, options, seats):
        if options.get("first_player") is not None and options["first_player"] >= seats:
            refuse("bad_options", "first_player must be a seat of the table")

    def setup(self, options, seats, rng):
        if not MIN_SEATS <= seats <= MAX_SEATS:
            refuse("bad_seat_count", f"{MIN_SEATS} to {MAX_SEATS} players")
        options = {**DEFAULTS, **(options or {})}
        state = new_game(options, seats, rng)
        Engine(state, rng).start_round(state["first_player"])
        state["notes"] = []
        return state

    def over(self, state):
        return state["finished"]

    def refuse_unawaited(self, state, seat, kind):
        if state["round_state"]["pending"].get("mode") == "forced_hide":
            refuse("must_hide", f"{kind} is not what the game awaits from this seat now")
        super().refuse_unawaited(state, seat, kind)

    def result(self, state):
        return state["result"]

    evaluation_scale = 2.0

    def scores(self, state):
        return list(state["totals"])

    def reveals(self, before, event, after):
        """Private looks, swaps and reveals show someone a card that no draw of this event dealt."""
        if event["type"] in PRIVATE_TYPES:
            return True
        b, a = before["round_state"], after["round_state"]
        return before["round"] != after["round"] or b["revealed"] != a["revealed"]


GAME = SultansOfKaraya()
