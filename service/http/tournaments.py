"""Tournaments API and pages: parse (marshmallow) -> the tournament service -> JSON.

Callers: ``Authorization: Bearer <director_token>`` acts as the director; a player's
token (answered once at registration) identifies that player; no token = public.
The API is a flask-smorest blueprint like the games' (service/http/games.py): its bodies are
read by ``@bp.arguments`` and it is documented from the routes (service/http/openapi.py adds
the answers); the pages are a plain blueprint.
"""

from __future__ import annotations

from functools import wraps

from flask import Blueprint as PageBlueprint
from flask import Response, render_template, request
from flask_smorest import Blueprint
from marshmallow import Schema, ValidationError, fields, validate
from webargs import core as webargs_core

from events.envelope import canonical_json
from service.audit.bundles import build_bundle
from service.http import json_input
from service.http.games import BadRequestParser
from service.http.openapi import BEARER, BEARER_OR_NONE, refusals
from service.http.schemas import StrictBoolean
from service.services.callers import bearer_token
from service.services.errors import Forbidden, Invalid, Unauthenticated
from service.services.tournaments import DIRECTOR
from service.wiring import services


class TournamentBodyParser(BadRequestParser):
    """The tournaments' body rules: a body is read as JSON whatever its content type,
    an empty one is ``{}``, anything but an object is refused, and a schema's refusal
    names the fields at the top of ``details`` (``{"name": [...]}``)."""

    def load_json(self, req, schema):
        raw = req.get_data(cache=True)
        if not raw.strip():
            return webargs_core.missing
        try:
            data = json_input.loads(raw)
        except json_input.MalformedJSON as exc:
            raise Invalid("malformed", f"the body is not valid JSON: {exc.msg}") from exc
        if not isinstance(data, dict):
            raise Invalid("bad_request", "the body must be a JSON object")
        return data

    def handle_error(self, error, req, schema, *, error_status_code, error_headers):
        messages = error.messages
        if isinstance(messages, dict) and set(messages) == {"json"}:  # webargs files them under the location
            messages = messages["json"]
        raise Invalid("bad_request", "the request fails its schema", messages) from error


bp = Blueprint(
    "tournaments",
    __name__,
    url_prefix="/api",
    description="Tournaments: registration, pairing, standings, audit bundle",
)
bp.ARGUMENTS_PARSER = TournamentBodyParser()
pages = PageBlueprint("tournament_pages", __name__, static_folder=None)

_ERRORS = {
    400: "the body is not valid JSON (`malformed`) or fails its schema (`bad_request`, field by field in details)",
    401: "no token, or one that is not valid here",
    403: "the token is not the one this needs",
    404: "no such tournament (or player, or round)",
    409: "not now: the tournament's state refuses it",
    422: "the game named is not one of this tournament's, or not finished",
}


def director_first(view):
    """The director's token is checked before the body is read: without it the answer is
    401/403 whatever the body holds."""

    @wraps(view)
    def checked(*args, **kwargs):
        services().tournaments.require_director(kwargs["tid"], bearer())
        return view(*args, **kwargs)

    return checked


def errors(*codes: int):
    """Document the error answers a route gives (the ``{"error": {...}}`` body)."""

    return refusals(bp, {code: _ERRORS[code] for code in codes})


def _not_blank(value: str) -> None:
    if not value.strip():
        raise ValidationError("must not be blank")


class TournamentCreateSchema(Schema):
    game = fields.String(required=True)
    name = fields.String(required=True, validate=[validate.Length(min=1, max=200), _not_blank])
    options = fields.Dict(load_default=dict)


class TournamentRegisterSchema(Schema):
    """A name; or none, with ``Authorization: Bearer <session token>``: the account registers as itself."""

    name = fields.String(load_default=None, validate=[validate.Length(min=1, max=60), _not_blank])


class TournamentRegistrationSchema(Schema):
    open = StrictBoolean(required=True)
    reason = fields.String(load_default="", validate=validate.Length(max=500))


class TournamentWithdrawSchema(Schema):
    reason = fields.String(load_default="", validate=validate.Length(max=500))
    bot = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=3))
    """A computer of this strength plays the player's unfinished games on (the seat still
    ranks last) instead of forfeiting them, so the other players' games go on."""


class TournamentPairSchema(Schema):
    bye_computer = fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=validate.Range(min=1, max=3)
    )
    """A computer of this strength fills each bye: the players who would sit out play it
    (their result counts as any game's; docs/TOURNAMENTS.md)."""


class TournamentReportSchema(Schema):
    game_id = fields.String(required=True, validate=validate.Length(min=1, max=64))


class TournamentFinishSchema(Schema):
    reason = fields.String(load_default="ended by the director", validate=validate.Length(max=500))


def bearer() -> str | None:
    return bearer_token(request.headers)


# -- API ---------------------------------------------------------------------------------
@bp.route("/tournaments", methods=["POST"])
@bp.arguments(TournamentCreateSchema)
@errors(400)
def create(body):
    """Create a tournament; answers the director token once."""
    return services().tournaments.create(body), 201


@bp.route("/tournaments")
def list_tournaments():
    """List tournaments."""
    return {"tournaments": services().tournaments.list()}


@bp.route("/tournaments/<tid>")
@errors(404)
def get(tid):
    """The tournament: players, rounds, results."""
    tournaments = services().tournaments
    return tournaments.summary(tid, tournaments.sync(tid))


@bp.route("/tournaments/<tid>/players", methods=["POST"])
@bp.arguments(TournamentRegisterSchema)
@bp.doc(security=BEARER_OR_NONE)
@errors(400, 401, 404, 409)
def register(body, tid):
    """Register a player; answers the player token once.

    With ``Authorization: Bearer <session token>`` the logged-in account registers as itself."""
    token = bearer()
    if token:  # a logged-in player registers as their account
        account = services().platform.accounts.session(token)
        return services().tournaments.register(tid, account, account=account), 201
    if body["name"] is None:
        raise Invalid("bad_request", "the request fails its schema", {"name": ["a name, or log in"]})
    return services().tournaments.register(tid, body["name"]), 201


@bp.route("/tournaments/<tid>/registration", methods=["POST"])
@director_first
@bp.arguments(TournamentRegistrationSchema)
@bp.doc(security=BEARER)
@errors(400, 401, 403, 404, 409)
def registration(body, tid):
    """Open or close registration.

    Authorization: Bearer <director token>"""
    return services().tournaments.set_registration(tid, body["open"], body["reason"])


@bp.route("/tournaments/<tid>/players/<pid>", methods=["DELETE"])
@bp.arguments(TournamentWithdrawSchema, required=False)
@bp.doc(security=BEARER)
@errors(400, 401, 403, 404, 409)
def withdraw(body, tid, pid):
    """Withdraw a player (forfeits their game in play, or a computer plays it on).

    Authorization: Bearer <director or player token>"""
    return services().tournaments.withdraw(tid, pid, bearer(), body["reason"], bot=body["bot"])


@bp.route("/tournaments/<tid>/players/<pid>/games")
@bp.doc(security=BEARER)
@errors(401, 403, 404)
def player_games(tid, pid):
    """A player's games and seat links.

    Authorization: Bearer <player or director token>"""
    tournaments = services().tournaments
    tournaments.events(tid)
    role, own = tournaments.role(tid, bearer())
    if role == "public":
        raise Unauthenticated("no_token", "the player's own token or the director's is needed")
    if role != "director" and own != pid:
        raise Forbidden("not_your_player", "a player sees only their own seat links")
    return tournaments.my_games(tid, pid)


@bp.route("/tournaments/<tid>/rounds", methods=["POST"])
@director_first
@bp.arguments(TournamentPairSchema, required=False)
@bp.doc(security=BEARER)
@errors(400, 401, 403, 404, 409)
def pair(body, tid):
    """Pair the next round and create its games.

    Authorization: Bearer <director token>"""
    return services().tournaments.pair(tid, body["bye_computer"]), 201


@bp.route("/tournaments/<tid>/rounds/<int:number>")
@bp.doc(security=BEARER_OR_NONE)
@errors(401, 404)
def round_pairings(tid, number):
    """A round's pairings (seat links for the director and the caller's own seat)."""
    tournaments = services().tournaments
    tournaments.sync(tid)
    role, pid = tournaments.role(tid, bearer())
    return tournaments.round_view(tid, number, role, pid)


@bp.route("/tournaments/<tid>/results", methods=["POST"])
@bp.arguments(TournamentReportSchema)
@errors(400, 404, 409, 422)
def report(body, tid):
    """Take a finished game's result into the tournament (read from the game itself)."""
    return services().tournaments.report(tid, body["game_id"]), 201


@bp.route("/tournaments/<tid>/finish", methods=["POST"])
@director_first
@bp.arguments(TournamentFinishSchema, required=False)
@bp.doc(security=BEARER)
@errors(400, 401, 403, 404, 409)
def finish(body, tid):
    """End the tournament.

    Authorization: Bearer <director token>"""
    tournaments = services().tournaments
    state = tournaments.sync(tid)
    if state["status"] != "finished":
        state = tournaments.finish(tid, body["reason"], DIRECTOR)
    return tournaments.summary(tid, state)


@bp.route("/tournaments/<tid>/standings")
@errors(404)
def standings(tid):
    """Standings with tie-breaks."""
    return services().tournaments.standings(tid)


@bp.route("/tournaments/<tid>/export")
@errors(404)
def export(tid):
    """The audit bundle (verify with python -m service verify-tournament).

    The tournament stream, every game's log (seeds once finished) and a manifest of
    chain heads."""
    bundle = build_bundle(services().tournaments, tid)
    return Response(
        canonical_json(bundle),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="tournament-{tid}.json"'},
    )


# -- pages -------------------------------------------------------------------------------
def _page(template: str, title: str, **context):
    html = render_template(template, title=title, **context)
    return (
        html,
        200,
        {"Referrer-Policy": "no-referrer", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"},
    )


@pages.get("/tournaments")
def page_list():
    return _page("tournaments/list.html", "Tournaments", page="list")


@pages.get("/tournaments/<tid>")
def page_detail(tid):
    return _page("tournaments/detail.html", "Tournament", page="detail", tid=tid)
