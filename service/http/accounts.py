"""Accounts, sessions, seat claims, profiles and ratings over HTTP (thin routes).

A session token travels only in ``Authorization: Bearer``; claiming a seat sends the
seat's token in the body, so one request carries both without either in a URL.
"""

from __future__ import annotations

from flask import request
from marshmallow import Schema, fields, validate

from events.shapes import JSON
from projections.games import get as get_game
from projections.games import registry
from service.http.blueprints import Blueprint
from service.http.limits import client_address
from service.http.openapi import BEARER, OBJECT, SESSION_REFUSED, refusals
from service.http.schemas import name_text
from service.services import profiles
from service.services.accounts import MAX_NAME, MAX_PASSWORD, MIN_PASSWORD
from service.services.callers import bearer_token
from service.services.errors import NotFound
from service.wiring import services

bp = Blueprint("accounts", __name__, url_prefix="/api", description="Accounts, sessions, profiles and ratings")


class CredentialsSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=200))
    password = fields.String(required=True, validate=validate.Length(min=1, max=1024))


# A new password's bounds are checked on its NFKC form (400 ``bad_password``); the
# document states them on the characters sent, which is the same for all but a few.
NEW_PASSWORD = {"minLength": MIN_PASSWORD, "maxLength": MAX_PASSWORD}


class NewAccountSchema(CredentialsSchema):
    name = fields.String(
        required=True,
        validate=validate.Length(min=1, max=200),  # beyond MAX_NAME the service answers bad_name
        metadata={**name_text(unsafe="/\\?#%", max_length=MAX_NAME), "maxLength": MAX_NAME},
    )
    password = fields.String(required=True, validate=validate.Length(min=1, max=1024), metadata=NEW_PASSWORD)


class PasswordChangeSchema(Schema):
    old = fields.String(required=True, validate=validate.Length(min=1, max=1024))
    new = fields.String(required=True, validate=validate.Length(min=1, max=1024), metadata=NEW_PASSWORD)


class ClaimSchema(Schema):
    seat_token = fields.String(required=True, validate=validate.Length(min=1, max=200))


class LeaderboardQuerySchema(Schema):
    min_games = fields.Integer(load_default=1, validate=validate.Range(min=0, max=10_000))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=500))


def session_name() -> str:
    return services().accounts.session(bearer_token(request.headers))


@bp.route("/accounts", methods=["POST"])
@bp.arguments(NewAccountSchema)
@refusals(bp, {403: "a reserved name", 409: "the name (or one that looks like it) is taken"})
@bp.alt_response(
    201, schema=OBJECT, description="the account: name, created_at and its first session token (once)", success=True
)
def create_account(body: JSON) -> tuple[JSON, int]:
    """Create an account; answers its first session token (once)."""
    return services().accounts.create(body["name"], body["password"]), 201


@bp.route("/sessions", methods=["POST"])
@bp.arguments(CredentialsSchema)
@refusals(bp, {401: "wrong name or password (which one is not said)"})
@bp.alt_response(201, schema=OBJECT, description="a new session: name and token (once)", success=True)
def login(body: JSON) -> tuple[JSON, int]:
    """Log in: a new session token (rate-limited per client, and failed logins per
    account name: 429 before any password is checked)."""
    return services().accounts.login(body["name"], body["password"], client_address()), 201


@bp.route("/sessions/current", methods=["DELETE"])
@bp.doc(security=BEARER)
@refusals(bp, {401: SESSION_REFUSED})
@bp.alt_response(200, schema=OBJECT, description="the session revoked: name, revoked", success=True)
def logout() -> JSON:
    """Log out: revoke this session token."""
    return services().accounts.logout(bearer_token(request.headers))


@bp.route("/sessions", methods=["DELETE"])
@bp.doc(security=BEARER)
@refusals(bp, {401: SESSION_REFUSED})
@bp.alt_response(
    200, schema=OBJECT, description="every session of the account revoked: name, revoked (how many)", success=True
)
def logout_all() -> JSON:
    """Log out everywhere: revoke every session of the account."""
    return services().accounts.logout_all(bearer_token(request.headers))


@bp.route("/me")
@bp.doc(security=BEARER)
@refusals(bp, {401: SESSION_REFUSED})
@bp.alt_response(200, schema=OBJECT, description="the logged-in account: name, created_at", success=True)
def me() -> JSON:
    """The account the session belongs to."""
    name = session_name()
    record = services().accounts.require(name)
    return {"name": record["name"], "created_at": record["created_at"]}


@bp.route("/me/password", methods=["POST"])
@bp.arguments(PasswordChangeSchema)
@bp.doc(security=BEARER)
@refusals(bp, {401: "no session, or the current password is not right"})
@bp.alt_response(
    200,
    schema=OBJECT,
    description="the password changed: name, a fresh session token (once), revoked (every other session)",
    success=True,
)
def change_password(body: JSON) -> JSON:
    """Change the password (the current one is asked); every session ends and a fresh
    one is answered (rate-limited like logging in)."""
    return services().accounts.change_password(
        bearer_token(request.headers), body["old"], body["new"], client_address()
    )


@bp.route("/games/<game_id>/claim", methods=["POST"])
@bp.arguments(ClaimSchema)
@bp.doc(security=BEARER)
@refusals(
    bp,
    {
        401: SESSION_REFUSED,
        403: "not a seat token of this game",
        404: "no such game",
        409: "the seat is bound to another account, or the account holds another seat",
    },
)
@bp.alt_response(
    201,
    schema=OBJECT,
    description="the seat bound: game_id, seat, account, seq, and seat_token: the seat's new token",
    success=True,
)
@bp.alt_response(
    200,
    schema=OBJECT,
    description="the seat was already bound to this account (a new seat_token all the same)",
    success=True,
)
def claim_seat(body: JSON, game_id: str) -> tuple[JSON, int]:
    """Bind the seat whose token is sent to the logged-in account (a ``seat.bound``
    entry in the game's log); 200 if it already is."""
    name = session_name()
    bound_now, answer = services().bindings.claim(game_id, name, body["seat_token"])
    return answer, 201 if bound_now else 200


@bp.route("/games/<game_id>/rating", methods=["POST"])
@refusals(bp, {404: "no such game", 409: "unranked, not finished, or already rated"})
@bp.alt_response(
    201, schema=OBJECT, description="the game's result recorded in the ratings: game_id, head", success=True
)
def rate_game(game_id: str) -> tuple[JSON, int]:
    """Record a finished ranked game in the ratings (done by itself when the game ends;
    this recovers a lost write). 409 when unranked, not rateable or already rated."""
    return services().ratings.rate(game_id), 201


@bp.route("/accounts/<name>")
@refusals(bp, {404: "no such account"})
@bp.alt_response(
    200,
    schema=OBJECT,
    description="the profile: ratings per game (with history), games, annotations (docs/RATINGS.md)",
    success=True,
)
def profile(name: str) -> JSON:
    """An account's profile: rating per game with its history, games, annotations."""
    built = services()
    return profiles.profile(built.accounts, built.store, built.notes, built.ratings, name)


@bp.route("/ratings")
@bp.alt_response(
    200,
    schema=OBJECT,
    description="every live rating: {parameters, ratings: {game: {account: [mu, sigma, games]}}, results}",
    success=True,
)
def all_ratings() -> JSON:
    """Every live rating ({game: {account: [mu, sigma, games]}}): what
    ``python -m service verify-ratings`` compares with its recomputation."""
    return services().ratings.everything()


@bp.route("/ratings/<game>")
@bp.arguments(LeaderboardQuerySchema, location="query")
@bp.alt_response(
    200,
    schema=OBJECT,
    description="the game's leaderboard: players (rank, name, rating, mu, sigma, games, provisional, opponents, seeds), parameters",
    success=True,
)
def leaderboard(query: JSON, game: str) -> JSON:
    """A game's leaderboard: accounts with at least ``min_games`` rated games, those
    whose rating seeds tournaments first, each part best first; ratings from fewer
    than the provisional count are marked."""
    if get_game(game) is None:
        raise NotFound("unknown_game", f"no game called {game!r}", {"known": sorted(registry())})
    return services().ratings.leaderboard(game, query["min_games"], query["limit"])
