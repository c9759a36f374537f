"""One error type for the API, mapped to JSON ``{error: {code, message, details}}``."""

from __future__ import annotations


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
