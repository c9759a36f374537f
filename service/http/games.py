"""The games HTTP API: parse (marshmallow) -> the platform -> JSON. Routes stay thin."""

import itertools
import json
import threading
from collections.abc import Callable, Iterator
from contextlib import ExitStack

from flask import Config, Response, current_app, request, stream_with_context
from marshmallow import Schema

from events.envelope import canonical_json
from events.shapes import JSON, Envelope
from events.signing import export_statement, keyring, trusted
from projections.games import registry
from service import signing as keys
from service.audit import exports as audit
from service.http import limits
from service.http import responses as R
from service.http.blueprints import Blueprint
from service.http.limits import client_address
from service.http.live import LiveBody, direct_socket, event_stream, guarded_socket
from service.http.openapi import OBJECT, SSE_EVENT, TEXT, VERIFY_BODY
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
from service.services import annotations, forks, names, undo
from service.services.callers import Caller, bearer_token
from service.services.errors import Invalid, NotFound, TooLarge, Unavailable, Unprocessable
from service.services.game_types import describe_game
from service.services.games import CreateGame
from service.wiring import edge, services

_VERIFYING = threading.BoundedSemaphore(1)
"""One verification at a time per worker: an anonymous caller cannot take all of its time."""

bp = Blueprint("games", __name__, url_prefix="/api", description="Games: create, play, replay, referee, audit")


def bearer() -> str | None:
    return bearer_token(request.headers)


def caller(game_id: str) -> Caller:
    return services().games.caller(game_id, bearer())


def with_receipt(game_id: str, answer: JSON) -> JSON:
    """An accepted write's answer, with the server's signed receipt of the log's head
    after it: a player who keeps receipts can prove any later rewrite."""
    built = services()
    p = built.log.cached(game_id) or built.log.state(game_id)
    return {**answer, "receipt": keys.receipt(built.signer, game_id, p)}


@bp.route("/keys")
@bp.alt_response(
    200, schema=OBJECT, description="the server's public signing keys, current and retired (docs/API.md)", success=True
)
def signing_keys() -> JSON:
    """The server's Ed25519 public keys (current and retired) that sign receipts,
    exports, corrections and tournament bundles."""
    return keys.published(services().signer, current_app.config["DATA_DIR"])


@bp.route("/game-types")
@bp.alt_response(200, schema=R.GameTypeSchema(many=True), description="the games this server plays", success=True)
def game_types() -> list[JSON]:
    """The games this server plays, with their seat counts and options."""
    return [describe_game(game) for game in registry().values()]


@bp.route("/games", methods=["POST"])
@bp.arguments(CreateGameSchema)
@bp.alt_response(
    201, schema=R.CreatedSchema, description="the new game; each seat's token is answered only here", success=True
)
@bp.alt_response(429, "COMPUTER_CAP")
def create_game(body: JSON) -> tuple[JSON, int]:
    """Create a game; answers each seat's token (once) and the referee token."""
    bots = {b["seat"]: b["strength"] for b in body["bots"]}
    accounts = {}
    if body["account_seat"] is not None:  # the creator's own seat, bound in the same append
        accounts[body["account_seat"]] = services().accounts.session(bearer())
    command = CreateGame(
        body["game"],
        body["seats"],
        body["options"],
        clock=body["clock"],
        ranked=body["ranked"],
        bots=bots,
        accounts=accounts,
        creator=creator(),
    )
    return services().games.create(command), 201


def creator() -> str:
    """Who is charged for the computer seats a request asks for: its address (the
    per-client limits' own notion of a client)."""
    return f"address:{client_address()}"


@bp.route("/games")
@bp.arguments(GameFilterSchema, location="query")
@bp.alt_response(200, schema=R.LobbySchema, description="a page of games, newest first", success=True)
def list_games(query: JSON) -> JSON:
    """A page of the lobby, newest first; pass the answer's ``next`` as ``cursor`` for the next page."""
    return services().lobby.page(query.get("game"), query.get("status"), query["limit"], query.get("cursor"))


@bp.route("/games/<game_id>")
@bp.alt_response(200, schema=R.MetaSchema, success=True)
def game_meta(game_id: str) -> JSON:
    # the server's time as it answers: a page runs the clocks by it, not by its device's
    return {**services().games.meta(game_id), "now": services().now()}


@bp.route("/games/<game_id>/view")
@bp.arguments(ViewQuerySchema, location="query")
@bp.alt_response(200, schema=R.ViewSchema, success=True)
def game_view(query: JSON, game_id: str) -> JSON:
    """The caller's view, now or at ``?at=N`` (clamped to the log)."""
    return services().games.view(game_id, caller(game_id), query.get("at"))


@bp.route("/games/<game_id>/actions")
@bp.alt_response(200, schema=R.LegalActionsSchema, success=True)
def legal_actions(game_id: str) -> JSON:
    return services().games.legal_actions(game_id, caller(game_id))


@bp.route("/games/<game_id>/actions", methods=["POST"])
@bp.arguments(ActionSchema)
@bp.alt_response(201, schema=R.ActedSchema, description="appended", success=True)
@bp.alt_response(200, schema=R.ActedSchema, description="a retry of an applied action_id", success=True)
def post_action(body: JSON, game_id: str) -> tuple[JSON, int]:
    """Play an action; 201 with the new seq, 200 for a retry of the same action_id."""
    status, answer = play(game_id, caller(game_id), body)
    return answer, status


def play(game_id: str, who: Caller, body: JSON) -> tuple[int, JSON]:
    """An action envelope (``ActionSchema``) played by ``who``: (status, answer with its
    receipt). Shared by the POST route and the move socket (service/http/sockets.py)."""
    appended, answer = services().games.act(
        game_id, who, body["type"], body["payload"], body["action_id"], body["expected_seq"]
    )
    return (201 if appended else 200), with_receipt(game_id, answer)


@bp.route("/games/<game_id>/events")
@bp.arguments(EventsQuerySchema, location="query")
@bp.alt_response(200, schema=R.EventsSchema, success=True)
def game_events(query: JSON, game_id: str) -> JSON:
    """One page of the log (``limit`` entries after ``after``); ``next`` is the
    ``after`` of the following page, null at the head."""
    return services().games.events(game_id, caller(game_id), query["after"], query["limit"])


@bp.route("/games/<game_id>/stream")
@bp.alt_response(
    200,
    schema=SSE_EVENT,
    content_type="text/event-stream",
    description="Server-Sent Events: `event: appended` (`id` = seq) and `event: chat` (the chat's mark)",
    success=True,
)
@bp.alt_response(429, "TOO_MANY_STREAMS")
@bp.alt_response(503, "NO_STREAM_SLOT")
def game_stream(game_id: str) -> Response:
    """Server-Sent Events: every new entry as the spectator sees it."""
    tails = edge().live_tails
    if not tails.watched(game_id):  # a tailed game exists: joining its watchers reads nothing
        services().log.state(game_id)
    last = request.headers.get("Last-Event-ID") or request.args.get("after")
    after = parse_seq(last, "Last-Event-ID") if last else None
    slot = ExitStack()
    slot.enter_context(edge().stream_slots.hold(limits.stream_client(), game_id))
    config = current_app.config
    guarded = guarded_socket(request.environ, config["SSE_STALL_SECONDS"], slot)
    direct = direct_socket(request.environ, guarded) if config["LIVE_DIRECT_WRITES"] else None
    body = event_stream(tails, game_id, after, config["SSE_SECONDS"], direct)
    return Response(
        LiveBody(body, slot.close),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        direct_passthrough=True,
    )


@bp.route("/games/<game_id>/undo", methods=["POST"])
@bp.arguments(UndoSchema)
@bp.alt_response(201, schema=R.UndoAnswerSchema, success=True)
def request_undo(body: JSON, game_id: str) -> tuple[JSON, int]:
    return with_receipt(game_id, undo.request_undo(services().log, game_id, caller(game_id), body["to_seq"])), 201


@bp.route("/games/<game_id>/undo/<request_id>/<answer>", methods=["POST"])
@bp.alt_response(201, schema=R.UndoAnswerSchema, success=True)
def answer_undo(game_id: str, request_id: str, answer: str) -> tuple[JSON, int]:
    if answer not in ("approve", "decline"):
        raise NotFound("not_found", "answer with approve or decline")
    return with_receipt(
        game_id, undo.answer_undo(services().log, game_id, caller(game_id), request_id, answer == "approve")
    ), 201


@bp.route("/games/<game_id>/fork", methods=["POST"])
@bp.arguments(ForkSchema)
@bp.alt_response(201, schema=R.CreatedSchema, success=True)
def fork_game(body: JSON, game_id: str) -> tuple[JSON, int]:
    seats = names.check_seats(body["seats"]) if body["seats"] else None
    return forks.fork(services().games, services().log, game_id, caller(game_id), body["at_seq"], seats), 201


@bp.route("/games/<game_id>/annotations", methods=["POST"])
@bp.arguments(AnnotationSchema)
@bp.alt_response(201, schema=R.AnnotationOutSchema, success=True)
def add_annotation(body: JSON, game_id: str) -> tuple[JSON, int]:
    who = caller(game_id)
    built = services()
    return annotations.add(
        built.log, built.notes, game_id, who, body["seq"], body["text"], body["kind"], body["author"]
    ), 201


@bp.route("/games/<game_id>/annotations")
@bp.arguments(AnnotationQuerySchema, location="query")
@bp.alt_response(200, schema=R.AnnotationsSchema, description="a page of annotations, oldest first", success=True)
def list_annotations(query: JSON, game_id: str) -> JSON:
    """A page of annotations, oldest first; pass the answer's ``next`` as ``after``."""
    return annotations.listing(services().log, services().notes, game_id, query.get("after"), query["limit"])


@bp.route("/games/<game_id>/analysis", methods=["POST"])
@bp.alt_response(
    202,
    schema=OBJECT,
    description="the evaluation job: status, progress and the points so far (docs/BOTS.md)",
    success=True,
)
def request_analysis(game_id: str) -> tuple[JSON, int]:
    """Ask for the evaluation line (each seat's chance of winning at every step): anyone
    once the game has ended, only the referee while it is played. Computed in the
    background; GET shows its progress."""
    return services().analysis.request(game_id, caller(game_id)), 202


@bp.route("/games/<game_id>/analysis")
@bp.alt_response(
    200, schema=OBJECT, description="the evaluation line as far as it has been computed (docs/BOTS.md)", success=True
)
def read_analysis(game_id: str) -> JSON:
    """The evaluation line as far as it has been computed."""
    return services().analysis.read(game_id, caller(game_id))


@bp.route("/games/<game_id>/export")
@bp.alt_response(
    200, schema=TEXT, content_type="application/x-ndjson", description="JSON Lines: one envelope per line", success=True
)
def export_game(game_id: str) -> Response:
    """The log as JSON Lines; the seed is in ``game.finished`` once the game is over.
    ``game.created`` (and the ``X-Rules-Version`` header) names the rules version.
    Streamed a page of the store at a time, up to the head the game had when asked,
    then the table chat as the caller may read it (an ``audit`` line, only when there
    is any), then the signed trailer: a long log is never held whole."""
    built = services()
    pages = built.games.export_pages(game_id, caller(game_id))
    first = next(pages)  # read before answering: its entry 1 names the game for the headers
    signer = built.signer
    chat = built.chat.audit(game_id, built.chat.speaker(game_id, bearer()))

    def body() -> Iterator[str]:
        last = first[-1]
        for page in itertools.chain([first], pages):
            yield "".join(canonical_json(e) + "\n" for e in page)
            last = page[-1] if page else last
        if chat:  # a game nobody chatted in exports as before
            yield canonical_json({audit.AUDIT: {"chat": chat}}) + "\n"
        statement = export_statement(first[0]["payload"].get("game_id"), last["seq"], last["hash"])
        yield canonical_json({audit.TRAILER: signer.sign(statement)}) + "\n"

    return Response(
        stream_with_context(body()),
        mimetype="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="game-{game_id}.jsonl"', **audit.export_headers(first)},
    )


@bp.route("/verify", methods=["POST"])
@bp.doc(requestBody=VERIFY_BODY)
@bp.alt_response(400, schema=R.ErrorSchema, description="the body is not JSON Lines of objects")
@bp.alt_response(200, schema=R.VerdictSchema, success=True)
def verify_export() -> JSON:
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


def _verify_body(config: Config, budget: audit.Budget) -> JSON:
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
    ring = keyring(trusted(keys.published(services().signer, config["DATA_DIR"])))
    try:
        report = audit.verify(envelopes, keys=ring, budget=budget)
    except audit.Malformed as exc:
        raise Invalid("malformed", f"each line must be one JSON envelope: {exc}") from exc
    return audit.against_log(report, audit.split_trailer(envelopes)[0], _log_after(envelopes))


def _log_after(envelopes: list[JSON]) -> list[Envelope] | None:
    """This server's entries of the export's game from its last seq on (None: no such game)."""
    entries, _ = audit.split_trailer(envelopes)
    game_id = audit.named_game(entries)
    last = entries[-1].get("seq") if entries and isinstance(entries[-1], dict) else None
    if not isinstance(game_id, str) or not isinstance(last, int) or last < 1:
        return None
    stored = services().log.read(game_id, after=last - 1, upto=last + 200)
    return stored or None


def _referee_route(kind: str, schema: type[Schema]) -> Callable[[JSON, str], tuple[JSON, int]]:
    @bp.route(f"/games/<game_id>/referee/{kind}", methods=["POST"], endpoint=f"referee_{kind}")
    @bp.arguments(schema)
    @bp.alt_response(201, schema=R.SeqSchema, description="the referee event's seq", success=True)
    @bp.alt_response(429, "COMPUTER_CAP" if kind == "bot" else "RATE_LIMITED")
    def referee(body: JSON, game_id: str) -> tuple[JSON, int]:
        return with_receipt(game_id, services().refereeing.act(game_id, caller(game_id), kind, body, creator())), 201

    referee.__doc__ = f"Referee: {kind} (referee token)."
    return referee


for _kind, _schema in REFEREE_SCHEMAS.items():
    _referee_route(_kind, _schema)


@bp.route("/games/<game_id>/referee/correct", methods=["POST"])
@bp.arguments(CorrectionSchema)
@bp.alt_response(201, schema=R.SeqSchema, description="the correction's seq", success=True)
def referee_correct(body: JSON, game_id: str) -> tuple[JSON, int]:
    """Referee: correct a finished game's result (a signed ``referee.correction``)."""
    return with_receipt(game_id, services().refereeing.correct(game_id, caller(game_id), body)), 201
