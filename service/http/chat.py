"""Table chat over HTTP (thin routes); the seat's or referee's token, or an account's
session for a spectator, as ``Authorization: Bearer`` (optional for reading only)."""

from __future__ import annotations

from flask import request
from marshmallow import Schema, fields, validate

from events.shapes import JSON
from events.strict_fields import StrictBoolean, StrictInteger
from service.http.blueprints import Blueprint
from service.http.openapi import BEARER, OBJECT, refusals
from service.services.callers import bearer_token
from service.services.chat import MAX_TEXT, Speaker
from service.wiring import services

bp = Blueprint("chat", __name__, url_prefix="/api", description="Table chat beside a game's log")

MESSAGE_ID = r"^\d{1,20}-\d{1,20}$"
CLOSED = "the chat is closed to this caller (seats of a tournament game until the director opens it; spectators until the referee does)"


class ChatQuerySchema(Schema):
    after = fields.String(validate=validate.Regexp(MESSAGE_ID))


class SaySchema(Schema):
    text = fields.String(required=True, validate=validate.Length(min=1, max=MAX_TEXT))


class MuteSchema(Schema):
    seat = StrictInteger(required=True, validate=validate.Range(min=0, max=19))
    muted = StrictBoolean(load_default=True)


class HideSchema(Schema):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))


class ChatSettingsSchema(Schema):
    seats = StrictBoolean(load_default=None, allow_none=True)
    spectators = StrictBoolean(load_default=None, allow_none=True)


def speaker(game_id: str) -> Speaker:
    return services().chat.speaker(game_id, bearer_token(request.headers))


@bp.route("/games/<game_id>/chat")
@bp.arguments(ChatQuerySchema, location="query")
@refusals(bp, {401: "a token of nobody", 403: CLOSED, 404: "no such game"})
@bp.alt_response(
    200,
    schema=OBJECT,
    description="settings, muted (seats), messages: [{id, role, seat?, name, text?, ts, hidden?}], mark",
    success=True,
)
def read_chat(query: JSON, game_id: str) -> JSON:
    """The chat after ``after`` (a message id), oldest first, without the seats the reader
    muted; a hidden message keeps its author and time, its text only for the referee."""
    return services().chat.read(game_id, speaker(game_id), query.get("after"))


@bp.route("/games/<game_id>/chat", methods=["POST"])
@bp.arguments(SaySchema)
@bp.doc(security=BEARER)
@refusals(bp, {401: "no token or session", 403: CLOSED, 404: "no such game", 429: "too many messages"})
@bp.alt_response(201, schema=OBJECT, description="the message: id, role, seat?, name, text, ts", success=True)
def say(body: JSON, game_id: str) -> tuple[JSON, int]:
    """Write in the chat (at most 5 messages in 10 seconds per writer)."""
    return services().chat.say(game_id, speaker(game_id), body["text"]), 201


@bp.route("/games/<game_id>/chat/mute", methods=["POST"])
@bp.arguments(MuteSchema)
@bp.doc(security=BEARER)
@refusals(bp, {401: "no token or session", 403: CLOSED, 404: "no such game"})
@bp.alt_response(200, schema=OBJECT, description="muted: the seats the caller muted", success=True)
def mute(body: JSON, game_id: str) -> JSON:
    """Mute (or, with ``muted: false``, hear again) a seat in the caller's own chat."""
    return services().chat.mute(game_id, speaker(game_id), body["seat"], body["muted"])


@bp.route("/games/<game_id>/chat/<message_id>/hide", methods=["POST"])
@bp.arguments(HideSchema)
@bp.doc(security=BEARER)
@refusals(bp, {401: "no token", 403: "not the referee", 404: "no such game or message"})
@bp.alt_response(200, schema=OBJECT, description="the message, marked hidden (by, reason, ts)", success=True)
def hide(body: JSON, game_id: str, message_id: str) -> JSON:
    """The referee hides a message: it is kept and marked, its text shown to the referee only."""
    return services().chat.hide(game_id, speaker(game_id), message_id, body["reason"])


@bp.route("/games/<game_id>/chat/settings", methods=["POST"])
@bp.arguments(ChatSettingsSchema)
@bp.doc(security=BEARER)
@refusals(bp, {401: "no token", 403: "not the referee", 404: "no such game"})
@bp.alt_response(200, schema=OBJECT, description="the chat's settings: seats, spectators", success=True)
def chat_settings(body: JSON, game_id: str) -> JSON:
    """The referee opens or closes the chat to the seats and to spectators."""
    return services().chat.configure(game_id, speaker(game_id), body["seats"], body["spectators"])
