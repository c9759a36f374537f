"""The Sultans of Karaya game object: each part of base.Game named from the module that holds it."""

from __future__ import annotations

from typing import NoReturn

from projections.games.base import Event, Game, Options, Result, Rng, State, refuse

from . import determinize as dealing
from . import legal, rules, schemas, versions
from . import state as states
from . import view as views
from .components import MAX_SEATS, MIN_SEATS
from .flow import Engine
from .schemas import OptionsSchema
from .state import new_game

PRIVATE_TYPES = {"investigate", "swap", "hide", "look", "capture"}


DEFAULTS: Options = OptionsSchema().load({})
"""The options a test calling ``setup`` directly leaves out (the platform always passes all)."""


class SultansOfKaraya(Game):
    # The parts this package keeps in its modules (projections/games/README.md)
    name = "sultans_of_karaya"
    options_schema = schemas.OptionsSchema
    action_schemas = schemas.ACTION_SCHEMAS
    rules_version = versions.CURRENT
    may_act = staticmethod(legal.may_act)
    awaits = staticmethod(legal.awaits)
    check = staticmethod(legal.check)
    copy = staticmethod(states.copy)
    effect = staticmethod(rules.effect)
    to_act = staticmethod(legal.to_act)
    legal_actions = staticmethod(legal.legal_actions)
    view = staticmethod(views.view)
    redact = staticmethod(views.redact)
    determinize = staticmethod(dealing.deal)

    title = "Sultans of Karaya"
    min_seats, max_seats = MIN_SEATS, MAX_SEATS
    max_log_entries = 10_000  # the longest of tests/golden/sultans_of_karaya: 680 entries
    hidden_information = chance = True

    def check_options(self, options: Options, seats: int) -> None:
        if options.get("first_player") is not None and options["first_player"] >= seats:
            refuse("bad_options", "first_player must be a seat of the table")

    def setup(self, options: Options, seats: int, rng: Rng) -> State:
        if not MIN_SEATS <= seats <= MAX_SEATS:
            refuse("bad_seat_count", f"{MIN_SEATS} to {MAX_SEATS} players")
        options = {**DEFAULTS, **(options or {})}
        state = new_game(options, seats, rng)
        Engine(state, rng).start_round(state["first_player"])
        state["notes"] = []
        return state

    def over(self, state: State) -> bool:
        finished: bool = state["finished"]
        return finished

    def refuse_unawaited(self, state: State, seat: int | None, kind: str) -> NoReturn:
        if state["round_state"]["pending"].get("mode") == "forced_hide":
            refuse("must_hide", f"{kind} is not what the game awaits from this seat now")
        super().refuse_unawaited(state, seat, kind)

    def result(self, state: State) -> Result | None:
        result: Result | None = state["result"]
        return result

    evaluation_scale = 2.0

    def scores(self, state: State) -> list[float] | None:
        return list(state["totals"])

    def reveals(self, before: State, event: Event, after: State) -> bool:
        """Private looks, swaps and reveals show someone a card that no draw of this event dealt."""
        if event["type"] in PRIVATE_TYPES:
            return True
        b, a = before["round_state"], after["round_state"]
        changed: bool = before["round"] != after["round"] or b["revealed"] != a["revealed"]
        return changed


GAME = SultansOfKaraya()
