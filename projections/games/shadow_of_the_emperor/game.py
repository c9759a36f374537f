"""In the Shadow of the Emperor as a base.Game: each part named from the module that holds it."""

from __future__ import annotations

from typing import Any

from projections.games.base import Event, Game, Options, Result, Rng, State, ranking_from, refuse

from . import determinize as dealing
from . import flow, rules, schemas, versions
from . import state as states
from . import view as views
from .state import initial_state


class ShadowOfTheEmperor(Game):
    # The parts this package keeps in its modules (projections/games/README.md)
    name = "shadow_of_the_emperor"
    options_schema = schemas.OptionsSchema
    action_schemas = schemas.ACTION_SCHEMAS
    rules_version = versions.CURRENT
    awaits = staticmethod(rules.awaits)
    copy = staticmethod(states.copy)
    effect = staticmethod(rules.effect)
    legal_actions = staticmethod(rules.legal_actions)
    view = staticmethod(views.view)
    redact = staticmethod(views.redact)
    determinize = staticmethod(dealing.deal)

    title = "In the Shadow of the Emperor"
    min_seats, max_seats = 2, 4
    max_log_entries = 2_000  # the longest of tests/golden/shadow_of_the_emperor: 132 entries
    hidden_information = chance = True

    def check_options(self, options: Options, seats: int) -> None:
        first = options.get("first_emperor")
        if first is not None and not 0 <= first < seats:
            refuse("bad_options", f"first_emperor must be a seat (0 to {seats - 1})")

    def setup(self, options: Options, seats: int, rng: Rng) -> State:
        if not self.min_seats <= seats <= self.max_seats:
            refuse("bad_seat_count", f"{self.title} is for 2 to 4 players")
        return flow.advance(initial_state(options, seats, rng))

    def over(self, state: State) -> bool:
        phase: str = state["phase"]
        return phase == "finished"

    def advance(self, state: State, rng: Rng) -> State:
        return flow.advance(state)

    to_act = staticmethod(rules.waiting_for)

    def reveals(self, before: State, event: Event, after: State) -> bool:
        """The last secret vote reveals every committed vote at once."""
        return (
            event.get("type") == "vote"
            and after["election"] is not before["election"]
            and after["election"] != before["election"]
        )

    evaluation_scale = 4.0

    def scores(self, state: State) -> list[float]:
        return [player["vp"] for player in state["players"]]

    def result(self, state: State) -> Result | None:
        if state["phase"] != "finished":
            return None
        scores = self.scores(state)
        keys: list[Any]
        if state["options"]["tiebreak"] == "thalers_then_emperor":
            keys = [(p["vp"], p["thalers"], seat == state["emperor"]) for seat, p in enumerate(state["players"])]
            tiebreak = "most thalers, then the emperor"
        else:
            keys = scores
            tiebreak = None
        return {"scores": scores, "ranking": ranking_from(keys), "tiebreak": tiebreak}
