"""Counting, release 2 (rules version 2): an addition now counts double. Games started
under version 1 keep counting single: the change is a branch on ``self.version(state)``."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from projections.games.base import Game, IllegalAction, ranking_from


class Options(Schema):
    rounds = fields.Integer(load_default=5, validate=validate.Range(min=1, max=20))


class Add(Schema):
    n = fields.Integer(required=True, validate=validate.Range(min=1, max=3))


class Counting(Game):
    name = "counting"
    title = "Counting"
    min_seats, max_seats = 2, 2
    options_schema = Options
    action_schemas = {"add": Add}
    rules_version = 2

    def setup(self, options, seats, rng):
        return {"options": options, "scores": [0] * seats, "turn": 0, "moves": 0}

    def points(self, state, n):
        return n if self.version(state) < 2 else 2 * n

    def apply(self, state, event, rng):
        if event["seat"] != state["turn"]:
            raise IllegalAction("not_your_turn", "it is another seat's turn")
        scores = list(state["scores"])
        scores[event["seat"]] += self.points(state, event["payload"]["n"])
        return {**state, "scores": scores, "turn": 1 - state["turn"], "moves": state["moves"] + 1}

    def to_act(self, state):
        return set() if self.over(state) else {state["turn"]}

    def over(self, state):
        return state["moves"] >= 2 * state["options"]["rounds"]

    def legal_actions(self, state, seat):
        return [{"type": "add", "payload": {"n": n}} for n in (1, 2, 3)] if seat in self.to_act(state) else []

    def view(self, state, viewer):
        return {"scores": state["scores"], "turn": state["turn"], "moves": state["moves"]}

    def result(self, state):
        if not self.over(state):
            return None
        return {"scores": state["scores"], "ranking": ranking_from(state["scores"]), "tiebreak": None}


GAME = Counting()
