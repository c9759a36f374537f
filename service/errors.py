"""One error type for the API, mapped to JSON ``{error: {code, message, details}}``."""
from __future__ import annotations


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, details: dict | None = None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details or {}

    def body(self) -> dict:
        return {"error": {"code": self.code, "message": self.message, "details": self.details}}


def not_found(what: str) -> ApiError:
    return ApiError(404, "not_found", f"{what} not found")
