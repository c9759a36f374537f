"""Response schemas of the HTTP API, for the OpenAPI document only.

Routes name them in ``@bp.alt_response(..., success=True)`` and return plain dicts
(nothing is dumped through these, which would drop the fields they leave open); the contract test
(schemathesis, tests/platform/test_openapi_contract.py) checks every answer against
them, so they cannot drift from what the server really sends. Objects allow extra
properties: a field added later is not a breaking change.
"""

from typing import Any

from marshmallow import INCLUDE, Schema, fields


class Open(Schema):
    class Meta:
        unknown = INCLUDE


def _obj(**kwargs: Any) -> fields.Dict:
    return fields.Dict(**kwargs)


class ErrorDetailSchema(Open):
    code = fields.String(required=True, metadata={"description": "stable, machine-readable"})
    message = fields.String(required=True)
    details = fields.Dict(required=True)


class ErrorSchema(Open):
    """Every error: ``{"error": {"code", "message", "details"}}``."""

    error = fields.Nested(ErrorDetailSchema, required=True)


class GameTypeSchema(Open):
    name = fields.String(required=True)
    title = fields.String(required=True)
    min_seats = fields.Integer(required=True)
    max_seats = fields.Integer(required=True)
    hidden_information = fields.Boolean(required=True)
    chance = fields.Boolean(required=True)
    computer_seats = fields.Boolean()  # whether a computer may sit at this game
    max_log_entries = fields.Integer()  # the longest log a game of this type may have
    options = _obj(required=True)
    actions = fields.List(fields.String())


class SeatTokenSchema(Open):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    token = fields.String(required=True, allow_none=True)  # none for a computer's seat
    bot = fields.Integer()  # the computer's strength, on a computer's seat


class CreatedSchema(Open):
    id = fields.String(required=True)
    game = fields.String(required=True)
    seats = fields.List(fields.Nested(SeatTokenSchema), required=True)
    referee_token = fields.String(required=True)
    seed_commitment = fields.String(required=True)


class SeatSchema(Open):
    seat = fields.Integer(required=True)
    name = fields.String(required=True)


class SummarySchema(Open):
    id = fields.String(required=True)
    game = fields.String(required=True)
    title = fields.String(required=True)
    seats = fields.List(fields.Nested(SeatSchema), required=True)
    status = fields.String(required=True)
    seq = fields.Integer(required=True)
    to_act = fields.List(fields.Integer(), required=True)
    result = _obj(required=True, allow_none=True)
    created_at = fields.String(required=True)
    ranked = fields.Boolean(required=True)
    forked_from = _obj(required=True, allow_none=True)
    tournament = fields.String(required=True, allow_none=True)


class LobbySchema(Open):
    games = fields.List(fields.Nested(SummarySchema), required=True)
    next = fields.String(required=True, allow_none=True, metadata={"description": "cursor of the next page, or null"})


class MoveSchema(Open):
    seq = fields.Integer(required=True)
    seat = fields.Integer(required=True, allow_none=True)


class DisputeSchema(Open):
    id = fields.String(required=True, metadata={"description": "the dispute's annotation id"})
    seat = fields.Integer(required=True)
    seq = fields.Integer(required=True, metadata={"description": "the step disputed"})
    raised = fields.Integer(required=True, metadata={"description": "the seq of its dispute.raised entry"})


OPEN_DISPUTES = {"description": "disputes raised in the log and not yet settled, oldest first"}


class MetaSchema(SummarySchema):
    seed_commitment = fields.String(required=True)
    head_hash = fields.String(required=True)
    clocks = _obj(required=True, allow_none=True)
    pending_undo = _obj(required=True, allow_none=True)
    disputes = fields.List(fields.Nested(DisputeSchema), required=True, metadata=OPEN_DISPUTES)
    moves = fields.List(
        fields.Nested(MoveSchema),
        required=True,
        metadata={
            "description": "the effective history: the game moves that stand after every undo and rewind, in order"
        },
    )
    options = _obj(required=True)
    rules_version = fields.Integer(required=True)
    now = fields.Float(
        metadata={
            "description": "the server's time as it answered (seconds since the epoch; GET /api/games/{id} only):"
            " clocks run from clocks.since by this time, not the device's"
        }
    )


class ViewSchema(Open):
    seq = fields.Integer(required=True)
    at = fields.Integer(required=True)
    viewer = _obj(required=True)
    status = fields.String(required=True)
    to_act = fields.List(fields.Integer(), required=True)
    result = _obj(required=True, allow_none=True)
    view = _obj(required=True, metadata={"description": "the game's own view for this viewer"})
    clocks = _obj(required=True, allow_none=True)
    pending_undo = _obj(required=True, allow_none=True)
    disputes = fields.List(fields.Nested(DisputeSchema), required=True, metadata=OPEN_DISPUTES)


class ActionChoiceSchema(Open):
    type = fields.String(required=True)
    payload = _obj(required=True)


class LegalActionsSchema(Open):
    seq = fields.Integer(required=True)
    seat = fields.Integer(required=True, allow_none=True)
    actions = fields.List(fields.Nested(ActionChoiceSchema), required=True)


class ActedSchema(ViewSchema):
    """The mover's position after the move (the view document at ``at``) and its legal
    actions: the page draws the answer and reads nothing."""

    seq = fields.Integer(required=True, metadata={"description": "the entry's seq (a retry: the first one's)"})
    actions = fields.List(fields.Nested(ActionChoiceSchema), required=True)
    receipt = _obj(required=True)


class EnvelopeSchema(Open):
    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    actor = _obj(required=True)
    payload = _obj(required=True)
    ts = fields.String(required=True)
    prev = fields.String(required=True)
    hash = fields.String(required=True)


class EventsSchema(Open):
    events = fields.List(fields.Nested(EnvelopeSchema), required=True)
    next = fields.Integer(
        required=True, allow_none=True, metadata={"description": "`after` of the next page, or null at the head"}
    )


class UndoAnswerSchema(Open):
    status = fields.String(required=True)
    seq = fields.Integer(required=True)
    request_id = fields.String()


class SeqSchema(Open):
    seq = fields.Integer(required=True)


class AnnotationOutSchema(Open):
    id = fields.String(required=True)
    seq = fields.Integer(required=True)
    kind = fields.String(required=True)
    text = fields.String(required=True)
    author = fields.String(required=True)
    role = fields.String(required=True, metadata={"description": "seat, referee or spectator (from the token)"})
    seat = fields.Integer(required=True, allow_none=True)
    ts = fields.String(required=True)
    resolution = _obj(required=True, allow_none=True)


class AnnotationsSchema(Open):
    annotations = fields.List(fields.Nested(AnnotationOutSchema), required=True)
    next = fields.String(required=True, allow_none=True, metadata={"description": "cursor of the next page, or null"})


class VerdictSchema(Open):
    ok = fields.Boolean(required=True)
    first_bad_seq = fields.Integer(required=True, allow_none=True)
    checks = _obj(required=True)
    messages = fields.List(fields.String(), required=True)


# -- tournaments ---------------------------------------------------------------------------
class TournamentSummarySchema(Open):
    id = fields.String(required=True)
    game = fields.String(required=True)
    name = fields.String(required=True)
    format = fields.String(required=True)
    status = fields.String(required=True)
    players = fields.List(_obj(), required=True)
    rounds = fields.List(_obj(), required=True)
    registration = fields.String(required=True, metadata={"description": "open or closed"})


class TournamentCreatedSchema(Open):
    id = fields.String(required=True)
    director_token = fields.String(required=True)
    tournament = fields.Nested(TournamentSummarySchema, required=True)


class TournamentLineSchema(Open):
    id = fields.String(required=True)
    game = fields.String(required=True)
    name = fields.String(required=True)
    status = fields.String(required=True)


class TournamentListSchema(Open):
    tournaments = fields.List(fields.Nested(TournamentLineSchema), required=True)


class RegisteredSchema(Open):
    pid = fields.String(required=True)
    name = fields.String(required=True)
    player_token = fields.String(required=True)


class RosterRefusalSchema(Open):
    name = fields.String(required=True)
    code = fields.String(required=True)
    message = fields.String(required=True)


class RosterSchema(Open):
    registered = fields.List(fields.Nested(RegisteredSchema), required=True)
    refused = fields.List(fields.Nested(RosterRefusalSchema), required=True)


class WithdrawnSchema(Open):
    pid = fields.String(required=True)
    withdrawn = fields.Boolean(required=True)
    forfeited = fields.List(fields.String(), required=True)


class PlayerGamesSchema(Open):
    pid = fields.String(required=True)
    games = fields.List(_obj(), required=True)


class RoundSchema(Open):
    round = fields.Integer(required=True)
    status = fields.String(required=True)
    byes = fields.List(_obj(), required=True)
    tables = fields.List(_obj(), required=True)


class TableSchema(Open):
    table = fields.Integer(required=True)
    game_id = fields.String(required=True)
    seats = fields.List(_obj(), required=True)


class StandingsSchema(Open):
    id = fields.String(required=True)
    status = fields.String(required=True)
    standings = fields.List(_obj(), required=True)


class RegistrationSchema(Open):
    registration = fields.String(required=True, metadata={"description": "open or closed"})
    seq = fields.Integer(required=True)


class TableDisputeSchema(DisputeSchema):
    round = fields.Integer(required=True, allow_none=True)
    table = fields.Integer(required=True)
    game_id = fields.String(required=True)


class OpenDisputesSchema(Open):
    disputes = fields.List(fields.Nested(TableDisputeSchema), required=True)


class DirectorsSchema(Open):
    directors = fields.List(fields.String(), required=True, metadata={"description": "the named co-director links"})
    accounts = fields.List(fields.String(), required=True, metadata={"description": "the accounts that direct it"})


class DirectorLinkSchema(Open):
    name = fields.String(required=True)
    director_token = fields.String(required=True)
