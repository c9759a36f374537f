"""Accounts, sessions, seat claims, profiles and ratings over HTTP (thin routes).

A session token travels only in ``Authorization: Bearer``; claiming a seat sends the
seat's token in the body, so one request carries both without either in a URL.
"""

from __future__ import annotations

import json

from flask import request
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from events import keys
from projections.games import get as get_game
from projections.games import registry
from projections.ratings import PROVISIONAL_GAMES
from service.http.games import BadRequestParser
from service.http.openapi import BEARER, SESSION_REFUSED, refusals
from service.services import bindings
from service.services.callers import bearer_token
from service.services.errors import NotFound
from service.services.games import Platform
from service.wiring import services

bp = Blueprint("accounts", __name__, url_prefix="/api", description="Accounts, sessions, profiles and ratings")
bp.ARGUMENTS_PARSER = BadRequestParser()


class CredentialsSchema(Schema):
    name = fields.String(required=True, validate=validate.Length(min=1, max=200))
    password = fields.String(required=True, validate=validate.Length(min=1, max=1024))


class PasswordChangeSchema(Schema):
    old = fields.String(required=True, validate=validate.Length(min=1, max=1024))
    new = fields.String(required=True, validate=validate.Length(min=1, max=1024))


class ClaimSchema(Schema):
    seat_token = fields.String(required=True, validate=validate.Length(min=1, max=200))


class LeaderboardQuerySchema(Schema):
    min_games = fields.Integer(load_default=1, validate=validate.Range(min=0, max=10_000))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=500))


def platform() -> Platform:
    return services().platform


def session_name() -> str:
    return platform().accounts.session(bearer_token(request.headers))


@bp.route("/accounts", methods=["POST"])
@bp.arguments(CredentialsSchema)
@refusals(bp, {403: "a reserved name", 409: "the name (or one that looks like it) is taken"})
def create_account(body):
    """Create an account; answers its first session token (once)."""
    return platform().accounts.create(body["name"], body["password"]), 201


@bp.route("/sessions", methods=["POST"])
@bp.arguments(CredentialsSchema)
@refusals(bp, {401: "wrong name or password (which one is not said)"})
def login(body):
    """Log in: a new session token (rate-limited per client, and failed logins per
    account name: 429 before any password is checked)."""
    return platform().accounts.login(body["name"], body["password"]), 201


@bp.route("/sessions/current", methods=["DELETE"])
@bp.doc(security=BEARER)
@refusals(bp, {401: SESSION_REFUSED})
def logout():
    """Log out: revoke this session token."""
    return platform().accounts.logout(bearer_token(request.headers))


@bp.route("/sessions", methods=["DELETE"])
@bp.doc(security=BEARER)
@refusals(bp, {401: SESSION_REFUSED})
def logout_all():
    """Log out everywhere: revoke every session of the account."""
    return platform().accounts.logout_all(bearer_token(request.headers))


@bp.route("/me")
@bp.doc(security=BEARER)
@refusals(bp, {401: SESSION_REFUSED})
def me():
    """The account the session belongs to."""
    name = session_name()
    record = platform().accounts.require(name)
    return {"name": record["name"], "created_at": record["created_at"]}


@bp.route("/me/password", methods=["POST"])
@bp.arguments(PasswordChangeSchema)
@bp.doc(security=BEARER)
@refusals(bp, {401: "no session, or the current password is not right"})
def change_password(body):
    """Change the password (the current one is asked); every session ends and a fresh
    one is answered (rate-limited like logging in)."""
    return platform().accounts.change_password(bearer_token(request.headers), body["old"], body["new"])


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
def claim_seat(body, game_id):
    """Bind the seat whose token is sent to the logged-in account (a ``seat.bound``
    entry in the game's log); 200 if it already is."""
    name = session_name()
    bound_now, answer = bindings.claim(platform(), game_id, name, body["seat_token"])
    return answer, 201 if bound_now else 200


@bp.route("/games/<game_id>/rating", methods=["POST"])
@refusals(bp, {404: "no such game", 409: "unranked, not finished, or already rated"})
def rate_game(game_id):
    """Record a finished ranked game in the ratings (done by itself when the game ends;
    this recovers a lost write). 409 when unranked, not rateable or already rated."""
    return platform().ratings.rate(platform(), game_id), 201


@bp.route("/accounts/<name>")
@refusals(bp, {404: "no such account"})
def profile(name):
    """An account's profile: rating per game with its history, games, annotations."""
    p = platform()
    record = p.accounts.require(name)
    name = record["name"]
    game_ids = p.accounts.games(name, limit=100)
    games, notes = [], []
    for game_id, raw in zip(game_ids, p._summaries(game_ids)):
        summary = json.loads(raw) if raw else None
        if summary is None:
            continue
        seat = next((int(s) for s, a in (summary.get("accounts") or {}).items() if a == name), None)
        result = summary.get("result")
        games.append(
            {
                "id": game_id,
                "game": summary["game"],
                "title": summary["title"],
                "status": summary["status"],
                "seat": seat,
                "seats": summary["seats"],
                "ranked": summary["ranked"],
                "rank": result["ranking"][seat] if result and seat is not None else None,
                "replay": f"/games/{game_id}/replay",
                "created_at": summary["created_at"],
            }
        )
        for note_id, fields_ in p.redis.xrange(keys.notes(game_id), "-", "+", count=200):
            note = json.loads(fields_["n"])
            if note.get("role") == "seat" and note.get("seat") == seat and seat is not None:
                notes.append(
                    {
                        "id": note_id,
                        "game_id": game_id,
                        "seq": note["seq"],
                        "kind": note["kind"],
                        "text": note["text"],
                        "ts": note["ts"],
                    }
                )
    return {
        "name": name,
        "created_at": record["created_at"],
        "ratings": p.ratings.of_account(name),
        "games": games,
        "annotations": notes,
        "provisional_below_games": PROVISIONAL_GAMES,
    }


@bp.route("/ratings")
def all_ratings():
    """Every live rating ({game: {account: [mu, sigma, games]}}): what
    ``python -m service verify-ratings`` compares with its recomputation."""
    return platform().ratings.everything()


@bp.route("/ratings/<game>")
@bp.arguments(LeaderboardQuerySchema, location="query")
def leaderboard(query, game):
    """A game's leaderboard: accounts with at least ``min_games`` rated games, best
    first; ratings from fewer than the provisional count are marked."""
    if get_game(game) is None:
        raise NotFound("unknown_game", f"no game called {game!r}", {"known": sorted(registry())})
    return platform().ratings.leaderboard(game, query["min_games"], query["limit"])
