"""Open tables over HTTP (thin routes): open one, list them, take a seat, decline an
invitation. Every write needs an account's session (``Authorization: Bearer``)."""

from __future__ import annotations

from flask import Response, request
from marshmallow import Schema, fields, validate

from events.envelope import canonical_json
from events.rng import CONTRIBUTION_HEX
from events.shapes import JSON
from events.strict_fields import StrictBoolean, StrictInteger
from service.http.blueprints import Blueprint
from service.http.openapi import BEARER, OBJECT, SESSION_REFUSED, TEXT, refusals
from service.http.schemas import MAX_SEATS, NAME, BotSeatSchema, ClockSchema
from service.services.callers import bearer_token
from service.services.my_games import my_games
from service.wiring import services

bp = Blueprint("tables", __name__, url_prefix="/api", description="Open tables and invitations")

CONTRIBUTION = fields.String(
    required=True,
    validate=validate.Regexp(f"^[0-9a-f]{{{CONTRIBUTION_HEX}}}$"),
    metadata={"description": "the seat's share of the deal: 32 random bytes in lowercase hex, made by the client"},
)


class OpenTableSchema(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=60))
    seats = StrictInteger(required=True, validate=validate.Range(min=1, max=MAX_SEATS))
    contribution = CONTRIBUTION
    seat = StrictInteger(load_default=0, validate=validate.Range(min=0, max=MAX_SEATS - 1))
    options = fields.Dict(load_default=dict)
    clock = fields.Nested(ClockSchema, load_default=None, allow_none=True)
    ranked = StrictBoolean(load_default=True)
    bots = fields.List(fields.Nested(BotSeatSchema), load_default=list, validate=validate.Length(max=20))
    invited = fields.List(NAME, load_default=list, validate=validate.Length(max=MAX_SEATS))
    listed = StrictBoolean(
        load_default=True,
        metadata={"description": "shown in the lobby's open tables (else only by link and invitation)"},
    )
    expires_in = StrictInteger(load_default=24 * 3600, validate=validate.Range(min=60, max=30 * 24 * 3600))
    referee = fields.String(
        load_default=None,
        allow_none=True,
        validate=validate.Length(min=1, max=60),
        metadata={"description": "an account that takes no seat and referees the game (GET .../referee)"},
    )


class TakeSeatSchema(Schema):
    contribution = CONTRIBUTION
    seat = StrictInteger(load_default=None, allow_none=True, validate=validate.Range(min=0, max=MAX_SEATS - 1))


def session_name() -> str:
    return services().accounts.session(bearer_token(request.headers))


@bp.route("/tables", methods=["POST"])
@bp.arguments(OpenTableSchema)
@bp.doc(security=BEARER)
@refusals(bp, {401: SESSION_REFUSED, 404: "an invitee has no account"})
@bp.alt_response(
    201,
    schema=OBJECT,
    description="the table: id, game, seats (account, contribution, bot), status, game_id",
    success=True,
)
def open_table(body: JSON) -> tuple[JSON, int]:
    """Open a table with free seats; the creator takes ``seat``. It starts (a game of the
    same id) when every seat is taken; computer seats are named at the opening."""
    return services().tables.open(
        session_name(),
        body["game"],
        body["seats"],
        body["contribution"],
        options=body["options"],
        clock=body["clock"],
        ranked=body["ranked"],
        invited=body["invited"],
        bots={b["seat"]: b["strength"] for b in body["bots"]},
        seat=body["seat"],
        listed=body["listed"],
        expires_in=body["expires_in"],
        referee=body["referee"],
    ), 201


@bp.route("/tables")
@bp.alt_response(200, schema=OBJECT, description="tables: the listed open tables", success=True)
def list_tables() -> JSON:
    """The listed tables still open, soonest to expire first."""
    return {"tables": services().tables.open_tables()}


@bp.route("/me/tables")
@bp.doc(security=BEARER)
@refusals(bp, {401: SESSION_REFUSED})
@bp.alt_response(
    200, schema=OBJECT, description="tables: the open tables the account sits at or is invited to", success=True
)
def my_tables() -> JSON:
    """The open tables the logged-in account sits at or is invited to."""
    return {"tables": services().tables.of_account(session_name())}


@bp.route("/me/games")
@bp.doc(security=BEARER)
@refusals(bp, {401: SESSION_REFUSED})
@bp.alt_response(
    200,
    schema=OBJECT,
    description="name, games: [{kind: game/table, id, game, status, your_turn, link, ...}], waiting first",
    success=True,
)
def my_games_route() -> JSON:
    """The logged-in account's games and open tables, those waiting for it first (its
    turn, an invitation), then open tables, games under way, finished games."""
    built = services()
    return my_games(built.accounts, built.store, built.tables, session_name())


@bp.route("/tables/<table_id>")
@refusals(bp, {404: "no such table"})
@bp.alt_response(
    200, schema=OBJECT, description="the table as its log says: status open, started (game_id) or expired", success=True
)
def table(table_id: str) -> JSON:
    """A table as its log says (an expired one says so)."""
    return services().tables.state(table_id)


@bp.route("/tables/<table_id>/referee")
@bp.doc(security=BEARER)
@refusals(
    bp,
    {
        401: SESSION_REFUSED,
        403: "this account is not the table's referee",
        404: "no such table",
        409: "the game has not started",
    },
)
@bp.alt_response(
    200,
    schema=OBJECT,
    description="the started game's referee token for the account the table named: game_id, token, link",
    success=True,
)
def table_referee(table_id: str) -> JSON:
    """The referee token of the game a table started (``{game_id, token, link}``), for the
    account the table named its referee only."""
    return services().tables.referee_of(table_id, session_name())


@bp.route("/tables/<table_id>/export")
@refusals(bp, {404: "no such table"})
@bp.alt_response(
    200,
    schema=TEXT,
    content_type="application/x-ndjson",
    description="the table's log, one envelope per line",
    success=True,
)
def export_table(table_id: str) -> Response:
    """The table's log as JSON Lines (``table.opened`` with the seed commitment, each seat
    taken with its share, the start): what a player checks the deal of a game against."""
    lines = services().tables.log(table_id)
    return Response(
        "".join(canonical_json(e) + "\n" for e in lines),
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="table-{table_id}.jsonl"'},
    )


@bp.route("/tables/<table_id>/seats", methods=["POST"])
@bp.arguments(TakeSeatSchema)
@bp.doc(security=BEARER)
@refusals(bp, {401: SESSION_REFUSED, 404: "no such table", 409: "the seat is taken, the table full, closed or expired"})
@bp.alt_response(
    201, schema=OBJECT, description="the table after the seat is taken (started: game_id names the game)", success=True
)
def take_seat(body: JSON, table_id: str) -> tuple[JSON, int]:
    """Take a free seat with the client's share of the deal; the last seat starts the game
    (``status`` "started", ``game_id``)."""
    return services().tables.take(table_id, session_name(), body["contribution"], body["seat"]), 201


class FillSchema(Schema):
    strength = StrictInteger(load_default=1, validate=validate.Range(min=1, max=3))


@bp.route("/tables/<table_id>/computers", methods=["POST"])
@bp.arguments(FillSchema)
@bp.doc(security=BEARER)
@refusals(
    bp,
    {
        401: SESSION_REFUSED,
        403: "not the table's creator",
        404: "no such table",
        409: "the table is closed",
    },
)
@bp.alt_response(
    200, schema=OBJECT, description="the table after its free seats got computers (started: game_id)", success=True
)
def fill_with_computers(body: JSON, table_id: str) -> JSON:
    """The creator seats a computer of ``strength`` (1-3) in every free seat not kept for
    someone; the table, started if that filled it."""
    return services().tables.fill(table_id, session_name(), body["strength"])


class RematchSchema(Schema):
    contribution = CONTRIBUTION


@bp.route("/games/<game_id>/rematch", methods=["POST"])
@bp.arguments(RematchSchema)
@bp.doc(security=BEARER)
@refusals(
    bp,
    {
        401: SESSION_REFUSED,
        403: "not a player of the game",
        404: "no such game",
        409: "the game is not finished, or a seat is bound to no account",
    },
)
@bp.alt_response(
    201,
    schema=OBJECT,
    description="the rematch table: seats kept for the same players, each moved one seat on",
    success=True,
)
@bp.alt_response(200, schema=OBJECT, description="the rematch table offered before", success=True)
def rematch(body: JSON, game_id: str) -> tuple[JSON, int]:
    """Offer a rematch of a finished game: a table with the same players, each moved one
    seat on, kept for them; it starts when all have taken their seats. 201 for the
    offer, 200 with the table already offered."""
    made, table = services().tables.rematch(game_id, session_name(), body["contribution"])
    return table, 201 if made else 200


@bp.route("/tables/<table_id>/decline", methods=["POST"])
@bp.doc(security=BEARER)
@refusals(bp, {401: SESSION_REFUSED, 403: "not invited", 404: "no such table", 409: "the table is closed"})
@bp.alt_response(200, schema=OBJECT, description="the table after the invitation is declined", success=True)
def decline(table_id: str) -> JSON:
    """Decline an invitation to the table."""
    return services().tables.decline(table_id, session_name())
