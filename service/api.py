"""The games HTTP API: parse (marshmallow) -> the platform -> JSON. Routes stay thin."""
from __future__ import annotations

import json
from contextlib import ExitStack

from flask import Response, current_app, request, stream_with_context
from flask_smorest import Blueprint
from webargs.flaskparser import FlaskParser

from events.envelope import canonical_json
from projections.games import registry

from . import annotations, audit, forks, refereeing, undo
from .api_schemas import (REFEREE_SCHEMAS, ActionSchema, AnnotationSchema, CreateGameSchema, EventsQuerySchema,
                          ForkSchema, GameFilterSchema, UndoSchema, ViewQuerySchema)
from .callers import bearer_token
from .errors import ApiError
from .game_types import describe_game
from .live import event_stream



class BadRequestParser(FlaskParser):
    """A body or query failing its schema is a 400 (the API's contract), not 422:
    422 is kept for moves the rules forbid."""

    DEFAULT_VALIDATION_STATUS = 400


bp = Blueprint("games", __name__, url_prefix="/api", description="Games: create, play, replay, referee, audit")
bp.ARGUMENTS_PARSER = BadRequestParser()


def platform():
    return current_app.extensions["platform"]


def bearer() -> str | None:
    return bearer_token(request.headers)


def caller(game_id):
    return platform().caller(game_id, bearer())


@bp.route("/game-types")
def game_types():
    """The games this server plays, with their seat counts and options."""
    return [describe_game(game) for game in registry().values()]


@bp.route("/games", methods=["POST"])
@bp.arguments(CreateGameSchema)
def create_game(body):
    """Create a game; answers each seat's token (once) and the referee token."""
    created = platform().create_game(body["game"], body["seats"], body["options"], clock=body["clock"], ranked=body["ranked"])
    return created, 201


@bp.route("/games")
@bp.arguments(GameFilterSchema, location="query")
def list_games(query):
    return {"games": platform().list_games(query.get("game"), query.get("status"), query["limit"])}


@bp.route("/games/<game_id>")
def game_meta(game_id):
    return platform().meta(game_id)


@bp.route("/games/<game_id>/view")
@bp.arguments(ViewQuerySchema, location="query")
def game_view(query, game_id):
    """The caller's view, now or at ``?at=N`` (clamped to the log)."""
    return platform().view(game_id, caller(game_id), query.get("at"))


@bp.route("/games/<game_id>/actions")
def legal_actions(game_id):
    return platform().legal_actions(game_id, caller(game_id))


@bp.route("/games/<game_id>/actions", methods=["POST"])
@bp.arguments(ActionSchema)
def post_action(body, game_id):
    """Play an action; 201 with the new seq, 200 for a retry of the same action_id."""
    who = caller(game_id)
    status, answer = platform().act(game_id, who, body["type"], body["payload"], body["action_id"], body["expected_seq"])
    return answer, status


@bp.route("/games/<game_id>/events")
@bp.arguments(EventsQuerySchema, location="query")
def game_events(query, game_id):
    return {"events": platform().events(game_id, caller(game_id), query["after"])}


@bp.route("/games/<game_id>/stream")
def game_stream(game_id):
    """Server-Sent Events: every new entry as the spectator sees it."""
    tails = current_app.extensions["live_tails"]
    if not tails.watched(game_id):  # a tailed game exists: joining its watchers reads nothing
        platform().state(game_id)
    last = request.headers.get("Last-Event-ID") or request.args.get("after")
    after = int(last) if last and last.isdigit() else None
    slot = ExitStack()
    slot.enter_context(current_app.extensions["sse_slots"].hold(request.remote_addr or "", game_id))
    body = event_stream(platform(), tails, game_id, after, current_app.config["SSE_SECONDS"])
    response = Response(stream_with_context(body), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})
    response.call_on_close(slot.close)
    return response


@bp.route("/games/<game_id>/undo", methods=["POST"])
@bp.arguments(UndoSchema)
def request_undo(body, game_id):
    return undo.request_undo(platform(), game_id, caller(game_id), body["to_seq"]), 201


@bp.route("/games/<game_id>/undo/<request_id>/<answer>", methods=["POST"])
def answer_undo(game_id, request_id, answer):
    if answer not in ("approve", "decline"):
        raise ApiError(404, "not_found", "answer with approve or decline")
    return undo.answer_undo(platform(), game_id, caller(game_id), request_id, answer == "approve"), 201


@bp.route("/games/<game_id>/fork", methods=["POST"])
@bp.arguments(ForkSchema)
def fork_game(body, game_id):
    return forks.fork(platform(), game_id, caller(game_id), body["at_seq"], body["seats"]), 201


@bp.route("/games/<game_id>/annotations", methods=["POST"])
@bp.arguments(AnnotationSchema)
def add_annotation(body, game_id):
    who = caller(game_id)
    return annotations.add(platform(), game_id, who, body["seq"], body["text"], body["kind"], body["author"]), 201


@bp.route("/games/<game_id>/annotations")
def list_annotations(game_id):
    return {"annotations": annotations.listing(platform(), game_id)}


@bp.route("/games/<game_id>/export")
def export_game(game_id):
    """The log as JSON Lines; the seed is in ``game.finished`` once the game is over.
    ``game.created`` (and the ``X-Rules-Version`` header) names the rules version."""
    lines = platform().export(game_id, caller(game_id))
    body = "".join(canonical_json(e) + "\n" for e in lines)
    return Response(body, mimetype="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="game-{game_id}.jsonl"',
                             **audit.export_headers(lines)})


@bp.route("/verify", methods=["POST"])
def verify_export():
    """Re-check an export as is: chain, seed commitment, refold, recorded result."""
    try:
        envelopes = audit.parse_lines(request.get_data(as_text=True))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ApiError(400, "malformed", f"each line must be one JSON envelope: {exc}") from exc
    return audit.verify(envelopes)


def _referee_route(kind, schema):
    @bp.route(f"/games/<game_id>/referee/{kind}", methods=["POST"], endpoint=f"referee_{kind}")
    @bp.arguments(schema)
    def referee(body, game_id):
        return refereeing.referee_action(platform(), game_id, caller(game_id), kind, body), 201

    referee.__doc__ = f"Referee: {kind} (referee token)."
    return referee


for _kind, _schema in REFEREE_SCHEMAS.items():
    _referee_route(_kind, _schema)


@bp.before_request
def limit_body():
    if request.endpoint != "games.verify_export":
        request.max_content_length = current_app.config["MAX_BODY_BYTES"]
