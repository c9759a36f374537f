"""In the Shadow of the Emperor as a base.Game: the protocol methods, delegating to the rules."""
from __future__ import annotations

from projections.games.base import Game, IllegalAction, ranking_from

from . import determinize, flow, rules, versions, view
from .schemas import ACTION_SCHEMAS, OptionsSchema
from .state import initial_state


class ShadowOfTheEmperor(Game):
    name = "shadow_of_the_emperor"
    title = "In the Shadow of the Emperor"
    min_seats = 2
    max_seats = 4
    hidden_information = True
    chance = True
    options_schema = OptionsSchema
    action_schemas = ACTION_SCHEMAS
    rules_version = versions.CURRENT

    def setup(self, options, seats, rng):
        if not self.min_seats <= seats <= self.max_seats:
            raise IllegalAction("bad_seat_count", f"{self.title} is for 2 to 4 players")
        first = options.get("first_emperor")
        if first is not None and not 0 <= first < seats:
            raise IllegalAction("bad_options", f"first_emperor must be a seat (0 to {seats - 1})")
        return flow.advance(initial_state(options, seats, rng))

    def apply(self, state, event, rng):
        return rules.apply(state, event)

    def to_act(self, state):
        return rules.waiting_for(state)

    def legal_actions(self, state, seat):
        return rules.legal_actions(state, seat)

    def view(self, state, viewer):
        return view.view(state, viewer)

    def redact(self, event, viewer):
        return view.redact(event, viewer)

    def reveals(self, before, event, after):
        """The last secret vote reveals every committed vote at once."""
        return event.get("type") == "vote" and after["election"] is not before["election"] and after["election"] != before["election"]

    def determinize(self, state, seat, rand):
        return determinize.deal(state, seat, rand)

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
