"""The OpenAPI document (3.1), generated from the routes: flask-smorest documents each
route's body (``@bp.arguments``), its success answers and its own refusals
(``@bp.alt_response`` on the route); the answers' schemas are service/http/responses.py.

What is added here is what no single route says: the refusals every operation can give
(429 and 503 with ``Retry-After``, 413 where a body is taken: the rate limiter's, the
storage guard's and the body limit's, not the route's), the links from a creation to
the operations under it, and the schemas known only once every game is loaded: each
game's creation body and tournament (the games are a registry, not classes a route
names) and the two kinds of clock (a rule between fields). docs/API.md, "The contract".
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any, TypeVar

from apispec import APISpec, BasePlugin
from flask import Flask
from flask_smorest import Api as SmorestApi
from flask_smorest import Blueprint

from events.shapes import JSON
from events.tournament_schemas import ClockSchema as TournamentClockSchema
from events.tournament_schemas import TournamentOptionsSchema
from projections.games import registry
from projections.games.base import Game
from service.http import responses as R

_F = TypeVar("_F", bound=Callable[..., Any])

ERROR_REF = {"$ref": "#/components/schemas/Error"}
OBJECT: JSON = {"type": "object"}
"""An answer whose fields the route's description names (an open object)."""
TEXT: JSON = {"type": "string"}
"""An answer that is not JSON (its content type says what)."""
SSE_EVENT: JSON = {
    "type": "object",
    "properties": {
        "event": {"type": "string", "enum": ["appended", "chat"]},
        "data": {"type": "string", "contentMediaType": "application/json"},
        "id": {"type": "string"},
    },
    "required": ["data"],
}
"""One event of a live stream, as OpenAPI 3.2 describes Server-Sent Events: ``appended``
(an entry; its id is its seq) or ``chat`` (the chat's mark), each with JSON data."""


class Api(SmorestApi):
    """flask-smorest with the server's own error body as its error schema, the answers'
    schemas and the shared refusals as components (so routes name them), and the
    operations' common refusals and links added as each is documented."""

    ERROR_SCHEMA = R.ErrorSchema
    DEFAULT_ERROR_RESPONSE_NAME = "ANY_ERROR"

    def __init__(self, app: Flask) -> None:
        super().__init__(app, spec_kwargs={"extra_plugins": [EveryOperation()]})
        components = self.spec.components
        components.security_scheme("bearerAuth", BEARER_AUTH)
        for name, schema in SCHEMAS.items():
            components.schema(name, schema=schema)
        for name, response in SHARED_ANSWERS.items():
            components.response(name, response)


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
    "Roster": R.RosterSchema,
    "Withdrawn": R.WithdrawnSchema,
    "PlayerGames": R.PlayerGamesSchema,
    "Round": R.RoundSchema,
    "Table": R.TableSchema,
    "Standings": R.StandingsSchema,
    "Registration": R.RegistrationSchema,
    "OpenDisputes": R.OpenDisputesSchema,
    "Directors": R.DirectorsSchema,
    "DirectorLink": R.DirectorLinkSchema,
}


RETRY_AFTER: JSON = {
    "Retry-After": {
        "description": "seconds to wait before retrying",
        "required": True,
        "schema": {"type": "integer", "minimum": 1},
    }
}
"""Sent with every 429 and 503 (service/http/errors.py)."""


def _retry(description: str) -> JSON:
    """A refusal to retry: the error body and the seconds to wait (always sent)."""
    return {"description": description, "headers": RETRY_AFTER, "content": {"application/json": {"schema": ERROR_REF}}}


RATE_LIMITED = _retry("rate limited (per client); retry after the given seconds")
UNAVAILABLE = _retry(
    "storage is unreachable (`storage_unavailable`: a write may have been applied; retry it with the same "
    "`action_id`) or full (`storage_full`: nothing written); retry after the given seconds"
)
# Seating computers: the cap per creator on computers in play (service/services/computer_seats.py).
COMPUTER_CAP = _retry(
    "rate limited (per client), or this client's unfinished games already have as many computer seats, "
    "or strengths, as it may have in play (`computer_seats_cap`)"
)
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
TOO_LARGE = {
    "description": "the body is larger than the route takes (MAX_BODY_BYTES; /api/verify: VERIFY_MAX_BYTES)",
    "content": {"application/json": {"schema": ERROR_REF}},
}
DEFAULT_ERROR = {"description": "any other error", "content": {"application/json": {"schema": ERROR_REF}}}
SHARED_ANSWERS = {
    "RATE_LIMITED": RATE_LIMITED,
    "UNAVAILABLE": UNAVAILABLE,
    "COMPUTER_CAP": COMPUTER_CAP,
    "TOO_MANY_STREAMS": STREAM_REFUSALS["429"],
    "NO_STREAM_SLOT": STREAM_REFUSALS["503"],
    "TOO_LARGE": TOO_LARGE,
    "ANY_ERROR": DEFAULT_ERROR,
}
"""Answers named by many operations (``@bp.alt_response(429, "COMPUTER_CAP")``)."""
VERIFY_LINE = {
    "type": "object",
    "description": "an envelope (the Envelope schema); any other object is judged, not refused",
}
VERIFY_BODY = {
    "required": True,
    "description": "an export as is: JSON Lines, one envelope per line (the schema describes the lines, as an "
    "array; one object is a one-line export)",
    "content": {
        "application/x-ndjson": {
            "schema": {"anyOf": [{"type": "array", "minItems": 1, "items": VERIFY_LINE}, VERIFY_LINE]}
        }
    },
}


BEARER_AUTH = {
    "type": "http",
    "scheme": "bearer",
    "description": "a token the server answered once: a tournament's director token, a player's token, "
    "or an account's session token (each operation says which)",
}


BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]
BEARER_OR_NONE: list[dict[str, list[str]]] = [{}, {"bearerAuth": []}]
SESSION_REFUSED = "no session, or an expired or revoked one"


def refusals(bp: Blueprint, answers: dict[int, str]) -> Callable[[_F], _F]:
    """Document the refusals a route gives (the ``{"error": {...}}`` body), each with why."""

    def decorate(view: _F) -> _F:
        for code, why in reversed(list(answers.items())):
            headers = RETRY_AFTER if code in (429, 503) else None
            view = bp.alt_response(code, schema=R.ErrorSchema, description=why, headers=headers)(view)
        return view

    return decorate


# A result names a game of the tournament: a pairing's tables answer them, so the link to
# the results route starts there (with that tournament and its first table's game), not
# at the tournament's creation, whose answer names no game.
PAIRING = ("/api/tournaments/{tid}/rounds", "post")
BY_PAIRING = {("/api/tournaments/{tid}/results", "post")}
# The refusals of the layers in front of every route, unless the route declares its own.
EVERY_OPERATION = (("429", "RATE_LIMITED"), ("503", "UNAVAILABLE"))


class EveryOperation(BasePlugin):
    """What every operation answers besides its route's own answers, added as apispec
    documents it (its public operation hook): the rate limiter's 429 and the storage
    guard's 503, the body limit's 413 where a body is taken; and links from a creation
    to the operations under it."""

    def __init__(self) -> None:
        self._links: dict[str, JSON] = {"game_id": {}, "tid": {}}

    def operation_helper(
        self, path: str | None = None, operations: dict[str, JSON] | None = None, **kwargs: Any
    ) -> None:
        if path is None or operations is None or not path.startswith("/api/"):
            return
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            declared = {str(status) for status in responses}
            for status, name in EVERY_OPERATION + ((("413", "TOO_LARGE"),) if "requestBody" in operation else ()):
                if status not in declared:
                    responses[status] = name
            self._link(path, method, operation)

    def _link(self, path: str, method: str, operation: JSON) -> None:
        """OpenAPI links: the id a creation answers names the game (or tournament) of
        every operation under it, so clients and generated tests can follow them."""
        if (path, method) == PAIRING:
            _answer(operation, "201")["links"] = {
                f"{m}{_camel(p.rsplit('/', 1)[1])}": {
                    "operationRef": f"#/paths/{p.replace('/', '~1')}/{m}",
                    "parameters": {"tid": "$request.path.tid"},
                    "requestBody": {"game_id": "$response.body#/tables/0/game_id"},
                }
                for p, m in sorted(BY_PAIRING)
            }
        for source, param, prefix in (
            ("/api/games", "game_id", "/api/games/{game_id}"),
            ("/api/tournaments", "tid", "/api/tournaments/{tid}"),
        ):
            if path == source and method == "post":
                _answer(operation, "201")["links"] = self._links[param]
            if not path.startswith(prefix) or method not in ("get", "post", "delete"):
                continue
            if set(re.findall(r"{([a-z_]+)}", path)) != {param} or (path, method) in BY_PAIRING:
                continue  # links fill the id; other path parameters have no source here
            pointer = path.replace("~", "~0").replace("/", "~1")
            tail = "".join(_camel(p) for p in re.split(r"[/{}-]+", path[len(prefix) :]) if p)
            self._links[param][f"{method}{tail}"] = {
                "operationRef": f"#/paths/{pointer}/{method}",
                "parameters": {param: "$response.body#/id"},
            }


def _answer(operation: JSON, status: str) -> JSON:
    """The operation's answer for a status (its keys are still ints here, strings once
    apispec has cleaned the operation)."""
    responses = operation["responses"]
    key = next(k for k in responses if str(k) == status)
    answer: JSON = responses[key]
    return answer


def document(smorest: Api) -> None:
    """The schemas known once every game is loaded: the creation bodies per game and the
    two kinds of clock (call after every blueprint is registered)."""
    spec = smorest.spec
    _describe_create_game(spec)
    for clock in ("Clock", "TournamentClock"):
        _clock_kinds(spec, clock)


def _clock_kinds(spec: APISpec, name: str) -> None:
    """A clock is live (``base``) or turn-based (``per_move_days``), never both nor
    neither, and a turn-based one has no increment (``one_clock_kind``): a rule between
    fields, which the schema class cannot state; the document gives the two kinds as
    closed, named variants."""
    schema = spec.components.schemas.get(name)
    if schema is None or "oneOf" in schema:
        return
    fields = schema["properties"]
    common = ("first_move", "pause_on_dispute")
    kinds = {
        "Live": (["base"], {k: fields[k] for k in ("base", "increment", *common)}),
        "TurnBased": (
            ["per_move_days"],
            {
                **{k: fields[k] for k in ("per_move_days", "vacation_days", *common)},
                "increment": {"type": "number", "minimum": 0, "maximum": 0, "description": "none (0 or absent)"},
            },
        ),
    }
    variants = []
    for kind, (required, properties) in kinds.items():
        spec.components.schema(
            f"{kind}{name}",
            component={"type": "object", "required": required, "properties": properties, "additionalProperties": False},
        )
        variants.append({"$ref": f"#/components/schemas/{kind}{name}"})
    spec.components.schemas[name] = {"oneOf": variants}


def _describe_create_game(spec: APISpec) -> None:
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
        variant = f"Create{_camel(name)}Game"
        spec.components.schema(
            variant,
            component={
                "type": "object",
                "additionalProperties": False,
                "required": ["game", "seats"],
                "properties": {
                    **schema["properties"],
                    "game": {"type": "string", "enum": [name]},
                    "seats": {**schema["properties"]["seats"], "minItems": game.min_seats, "maxItems": game.max_seats},
                    "options": options,
                },
            },
        )
        variants.append({"$ref": f"#/components/schemas/{variant}"})
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
        tournament["oneOf"] = [_tournament_of(spec, name, game) for name, game in sorted(registry().items())]


def _tournament_of(spec: APISpec, name: str, game: Game) -> JSON:
    """A tournament of one game: its tables seat as many as the game takes (at least
    two), its points have one value per seat at a table, its games' options are the
    game's own."""
    options = copy.deepcopy(spec.components.schemas["TournamentOptions"])
    smallest = max(2, game.min_seats)
    options["properties"]["table_size"].update(minimum=smallest, maximum=game.max_seats)
    options["properties"]["points"].update(minItems=smallest, maxItems=game.max_seats)
    if game.options_schema is not None:
        options["properties"]["game_options"] = {"$ref": f"#/components/schemas/{_camel(name)}Options"}
    else:
        options["properties"]["game_options"] = {"type": "object", "additionalProperties": False}
    spec.components.schema(f"{_camel(name)}TournamentOptions", component=options)
    tournament = copy.deepcopy(spec.components.schemas["TournamentCreate"])
    tournament["properties"]["game"] = {"type": "string", "enum": [name]}
    tournament["properties"]["options"] = {"$ref": f"#/components/schemas/{_camel(name)}TournamentOptions"}
    variant = f"Create{_camel(name)}Tournament"
    spec.components.schema(variant, component=tournament)
    return {"$ref": f"#/components/schemas/{variant}"}


def _camel(name: str) -> str:
    return "".join(part.title() for part in name.split("_"))
