"""Marshmallow schemas: the game options and one schema per action type."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from .components import CUBES, FAVOUR_ROWS, NON_GOLD, ROAD_LENGTH
from .placement import TARGETS

CUBE = validate.OneOf(CUBES)


class OptionsSchema(Schema):
    include_jeweller = fields.Boolean(load_default=False)
    lawyer_prestige = fields.Integer(load_default=4, validate=validate.OneOf([4, 3]))
    church_payment = fields.String(load_default="cloth", validate=validate.OneOf(["cloth", "deniers"]))
    beginner_favours = fields.Boolean(load_default=False)
    house_limit = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=100))
    favour_lawyer_payment = fields.String(load_default="deniers", validate=validate.OneOf(["deniers", "cloth"]))
    locked_favour_columns = fields.String(load_default="enter", validate=validate.OneOf(["enter", "blocked"]))


class EmptySchema(Schema):
    pass


class TargetSchema(Schema):
    target = fields.String(required=True, validate=validate.OneOf(TARGETS))


class DeltaSchema(Schema):
    delta = fields.Integer(required=True, strict=True, validate=validate.Range(-3, 3))


class JoustSchema(Schema):
    pay = fields.Boolean(required=True)


class InnSchema(Schema):
    keep = fields.Boolean(required=True)


class OptionSchema(Schema):
    option = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))


class CubeSchema(Schema):
    cube = fields.String(required=True, validate=CUBE)


class BuildSchema(Schema):
    building = fields.String(required=True)
    any = fields.String(validate=CUBE)


class SpaceSchema(Schema):
    space = fields.Integer(required=True, strict=True, validate=validate.Range(1, ROAD_LENGTH))


class PrestigeSchema(Schema):
    space = fields.Integer(required=True, strict=True, validate=validate.Range(1, ROAD_LENGTH))
    building = fields.String(required=True)


class TradeSchema(Schema):
    option = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    cubes = fields.List(fields.String(validate=CUBE), load_default=list, validate=validate.Length(max=4))


class BatchSchema(Schema):
    cubes = fields.List(
        fields.String(validate=validate.OneOf(["wood", "stone", "cloth", "gold"])),
        required=True,
        validate=validate.Length(equal=2),
    )


class FavourSchema(Schema):
    row = fields.String(required=True, validate=validate.OneOf(FAVOUR_ROWS))
    column = fields.Integer(required=True, strict=True, validate=validate.Range(1, 5))
    gain = fields.List(fields.String(validate=validate.OneOf(NON_GOLD)), validate=validate.Length(min=1, max=2))
    pay = fields.List(fields.String(validate=CUBE), validate=validate.Length(equal=1))
    building = fields.String()
    any = fields.String(validate=CUBE)
    space = fields.Integer(strict=True, validate=validate.Range(1, ROAD_LENGTH))


ACTION_SCHEMAS: dict[str, type] = {
    "place_worker": TargetSchema,
    "pass": EmptySchema,
    "gate_move": TargetSchema,
    "gate_recall": EmptySchema,
    "guild_move_provost": DeltaSchema,
    "joust": JoustSchema,
    "inn_keep": InnSchema,
    "move_provost": DeltaSchema,
    "produce": OptionSchema,
    "owner_bonus": CubeSchema,
    "build": BuildSchema,
    "convert": SpaceSchema,
    "build_prestige": PrestigeSchema,
    "trade": TradeSchema,
    "decline": EmptySchema,
    "give_batch": BatchSchema,
    "castle_done": EmptySchema,
    "choose_favour": FavourSchema,
}
