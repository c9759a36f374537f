"""In the Shadow of the Emperor as a base.Game: the protocol methods, delegating to the rules
(the layout gives the schemas, the rules version, ``rules``' awaits, effect and legal_actions,
the copy, ``view``, ``redact`` and ``determinize``)."""

from __future__ import annotations

from projections.games.base import Game, ranking_from, refuse

from . import flow, rules
from .state import initial_state


class ShadowOfTheEmperor(Game, layout=__package__):
    title = "In the Shadow of the Emperor"
    min_seats, max_seats = 2, 4
    hidden_information = chance = True

    def check_options(self, options, seats):
        first = options.get("first_emperor")
        if first is not None and not 0 <= first < seats:
            refuse("bad_options", f"first_emperor must be a seat (0 to {seats - 1})")

    def setup(self, options, seats, rng):
        if not self.min_seats <= seats <= self.max_seats:
            refuse("bad_seat_count", f"{self.title} is for 2 to 4 players")
        return flow.advance(initial_state(options, seats, rng))

    def over(self, state):
        return state["phase"] == "finished"

    def advance(self, state, rng):
        return flow.advance(state)

    to_act = staticmethod(rules.waiting_for)

    def reveals(self, before, event, after):
        """The last secret vote reveals every committed vote at once."""
        return (
            event.get("type") == "vote"
            and after["election"] is not before["election"]
            and after["election"] != before["election"]
        )

    evaluation_scale = 4.0

    def scores(self, state):
        return [player["vp"] for player in state["players"]]

    def result(self, state):
        if state["phase"] != "finished":
            return None
        scores = self.scores(state)
        if state["options"]["tiebreak"] == "thalers_then_emperor":
            keys = [(p["vp"], p["thalers"], seat == state["emperor"]) for seat, p in enumerate(state["players"])]
            tiebreak = "most thalers, then the emperor"
        else:
            keys = scores
            tiebreak = None
        return {"scores": scores, "ranking": ranking_from(keys), "tiebreak": tiebreak}
