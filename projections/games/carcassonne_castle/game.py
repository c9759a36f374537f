"""Carcassonne: The Castle (Knizia & Wrede, 2003) for two players, as a pure fold.

The protocol methods are thin: ``rules`` checks and applies events, ``flow`` runs a
turn, ``scoring``/``final`` pay features, ``legal`` enumerates actions, ``view``
hides the draw order and the face-down wall tiles.
"""
from __future__ import annotations

from projections.games.base import Game, ranking_from

from . import determinize, legal, rules, view as views
from .schemas import ACTION_SCHEMAS, OptionsSchema
from .state import fork, initial_state


class CarcassonneCastle(Game):
    name = "carcassonne_castle"
    title = "Carcassonne: The Castle"
    min_seats = 2
    max_seats = 2
    hidden_information = True
    chance = True
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

    def awaits(self, state, seat, kind):
        return rules.awaits(state, kind)

    malformed = staticmethod(rules.malformed)

    def check(self, state, seat, kind, payload):
        rules.check(state, seat, kind, payload)

    copy = staticmethod(fork)

    def effect(self, state, seat, kind, payload, rng):
        rules.effect(state, seat, kind, payload)

    def to_act(self, state):
        return legal.to_act(state)

    def legal_actions(self, state, seat):
        return legal.legal_actions(state, seat)

    def view(self, state, viewer):
        return views.view(state, viewer)

    def redact(self, event, viewer):
        """Events carry only public choices; the draws they cause live in the state."""
        return event

    def determinize(self, state, seat, rand):
        return determinize.deal(state, seat, rand)

    def reveals(self, before, event, after):
        """A new castle tile turned up, or a face-down wall tile was taken."""
        taken = sum(len(h) for h in after["held"]) > sum(len(h) for h in before["held"])
        return len(after["pile"]) < len(before["pile"]) or taken

    def result(self, state):
        if state["phase"] != "over":
            return None
        scores = list(state["score"])
        return {"scores": scores, "ranking": ranking_from(scores), "tiebreak": None}

    def scores(self, state):
        return list(state["score"])


GAME = CarcassonneCastle()
