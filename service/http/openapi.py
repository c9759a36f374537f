"""The OpenAPI document, made honest: every operation's success answer has its schema
(service/http/responses.py) and content type, every error is the real
``{"error": {...}}`` body, and the refusals a client should retry (429, 503) declare
``Retry-After``.

flask-smorest documents request schemas from the routes; the answers are added here
from one table keyed by endpoint, so routes stay as they are (they return plain dicts).
"""

from __future__ import annotations

import re

from flask_smorest import Api as SmorestApi

from events.tournament_schemas import ClockSchema as TournamentClockSchema
from events.tournament_schemas import TournamentOptionsSchema
from projections.games import registry
from service.http import responses as R

ERROR_REF = {"$ref": "#/components/schemas/Error"}


class Api(SmorestApi):
    """flask-smorest with the server's own error body as its error schema."""

    ERROR_SCHEMA = R.ErrorSchema


def _json(schema: str | None, description: str = "OK", array: bool = False) -> dict:
    ref = {"$ref": f"#/components/schemas/{schema}"}
    return {
        "description": description,
        "content": {"application/json": {"schema": {"type": "array", "items": ref} if array else ref}},
    }


def _text(content_type: str, description: str) -> dict:
    return {"description": description, "content": {content_type: {"schema": {"type": "string"}}}}


# endpoint -> {status: response object}
RESPONSES = {
    "games.game_types": {"200": _json("GameType", "the games this server plays", array=True)},
    "games.create_game": {"201": _json("GameCreated", "the new game; each seat's token is answered only here")},
    "games.list_games": {"200": _json("Lobby", "a page of games, newest first")},
    "games.game_meta": {"200": _json("GameMeta")},
    "games.game_view": {"200": _json("GameView")},
    "games.legal_actions": {"200": _json("LegalActions")},
    "games.post_action": {"201": _json("Acted", "appended"), "200": _json("Acted", "a retry of an applied action_id")},
    "games.game_events": {"200": _json("Events")},
    "games.game_stream": {"200": _text("text/event-stream", "Server-Sent Events: `event: appended`, `id` = seq")},
    "games.request_undo": {"201": _json("UndoAnswer")},
    "games.answer_undo": {"201": _json("UndoAnswer")},
    "games.fork_game": {"201": _json("GameCreated")},
    "games.add_annotation": {"201": _json("Note")},
    "games.list_annotations": {"200": _json("Notes", "a page of annotations, oldest first")},
    "games.export_game": {"200": _text("application/x-ndjson", "JSON Lines: one envelope per line")},
    "games.verify_export": {"200": _json("Verdict")},
    "tournaments.create": {"201": _json("TournamentCreated")},
    "tournaments.list_tournaments": {"200": _json("TournamentList")},
    "tournaments.get": {"200": _json("Tournament")},
    "tournaments.register": {"201": _json("Registered")},
    "tournaments.registration": {"200": _json("Registration")},
    "tournaments.withdraw": {"200": _json("Withdrawn")},
    "tournaments.player_games": {"200": _json("PlayerGames")},
    "tournaments.pair": {"201": _json("Round")},
    "tournaments.round_pairings": {"200": _json("Round")},
    "tournaments.report": {"201": _json("Table")},
    "tournaments.finish": {"200": _json("Tournament")},
    "tournaments.standings": {"200": _json("Standings")},
    "tournaments.export": {
        "200": {
            "description": "the audit bundle (python -m service verify-tournament)",
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    },
}
for _kind in ("pause", "resume", "rewind", "adjust", "forfeit", "dismiss", "bot"):
    RESPONSES[f"games.referee_{_kind}"] = {"201": _json("Seq", "the referee event's seq")}


def _object(description: str) -> dict:
    return {"description": description, "content": {"application/json": {"schema": {"type": "object"}}}}


RESPONSES.update(
    {
        "games.signing_keys": {"200": _object("the server's public signing keys, current and retired (docs/API.md)")},
        "games.referee_correct": {"201": _json("Seq", "the correction's seq")},
        "games.request_analysis": {
            "202": _object("the evaluation job: status, progress and the points so far (docs/BOTS.md)")
        },
        "games.read_analysis": {"200": _object("the evaluation line as far as it has been computed (docs/BOTS.md)")},
        "accounts.create_account": {"201": _object("the account: name, created_at and its first session token (once)")},
        "accounts.login": {"201": _object("a new session: name and token (once)")},
        "accounts.logout": {"200": _object("the session revoked: name, revoked")},
        "accounts.logout_all": {"200": _object("every session of the account revoked: name, revoked (how many)")},
        "accounts.me": {"200": _object("the logged-in account: name, created_at")},
        "accounts.change_password": {
            "200": _object("the password changed: name, a fresh session token (once), revoked (every other session)")
        },
        "accounts.claim_seat": {
            "201": _object("the seat bound: game_id, seat, account, seq"),
            "200": _object("the seat was already bound to this account"),
        },
        "accounts.rate_game": {"201": _object("the game's result recorded in the ratings: game_id, head")},
        "accounts.profile": {
            "200": _object("the profile: ratings per game (with history), games, annotations (docs/RATINGS.md)")
        },
        "accounts.all_ratings": {
            "200": _object("every live rating: {parameters, ratings: {game: {account: [mu, sigma, games]}}, results}")
        },
        "accounts.leaderboard": {
            "200": _object(
                "the game's leaderboard: players (rank, name, rating, mu, sigma, games, provisional), parameters"
            )
        },
    }
)

SCHEMAS = {
    "GameType": R.GameTypeSchema,
    "GameCreated": R.CreatedSchema,
    "Lobby": R.LobbySchema,
    "GameMeta": R.MetaSchema,
    "GameView": R.ViewSchema,
    "LegalActions": R.LegalActionsSchema,
    "Acted": R.ActedSchema,
    "Events": R.EventsSchema,
    "UndoAnswer": R.UndoAnswerSchema,
    "Note": R.AnnotationOutSchema,
    "Notes": R.AnnotationsSchema,
    "Verdict": R.VerdictSchema,
    "Seq": R.SeqSchema,
    "Tournament": R.TournamentSummarySchema,
    "TournamentCreated": R.TournamentCreatedSchema,
    "TournamentList": R.TournamentListSchema,
    "Registered": R.RegisteredSchema,
    "Withdrawn": R.WithdrawnSchema,
    "PlayerGames": R.PlayerGamesSchema,
    "Round": R.RoundSchema,
    "Table": R.TableSchema,
    "Standings": R.StandingsSchema,
    "Registration": R.RegistrationSchema,
}


def _retry(description: str) -> dict:
    """A refusal to retry: the error body and the seconds to wait (always sent)."""
    return {
        "description": description,
        "headers": {
            "Retry-After": {
                "description": "seconds to wait before retrying",
                "required": True,
                "schema": {"type": "integer", "minimum": 1},
            }
        },
        "content": {"application/json": {"schema": ERROR_REF}},
    }


RATE_LIMITED = _retry("rate limited (per client); retry after the given seconds")
UNAVAILABLE = _retry("storage is unreachable (`storage_unavailable`); retry after the given seconds")
# The live stream's own caps (service/http/live.py), on top of the answers every operation has.
STREAM_REFUSALS = {
    "429": _retry(
        "rate limited, or this client already has `SSE_MAX_PER_CLIENT` streams open on this worker "
        "(`too_many_streams`; retry when its oldest stream ends)"
    ),
    "503": _retry(
        "storage is unreachable (`storage_unavailable`), or the game or the worker has no stream slot "
        "left (`too_many_streams`); retry after the given seconds"
    ),
}
BAD_BODY = {
    "description": "the body is not valid JSON or fails its schema",
    "content": {"application/json": {"schema": ERROR_REF}},
}
TOO_LARGE = {
    "description": "the body is larger than the route takes (MAX_BODY_BYTES; /api/verify: VERIFY_MAX_BYTES)",
    "content": {"application/json": {"schema": ERROR_REF}},
}
DEFAULT_ERROR = {"description": "any other error", "content": {"application/json": {"schema": ERROR_REF}}}
VERIFY_BODY = {
    "required": True,
    "description": "an export as is: JSON Lines, one envelope per line (the schema describes the lines, as an array)",
    "content": {
        "application/x-ndjson": {
            "schema": {"type": "array", "minItems": 1, "items": {"$ref": "#/components/schemas/Envelope"}}
        }
    },
}


BEARER_AUTH = {
    "type": "http",
    "scheme": "bearer",
    "description": "a token the server answered once: a tournament's director token, a player's token, "
    "or an account's session token (each operation says which)",
}


BEARER = [{"bearerAuth": []}]
BEARER_OR_NONE = [{}, {"bearerAuth": []}]
SESSION_REFUSED = "no session, or an expired or revoked one"


def refusals(bp, answers: dict[int, str]):
    """Document the refusals a route gives (the ``{"error": {...}}`` body), each with why."""

    def decorate(view):
        for code, why in reversed(list(answers.items())):
            view = bp.alt_response(code, schema=R.ErrorSchema, description=why)(view)
        return view

    return decorate


def _openapi_path(rule: str) -> str:
    return re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", r"{\1}", rule)


def document(smorest: Api) -> None:
    """Add the answers to every operation of the app's spec (call after every blueprint
    is registered)."""
    spec = smorest.spec
    spec.components.security_scheme("bearerAuth", BEARER_AUTH)
    for name, schema in SCHEMAS.items():
        spec.components.schema(name, schema=schema)
    paths = spec._paths  # apispec keeps the operations here; nothing public edits them in place
    for rule in smorest._app.url_map.iter_rules():
        operations = paths.get(_openapi_path(rule.rule))
        if not operations or rule.endpoint not in RESPONSES:
            continue
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            operation = operations.get(method.lower())
            if operation is None:
                continue
            responses = operation.setdefault("responses", {})
            for status in [s for s in responses if s.startswith("2")]:
                del responses[status]
            responses.update(RESPONSES[rule.endpoint])
            for status, response in list(responses.items()):
                if not status.startswith("2") and "$ref" not in response and "content" not in response:
                    response["content"] = {"application/json": {"schema": ERROR_REF}}
            if rule.endpoint == "games.verify_export":
                operation["requestBody"] = VERIFY_BODY
            responses["429"] = RATE_LIMITED
            responses["503"] = UNAVAILABLE
            if rule.endpoint == "games.game_stream":
                responses.update(STREAM_REFUSALS)
            responses.setdefault("default", DEFAULT_ERROR)
            if "requestBody" in operation:
                responses.setdefault("400", BAD_BODY)
                responses["413"] = TOO_LARGE
    _describe_create_game(spec)
    _links(spec)


def _describe_create_game(spec) -> None:
    """The games a server plays are known when it starts: the creation body says, per
    game, how many seats it takes and which options it has (each game's own options
    schema, closed to unknown keys). Rules that tie an option to the seat count (the
    first emperor must be a seat) stay the game's to check: a 400 ``bad_options``."""
    schema = spec.components.schemas.get("CreateGame")
    if schema is None:
        return
    variants = []
    for name, game in sorted(registry().items()):
        options = {"type": "object", "additionalProperties": False}
        if game.options_schema is not None:
            component = f"{_camel(name)}Options"
            if component not in spec.components.schemas:
                spec.components.schema(component, schema=game.options_schema)
                spec.components.schemas[component]["additionalProperties"] = False
            options = {"$ref": f"#/components/schemas/{component}"}
        variants.append(
            {
                "type": "object",
                "additionalProperties": False,
                "required": ["game", "seats"],
                "properties": {
                    **schema["properties"],
                    "game": {"type": "string", "enum": [name]},
                    "seats": {**schema["properties"]["seats"], "minItems": game.min_seats, "maxItems": game.max_seats},
                    "options": options,
                },
            }
        )
    schema["properties"]["game"]["enum"] = sorted(registry())
    schema["oneOf"] = variants
    schema["additionalProperties"] = False
    tournament = spec.components.schemas.get("TournamentCreate")
    if tournament is not None:
        if "TournamentOptions" not in spec.components.schemas:
            spec.components.schema("TournamentClock", schema=TournamentClockSchema)  # not the games' Clock
            spec.components.schema("TournamentOptions", schema=TournamentOptionsSchema)
            spec.components.schemas["TournamentOptions"]["additionalProperties"] = False
        tournament["properties"]["game"]["enum"] = sorted(registry())
        tournament["properties"]["options"] = {"$ref": "#/components/schemas/TournamentOptions"}
        tournament["required"] = sorted({*tournament.get("required", []), "options"})
        tournament["additionalProperties"] = False


def _camel(name: str) -> str:
    return "".join(part.title() for part in name.split("_"))


def _links(spec) -> None:
    """OpenAPI links: the id a creation answers names the game (or tournament) of every
    operation under it, so clients and generated tests can follow them."""
    paths = spec._paths
    for source, param, prefix in (
        ("/api/games", "game_id", "/api/games/{game_id}"),
        ("/api/tournaments", "tid", "/api/tournaments/{tid}"),
    ):
        created = paths.get(source, {}).get("post", {}).get("responses", {}).get("201")
        if created is None:
            continue
        links = created.setdefault("links", {})
        for path, operations in sorted(paths.items()):
            if not path.startswith(prefix):
                continue
            for method, operation in operations.items():
                if method not in ("get", "post", "delete"):
                    continue
                names = {p["name"] for p in operation.get("parameters", []) if p.get("in") == "path"}
                names |= set(re.findall(r"{([a-z_]+)}", path))
                if names != {param}:
                    continue  # links fill the id; other path parameters have no source here
                pointer = path.replace("~", "~0").replace("/", "~1")
                name = f"{method}{''.join(_camel(p) for p in re.split(r'[/{}-]+', path[len(prefix) :]) if p)}" or method
                links[name or method] = {
                    "operationRef": f"#/paths/{pointer}/{method}",
                    "parameters": {param: "$response.body#/id"},
                }
