"""The games HTTP API: parse (marshmallow) -> the platform -> JSON. Routes stay thin."""

from __future__ import annotations

import json
import threading
from contextlib import ExitStack
from functools import cache

from flask import Response, current_app, request, stream_with_context
from flask_smorest import Blueprint
from marshmallow import Schema
from webargs import core as webargs_core
from webargs.flaskparser import FlaskParser, is_json_request

from events import keys as ev_keys
from events.envelope import canonical_json
from events.signing import export_statement, keyring
from projections.games import registry
from service.audit import exports as audit
from service.audit import signing_keys as keys
from service.http import json_input
from service.http.live import event_stream
from service.http.schemas import (
    REFEREE_SCHEMAS,
    ActionSchema,
    AnnotationQuerySchema,
    AnnotationSchema,
    CorrectionSchema,
    CreateGameSchema,
    EventsQuerySchema,
    ForkSchema,
    GameFilterSchema,
    UndoSchema,
    ViewQuerySchema,
    parse_seq,
)
from service.services import analysis, annotations, forks, lobby, names, refereeing, undo
from service.services.callers import bearer_token
from service.services.errors import Invalid, NotFound, TooLarge, Unavailable, Unprocessable
from service.services.game_types import describe_game
from service.services.games import Platform
from service.wiring import services


class BadRequestParser(FlaskParser):
    """A body or query failing its schema is a 400 (the API's contract), not 422:
    422 is kept for moves the rules forbid. Each schema class is built once: webargs
    would build a new instance (deep-copying its fields) on every request."""

    DEFAULT_VALIDATION_STATUS = 400

    def _get_schema(self, argmap, req):
        if isinstance(argmap, type) and issubclass(argmap, Schema):
            return schema_instance(argmap)
        return super()._get_schema(argmap, req)

    def _raw_load_json(self, req):
        """Bodies go through the server's strict JSON parser (service/http/json_input.py)."""
        if not is_json_request(req):
            return webargs_core.missing
        return json_input.loads(req.get_data(cache=True))


@cache
def schema_instance(schema_class: type[Schema]) -> Schema:
    return schema_class()


_VERIFYING = threading.BoundedSemaphore(1)
"""One verification at a time per worker: an anonymous caller cannot take all of its time."""

bp = Blueprint("games", __name__, url_prefix="/api", description="Games: create, play, replay, referee, audit")
bp.ARGUMENTS_PARSER = BadRequestParser()


def platform() -> Platform:
    return services().platform


def bearer() -> str | None:
    return bearer_token(request.headers)


def caller(game_id):
    return platform().caller(game_id, bearer())


def with_receipt(game_id: str, answer: dict) -> dict:
    """An accepted write's answer, with the server's signed receipt of the log's head
    after it: a player who keeps receipts can prove any later rewrite."""
    games = platform()
    p = games.projector.cached(game_id) or games.state(game_id)
    return {**answer, "receipt": keys.receipt(games.signer, game_id, p)}


@bp.route("/keys")
def signing_keys():
    """The server's Ed25519 public keys (current and retired) that sign receipts,
    exports, corrections and tournament bundles."""
    return keys.published(platform().signer, current_app.config["DATA_DIR"])


@bp.route("/game-types")
def game_types():
    """The games this server plays, with their seat counts and options."""
    return [describe_game(game) for game in registry().values()]


@bp.route("/games", methods=["POST"])
@bp.arguments(CreateGameSchema)
def create_game(body):
    """Create a game; answers each seat's token (once) and the referee token."""
    bots = {b["seat"]: b["strength"] for b in body["bots"]}
    accounts = {}
    if body["account_seat"] is not None:  # the creator's own seat, bound in the same append
        accounts[body["account_seat"]] = platform().accounts.session(bearer())
    created = platform().create_game(
        body["game"],
        body["seats"],
        body["options"],
        clock=body["clock"],
        ranked=body["ranked"],
        bots=bots,
        accounts=accounts,
    )
    return created, 201


@bp.route("/games")
@bp.arguments(GameFilterSchema, location="query")
def list_games(query):
    """A page of the lobby, newest first; pass the answer's ``next`` as ``cursor`` for the next page."""
    return lobby.page(platform(), query.get("game"), query.get("status"), query["limit"], query.get("cursor"))


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
    status, answer = play(game_id, caller(game_id), body)
    return answer, status


def play(game_id: str, who, body: dict) -> tuple[int, dict]:
    """An action envelope (``ActionSchema``) played by ``who``: (status, answer with its
    receipt). Shared by the POST route and the move socket (service/http/sockets.py)."""
    appended, answer = platform().act(
        game_id, who, body["type"], body["payload"], body["action_id"], body["expected_seq"]
    )
    return (201 if appended else 200), with_receipt(game_id, answer)


@bp.route("/games/<game_id>/events")
@bp.arguments(EventsQuerySchema, location="query")
def game_events(query, game_id):
    return {"events": platform().events(game_id, caller(game_id), query["after"])}


@bp.route("/games/<game_id>/stream")
def game_stream(game_id):
    """Server-Sent Events: every new entry as the spectator sees it."""
    tails = services().live_tails
    if not tails.watched(game_id):  # a tailed game exists: joining its watchers reads nothing
        platform().state(game_id)
    last = request.headers.get("Last-Event-ID") or request.args.get("after")
    after = parse_seq(last, "Last-Event-ID") if last else None
    slot = ExitStack()
    slot.enter_context(services().stream_slots.hold(request.remote_addr or "", game_id))
    body = event_stream(platform(), tails, game_id, after, current_app.config["SSE_SECONDS"])
    response = Response(
        stream_with_context(body),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
    response.call_on_close(slot.close)
    return response


@bp.route("/games/<game_id>/undo", methods=["POST"])
@bp.arguments(UndoSchema)
def request_undo(body, game_id):
    return with_receipt(game_id, undo.request_undo(platform(), game_id, caller(game_id), body["to_seq"])), 201


@bp.route("/games/<game_id>/undo/<request_id>/<answer>", methods=["POST"])
def answer_undo(game_id, request_id, answer):
    if answer not in ("approve", "decline"):
        raise NotFound("not_found", "answer with approve or decline")
    return with_receipt(
        game_id, undo.answer_undo(platform(), game_id, caller(game_id), request_id, answer == "approve")
    ), 201


@bp.route("/games/<game_id>/fork", methods=["POST"])
@bp.arguments(ForkSchema)
def fork_game(body, game_id):
    seats = names.check_seats(body["seats"]) if body["seats"] else None
    return forks.fork(platform(), game_id, caller(game_id), body["at_seq"], seats), 201


@bp.route("/games/<game_id>/annotations", methods=["POST"])
@bp.arguments(AnnotationSchema)
def add_annotation(body, game_id):
    who = caller(game_id)
    return annotations.add(platform(), game_id, who, body["seq"], body["text"], body["kind"], body["author"]), 201


@bp.route("/games/<game_id>/annotations")
@bp.arguments(AnnotationQuerySchema, location="query")
def list_annotations(query, game_id):
    """A page of annotations, oldest first; pass the answer's ``next`` as ``after``."""
    return annotations.listing(platform(), game_id, query.get("after"), query["limit"])


@bp.route("/games/<game_id>/analysis", methods=["POST"])
def request_analysis(game_id):
    """Ask for the evaluation line (each seat's chance of winning at every step): anyone
    once the game has ended, only the referee while it is played. Computed in the
    background; GET shows its progress."""
    return analysis.request(platform(), game_id, caller(game_id)), 202


@bp.route("/games/<game_id>/analysis")
def read_analysis(game_id):
    """The evaluation line as far as it has been computed."""
    return analysis.read(platform(), game_id, caller(game_id))


@bp.route("/games/<game_id>/export")
def export_game(game_id):
    """The log as JSON Lines; the seed is in ``game.finished`` once the game is over.
    ``game.created`` (and the ``X-Rules-Version`` header) names the rules version."""
    lines = platform().export(game_id, caller(game_id))
    signed = platform().signer.sign(
        export_statement(lines[0]["payload"].get("game_id"), lines[-1]["seq"], lines[-1]["hash"])
    )
    body = "".join(canonical_json(e) + "\n" for e in [*lines, {audit.TRAILER: signed}])
    return Response(
        body,
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="game-{game_id}.jsonl"', **audit.export_headers(lines)},
    )


@bp.route("/verify", methods=["POST"])
def verify_export():
    """Re-check an export as is: chain, payload digests, seed commitment, refold,
    recorded result, and the signature against this server's keys: it signs every export
    it gives, so an unsigned one fails here. One at a time per worker (else 503
    ``verify_busy``), its budget covering all of it (parsing too), yielding as it goes. Bounded: past
    VERIFY_MAX_BYTES or VERIFY_MAX_EVENTS a 413, past VERIFY_SECONDS a 422."""
    config = current_app.config
    if (request.content_length or 0) > config["VERIFY_MAX_BYTES"]:
        raise TooLarge(
            "too_large",
            f"an export to verify here is at most {config['VERIFY_MAX_BYTES']} bytes",
            {"max_bytes": config["VERIFY_MAX_BYTES"]},
        )
    if not _VERIFYING.acquire(blocking=False):
        raise Unavailable("verify_busy", "this worker is verifying another export; retry shortly", retry_after=1)
    try:
        return _verify_body(config, audit.Budget(config["VERIFY_SECONDS"]))
    except audit.TooCostly as exc:
        raise Unprocessable("too_costly", str(exc), {"seconds": config["VERIFY_SECONDS"]}) from exc
    finally:
        _VERIFYING.release()


def _verify_body(config, budget):
    raw = request.stream.read(config["VERIFY_MAX_BYTES"] + 1)
    if len(raw) > config["VERIFY_MAX_BYTES"]:
        raise TooLarge(
            "too_large",
            f"an export to verify here is at most {config['VERIFY_MAX_BYTES']} bytes",
            {"max_bytes": config["VERIFY_MAX_BYTES"]},
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Invalid("malformed", f"an export is UTF-8 text: {exc.reason}") from exc
    if not text.strip():
        raise Invalid("malformed", "the body is an export: one JSON envelope per line")
    if text.count("\n") > config["VERIFY_MAX_EVENTS"] + 1:
        raise TooLarge(
            "too_many_events",
            f"an export to verify here has at most {config['VERIFY_MAX_EVENTS']} entries",
            {"max_events": config["VERIFY_MAX_EVENTS"]},
        )
    try:
        envelopes = audit.parse_lines(text, budget)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise Invalid("malformed", f"each line must be one JSON envelope: {exc}") from exc
    if len(envelopes) > config["VERIFY_MAX_EVENTS"] + 1:
        raise TooLarge(
            "too_many_events",
            f"an export to verify here has at most {config['VERIFY_MAX_EVENTS']} entries",
            {"max_events": config["VERIFY_MAX_EVENTS"]},
        )
    ring = keyring(keys.trusted(keys.published(platform().signer, config["DATA_DIR"])))
    report = audit.verify(envelopes, keys=ring, budget=budget)
    return audit.against_log(report, audit.split_trailer(envelopes)[0], _log_after(envelopes))


def _log_after(envelopes):
    """This server's entries of the export's game from its last seq on (None: no such game)."""
    entries, _ = audit.split_trailer(envelopes)
    game_id = audit.named_game(entries)
    last = entries[-1].get("seq") if entries and isinstance(entries[-1], dict) else None
    if not isinstance(game_id, str) or not isinstance(last, int) or last < 1:
        return None
    stored = platform().store.read(ev_keys.events(game_id), after=last - 1, upto=last + 200)
    return stored or None


def _referee_route(kind, schema):
    @bp.route(f"/games/<game_id>/referee/{kind}", methods=["POST"], endpoint=f"referee_{kind}")
    @bp.arguments(schema)
    def referee(body, game_id):
        return with_receipt(game_id, refereeing.referee_action(platform(), game_id, caller(game_id), kind, body)), 201

    referee.__doc__ = f"Referee: {kind} (referee token)."
    return referee


for _kind, _schema in REFEREE_SCHEMAS.items():
    _referee_route(_kind, _schema)


@bp.route("/games/<game_id>/referee/correct", methods=["POST"])
@bp.arguments(CorrectionSchema)
def referee_correct(body, game_id):
    """Referee: correct a finished game's result (a signed ``referee.correction``)."""
    return with_receipt(game_id, refereeing.correct(platform(), game_id, caller(game_id), body)), 201
