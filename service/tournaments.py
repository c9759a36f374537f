"""Tournaments API and pages: parse (marshmallow) -> the tournament service -> JSON.

Callers: ``Authorization: Bearer <director_token>`` acts as the director; a player's
token (answered once at registration) identifies that player; no token = public.
"""

from __future__ import annotations

import re

from flask import Blueprint, Response, current_app, render_template, request
from marshmallow import Schema, ValidationError, fields, validate

from events.envelope import canonical_json

from . import json_input
from .api_schemas import StrictBoolean
from .callers import bearer_token
from .errors import ApiError
from .tournament_bundle import build_bundle
from .tournament_service import DIRECTOR, Tournaments

bp = Blueprint("tournaments", __name__, template_folder="templates", static_folder=None)


def _not_blank(value: str) -> None:
    if not value.strip():
        raise ValidationError("must not be blank")


class CreateSchema(Schema):
    game = fields.String(required=True)
    name = fields.String(required=True, validate=[validate.Length(min=1, max=200), _not_blank])
    options = fields.Dict(load_default=dict)


class RegisterSchema(Schema):
    """A name; or none, with ``Authorization: Bearer <session token>``: the account registers as itself."""

    name = fields.String(load_default=None, validate=[validate.Length(min=1, max=60), _not_blank])


class RegistrationSchema(Schema):
    open = StrictBoolean(required=True)
    reason = fields.String(load_default="", validate=validate.Length(max=500))


class WithdrawSchema(Schema):
    reason = fields.String(load_default="", validate=validate.Length(max=500))
    bot = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(min=1, max=3))
    """A computer of this strength plays the player's unfinished games on (the seat still
    ranks last) instead of forfeiting them, so the other players' games go on."""


class PairSchema(Schema):
    bye_computer = fields.Integer(
        strict=True, load_default=None, allow_none=True, validate=validate.Range(min=1, max=3)
    )
    """A computer of this strength fills each bye: the players who would sit out play it
    (their result counts as any game's; docs/TOURNAMENTS.md)."""


class ReportSchema(Schema):
    game_id = fields.String(required=True, validate=validate.Length(min=1, max=64))


class FinishSchema(Schema):
    reason = fields.String(load_default="ended by the director", validate=validate.Length(max=500))


def service() -> Tournaments:
    return current_app.extensions["tournaments"]


def bearer() -> str | None:
    return bearer_token(request.headers)


def body(schema: type[Schema]) -> dict:
    raw = request.get_data()
    try:
        data = json_input.loads(raw) if raw.strip() else {}
    except json_input.MalformedJSON as exc:
        raise ApiError(400, "malformed", f"the body is not valid JSON: {exc.msg}") from exc
    if not isinstance(data, dict):
        raise ApiError(400, "bad_request", "the body must be a JSON object")
    try:
        return schema().load(data)
    except ValidationError as exc:
        raise ApiError(400, "bad_request", "the request fails its schema", exc.messages) from exc


# -- API ---------------------------------------------------------------------------------
@bp.post("/api/tournaments")
def create():
    return service().create(body(CreateSchema)), 201


@bp.get("/api/tournaments")
def list_tournaments():
    return {"tournaments": service().list()}


@bp.get("/api/tournaments/<tid>")
def get(tid):
    svc = service()
    return svc.summary(tid, svc.sync(tid))


@bp.post("/api/tournaments/<tid>/players")
def register(tid):
    data, token = body(RegisterSchema), bearer()
    if token:  # a logged-in player registers as their account
        account = current_app.extensions["platform"].accounts.session(token)
        return service().register(tid, account, account=account), 201
    if data["name"] is None:
        raise ApiError(400, "bad_request", "the request fails its schema", {"name": ["a name, or log in"]})
    return service().register(tid, data["name"]), 201


@bp.post("/api/tournaments/<tid>/registration")
def registration(tid):
    """The director opens or closes registration."""
    svc = service()
    svc.require_director(tid, bearer())
    wanted = body(RegistrationSchema)
    return svc.set_registration(tid, wanted["open"], wanted["reason"])


@bp.delete("/api/tournaments/<tid>/players/<pid>")
def withdraw(tid, pid):
    data = body(WithdrawSchema)
    return service().withdraw(tid, pid, bearer(), data["reason"], bot=data["bot"])


@bp.get("/api/tournaments/<tid>/players/<pid>/games")
def player_games(tid, pid):
    """A player's seat links (their own token or the director's)."""
    svc = service()
    svc.events(tid)
    role, own = svc.role(tid, bearer())
    if role == "public":
        raise ApiError(401, "no_token", "the player's own token or the director's is needed")
    if role != "director" and own != pid:
        raise ApiError(403, "not_your_player", "a player sees only their own seat links")
    return svc.my_games(tid, pid)


@bp.post("/api/tournaments/<tid>/rounds")
def pair(tid):
    svc = service()
    svc.require_director(tid, bearer())
    return svc.pair(tid, body(PairSchema)["bye_computer"]), 201


@bp.get("/api/tournaments/<tid>/rounds/<int:number>")
def round_pairings(tid, number):
    svc = service()
    svc.sync(tid)
    role, pid = svc.role(tid, bearer())
    return svc.round_view(tid, number, role, pid)


@bp.post("/api/tournaments/<tid>/results")
def report(tid):
    """Ask the tournament to take a finished game's result (read from the game itself)."""
    return service().report(tid, body(ReportSchema)["game_id"]), 201


@bp.post("/api/tournaments/<tid>/finish")
def finish(tid):
    svc = service()
    svc.require_director(tid, bearer())
    state = svc.sync(tid)
    if state["status"] != "finished":
        state = svc.finish(tid, body(FinishSchema)["reason"], DIRECTOR)
    return svc.summary(tid, state)


@bp.get("/api/tournaments/<tid>/standings")
def standings(tid):
    return service().standings(tid)


@bp.get("/api/tournaments/<tid>/export")
def export(tid):
    """The audit bundle: the tournament stream, every game's log (seeds once finished)
    and a manifest of chain heads; ``python -m service verify-tournament`` checks it."""
    bundle = build_bundle(service(), tid)
    return Response(
        canonical_json(bundle),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="tournament-{tid}.json"'},
    )


# -- OpenAPI -----------------------------------------------------------------------------
def _op(
    summary: str,
    ok: int = 200,
    body: str | None = None,
    auth: str | None = None,
    errors=(404,),
    body_required: bool = True,
) -> dict:
    op = {
        "tags": ["tournaments"],
        "summary": summary,
        "responses": {
            str(ok): {"description": "OK"},
            **{str(code): {"description": "error: {error: {code, message, details}}"} for code in errors},
        },
    }
    if body:
        op["requestBody"] = {
            "required": body_required,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{body}"}}},
        }
    if auth:
        op["description"] = f"Authorization: Bearer <{auth}>"
    return op


OPENAPI_PATHS = {
    "/api/tournaments": {
        "post": _op("Create a tournament; answers the director token once", 201, "TournamentCreate", errors=(400,)),
        "get": _op("List tournaments", errors=()),
    },
    "/api/tournaments/{tid}": {"get": _op("The tournament: players, rounds, results")},
    "/api/tournaments/{tid}/players": {
        "post": _op(
            "Register a player; answers the player token once", 201, "TournamentRegister", errors=(400, 404, 409)
        )
    },
    "/api/tournaments/{tid}/registration": {
        "post": _op(
            "Open or close registration", 200, "TournamentRegistration", "director token", (400, 401, 403, 404, 409)
        )
    },
    "/api/tournaments/{tid}/players/{pid}": {
        "delete": _op(
            "Withdraw a player (forfeits their game in play, or a computer plays it on)",
            200,
            "TournamentWithdraw",
            "director or player token",
            (400, 401, 403, 404, 409),
            body_required=False,
        )
    },
    "/api/tournaments/{tid}/players/{pid}/games": {
        "get": _op("A player's games and seat links", 200, None, "player or director token", (401, 403, 404))
    },
    "/api/tournaments/{tid}/rounds": {
        "post": _op("Pair the next round and create its games", 201, None, "director token", (401, 403, 404, 409))
    },
    "/api/tournaments/{tid}/rounds/{number}": {
        "get": _op("A round's pairings (seat links for the director and the caller's own seat)")
    },
    "/api/tournaments/{tid}/results": {
        "post": _op(
            "Take a finished game's result into the tournament", 201, "TournamentReport", errors=(400, 404, 409, 422)
        )
    },
    "/api/tournaments/{tid}/finish": {
        "post": _op(
            "End the tournament",
            200,
            "TournamentFinish",
            "director token",
            (400, 401, 403, 404, 409),
            body_required=False,
        )
    },
    "/api/tournaments/{tid}/standings": {"get": _op("Standings with tie-breaks")},
    "/api/tournaments/{tid}/export": {"get": _op("The audit bundle (verify with python -m service verify-tournament)")},
}


@bp.record_once
def _document(setup_state) -> None:
    """Add the tournament routes to the app's OpenAPI document (flask-smorest's spec)."""
    apis = setup_state.app.extensions.get("flask-smorest", {}).get("apis", {})
    smorest = next((entry.get("ext_obj") for entry in apis.values()), None)
    if smorest is None:
        return
    spec = smorest.spec
    spec.tag({"name": "tournaments", "description": "Tournaments: registration, pairing, standings, audit bundle"})
    for name, schema in (
        ("TournamentCreate", CreateSchema),
        ("TournamentRegister", RegisterSchema),
        ("TournamentReport", ReportSchema),
        ("TournamentFinish", FinishSchema),
        ("TournamentRegistration", RegistrationSchema),
        ("TournamentWithdraw", WithdrawSchema),
    ):
        spec.components.schema(name, schema=schema)
    rules = {
        _openapi_path(r.rule): r
        for r in setup_state.app.url_map.iter_rules()
        if r.endpoint.startswith(f"{bp.name}.") and r.rule.startswith("/api/")
    }
    for path, operations in OPENAPI_PATHS.items():
        if path in rules:
            spec.path(rule=rules[path], operations=operations)


def _openapi_path(rule: str) -> str:
    return re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule)


# -- pages -------------------------------------------------------------------------------
def _page(template: str, title: str, **context):
    html = render_template(template, title=title, **context)
    return (
        html,
        200,
        {"Referrer-Policy": "no-referrer", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"},
    )


@bp.get("/tournaments")
def page_list():
    return _page("tournaments/list.html", "Tournaments", page="list")


@bp.get("/tournaments/<tid>")
def page_detail(tid):
    return _page("tournaments/detail.html", "Tournament", page="detail", tid=tid)
