"""The service layer's refusals, by what went wrong rather than by transport status.

Services raise these; the HTTP edge (``service/http/errors.py``) is the one place that
maps each kind to a status."""

from __future__ import annotations

from events.refusal import Refusal

__all__ = [
    "Refusal",
    "Invalid",
    "Unauthenticated",
    "Forbidden",
    "NotFound",
    "Conflict",
    "TooLarge",
    "Unprocessable",
    "RateLimited",
    "Unavailable",
    "Broken",
    "not_found",
]


class Invalid(Refusal):
    """The request itself is malformed or fails its schema."""


class Unauthenticated(Refusal):
    """No credential, or one this server never issued."""


class Forbidden(Refusal):
    """A valid credential that may not do this."""


class NotFound(Refusal):
    """What the request names does not exist (or is not this caller's to see)."""


class Conflict(Refusal):
    """Well-formed, but the current state does not allow it."""


class TooLarge(Refusal):
    """The request is larger than this server takes."""


class Unprocessable(Refusal):
    """Well-formed, but the rules or the data refuse it whatever the state."""


class RateLimited(Refusal):
    """Too much from this client; ``retry_after`` says when to come back."""


class Unavailable(Refusal):
    """This worker cannot serve it now; retry shortly."""


class Broken(Refusal):
    """Stored data the server cannot read: an operator's problem, never the caller's."""


def not_found(what: str) -> NotFound:
    return NotFound("not_found", f"{what} not found")
