"""Marshmallow schemas: the game options and one schema per action type."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from .content import AREAS, RING, TYPES
from .options import CHOICES, DEFAULTS

AREA = validate.OneOf(AREAS)


class OptionsSchema(Schema):
    """Every open question of the digest (§15) is an option with the digest's default."""

    plot_launch_order = fields.String(
        load_default=DEFAULTS["plot_launch_order"], validate=validate.OneOf(CHOICES["plot_launch_order"])
    )
    plot_action_target = fields.String(
        load_default=DEFAULTS["plot_action_target"], validate=validate.OneOf(CHOICES["plot_action_target"])
    )
    optional_characters = fields.Boolean(load_default=DEFAULTS["optional_characters"])
    solo_difficulty = fields.String(
        load_default=DEFAULTS["solo_difficulty"], validate=validate.OneOf(CHOICES["solo_difficulty"])
    )
    colosseum_counts_new_follower = fields.Boolean(load_default=DEFAULTS["colosseum_counts_new_follower"])
    new_follower_same_phase = fields.Boolean(load_default=DEFAULTS["new_follower_same_phase"])
    lure_max_legions = fields.Integer(load_default=DEFAULTS["lure_max_legions"], validate=validate.Range(1, 2))
    battle_ranking = fields.String(
        load_default=DEFAULTS["battle_ranking"], validate=validate.OneOf(CHOICES["battle_ranking"])
    )
    anchors_stealable = fields.Boolean(load_default=DEFAULTS["anchors_stealable"])


class Empty(Schema):
    pass


class KeepMissions(Schema):
    keep = fields.List(fields.String(), required=True, validate=validate.Length(equal=2))


class AreaChoice(Schema):
    area = fields.String(required=True, validate=AREA)


class LaunchPlot(Schema):
    province = fields.String(required=True, validate=validate.OneOf(RING))
    space = fields.Integer(required=True, validate=validate.Range(0, 2))
    action = fields.String(required=True)
    victim = fields.Integer(required=True, validate=validate.Range(0, 3))


class Build(Schema):
    building = fields.String(required=True, validate=validate.OneOf(TYPES))


class PlaceFollower(Schema):
    location = fields.String(required=True)
    use_token = fields.Boolean(load_default=False)


# "from" is a Python keyword, so these two are built from dicts: the loaded payload keeps
# the key "from" (a data_key would load it as another attribute name)
LegionMove = Schema.from_dict(
    {
        "from": fields.String(required=True, validate=validate.OneOf(["supply", *AREAS])),
        "to": fields.String(required=True, validate=AREA),
    },
    name="LegionMove",
)
AreaMove = Schema.from_dict(
    {"from": fields.String(required=True, validate=AREA), "to": fields.String(required=True, validate=AREA)},
    name="AreaMove",
)


class Defect(Schema):
    area = fields.String(required=True, validate=AREA)
    mode = fields.String(required=True, validate=validate.OneOf(["remove", "replace"]))


class PickVote(Schema):
    position = fields.Integer(required=True, validate=validate.Range(0, 4))


class CardChoice(Schema):
    card = fields.String(required=True)


class FormSet(Schema):
    cards = fields.List(fields.String(), required=True, validate=validate.Length(equal=3))
    as_type = fields.String(required=True, validate=validate.OneOf(["tool", "weapon", "clothing", "jewel"]))


class Exchange(Schema):
    count = fields.Integer(required=True, validate=validate.Range(min=1))


class Tax(Schema):
    mode = fields.String(required=True, validate=validate.OneOf(["normal", "double"]))


ACTION_SCHEMAS: dict[str, type] = {
    "keep_missions": KeepMissions,
    "deploy_legion": AreaChoice,
    "launch_plot": LaunchPlot,
    "end_plot_turn": Empty,
    "build": Build,
    "end_build_turn": Empty,
    "place_follower": PlaceFollower,
    "move_legion": LegionMove,
    "defect": Defect,
    "lure_move": AreaMove,
    "end_lure": Empty,
    "pick_vote": PickVote,
    "play_card": CardChoice,
    "pass": Empty,
    "forfeit_draw": Empty,
    "sell_card": CardChoice,
    "discard_card": CardChoice,
    "form_set": FormSet,
    "exchange": Exchange,
    "tax": Tax,
    "rival_card": Empty,
    "decline_legion_move": Empty,
    "place_vote": Empty,
    "decline_vote": Empty,
    "draw_card": Empty,
    "place_pantheon_piece": Empty,
    "decline_pantheon_piece": Empty,
}
