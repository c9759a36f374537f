"""Carcassonne: The Castle (Knizia & Wrede, 2003) for two players, as a pure fold.

The protocol methods are thin: ``rules`` checks and applies events, ``flow`` runs a
turn, ``scoring``/``final`` pay features, ``legal`` enumerates actions, ``view``
hides the draw order and the face-down wall tiles.
"""

from __future__ import annotations

from projections.games.base import Game, ranking_from

from . import determinize, legal, rules
from . import view as views
from .schemas import ACTION_SCHEMAS, OptionsSchema
from .state import fork, initial_state


class CarcassonneCastle(Game):
    name = "carcassonne_castle"
    title = "Carcassonne: The Castle"
    min_seats, max_seats = 2, 2
    hidden_information = chance = True
    options_schema = OptionsSchema
    action_schemas = ACTION_SCHEMAS
    rules_version = 2
    """2: the unfinished-feature wall tiles need no follower majority by default (the seed's
    reading). Recorded options make versions 1 and 2 fold alike; the number marks which
    default a game started with."""

    def setup(self, options, seats, rng):
        from .flow import begin_turn

        state = initial_state(options, seats, rng)
        begin_turn(state)
        return state

    def over(self, state):
        return state["phase"] == "over"

    # the skeleton's steps and the protocol, from the rules modules (redact: events carry
    # only public choices; the draws they cause live in the state)
    awaits = staticmethod(rules.awaits)
    malformed = staticmethod(rules.malformed)
    check = staticmethod(rules.check)
    copy = staticmethod(fork)
    effect = staticmethod(rules.effect)
    to_act = staticmethod(legal.to_act)
    legal_actions = staticmethod(legal.legal_actions)
    view = staticmethod(views.view)
    determinize = staticmethod(determinize.deal)

    def reveals(self, before, event, after):
        """A new castle tile turned up, or a face-down wall tile was taken."""
        taken = sum(len(h) for h in after["held"]) > sum(len(h) for h in before["held"])
        return len(after["pile"]) < len(before["pile"]) or taken

    def result(self, state):
        if state["phase"] != "over":
            return None
        scores = list(state["score"])
        return {"scores": scores, "ranking": ranking_from(scores), "tiebreak": None}

    evaluation_scale = 4.0

    def scores(self, state):
        return list(state["score"])


GAME = CarcassonneCastle()
