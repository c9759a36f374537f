"""Security headers on every response: a Content-Security-Policy that allows only this
server's own scripts and forbids framing (clickjacking), plus the classic companions.

Styles allow ``'unsafe-inline'``: the game renderers set element styles (seat colours,
board positions) and the vendored Swagger UI injects style attributes; inline *scripts*
stay forbidden, which is what protects the tokens a page holds.
"""

from __future__ import annotations

from flask import Flask

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
    def secure(response):
        for name, value in HEADERS.items():
            response.headers.setdefault(name, value)
        return response
