"""Carcassonne: The Castle (Knizia & Wrede, 2003) for two players, as a pure fold.

The protocol methods are thin: ``rules`` checks and applies events, ``flow`` runs a
turn, ``scoring``/``final`` pay features, ``legal`` enumerates actions, ``view``
hides the draw order and the face-down wall tiles.
"""

from __future__ import annotations

from projections.games.base import Game, ranking_from

from .state import initial_state


class CarcassonneCastle(Game, layout=__package__):
    """The layout gives the rest: the schemas, ``rules``' awaits, malformed, check and effect,
    ``legal``'s to_act and legal_actions, the copy, ``view`` and ``determinize`` (no
    ``redact``: events carry only public choices; the draws they cause live in the state)."""

    title = "Carcassonne: The Castle"
    min_seats, max_seats = 2, 2
    hidden_information = chance = True
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
