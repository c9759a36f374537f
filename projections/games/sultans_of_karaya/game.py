"""The Sultans of Karaya game object: the protocol of base.Game over the modules of this package."""
from __future__ import annotations

import json

from projections.games.base import Game, IllegalAction

from . import determinize, legal, rules, versions, view
from .components import MAX_SEATS, MIN_SEATS
from .flow import Engine
from .schemas import ACTION_SCHEMAS, OptionsSchema
from .state import new_game

PRIVATE_TYPES = {"investigate", "swap", "hide", "look", "capture"}


ROUND_LISTS = ("cards", "set_aside", "revealed", "alive", "prison", "fatigue", "captured", "faction",
               "must_hide", "incoming", "stack")


def copy_state(state: dict) -> dict:
    """Copy what an event may change. Rules replace nested entries (swap notes, incoming
    lists, history rows) rather than editing them, so copying the containers suffices;
    the pending step is edited in place and copied whole."""
    new = dict(state)
    new["totals"] = list(state["totals"])
    new["history"] = list(state["history"])
    rd = dict(state["round_state"])
    for key in ROUND_LISTS:
        rd[key] = list(rd[key])
    rd["known"] = [dict(notes) for notes in rd["known"]]
    if rd["seen"] is not None:
        rd["seen"] = [list(seen) for seen in rd["seen"]]
    rd["pending"] = json.loads(json.dumps(rd["pending"]))
    new["round_state"] = rd
    return new


def check(state: dict, event: dict) -> None:
    """Refuse anything the rules forbid, before anything changes."""
    kind, seat, payload = event["type"], event.get("seat"), event.get("payload") or {}
    if state["finished"]:
        raise IllegalAction("game_over", "the game has finished")
    if kind not in rules.EFFECTS:
        raise IllegalAction("unknown_action", f"no action {kind!r} in this game")
    rd = state["round_state"]
    if kind == "window_timeout":
        if seat is not None:
            raise IllegalAction("not_your_turn", "only the system closes a window on timeout")
        pending = rd["pending"]
        if pending["kind"] != "window" or pending["id"] != payload.get("window"):
            raise IllegalAction("no_open_window", "that window is not open")
        return
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state["seats"]:
        raise IllegalAction("not_your_turn", "only a seat of this table may act")
    if kind == "royal_claim":
        if not (rd["alive"][seat] and not rd["revealed"][seat] and rd["cards"][seat] == "sultan"):
            raise IllegalAction("not_hidden_sultan", "only the seat holding the face-down Sultan may claim")
        return
    if kind == "call_revolt" and state["options"]["slave_call_any_time"] and not rules.own_action_step(rd, seat):
        rules.check_revolt_interrupt(state, seat)  # the G2 variant: an interrupt, like the claim
        return
    if seat not in legal.to_act(state):
        raise IllegalAction("not_your_turn", "the game is not waiting for this seat")
    if kind not in legal.awaited_types(rd["pending"]):
        code = "must_hide" if rd["pending"].get("mode") == "forced_hide" else "not_now"
        raise IllegalAction(code, f"{kind} is not what the game awaits from this seat now")
    rules.CHECKS[kind](state, seat, payload)


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

    def setup(self, options, seats, rng):
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise IllegalAction("bad_seat_count", f"{MIN_SEATS} to {MAX_SEATS} players")
        defaults = OptionsSchema().load({})
        options = {**defaults, **(options or {})}
        if options["first_player"] is not None and options["first_player"] >= seats:
            raise IllegalAction("bad_option", "first_player must be a seat of the table")
        state = new_game(options, seats, rng)
        Engine(state, rng).start_round(state["first_player"])
        state["notes"] = []
        return state

    def apply(self, state, event, rng):
        check(state, event)
        new = copy_state(state)
        new["notes"] = []
        payload = dict(event.get("payload") or {})
        rules.EFFECTS[event["type"]](Engine(new, rng), event.get("seat"), payload)
        return new

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
