"""Marshmallow schemas: the options and one schema per action type."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

SIDE = validate.OneOf(["loyalists", "rebels"])


class SeatOrSpare(fields.Field[int | str]):
    """A seat number, or the string "spare"."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> int | str:
        if value == "spare" or (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
            seat_or_spare: int | str = value
            return seat_or_spare
        raise ValidationError('a seat number or "spare"')


class OptionsSchema(Schema):
    rounds = fields.Integer(load_default=5, validate=validate.Range(min=1, max=50))
    target_score = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1))
    first_player = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=0, max=14))
    own_card_knowledge = fields.String(load_default="always", validate=validate.OneOf(["always"]))
    slave_call_any_time = fields.Boolean(load_default=False)
    target_may_block = fields.Boolean(load_default=True)
    detained_guard_may_block = fields.Boolean(load_default=True)  # the rulebook's block; false: G6 before version 3
    detained_may_join = fields.Boolean(load_default=True)
    fatigue_scope = fields.String(load_default="abilities", validate=validate.OneOf(["abilities", "whole_turn"]))
    swap_back_rule = fields.String(
        load_default="incoming_open_only", validate=validate.OneOf(["incoming_open_only", "both_directions_open"])
    )
    enforce_status_card_limits = fields.Boolean(load_default=True)
    forced_slaver_gets_bonus = fields.Boolean(load_default=True)
    round_turn_limit = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1))
    tiebreak_lookback = fields.String(
        load_default="any_round", validate=validate.OneOf(["any_round", "last_round_only"])
    )
    knowledge_aid = fields.String(load_default="tracked", validate=validate.OneOf(["tracked", "raw"]))
    end_when_all_known_one_team = fields.Boolean(load_default=False)


class Empty(Schema):
    pass


class Target(Schema):
    target = fields.Integer(required=True, validate=validate.Range(min=0))


class SwapSchema(Schema):
    with_ = SeatOrSpare(required=True, data_key="with")


class HideSchema(Schema):
    with_ = SeatOrSpare(required=True, allow_none=True, data_key="with")


class ManipulateSchema(Schema):
    side = fields.String(required=True, allow_none=True, validate=SIDE)
    target = fields.Integer(required=True, validate=validate.Range(min=0))


class PredictSchema(Schema):
    side = fields.String(required=True, validate=SIDE)


class RespondSchema(Schema):
    window = fields.Integer(required=True, validate=validate.Range(min=1))
    choice = fields.String(required=True, validate=validate.OneOf(["block", "pass", "forbid", "accept", "join"]))


class WindowTimeoutSchema(Schema):
    window = fields.Integer(required=True, validate=validate.Range(min=1))


ACTION_SCHEMAS: dict[str, type] = {
    "investigate": Target,
    "swap": SwapSchema,
    "hide": HideSchema,
    "execute": Target,
    "detain": Target,
    "assassinate": Target,
    "call_revolt": Empty,
    "capture": Target,
    "dance": Empty,
    "manipulate": ManipulateSchema,
    "foretell": Empty,
    "look": Target,
    "predict": PredictSchema,
    "respond": RespondSchema,
    "royal_claim": Empty,
    "window_timeout": WindowTimeoutSchema,
}
