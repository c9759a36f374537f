"""The Sultans of Karaya game object: the protocol of base.Game over the modules of this package."""

from __future__ import annotations

from projections.games.base import Game, refuse

from . import determinize, legal, rules, versions
from . import view as views
from .components import MAX_SEATS, MIN_SEATS
from .flow import Engine
from .schemas import ACTION_SCHEMAS, OptionsSchema
from .state import copy_state, new_game

PRIVATE_TYPES = {"investigate", "swap", "hide", "look", "capture"}


DEFAULTS = OptionsSchema().load({})
"""The options a test calling ``setup`` directly leaves out (the platform always passes all)."""


class SultansOfKaraya(Game):
    name = "sultans_of_karaya"
    title = "Sultans of Karaya"
    min_seats, max_seats = MIN_SEATS, MAX_SEATS
    hidden_information = chance = True
    options_schema = OptionsSchema
    action_schemas = ACTION_SCHEMAS
    rules_version = versions.CURRENT

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

    may_act = staticmethod(legal.may_act)
    awaits = staticmethod(legal.awaits)

    def refuse_unawaited(self, state, seat, kind):
        if state["round_state"]["pending"].get("mode") == "forced_hide":
            refuse("must_hide", f"{kind} is not what the game awaits from this seat now")
        super().refuse_unawaited(state, seat, kind)

    check = staticmethod(legal.check)
    copy = staticmethod(copy_state)
    effect = staticmethod(rules.effect)
    to_act = staticmethod(legal.to_act)
    legal_actions = staticmethod(legal.legal_actions)
    view = staticmethod(views.view)
    redact = staticmethod(views.redact)
    determinize = staticmethod(determinize.deal)

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
