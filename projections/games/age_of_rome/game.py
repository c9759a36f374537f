"""Age of Rome as a ``base.Game``: each part named from the module that holds it."""

from __future__ import annotations

from typing import Any

from projections.games.base import Action, Event, Game, Options, Result, Rng, State, refuse

from . import determinize as dealing
from . import legal, resolve, schemas, versions
from . import state as initial
from . import view as views
from .flow import run
from .options import DEFAULTS


class AgeOfRome(Game):
    # The parts this package keeps in its modules (projections/games/README.md)
    name = "age_of_rome"
    options_schema = schemas.OptionsSchema
    action_schemas = schemas.ACTION_SCHEMAS
    rules_version = versions.CURRENT
    may_act = staticmethod(legal.may_act)
    awaits = staticmethod(legal.awaits)
    check = staticmethod(legal.check)
    copy = staticmethod(initial.copy)
    view = staticmethod(views.view)
    redact = staticmethod(views.redact)
    determinize = staticmethod(dealing.deal)

    title = "Age of Rome"
    min_seats, max_seats = 1, 4
    max_log_entries = 5_000  # the longest of tests/golden/age_of_rome: 542 entries
    hidden_information = chance = True

    def setup(self, options: Options, seats: int, rng: Rng) -> State:
        if not 1 <= seats <= 4:
            refuse("bad_seat_count", "Age of Rome seats 1 to 4 players")
        state = initial.setup({**DEFAULTS, **(options or {})}, seats, rng)
        run(state, rng)
        return state

    def effect(self, state: State, seat: int | None, kind: str, payload: dict[str, Any], rng: Rng) -> None:
        resolve.perform(state, seat, kind, payload, dict(state["queue"][0]), rng)

    def advance(self, state: State, rng: Rng) -> State:
        run(state, rng)
        return state

    def to_act(self, state: State) -> set[int]:
        return {s for s in legal.waiting_seats(state) if s is not None}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return legal.offers_for(state, seat) if seat is not None else []

    def result(self, state: State) -> Result | None:
        result: Result | None = state["result"]
        return result

    def automatic(self, state: State) -> Action | None:
        step = legal.front(state)
        if step is not None and step["op"] == "rival_turn":
            return {"type": "rival_card", "payload": {}}
        return None

    def reveals(self, before: State, event: Event, after: State) -> bool:
        return views.reveals(before, after)

    evaluation_scale = 6.0

    def scores(self, state: State) -> list[float] | None:
        return [p["glory"] for p in state["players"]]
