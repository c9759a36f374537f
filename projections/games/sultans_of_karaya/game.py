"""The Sultans of Karaya game object: the protocol of base.Game over the modules of this package."""
from __future__ import annotations

from projections.games.base import Game, IllegalAction, refuse

from . import determinize, legal, rules, versions, view
from .components import MAX_SEATS, MIN_SEATS
from .flow import Engine
from .schemas import ACTION_SCHEMAS, OptionsSchema
from .state import copy_state, new_game

PRIVATE_TYPES = {"investigate", "swap", "hide", "look", "capture"}


def interrupts(state: dict, seat, kind) -> bool:
    """Whether ``kind`` is a standing interrupt for ``seat``: the royal claim, and the G2
    variant's out-of-turn revolt. Interrupts skip the turn order; their checks say who may."""
    if kind == "royal_claim":
        return True
    return (kind == "call_revolt" and state["options"]["slave_call_any_time"]
            and not rules.own_action_step(state["round_state"], seat))


DEFAULTS = OptionsSchema().load({})
"""The options a test calling ``setup`` directly leaves out (the platform always passes all)."""


class SultansOfKaraya(Game):
    name = "sultans_of_karaya"
    title = "Sultans of Karaya"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    hidden_information = True
    chance = True
    options_schema = OptionsSchema
    action_schemas = ACTION_SCHEMAS
    rules_version = versions.CURRENT

    def check_options(self, options, seats):
        if options.get("first_player") is not None and options["first_player"] >= seats:
            refuse("bad_options", "first_player must be a seat of the table")

    def setup(self, options, seats, rng):
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise IllegalAction("bad_seat_count", f"{MIN_SEATS} to {MAX_SEATS} players")
        options = {**DEFAULTS, **(options or {})}
        state = new_game(options, seats, rng)
        Engine(state, rng).start_round(state["first_player"])
        state["notes"] = []
        return state

    def over(self, state):
        return state["finished"]

    def may_act(self, state, seat, kind):
        if kind == "window_timeout":
            return seat is None  # only the system closes a window on timeout
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["seats"]:
            return False
        return interrupts(state, seat, kind) or seat in legal.to_act(state)

    def awaits(self, state, seat, kind):
        return (kind == "window_timeout" or interrupts(state, seat, kind)
                or kind in legal.awaited_types(state["round_state"]["pending"]))

    def refuse_unawaited(self, state, seat, kind):
        if state["round_state"]["pending"].get("mode") == "forced_hide":
            refuse("must_hide", f"{kind} is not what the game awaits from this seat now")
        super().refuse_unawaited(state, seat, kind)

    def check(self, state, seat, kind, payload):
        rd = state["round_state"]
        if kind == "window_timeout":
            if rd["pending"]["kind"] != "window" or rd["pending"]["id"] != payload.get("window"):
                refuse("no_open_window", "that window is not open")
        elif kind == "royal_claim":
            if not (rd["alive"][seat] and not rd["revealed"][seat] and rd["cards"][seat] == "sultan"):
                refuse("not_hidden_sultan", "only the seat holding the face-down Sultan may claim")
        elif interrupts(state, seat, kind):
            rules.check_revolt_interrupt(state, seat)
        else:
            rules.CHECKS[kind](state, seat, payload)

    copy = staticmethod(copy_state)

    def effect(self, state, seat, kind, payload, rng):
        state["notes"] = []
        rules.EFFECTS[kind](Engine(state, rng), seat, dict(payload))

    def to_act(self, state):
        return legal.to_act(state)

    def legal_actions(self, state, seat):
        return legal.legal_actions(state, seat)

    def view(self, state, viewer):
        return view.view(state, viewer)

    def redact(self, event, viewer):
        return view.redact(event, viewer)

    def result(self, state):
        return state["result"]

    def determinize(self, state, seat, rand):
        return determinize.deal(state, seat, rand)

    def scores(self, state):
        return list(state["totals"])

    def reveals(self, before, event, after):
        """Private looks, swaps and reveals show someone a card that no draw of this event dealt."""
        if event["type"] in PRIVATE_TYPES:
            return True
        b, a = before["round_state"], after["round_state"]
        return before["round"] != after["round"] or b["revealed"] != a["revealed"]


GAME = SultansOfKaraya()
