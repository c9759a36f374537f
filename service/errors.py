"""One error type for the API, mapped to JSON ``{error: {code, message, details}}``."""

from __future__ import annotations

from events.writer import StaleHead, WriteConflict


class ApiError(Exception):
    def __init__(
        self, status: int, code: str, message: str, details: dict | None = None, retry_after: int | None = None
    ):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details or {}
        self.retry_after = retry_after
        if retry_after is not None:
            self.details["retry_after"] = retry_after

    def headers(self) -> dict:
        """``Retry-After`` on a refusal the client should retry (429, 503)."""
        return {} if self.retry_after is None else {"Retry-After": str(self.retry_after)}

    def body(self) -> dict:
        return {"error": {"code": self.code, "message": self.message, "details": self.details}}


def not_found(what: str) -> ApiError:
    return ApiError(404, "not_found", f"{what} not found")


def api_error(exc: ApiError | WriteConflict) -> ApiError:
    """The API's answer to an error: an ApiError as it is; the stream writer's refusals
    (``events.writer``) as 409s: ``stale_seq`` with the head's seq, or ``busy``."""
    if isinstance(exc, ApiError):
        return exc
    if isinstance(exc, StaleHead):
        return ApiError(409, "stale_seq", f"the game is at seq {exc.seq}", {"seq": exc.seq})
    return ApiError(409, "busy", "too many concurrent writers; try again")
