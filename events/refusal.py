"""The base of every refusal, whatever layer raises it.

A refusal carries a stable ``code`` for clients, a message for people and details; it
never carries a transport status. Which HTTP status (or socket answer) each kind of
refusal gets is decided in one place, at the HTTP edge (``service/http/errors.py``)."""

from __future__ import annotations

from .shapes import JSON


class Refusal(Exception):
    def __init__(self, code: str, message: str, details: JSON | None = None, retry_after: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details: JSON = details or {}
        self.retry_after = retry_after
        if retry_after is not None:
            self.details["retry_after"] = retry_after

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"
