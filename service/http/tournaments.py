"""Tournaments API and pages: parse (marshmallow) -> the tournament service -> JSON.

Callers: ``Authorization: Bearer <director_token>`` acts as the director; a player's
token (answered once at registration) identifies that player; no token = public.
The API is a flask-smorest blueprint like the games' (service/http/games.py): its bodies are
read by ``@bp.arguments`` and each route declares its answers (``@bp.alt_response``), from
which the OpenAPI document is generated; the pages are a plain blueprint.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar, cast

from flask import Blueprint as PageBlueprint
from flask import Response, render_template, request
from marshmallow import Schema, ValidationError, fields, validate

from events.envelope import canonical_json
from events.shapes import JSON
from events.strict_fields import StrictBoolean, StrictInteger
from projections.tournaments import feed_delay
from service.http import i18n
from service.http import responses as R
from service.http.blueprints import Blueprint
from service.http.openapi import BEARER, BEARER_OR_NONE, OBJECT, TEXT, refusals
from service.http.pages import Page
from service.http.schemas import NAME_TEXT
from service.metrics import TOURNAMENT_STEP
from service.services.callers import bearer_token
from service.services.errors import Forbidden, Unauthenticated
from service.services.tournaments import DIRECTOR
from service.wiring import services

_P = ParamSpec("_P")
_R = TypeVar("_R")
_F = TypeVar("_F", bound=Callable[..., Any])

bp = Blueprint(
    "tournaments",
    __name__,
    url_prefix="/api",
    description="Tournaments: registration, pairing, standings, audit bundle",
)
pages = PageBlueprint("tournament_pages", __name__, static_folder=None)

_ERRORS = {
    400: "the body is not valid JSON (`malformed`) or fails its schema (`bad_request`, field by field in details)",
    401: "no token, or one that is not valid here",
    403: "the token is not the one this needs",
    404: "no such tournament (or player, or round)",
    409: "not now: the tournament's state refuses it",
    422: "the game named is not one of this tournament's, or not finished",
}


def director_first(view: Callable[_P, _R]) -> Callable[_P, _R]:
    """The director's token is checked before the body is read: without it the answer is
    401/403 whatever the body holds."""

    @wraps(view)
    def checked(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        services().tournaments.require_director(cast(str, kwargs["tid"]), bearer())  # the route's <tid>
        return view(*args, **kwargs)

    return checked


def errors(*codes: int) -> Callable[[_F], _F]:
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

    name = fields.String(load_default=None, validate=[validate.Length(min=1, max=60), _not_blank], metadata=NAME_TEXT)


class TournamentRosterSchema(Schema):
    """The names of a pasted roster, one per player."""

    names = fields.List(
        fields.String(validate=[validate.Length(min=1, max=60), _not_blank], metadata=NAME_TEXT),
        required=True,
        validate=validate.Length(min=1, max=200),
    )


class TournamentRegistrationSchema(Schema):
    open = StrictBoolean(required=True)
    reason = fields.String(load_default="", validate=validate.Length(max=500))


def _a_delay(value: dict[str, Any]) -> None:
    try:
        feed_delay.parse(value)
    except feed_delay.DelayError as exc:
        raise ValidationError(exc.message) from exc


class FeedDelaySchema(Schema):
    delay = fields.Dict(keys=fields.String(), required=True, validate=_a_delay)
    reason = fields.String(load_default="", validate=validate.Length(max=500))


class TournamentWithdrawSchema(Schema):
    reason = fields.String(load_default="", validate=validate.Length(max=500))
    bot = StrictInteger(load_default=None, allow_none=True, validate=validate.Range(min=1, max=3))
    """A computer of this strength plays the player's unfinished games on (the seat still
    ranks last) instead of forfeiting them, so the other players' games go on."""


class TournamentPairSchema(Schema):
    bye_computer = StrictInteger(load_default=None, allow_none=True, validate=validate.Range(min=1, max=3))
    """A computer of this strength fills each bye: the players who would sit out play it
    (their result counts as any game's; docs/TOURNAMENTS.md)."""


class TournamentDirectorSchema(Schema):
    """The name of a co-director's link (who holds it), to list and revoke it by."""

    name = fields.String(required=True, validate=[validate.Length(min=1, max=40), _not_blank])


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
@bp.alt_response(201, schema=R.TournamentCreatedSchema, success=True)
def create(body: JSON) -> tuple[JSON, int]:
    """Create a tournament; answers the director token once."""
    created = services().tournaments.create(body)
    TOURNAMENT_STEP["created"].inc()
    return created, 201


@bp.route("/tournaments")
@bp.alt_response(200, schema=R.TournamentListSchema, success=True)
def list_tournaments() -> JSON:
    """List tournaments."""
    return {"tournaments": services().tournaments.list()}


@bp.route("/tournaments/<tid>")
@errors(404)
@bp.alt_response(200, schema=R.TournamentSummarySchema, success=True)
def get(tid: str) -> JSON:
    """The tournament: players, rounds, results."""
    tournaments = services().tournaments
    return tournaments.summary(tid, tournaments.sync(tid))


@bp.route("/tournaments/<tid>/players", methods=["POST"])
@bp.arguments(TournamentRegisterSchema)
@bp.doc(security=BEARER_OR_NONE)
@errors(400, 401, 404, 409)
@bp.alt_response(201, schema=R.RegisteredSchema, success=True)
def register(body: JSON, tid: str) -> tuple[JSON, int]:
    """Register a player; answers the player token once.

    With ``Authorization: Bearer <session token>`` the logged-in account registers as itself."""
    token = bearer()
    if token:  # a logged-in player registers as their account
        account = services().accounts.session(token)
        return services().tournaments.register(tid, account, account=account), 201
    if body["name"] is None:
        raise Unauthenticated("no_session", "give a name, or log in first: 'Authorization: Bearer <session token>'")
    return services().tournaments.register(tid, body["name"]), 201


@bp.route("/tournaments/<tid>/roster", methods=["POST"])
@director_first
@bp.arguments(TournamentRosterSchema)
@bp.doc(security=BEARER)
@errors(400, 401, 403, 404, 409)
@bp.alt_response(
    201,
    schema=R.RosterSchema,
    description="the players registered (each token answered once) and the names refused",
    success=True,
)
def roster(body: dict[str, Any], tid: str) -> tuple[dict[str, Any], int]:
    """The director registers players on their behalf (a pasted roster of names).

    Answers each registered player's token once, and the names refused with why.
    Authorization: Bearer <director token>"""
    done = services().tournaments.register_roster(tid, body["names"])
    for refused in done["refused"]:  # each in the request's language, as a refusal's message is
        refused["message"] = i18n.localize_error(refused["code"], refused["message"], 409)
    return done, 201


@bp.route("/tournaments/<tid>/registration", methods=["POST"])
@director_first
@bp.arguments(TournamentRegistrationSchema)
@bp.doc(security=BEARER)
@errors(400, 401, 403, 404, 409)
@bp.alt_response(200, schema=R.RegistrationSchema, success=True)
def registration(body: JSON, tid: str) -> JSON:
    """Open or close registration.

    Authorization: Bearer <director token>"""
    return services().tournaments.set_registration(tid, body["open"], body["reason"])


@bp.route("/tournaments/<tid>/feed-delay", methods=["POST"])
@director_first
@bp.arguments(FeedDelaySchema)
@bp.doc(security=BEARER)
@errors(400, 401, 403, 404, 409)
@bp.alt_response(
    200, schema=OBJECT, description="the delay in force and every change of it (who, when, why)", success=True
)
def set_feed_delay(body: JSON, tid: str) -> JSON:
    """Set the omniscient feed's delay: ``{"entries": N}``, ``{"minutes": M}`` or ``{"after_game": true}``.

    Authorization: Bearer <director token>"""
    return services().tournaments.set_feed_delay(tid, body["delay"], body["reason"])


@bp.route("/tournaments/<tid>/feed-delay")
@errors(404)
@bp.alt_response(
    200, schema=OBJECT, description="the delay in force and every change of it (who, when, why)", success=True
)
def feed_delay_audit(tid: str) -> JSON:
    """The omniscient feed's delay in force and every change of it (who, when, why)."""
    return services().broadcast.delay(tid)


@bp.route("/tournaments/<tid>/games/<game_id>/omniscient")
@errors(404)
@bp.alt_response(
    200,
    schema=OBJECT,
    description="the referee's view at the latest seq the delay allows (null while it holds all back), signed",
    success=True,
)
def omniscient(tid: str, game_id: str) -> JSON:
    """A game's full state (hands, roles, votes) as it stood before the director's delay,
    signed by the server's key (``position`` is null while the delay holds everything back)."""
    return services().broadcast.frame(tid, game_id, time.time())


@bp.route("/tournaments/<tid>/players/<pid>", methods=["DELETE"])
@bp.arguments(TournamentWithdrawSchema, required=False)
@bp.doc(security=BEARER)
@errors(400, 401, 403, 404, 409)
@bp.alt_response(200, schema=R.WithdrawnSchema, success=True)
def withdraw(body: JSON, tid: str, pid: str) -> JSON:
    """Withdraw a player (forfeits their game in play, or a computer plays it on).

    Authorization: Bearer <director or player token>"""
    return services().tournaments.withdraw(tid, pid, bearer(), body["reason"], bot=body["bot"])


@bp.route("/tournaments/<tid>/players/<pid>/games")
@bp.doc(security=BEARER)
@errors(401, 403, 404)
@bp.alt_response(200, schema=R.PlayerGamesSchema, success=True)
def player_games(tid: str, pid: str) -> JSON:
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
@bp.alt_response(201, schema=R.RoundSchema, success=True)
def pair(body: JSON, tid: str) -> tuple[JSON, int]:
    """Pair the next round and create its games.

    Authorization: Bearer <director token>"""
    paired = services().tournaments.pair(tid, body["bye_computer"])
    TOURNAMENT_STEP["round_paired"].inc()
    return paired, 201


@bp.route("/tournaments/<tid>/rounds/<int:number>")
@bp.doc(security=BEARER_OR_NONE)
@errors(401, 404)
@bp.alt_response(200, schema=R.RoundSchema, success=True)
def round_pairings(tid: str, number: int) -> JSON:
    """A round's pairings (seat links for the director and the caller's own seat)."""
    tournaments = services().tournaments
    tournaments.sync(tid)
    role, pid = tournaments.role(tid, bearer())
    return tournaments.round_view(tid, number, role, pid)


@bp.route("/tournaments/<tid>/results", methods=["POST"])
@bp.arguments(TournamentReportSchema)
@errors(400, 404, 409, 422)
@bp.alt_response(201, schema=R.TableSchema, success=True)
def report(body: JSON, tid: str) -> tuple[JSON, int]:
    """Take a finished game's result into the tournament (read from the game itself)."""
    return services().tournaments.report(tid, body["game_id"]), 201


@bp.route("/tournaments/<tid>/finish", methods=["POST"])
@director_first
@bp.arguments(TournamentFinishSchema, required=False)
@bp.doc(security=BEARER)
@errors(400, 401, 403, 404, 409)
@bp.alt_response(200, schema=R.TournamentSummarySchema, success=True)
def finish(body: JSON, tid: str) -> JSON:
    """End the tournament.

    Authorization: Bearer <director token>"""
    tournaments = services().tournaments
    state = tournaments.sync(tid)
    if state["status"] != "finished":
        state = tournaments.finish(tid, body["reason"], DIRECTOR)
        TOURNAMENT_STEP["finished"].inc()
    return tournaments.summary(tid, state)


@bp.route("/tournaments/<tid>/standings")
@errors(404)
@bp.alt_response(200, schema=R.StandingsSchema, success=True)
def standings(tid: str) -> JSON:
    """Standings with tie-breaks."""
    return services().tournaments.standings(tid)


@bp.route("/tournaments/<tid>/standings.csv")
@errors(404)
@bp.alt_response(
    200,
    schema=TEXT,
    content_type="text/csv",
    description="a header row, then one row per player, best first",
    success=True,
)
def standings_csv(tid: str) -> Response:
    """Standings with tie-breaks as CSV (one row per player, best first)."""
    return Response(
        services().tournaments.standings_csv(tid),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="standings-{tid}.csv"'},
    )


@bp.route("/tournaments/<tid>/disputes")
@errors(404)
@bp.alt_response(200, schema=R.OpenDisputesSchema, success=True)
def disputes(tid: str) -> JSON:
    """The disputes open at the current round's tables in play (raised, not yet settled)."""
    return services().tournaments.disputes(tid)


@bp.route("/tournaments/<tid>/directors")
@director_first
@bp.doc(security=BEARER)
@errors(401, 403, 404)
@bp.alt_response(200, schema=R.DirectorsSchema, success=True)
def directors(tid: str) -> JSON:
    """The names of the co-directors' links.

    Authorization: Bearer <director token>"""
    return services().tournaments.directors(tid)


@bp.route("/tournaments/<tid>/directors", methods=["POST"])
@director_first
@bp.arguments(TournamentDirectorSchema)
@bp.doc(security=BEARER)
@errors(400, 401, 403, 404, 409)
@bp.alt_response(201, schema=R.DirectorLinkSchema, description="the new link's token, answered only here", success=True)
def add_director(body: JSON, tid: str) -> tuple[JSON, int]:
    """A new director link, named: for a co-director, or to replace a lost link. Answers
    its token once.

    Authorization: Bearer <director token>"""
    return services().tournaments.add_director(tid, body["name"]), 201


@bp.route("/tournaments/<tid>/director-accounts", methods=["POST"])
@director_first
@bp.arguments(TournamentDirectorSchema)
@bp.doc(security=BEARER)
@errors(400, 401, 403, 404, 409)
@bp.alt_response(201, schema=R.DirectorsSchema, success=True)
def add_director_account(body: JSON, tid: str) -> tuple[JSON, int]:
    """Make an account a director: its sessions act as the director (``name``: the account).

    Authorization: Bearer <director token>"""
    return services().tournaments.add_director_account(tid, body["name"]), 201


@bp.route("/tournaments/<tid>/director-accounts/<name>", methods=["DELETE"])
@director_first
@bp.doc(security=BEARER)
@errors(401, 403, 404)
@bp.alt_response(200, schema=R.DirectorsSchema, success=True)
def revoke_director_account(tid: str, name: str) -> JSON:
    """An account no longer directs the tournament.

    Authorization: Bearer <director token>"""
    return services().tournaments.revoke_director_account(tid, name)


@bp.route("/tournaments/<tid>/directors/<name>", methods=["DELETE"])
@director_first
@bp.doc(security=BEARER)
@errors(401, 403, 404)
@bp.alt_response(200, schema=R.DirectorsSchema, success=True)
def revoke_director(tid: str, name: str) -> JSON:
    """Revoke a named director link: its token answers 401 `revoked_token` from now on.

    Authorization: Bearer <director token>"""
    return services().tournaments.revoke_director(tid, name)


@bp.route("/tournaments/<tid>/export")
@errors(404)
@bp.alt_response(200, schema=OBJECT, description="the audit bundle (python -m service verify-tournament)", success=True)
def export(tid: str) -> Response:
    """The audit bundle (verify with python -m service verify-tournament).

    The tournament stream, every game's log (seeds once finished) and a manifest of
    chain heads."""
    bundle = services().tournaments.bundle(tid)
    return Response(
        canonical_json(bundle),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="tournament-{tid}.json"'},
    )


# -- pages -------------------------------------------------------------------------------
def _page(template: str, title: str, **context: Any) -> Page:
    html = render_template(template, title=title, **context)
    return (
        html,
        200,
        {"Referrer-Policy": "no-referrer", "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"},
    )


@pages.get("/tournaments")
def page_list() -> Page:
    return _page("tournaments/list.html", "Tournaments", page="list")


@pages.get("/tournaments/<tid>")
def page_detail(tid: str) -> Page:
    return _page("tournaments/detail.html", "Tournament", page="detail", tid=tid)


@pages.get("/tournaments/<tid>/rounds/<int:number>/broadcast")
def page_broadcast(tid: str, number: int) -> Page:
    return _page("tournaments/broadcast.html", "Broadcast", page="broadcast", tid=tid, round=number)
