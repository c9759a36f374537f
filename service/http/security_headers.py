"""Security headers on every response: a Content-Security-Policy that allows only this
server's own scripts and forbids framing (clickjacking), plus the classic companions.

Styles allow ``'unsafe-inline'``: the game renderers set element styles (seat colours,
board positions) and the vendored Swagger UI injects style attributes; inline *scripts*
stay forbidden, which is what protects the tokens a page holds.

Every ``/api/`` answer says ``Cache-Control: no-store``: game creation, claims and
sessions carry tokens, a seat's view and a referee's carry hidden state, and even a
public answer (a lobby page, a live game's meta) changes with the next move. No API
answer is both public and immutable enough to be worth a cache's risk (docs/API.md).
The pages set it themselves; static files keep their own caching.
"""

from __future__ import annotations

from flask import Flask, Response, request

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


def install(app: Flask) -> None:
    @app.after_request
    def secure(response: Response) -> Response:
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        if request.path.startswith("/api/") and not request.path.startswith("/api/docs"):
            response.headers["Cache-Control"] = "no-store"
        return response
