"""Request schemas of the HTTP API (the edge: JSON in, validated dicts out)."""
from marshmallow import Schema, fields, validate

NAME = fields.String(validate=validate.Length(min=1, max=60))


class ClockSchema(Schema):
    base = fields.Float(required=True, validate=validate.Range(min=1, max=86400 * 7))
    increment = fields.Float(load_default=0, validate=validate.Range(min=0, max=3600))


class CreateGameSchema(Schema):
    game = fields.String(required=True)
    seats = fields.List(NAME, required=True, validate=validate.Length(min=1, max=20))
    options = fields.Dict(load_default=dict)
    clock = fields.Nested(ClockSchema, load_default=None, allow_none=True)
    ranked = fields.Boolean(load_default=True)
    bots = fields.List(fields.Nested(lambda: BotSeatSchema()), load_default=list, validate=validate.Length(max=20))


class GameFilterSchema(Schema):
    game = fields.String()
    status = fields.String(validate=validate.OneOf(["active", "paused", "finished"]))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class ViewQuerySchema(Schema):
    at = fields.Integer()


class EventsQuerySchema(Schema):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0))


class ActionSchema(Schema):
    type = fields.String(required=True, validate=validate.Length(min=1, max=80))
    payload = fields.Dict(load_default=dict)
    action_id = fields.String(load_default=None, allow_none=True, validate=[
        validate.Length(min=1, max=100),
        validate.Regexp(r"^(?!sys:)", error="action ids starting with 'sys:' are the platform's own")])
    expected_seq = fields.Integer(load_default=None, allow_none=True)


class UndoSchema(Schema):
    to_seq = fields.Integer(required=True, validate=validate.Range(min=1))


class ForkSchema(Schema):
    at_seq = fields.Integer(required=True, validate=validate.Range(min=1))
    seats = fields.List(NAME, load_default=None, allow_none=True)


REASON = fields.String(load_default="", validate=validate.Length(max=500))
DISPUTE = fields.String(load_default=None, allow_none=True)


class PauseSchema(Schema):
    reason = REASON


class RewindSchema(Schema):
    to_seq = fields.Integer(required=True, validate=validate.Range(min=1))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    dispute = DISPUTE


class AdjustSchema(Schema):
    seat = fields.Integer(required=True)
    points = fields.Integer(required=True)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    dispute = DISPUTE


class ForfeitSchema(Schema):
    seat = fields.Integer(required=True)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    dispute = DISPUTE


STRENGTH = fields.Integer(load_default=2, validate=validate.Range(min=1, max=3))


class BotSeatSchema(Schema):
    """A computer in a seat: ``strength`` 1-3 sets its search budget (docs/BOTS.md)."""

    seat = fields.Integer(required=True, validate=validate.Range(min=0, max=19))
    strength = STRENGTH


class RefereeBotSchema(BotSeatSchema):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    withdrawn = fields.Boolean(load_default=False)  # the seat's player left: it ranks last
    dispute = DISPUTE


class DismissSchema(Schema):
    dispute = fields.String(required=True)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))


class AdjustmentSchema(Schema):
    seat = fields.Integer(required=True)
    points = fields.Integer(required=True)


class CorrectionSchema(Schema):
    adjustments = fields.List(fields.Nested(AdjustmentSchema), load_default=list, validate=validate.Length(max=20))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    dispute = DISPUTE


class AnnotationSchema(Schema):
    seq = fields.Integer(required=True)
    text = fields.String(required=True)
    kind = fields.String(load_default="comment", validate=validate.OneOf(["comment", "dispute"]))
    author = fields.String(load_default=None, allow_none=True)


REFEREE_SCHEMAS = {
    "pause": PauseSchema,
    "resume": PauseSchema,
    "rewind": RewindSchema,
    "adjust": AdjustSchema,
    "forfeit": ForfeitSchema,
    "dismiss": DismissSchema,
    "bot": RefereeBotSchema,
}
