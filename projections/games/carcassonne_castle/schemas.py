"""Marshmallow schemas: the game's options and one schema per action type."""

from __future__ import annotations

from marshmallow import Schema, fields, validate


class OptionsSchema(Schema):
    first_player = fields.String(load_default="seat0", validate=validate.OneOf(["seat0", "random"]))
    unplaceable_tile = fields.String(load_default="confirm", validate=validate.OneOf(["auto", "confirm"]))
    # The seed's wall-tile table: 「玩家選擇一個未完成的道路」 -- the holder chooses, no follower
    # condition. ``True`` keeps the majority reading that was the default until that correction.
    unfinished_needs_majority = fields.Boolean(load_default=False)
    # The seed, 遊戲進行 (1): 「無論道路(黃)、城塔(灰)、房屋(紅)、庭院(綠)皆可與城牆框架上數字旁邊的圖案相連接」
    # -- any terrain may meet the pictures beside the wall's numbers (``any``, rules version 3).
    # ``paths_match`` keeps the earlier reading: paths meet paths there too, as between tiles.
    start_pictures = fields.String(load_default="any", validate=validate.OneOf(["any", "paths_match"]))


class PlaceTileSchema(Schema):
    x = fields.Integer(required=True, strict=True)
    y = fields.Integer(required=True, strict=True)
    rotation = fields.Integer(required=True, strict=True, validate=validate.OneOf([0, 90, 180, 270]))


class PlaceFollowerSchema(Schema):
    feature = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))


class EmptySchema(Schema):
    """Actions that carry no choice beyond their type."""


class ScoreFeatureSchema(Schema):
    x = fields.Integer(required=True, strict=True)
    y = fields.Integer(required=True, strict=True)
    feature = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))
    use_wall_tile = fields.Boolean(load_default=False)


class TargetSchema(Schema):
    x = fields.Integer(required=True, strict=True)
    y = fields.Integer(required=True, strict=True)
    feature = fields.Integer(required=True, strict=True, validate=validate.Range(min=0))


class FinalTargetSchema(Schema):
    wall_tile = fields.Integer(required=True, strict=True, validate=validate.OneOf([4, 5, 6, 7]))
    target = fields.Nested(TargetSchema, required=True, allow_none=True)


ACTION_SCHEMAS: dict[str, type] = {
    "place_tile": PlaceTileSchema,
    "place_follower": PlaceFollowerSchema,
    "skip_follower": EmptySchema,
    "score_feature": ScoreFeatureSchema,
    "use_extra_turn": EmptySchema,
    "end_turn": EmptySchema,
    "confirm_remove_tile": EmptySchema,
    "final_target": FinalTargetSchema,
}
