"""Request schemas of the HTTP API (the edge: JSON in, validated dicts out).

Every number has bounds (a seq fits in a JSON-safe integer and in a Redis stream id;
points and counts stay within what a game can mean) and body fields are strictly typed
(``"5"`` is not an integer, ``1`` is not a boolean), so what the OpenAPI document
declares is exactly what is accepted.
"""

import re

from marshmallow import Schema, fields, validate

from service.services.errors import Invalid
from service.services.lobby import CURSOR

MAX_SEQ = 2**53 - 1  # the largest integer every JSON reader keeps exactly; far below Redis's 2^64 ids
MAX_POINTS = 10_000
MAX_SEATS = 20
NAME = fields.String(validate=validate.Length(min=1, max=60))
_DIGITS = re.compile(r"[0-9]{1,16}")


class StrictBoolean(fields.Boolean):
    """``true`` or ``false`` only (marshmallow also takes 1, "yes", "on" ...)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class StrictFloat(fields.Float):
    """A JSON number only (marshmallow also takes the string "5")."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


def seq(required: bool = False, minimum: int = 1, strict: bool = True, **kwargs) -> fields.Integer:
    """A seq (or a count of steps): an integer in [minimum, MAX_SEQ]."""
    return fields.Integer(required=required, strict=strict, validate=validate.Range(min=minimum, max=MAX_SEQ), **kwargs)


def parse_seq(text: str | None, name: str) -> int | None:
    """A seq given as text (``Last-Event-ID``): None when absent, 400 when not one."""
    if not text:
        return None
    if not _DIGITS.fullmatch(text) or int(text) > MAX_SEQ:
        raise Invalid("bad_request", f"{name} must be a seq (0 to {MAX_SEQ})", {name: [text[:40]]})
    return int(text)


class ClockSchema(Schema):
    base = StrictFloat(required=True, validate=validate.Range(min=1, max=86400 * 7))
    increment = StrictFloat(load_default=0, validate=validate.Range(min=0, max=3600))


class CreateGameSchema(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=60))
    seats = fields.List(NAME, required=True, validate=validate.Length(min=1, max=MAX_SEATS))
    options = fields.Dict(load_default=dict)
    clock = fields.Nested(ClockSchema, load_default=None, allow_none=True)
    ranked = StrictBoolean(load_default=True)
    bots = fields.List(fields.Nested(lambda: BotSeatSchema()), load_default=list, validate=validate.Length(max=20))
    account_seat = fields.Integer(
        strict=True,
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=MAX_SEATS - 1),
        metadata={"description": "bind this seat to the logged-in account (Authorization: Bearer <session token>)"},
    )


class GameFilterSchema(Schema):
    """The lobby: a page of at most ``limit`` games, newest first; ``cursor`` is the
    ``next`` of the previous page (service/services/lobby.py)."""

    game = fields.String(validate=validate.Length(min=1, max=60))
    status = fields.String(validate=validate.OneOf(["active", "paused", "finished"]))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=100))
    cursor = fields.String(validate=validate.Regexp(CURSOR))


class ViewQuerySchema(Schema):
    at = fields.Integer(validate=validate.Range(min=-MAX_SEQ, max=MAX_SEQ))


class EventsQuerySchema(Schema):
    after = seq(minimum=0, strict=False, load_default=0)


class ActionSchema(Schema):
    type = fields.String(required=True, validate=validate.Length(min=1, max=80))
    payload = fields.Dict(load_default=dict)
    action_id = fields.String(
        load_default=None,
        allow_none=True,
        validate=[
            validate.Length(min=1, max=100),
            validate.Regexp(r"^(?!sys:)", error="action ids starting with 'sys:' are the platform's own"),
        ],
    )
    expected_seq = seq(minimum=0, load_default=None, allow_none=True)


class UndoSchema(Schema):
    to_seq = seq(required=True)


class ForkSchema(Schema):
    at_seq = seq(required=True)
    seats = fields.List(NAME, load_default=None, allow_none=True, validate=validate.Length(min=1, max=MAX_SEATS))


REASON = fields.String(load_default="", validate=validate.Length(max=500))
DISPUTE = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=40))
SEAT = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=MAX_SEATS - 1))


class PauseSchema(Schema):
    reason = REASON


class RewindSchema(Schema):
    to_seq = seq(required=True)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    dispute = DISPUTE


class AdjustSchema(Schema):
    seat = SEAT
    points = fields.Integer(required=True, strict=True, validate=validate.Range(min=-MAX_POINTS, max=MAX_POINTS))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    dispute = DISPUTE


class ForfeitSchema(Schema):
    seat = SEAT
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    dispute = DISPUTE


STRENGTH = fields.Integer(strict=True, load_default=2, validate=validate.Range(min=1, max=3))


class BotSeatSchema(Schema):
    """A computer in a seat: ``strength`` 1-3 sets its search budget (docs/BOTS.md)."""

    seat = fields.Integer(strict=True, required=True, validate=validate.Range(min=0, max=19))
    strength = STRENGTH


class RefereeBotSchema(BotSeatSchema):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    withdrawn = fields.Boolean(load_default=False)  # the seat's player left: it ranks last
    dispute = DISPUTE


class DismissSchema(Schema):
    dispute = fields.String(required=True, validate=validate.Length(min=1, max=40))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))


class AdjustmentSchema(Schema):
    seat = fields.Integer(required=True)
    points = fields.Integer(required=True)


class CorrectionSchema(Schema):
    adjustments = fields.List(fields.Nested(AdjustmentSchema), load_default=list, validate=validate.Length(max=20))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    dispute = DISPUTE


class AnnotationSchema(Schema):
    """``author`` is a spectator's display name only: seats and the referee are named
    from their token (service/services/annotations.py)."""

    seq = seq(required=True)
    # checked (after stripping) by service/services/annotations.py, whose 400 says bad_text
    text = fields.String(required=True, metadata={"minLength": 1, "maxLength": 2000})
    kind = fields.String(load_default="comment", validate=validate.OneOf(["comment", "dispute"]))
    author = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=40))


class AnnotationQuerySchema(Schema):
    """A page of annotations in order; ``after`` is the ``next`` of the previous page."""

    after = fields.String(validate=validate.Regexp(r"^[0-9]{1,19}-[0-9]{1,19}$"))  # a Redis stream id (< 2^64)
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=200))


REFEREE_SCHEMAS = {
    "pause": PauseSchema,
    "resume": PauseSchema,
    "rewind": RewindSchema,
    "adjust": AdjustSchema,
    "forfeit": ForfeitSchema,
    "dismiss": DismissSchema,
    "bot": RefereeBotSchema,
}
