"""Marshmallow schemas of the tournament stream's event payloads.

A tournament is a stream of its own (``tournament:{<id>}:events``) with the same
envelope, compare-and-append and hash chain as a game. ``SCHEMAS`` maps each event
type to the schema of its payload; the service validates every payload with it before
appending, and the verifier validates the exported stream with it again.
Version 1 of every payload; a changed shape gets a new version and an upcaster here.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from events.strict_fields import StrictBoolean, StrictFloat, StrictInteger

PAYLOAD_VERSION = 1


PER_MOVE_DAYS = (1, 2, 3, 7)  # a turn-based clock's choices
MAX_VACATION_DAYS = 60


def one_clock_kind(data: dict[str, Any]) -> None:
    """A clock is live (``base`` seconds, ``increment``) or turn-based (``per_move_days``,
    ``vacation_days``), never both nor neither."""
    live, turns = "base" in data, "per_move_days" in data
    if live == turns:
        raise ValidationError("give either base (a live clock) or per_move_days (turn-based)", "_schema")
    if turns and ("increment" in data and data["increment"]):
        raise ValidationError("a turn-based clock has no increment", "increment")
    if live and "vacation_days" in data:
        raise ValidationError("vacation days are for turn-based clocks", "vacation_days")


class ClockSchema(Schema):
    base = StrictFloat(validate=validate.Range(min=1, max=7 * 24 * 3600))
    per_move_days = StrictInteger(validate=validate.OneOf(PER_MOVE_DAYS))
    vacation_days = StrictInteger(validate=validate.Range(min=0, max=MAX_VACATION_DAYS))
    increment = StrictFloat(load_default=0, validate=validate.Range(min=0, max=24 * 3600))
    first_move = StrictFloat(validate=validate.Range(min=1, max=24 * 3600))  # absent: the games' default
    pause_on_dispute = StrictBoolean()  # the director's choice: a seat's dispute stops its game's clocks

    @validates_schema
    def one_kind(self, data: dict[str, Any], **kwargs: Any) -> None:
        one_clock_kind(data)


class TournamentOptionsSchema(Schema):
    """What an organiser chooses; ``game_options`` go to every game as they are."""

    table_size = StrictInteger(required=True, validate=validate.Range(min=2, max=15))
    rounds = StrictInteger(required=True, validate=validate.Range(min=1, max=50))
    clock = fields.Nested(ClockSchema, load_default=None, allow_none=True)
    game_options = fields.Dict(keys=fields.String(), load_default=dict)
    points = fields.List(
        StrictFloat(),
        load_default=None,
        allow_none=True,
        metadata={
            "minItems": 2,
            "maxItems": 15,
            "description": "one value per finishing position: exactly table_size values, none greater than the "
            "one before (400 bad_options otherwise)",
        },
    )
    bye_points = StrictFloat(load_default=None, allow_none=True)
    late_entries = StrictBoolean()
    """Registration stays open once round 1 is paired (absent: it closes then)."""

    @validates_schema
    def points_fit_the_table(self, data: dict[str, Any], **kwargs: Any) -> None:
        points = data.get("points")
        if points is not None:
            if len(points) != data.get("table_size"):
                raise ValidationError("one value per finishing position (table_size values)", "points")
            if any(a < b for a, b in zip(points, points[1:])):
                raise ValidationError("points must not increase with the finishing position", "points")


class CreatedSchema(Schema):
    v = fields.Integer(load_default=PAYLOAD_VERSION)
    id = fields.String(required=True)
    game = fields.String(required=True)
    name = fields.String(required=True, validate=validate.Length(min=1, max=200))
    format = fields.String(required=True, validate=validate.OneOf(["swiss", "tables"]))
    options = fields.Nested(TournamentOptionsSchema, required=True)
    min_seats = fields.Integer(required=True)
    max_seats = fields.Integer(required=True)


class RegisteredSchema(Schema):
    v = fields.Integer(load_default=PAYLOAD_VERSION)
    pid = fields.String(required=True)
    name = fields.String(required=True, validate=validate.Length(min=1, max=80))
    account = fields.String(validate=validate.Length(min=1, max=80))  # registered by an account
    rating = fields.Float(allow_none=True)  # that account's rating in the game then (None: unrated)


class WithdrawnSchema(Schema):
    v = fields.Integer(load_default=PAYLOAD_VERSION)
    pid = fields.String(required=True)
    reason = fields.String(load_default="", validate=validate.Length(max=500))
    forfeited = fields.List(fields.String(), load_default=list)  # game ids forfeited on withdrawal


class TableSchema(Schema):
    table = fields.Integer(required=True, validate=validate.Range(min=1))
    game_id = fields.String(required=True)
    seats = fields.List(fields.String(allow_none=True), required=True, validate=validate.Length(min=1))
    seed_commitment = fields.String(load_default=None, allow_none=True)
    # A bye the director filled with computers: ``None`` in ``seats`` where one sits,
    # its strength here by seat (absent at tables of players only).
    computers = fields.Dict(keys=fields.String(), values=fields.Integer(validate=validate.Range(min=1, max=3)))


class PairedSchema(Schema):
    v = fields.Integer(load_default=PAYLOAD_VERSION)
    round = fields.Integer(required=True, validate=validate.Range(min=1))
    tables = fields.List(fields.Nested(TableSchema), required=True)
    byes = fields.List(fields.String(), load_default=list)


class ResultSchema(Schema):
    scores = fields.List(fields.Raw(allow_none=True), required=True)
    ranking = fields.List(fields.Integer(validate=validate.Range(min=1)), required=True)
    forfeited = fields.List(fields.Integer(), load_default=list)
    tiebreak = fields.Raw(load_default=None, allow_none=True)
    cancelled = fields.Boolean()  # a seat never made its first move; absent in every other result


class ReportedSchema(Schema):
    v = fields.Integer(load_default=PAYLOAD_VERSION)
    round = fields.Integer(required=True)
    table = fields.Integer(required=True)
    game_id = fields.String(required=True)
    result = fields.Nested(ResultSchema, required=True)
    head_hash = fields.String(load_default=None, allow_none=True)
    game_seq = fields.Integer(load_default=None, allow_none=True)


class RoundFinishedSchema(Schema):
    v = fields.Integer(load_default=PAYLOAD_VERSION)
    round = fields.Integer(required=True)


class FinishedSchema(Schema):
    v = fields.Integer(load_default=PAYLOAD_VERSION)
    reason = fields.String(load_default="all rounds played")
    standings = fields.List(fields.Dict(), load_default=list)  # the final table, for the record


class RegistrationSchema(Schema):
    v = fields.Integer(load_default=PAYLOAD_VERSION)
    reason = fields.String(load_default="", validate=validate.Length(max=500))


class FeedDelaySchema(Schema):
    """The director's delay for the omniscient feed (its shape is checked by the fold)."""

    v = fields.Integer(load_default=PAYLOAD_VERSION)
    delay = fields.Dict(keys=fields.String(), required=True)
    reason = fields.String(load_default="", validate=validate.Length(max=500))


SCHEMAS = {
    "feed.delay_set": FeedDelaySchema,
    "registration.closed": RegistrationSchema,
    "registration.opened": RegistrationSchema,
    "tournament.created": CreatedSchema,
    "player.registered": RegisteredSchema,
    "player.withdrawn": WithdrawnSchema,
    "round.paired": PairedSchema,
    "game.reported": ReportedSchema,
    "game.corrected": ReportedSchema,
    "round.finished": RoundFinishedSchema,
    "tournament.finished": FinishedSchema,
}


def load_payload(event_type: str, payload: dict[str, Any]) -> dict[str, Any]:
    """The validated payload (defaults filled in); raises ValidationError or KeyError."""
    loaded: dict[str, Any] = SCHEMAS[event_type]().load(payload)
    return loaded
