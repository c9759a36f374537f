"""marshmallow schemas: the game options and one schema per action type."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from .components import CARD_ORDER, ELECTORATE_ORDER, PRIVILEGE_ACTIONS


class OptionsSchema(Schema):
    first_emperor = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(0, 3))
    """Seat of the starting emperor; None draws it with the seeded generator."""
    elector_counts_for_influence = fields.Boolean(load_default=True)
    """G7 (reconstructed): the sitting elector counts for its owner's influence."""
    tiebreak = fields.String(load_default="shared", validate=validate.OneOf(["shared", "thalers_then_emperor"]))
    """G6 (reconstructed): tied players share the victory, or most thalers then the emperor."""
    brandenburg_pays = fields.Boolean(load_default=True)
    """G9 (reconstructed): the Brandenburg privilege pays the Gray Eminence's cost."""
    cap_every_gain = fields.Boolean(load_default=True)
    """G12 (reconstructed): the 12-thaler cap applies to every gain, not only income."""


def Location(**kw: Any) -> fields.String:
    return fields.String(validate=validate.Length(1, 40), **kw)


def Electorate(**kw: Any) -> fields.String:
    return fields.String(validate=validate.OneOf(ELECTORATE_ORDER), **kw)


class SpaceSchema(Schema):
    space = Location(required=True)


class EmptySchema(Schema):
    pass


class TargetSchema(Schema):
    target = Location(required=True)


class AnswerMarriageSchema(Schema):
    accept = fields.Boolean(required=True)


class TakeCardSchema(Schema):
    card = fields.String(required=True, validate=validate.OneOf(CARD_ORDER))
    target = Location(load_default=None, allow_none=True)
    space = Location(load_default=None, allow_none=True)
    side = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(["baron", "couple"]))
    decline = fields.Boolean(load_default=False)


class UsePrivilegeSchema(Schema):
    electorate = fields.String(required=True, validate=validate.OneOf(PRIVILEGE_ACTIONS))
    card = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(CARD_ORDER))
    target = Location(load_default=None, allow_none=True)
    space = Location(load_default=None, allow_none=True)
    side = fields.String(load_default=None, allow_none=True, validate=validate.OneOf(["baron", "couple"]))


class KnightSchema(Schema):
    source = Location(required=True)
    space = Location(required=True)


class ElectorateSchema(Schema):
    electorate = Electorate(required=True)


class BreakTieSchema(Schema):
    winner = fields.Integer(required=True, validate=validate.Range(0, 3))


class VoteSchema(Schema):
    side = fields.String(required=True, validate=validate.OneOf(["emperor", "rival"]))


class MoveEmpireCitySchema(Schema):
    source = Location(required=True)
    space = Location(required=True)


class PlaceStartPieceSchema(SpaceSchema):
    """Setup: the space for the piece the setup sequence asks for."""


class EnthroneSchema(SpaceSchema):
    """The noble (on an aristocrat space) that mounts the empty throne."""


class PlaceSonSchema(SpaceSchema):
    """An empty aristocrat space, or a knight's when the electorate is full."""


class ChooseElectorSchema(SpaceSchema):
    """The winner's noble that takes the elector space."""


class PlaceDisplacedSchema(SpaceSchema):
    """Where a displaced elector or emperor goes."""


class PlaceEmpireCitySchema(SpaceSchema):
    """An empty city space for a new empire city."""


class DeclineSonSchema(EmptySchema):
    pass


class SendToConventSchema(EmptySchema):
    pass


class PassSchema(EmptySchema):
    pass


class SkipEmpireCitySchema(EmptySchema):
    pass


class DeclineGrayEminenceSchema(EmptySchema):
    """The Gray Eminence's holder places no baron (rules version 2)."""


class DeclineTargetSchema(EmptySchema):
    """Church Influence or Excommunication names nothing (rules version 2)."""


class TakeBackDisplacedSchema(EmptySchema):
    """A displaced noble goes back to its owner's supply instead of onto the board (rules version 3)."""


class ProposeMarriageSchema(TargetSchema):
    pass


class PlaceGrayEminenceSchema(ElectorateSchema):
    pass


class NameTargetSchema(ElectorateSchema):
    pass


ACTION_SCHEMAS: dict[str, type] = {
    "place_start_piece": PlaceStartPieceSchema,
    "enthrone": EnthroneSchema,
    "place_son": PlaceSonSchema,
    "decline_son": DeclineSonSchema,
    "propose_marriage": ProposeMarriageSchema,
    "send_to_convent": SendToConventSchema,
    "answer_marriage": AnswerMarriageSchema,
    "take_card": TakeCardSchema,
    "use_privilege": UsePrivilegeSchema,
    "knight": KnightSchema,
    "pass": PassSchema,
    "place_gray_eminence": PlaceGrayEminenceSchema,
    "decline_gray_eminence": DeclineGrayEminenceSchema,
    "break_tie": BreakTieSchema,
    "choose_elector": ChooseElectorSchema,
    "place_displaced": PlaceDisplacedSchema,
    "take_back_displaced": TakeBackDisplacedSchema,
    "name_target": NameTargetSchema,
    "decline_target": DeclineTargetSchema,
    "vote": VoteSchema,
    "place_empire_city": PlaceEmpireCitySchema,
    "move_empire_city": MoveEmpireCitySchema,
    "skip_empire_city": SkipEmpireCitySchema,
}
"""One schema per action type."""
