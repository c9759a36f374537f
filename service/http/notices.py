"""Notice settings, Web Push subscriptions and unsubscribe links over HTTP (thin routes)."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, wraps
from typing import ParamSpec, TypeVar

from flask import current_app, request
from marshmallow import Schema, fields, validate

from events.shapes import JSON
from events.strict_fields import StrictBoolean
from service.http.blueprints import Blueprint
from service.http.openapi import BEARER, OBJECT, SESSION_REFUSED, refusals
from service.services.callers import bearer_token
from service.services.notices import KINDS
from service.vapid import application_server_key, load_vapid
from service.wiring import services

bp = Blueprint("notices", __name__, url_prefix="/api", description="Notices by e-mail and Web Push")


class NoticeSettingsSchema(Schema):
    email = fields.Email(allow_none=True, validate=validate.Length(max=254))
    email_on = StrictBoolean()
    push_on = StrictBoolean()
    kinds = fields.List(fields.String(validate=validate.OneOf(KINDS)), validate=validate.Length(max=len(KINDS)))


class PushKeysSchema(Schema):
    p256dh = fields.String(required=True, validate=validate.Length(min=20, max=200))
    auth = fields.String(required=True, validate=validate.Length(min=8, max=100))


class PushSubscriptionSchema(Schema):
    """A browser's ``PushSubscription.toJSON()``."""

    # push services answer on https only; the server posts to nothing else
    endpoint = fields.Url(required=True, schemes={"https"}, validate=validate.Length(max=1000))
    keys = fields.Nested(PushKeysSchema, required=True)
    expirationTime = fields.Raw(allow_none=True)  # noqa: N815  # the browser's name


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _account() -> str:
    return services().accounts.session(bearer_token(request.headers))


def session_first(view: Callable[_P, _R]) -> Callable[_P, _R]:
    """The session is checked before the body is read: without one the answer is 401
    whatever the body holds."""

    @wraps(view)
    def checked(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        _account()
        return view(*args, **kwargs)

    return checked


@cache
def _public_key(data_dir: str) -> str:
    return application_server_key(load_vapid(data_dir))


@bp.route("/notices/key")
@refusals(bp, {})
@bp.alt_response(200, schema=OBJECT, description="the server's VAPID public key (base64url): key", success=True)
def vapid_key() -> JSON:
    """The server's VAPID public key, for ``pushManager.subscribe``."""
    return {"key": _public_key(current_app.config["DATA_DIR"])}


@bp.route("/me/notices")
@bp.doc(security=BEARER)
@refusals(bp, {401: SESSION_REFUSED})
@bp.alt_response(
    200,
    schema=OBJECT,
    description="the notice settings: email, email_on, push_on, kinds, push_subscriptions",
    success=True,
)
def my_notices() -> JSON:
    """The account's notice settings."""
    return services().notices.settings(_account())


@bp.route("/me/notices", methods=["PUT"])
@session_first
@bp.arguments(NoticeSettingsSchema)
@bp.doc(security=BEARER)
@refusals(bp, {401: SESSION_REFUSED})
@bp.alt_response(200, schema=OBJECT, description="the notice settings as changed", success=True)
def change_notices(body: JSON) -> JSON:
    """Change the account's notice settings: its e-mail address, e-mail and push on or
    off, and which kinds of notice it wants."""
    return services().notices.change(_account(), body)


@bp.route("/me/notices/push", methods=["POST"])
@session_first
@bp.arguments(PushSubscriptionSchema)
@bp.doc(security=BEARER)
@refusals(bp, {401: SESSION_REFUSED})
@bp.alt_response(201, schema=OBJECT, description="the notice settings, with the subscription added", success=True)
def subscribe(body: JSON) -> tuple[JSON, int]:
    """Add this browser's Web Push subscription to the account."""
    return services().notices.subscribe(_account(), {"endpoint": body["endpoint"], "keys": body["keys"]}), 201


@bp.route("/notices/unsubscribe/<token>", methods=["GET", "POST"])
@refusals(bp, {404: "no such unsubscribe link"})
@bp.alt_response(
    200, schema=OBJECT, description="e-mail notices off for the link's account: account, email_on", success=True
)
def unsubscribe(token: str) -> JSON:
    """An e-mail's unsubscribe link (GET, or the one-click POST of RFC 8058): no more
    e-mail notices for its account."""
    return services().notices.unsubscribe(token)
