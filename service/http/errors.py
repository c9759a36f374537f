"""The one map from refusals to HTTP statuses, and the JSON body every refusal gets.

Every layer below raises a ``Refusal`` (or the rules' ``IllegalAction``) that says what
went wrong; only this module says what status that is. A kind not listed falls back to
its nearest listed base class."""

from __future__ import annotations

from flask import Response, jsonify

from events.refusal import Refusal
from events.shapes import JSON
from events.writer import WriteConflict
from projections.games.base import IllegalAction
from projections.tournaments.fold import TournamentConflict, TournamentError, TournamentUnknown
from service.http import i18n
from service.services.errors import (
    Broken,
    Conflict,
    Forbidden,
    Invalid,
    NotFound,
    RateLimited,
    TooLarge,
    Unauthenticated,
    Unavailable,
    Unprocessable,
)

STATUS: dict[type[Exception], int] = {
    Invalid: 400,
    Unauthenticated: 401,
    Forbidden: 403,
    NotFound: 404,
    TournamentUnknown: 404,
    Conflict: 409,
    WriteConflict: 409,
    TournamentConflict: 409,
    TooLarge: 413,
    Unprocessable: 422,
    TournamentError: 422,
    IllegalAction: 422,
    RateLimited: 429,
    Broken: 500,
    Unavailable: 503,
    Refusal: 422,
}

REFUSALS = (Refusal, IllegalAction)


def status_of(exc: Exception) -> int:
    for kind in type(exc).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return 500


def body_of(exc: Refusal | IllegalAction) -> JSON:
    """``{error: {code, message, details}}``, the message in the request's language."""
    message = i18n.localize_error(exc.code, exc.message, status_of(exc))
    return {"error": {"code": exc.code, "message": message, "details": exc.details}}


def response_of(exc: Refusal | IllegalAction) -> tuple[Response, int, dict[str, str]]:
    """The whole HTTP answer to a refusal: its JSON body, status and headers."""
    return jsonify(body_of(exc)), status_of(exc), headers_of(exc)


def headers_of(exc: Exception) -> dict[str, str]:
    """``Retry-After`` on a refusal the client should retry (429, 503)."""
    retry_after = getattr(exc, "retry_after", None)
    return {} if retry_after is None else {"Retry-After": str(retry_after)}
