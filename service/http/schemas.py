"""Request schemas of the HTTP API (the edge: JSON in, validated dicts out).

Every number has bounds (a seq fits in a JSON-safe integer and in a Redis stream id;
points and counts stay within what a game can mean) and body fields are strictly typed
(``"5"`` is not an integer, ``1`` is not a boolean), so what the OpenAPI document
declares is exactly what is accepted.
"""

import re
import unicodedata
from functools import cache
from typing import Any

from marshmallow import Schema, fields, validate, validates_schema

from events.strict_fields import StrictBoolean, StrictFloat, StrictInteger
from events.tournament_schemas import MAX_VACATION_DAYS, PER_MOVE_DAYS, one_clock_kind
from projections.games import registry
from service.services import names
from service.services.errors import Invalid
from service.services.games import EVENTS_PAGE
from service.services.lobby import CURSOR

MAX_SEQ = 2**53 - 1  # the largest integer every JSON reader keeps exactly; far below Redis's 2^64 ids
MAX_POINTS = 10_000
MAX_SEATS = 20


def name_text(unsafe: str = "", max_length: int = 60) -> dict[str, Any]:
    """What ``names.normalise`` refuses (and, for an account's name, what would break its
    page's address: ``unsafe`` characters, only dots), as far as a pattern can say it: no
    control character but white space, and one character that shows something on its
    own, of the Basic Multilingual Plane (a name of marks, format characters or blanks
    alone shows nothing)."""
    return {
        "pattern": _name_pattern(unsafe),
        "description": "no control characters but white space, and something visible (400 bad_name); "
        f"at most {max_length} characters once normalised (NFKC)",
    }


@cache
def _name_pattern(unsafe: str) -> str:
    def nfkc(c: int) -> str:
        return unicodedata.normalize("NFKC", chr(c))

    bmp = [c for c in range(0x10000) if not 0xD800 <= c <= 0xDFFF]
    refused = {c for c in bmp if unicodedata.category(chr(c)) == "Cc" and not chr(c).isspace()}
    refused |= {c for c in bmp if any(u in nfkc(c) for u in unsafe)}
    dots = {c for c in bmp if unsafe and not nfkc(c).strip(".")}  # an account's name is not only dots
    shows = [c for c in bmp if c not in refused and c not in dots and names.shows(chr(c))]
    anything = f"[^{_ranges(sorted(refused))}]*"
    return f"^{anything}[{_ranges(shows)}]{anything}$"


def _ranges(codes: list[int]) -> str:
    """A regular-expression class body for the code points (ascending), ``\\uXXXX`` escaped."""
    out, start = [], None
    for i, code in enumerate(codes):
        start = code if start is None else start
        if i + 1 == len(codes) or codes[i + 1] != code + 1:
            out.append(f"\\u{start:04x}" if start == code else f"\\u{start:04x}-\\u{code:04x}")
            start = None
    return "".join(out)


NAME_TEXT = name_text()
NAME = fields.String(validate=validate.Length(min=1, max=60), metadata=NAME_TEXT)
DISTINCT = {
    "uniqueItems": True,
    "description": "one name per seat; two that look the same are refused (400 same_seat_names)",
}
"""Documents what ``names.check_seats`` refuses as far as a schema can say it."""
ACTION_TYPES = sorted({kind for game in registry().values() for kind in game.action_schemas})
"""Every action any game on this server has: the document's list of action types."""
_DIGITS = re.compile(r"[0-9]{1,16}")


def seq(required: bool = False, minimum: int = 1, strict: bool = True, **kwargs: Any) -> fields.Integer:
    """A seq (or a count of steps): an integer in [minimum, MAX_SEQ]."""
    kind = StrictInteger if strict else fields.Integer  # a query's text is not strict
    return kind(required=required, validate=validate.Range(min=minimum, max=MAX_SEQ), **kwargs)


def parse_seq(text: str | None, name: str) -> int | None:
    """A seq given as text (``Last-Event-ID``): None when absent, 400 when not one."""
    if not text:
        return None
    if not _DIGITS.fullmatch(text) or int(text) > MAX_SEQ:
        raise Invalid("bad_request", f"{name} must be a seq (0 to {MAX_SEQ})", {name: [text[:40]]})
    return int(text)


class ClockSchema(Schema):
    """Live (``base``, ``increment``) or turn-based (``per_move_days``, ``vacation_days``)."""

    base = StrictFloat(validate=validate.Range(min=1, max=86400 * 7))
    per_move_days = StrictInteger(validate=validate.OneOf(PER_MOVE_DAYS))
    vacation_days = StrictInteger(validate=validate.Range(min=0, max=MAX_VACATION_DAYS))
    increment = StrictFloat(load_default=0, validate=validate.Range(min=0, max=3600))
    first_move = StrictFloat(validate=validate.Range(min=1, max=86400))  # absent: FIRST_MOVE_SECONDS
    pause_on_dispute = StrictBoolean()  # a seat's dispute stops the clocks until the referee settles it

    @validates_schema
    def one_kind(self, data: dict[str, Any], **kwargs: Any) -> None:
        one_clock_kind(data)


class CreateGameSchema(Schema):
    game = fields.String(required=True, validate=validate.Length(min=1, max=60))
    seats = fields.List(NAME, required=True, validate=validate.Length(min=1, max=MAX_SEATS), metadata=DISTINCT)
    options = fields.Dict(load_default=dict)
    clock = fields.Nested(ClockSchema, load_default=None, allow_none=True)
    ranked = StrictBoolean(load_default=True)
    bots = fields.List(fields.Nested(lambda: BotSeatSchema()), load_default=list, validate=validate.Length(max=20))
    account_seat = StrictInteger(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=MAX_SEATS - 1),
        metadata={"description": "bind this seat to the logged-in account (Authorization: Bearer <session token>)"},
    )


class GameFilterSchema(Schema):
    """The lobby: a page of at most ``limit`` games, newest first; ``cursor`` is the
    ``next`` of the previous page (service/services/lobby.py)."""

    game = fields.String(validate=validate.Length(min=1, max=60))
    status = fields.String(validate=validate.OneOf(["active", "paused", "finished"]))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=100))
    cursor = fields.String(validate=validate.Regexp(CURSOR))


class ViewQuerySchema(Schema):
    at = fields.Integer(validate=validate.Range(min=-MAX_SEQ, max=MAX_SEQ))


class EventsQuerySchema(Schema):
    after = seq(minimum=0, strict=False, load_default=0)
    limit = fields.Integer(load_default=EVENTS_PAGE, validate=validate.Range(min=1, max=EVENTS_PAGE))


class ActionSchema(Schema):
    type = fields.String(
        required=True,
        validate=validate.Length(min=1, max=80),
        metadata={
            "enum": ACTION_TYPES,
            "description": "one of the game's actions (its legal actions say which; another game's is 400 unknown_action)",
        },
    )
    payload = fields.Dict(load_default=dict)
    action_id = fields.String(
        load_default=None,
        allow_none=True,
        validate=[
            validate.Length(min=1, max=100),
            validate.Regexp(r"^(?!sys:)", error="action ids starting with 'sys:' are the platform's own"),
        ],
    )
    expected_seq = seq(minimum=0, load_default=None, allow_none=True)


class UndoSchema(Schema):
    to_seq = seq(required=True)


class ForkSchema(Schema):
    at_seq = seq(required=True)
    seats = fields.List(
        NAME, load_default=None, allow_none=True, validate=validate.Length(min=1, max=MAX_SEATS), metadata=DISTINCT
    )


REASON = fields.String(load_default="", validate=validate.Length(max=500))
DISPUTE = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=40))
SEAT = StrictInteger(required=True, validate=validate.Range(min=0, max=MAX_SEATS - 1))


class PauseSchema(Schema):
    reason = REASON


class RewindSchema(Schema):
    to_seq = seq(required=True)
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    dispute = DISPUTE


class AdjustSchema(Schema):
    seat = SEAT
    points = StrictInteger(required=True, validate=validate.Range(min=-MAX_POINTS, max=MAX_POINTS))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    dispute = DISPUTE


class ForfeitSchema(Schema):
    seat = SEAT
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    dispute = DISPUTE


STRENGTH = StrictInteger(load_default=2, validate=validate.Range(min=1, max=3))


class BotSeatSchema(Schema):
    """A computer in a seat: ``strength`` 1-3 sets its search budget (docs/BOTS.md)."""

    seat = StrictInteger(required=True, validate=validate.Range(min=0, max=19))
    strength = STRENGTH


class RefereeBotSchema(BotSeatSchema):
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    withdrawn = fields.Boolean(load_default=False)  # the seat's player left: it ranks last
    dispute = DISPUTE


class DismissSchema(Schema):
    dispute = fields.String(required=True, validate=validate.Length(min=1, max=40))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))


class AdjustmentSchema(Schema):
    seat = StrictInteger(required=True)
    points = StrictInteger(required=True)


class CorrectionSchema(Schema):
    adjustments = fields.List(fields.Nested(AdjustmentSchema), load_default=list, validate=validate.Length(max=20))
    reason = fields.String(required=True, validate=validate.Length(min=1, max=500))
    dispute = DISPUTE
    cancel = StrictBoolean(load_default=False)  # a clock forfeit the service's outage caused: no result


class AnnotationSchema(Schema):
    """``author`` is a spectator's display name only: seats and the referee are named
    from their token (service/services/annotations.py)."""

    seq = seq(required=True)
    # checked (after stripping) by service/services/annotations.py, whose 400 says bad_text
    text = fields.String(required=True, metadata={"minLength": 1, "maxLength": 2000})
    kind = fields.String(load_default="comment", validate=validate.OneOf(["comment", "dispute"]))
    author = fields.String(load_default=None, allow_none=True, validate=validate.Length(min=1, max=40))


class AnnotationQuerySchema(Schema):
    """A page of annotations in order; ``after`` is the ``next`` of the previous page."""

    after = fields.String(validate=validate.Regexp(r"^[0-9]{1,19}-[0-9]{1,19}$"))  # a Redis stream id (< 2^64)
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=200))


REFEREE_SCHEMAS = {
    "pause": PauseSchema,
    "resume": PauseSchema,
    "rewind": RewindSchema,
    "adjust": AdjustSchema,
    "forfeit": ForfeitSchema,
    "dismiss": DismissSchema,
    "bot": RefereeBotSchema,
}
