"""Carcassonne: The Castle (Knizia & Wrede, 2003) for two players, as a pure fold.

The protocol methods are thin: ``rules`` checks and applies events, ``flow`` runs a
turn, ``scoring``/``final`` pay features, ``legal`` enumerates actions, ``view``
hides the draw order and the face-down wall tiles.
"""

from __future__ import annotations

from projections.games.base import Event, Game, Options, Result, Rng, State, ranking_from

from . import determinize as dealing
from . import legal, rules, schemas, versions
from . import state as states
from . import view as views
from .state import initial_state


class CarcassonneCastle(Game):
    """No ``redact``: events carry only public choices; the draws they cause live in the state."""

    # The parts this package keeps in its modules (projections/games/README.md)
    name = "carcassonne_castle"
    options_schema = schemas.OptionsSchema
    action_schemas = schemas.ACTION_SCHEMAS
    rules_version = versions.CURRENT
    awaits = staticmethod(rules.awaits)
    malformed = staticmethod(rules.malformed)
    check = staticmethod(rules.check)
    copy = staticmethod(states.copy)
    effect = staticmethod(rules.effect)
    to_act = staticmethod(legal.to_act)
    legal_actions = staticmethod(legal.legal_actions)
    view = staticmethod(views.view)
    determinize = staticmethod(dealing.deal)

    title = "Carcassonne: The Castle"
    min_seats, max_seats = 2, 2
    max_log_entries = 2_000  # the longest of tests/golden/carcassonne_castle: 114 entries
    hidden_information = chance = True

    def setup(self, options: Options, seats: int, rng: Rng) -> State:
        from .flow import begin_turn

        state = initial_state(options, seats, rng)
        begin_turn(state)
        return state

    def over(self, state: State) -> bool:
        phase: str = state["phase"]
        return phase == "over"

    def reveals(self, before: State, event: Event, after: State) -> bool:
        """A new castle tile turned up, or a face-down wall tile was taken."""
        taken = sum(len(h) for h in after["held"]) > sum(len(h) for h in before["held"])
        return len(after["pile"]) < len(before["pile"]) or taken

    def result(self, state: State) -> Result | None:
        if state["phase"] != "over":
            return None
        scores = list(state["score"])
        return {"scores": scores, "ranking": ranking_from(scores), "tiebreak": None}

    evaluation_scale = 4.0

    def scores(self, state: State) -> list[float] | None:
        return list(state["score"])


GAME = CarcassonneCastle()
