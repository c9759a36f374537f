"""One body limit for every route: ``MAX_BODY_BYTES`` (64 KiB), except the export
upload ``/api/verify`` (``VERIFY_MAX_BYTES``, an export of a long game is larger).

A body announced larger than its limit is refused with 413 before any of it is read
(``Content-Length`` is checked before the view runs, whatever the route or method). A
chunked body (no length announced) is read here, at most one byte past the limit, and
refused with the same 413 as soon as it passes it: werkzeug's own limit on such streams
stops reading at the limit and hands the view a truncated body, which then fails as
malformed JSON (a 400 that hides the real cause). A route that forgets to read its body
through a limit cannot exist: the limit is the application's, not a blueprint's. A
chunked body gunicorn cannot parse (a chunk size that is not hex, a chunk without its
end) is a 400 ``malformed`` here too: gunicorn raises it while the body is read. So is
a body that ends before its ``Content-Length`` (the client stopped sending): gunicorn
hands on what arrived, and a truncated body must not be taken for the whole.
"""

from __future__ import annotations

import io

from flask import Flask, current_app, request
from gunicorn.http.errors import NoMoreData, ParseException

from service.services.errors import Invalid, Refusal, TooLarge

UPLOAD_ENDPOINTS = {"games.verify_export": "VERIFY_MAX_BYTES"}


def limit() -> int:
    most: int = current_app.config[UPLOAD_ENDPOINTS.get(request.endpoint or "", "MAX_BODY_BYTES")]
    return most


def install(app: Flask) -> None:
    app.config["MAX_CONTENT_LENGTH"] = app.config["MAX_BODY_BYTES"]

    @app.before_request
    def refuse_large_bodies() -> None:
        most = limit()
        request.max_content_length = most
        terminated = request.environ.get("wsgi.input_terminated")  # gunicorn: the server ends the input
        if request.content_length is None and terminated:
            _buffer_unsized_body(most)
        if (request.content_length or 0) > most:
            raise too_large(most)
        if request.content_length and terminated:
            _buffer_sized_body(request.content_length)


def too_large(most: int) -> Refusal:
    return TooLarge("too_large", f"the request body is larger than {most} bytes", {"max_bytes": most})


def _buffer_unsized_body(most: int) -> None:
    """Read a chunked body (at most ``most`` + 1 bytes) and hand it on with its length."""
    body = _read(most + 1)
    if len(body) > most:
        raise too_large(most)
    _hand_on(body)


def _buffer_sized_body(length: int) -> None:
    """Read a body of announced length. The server hands on what arrived when the client
    stops sending early; a body that ends before its ``Content-Length`` is malformed, not
    a shorter body (a truncated JSON object could still parse, and be acted on)."""
    body = _read(length)
    if len(body) < length:
        raise Invalid("malformed", "the body ended before its Content-Length")
    _hand_on(body)


def _read(at_most: int) -> bytes:
    """Up to ``at_most`` bytes of the body, fewer if it ends first."""
    source, chunks, size = request.environ["wsgi.input"], [], 0
    while size < at_most:
        try:
            chunk = source.read(min(65536, at_most - size))
        except (ParseException, NoMoreData):  # a chunk size not in hex, a chunk without its end
            raise Invalid("malformed", "the body is not valid chunked encoding") from None
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _hand_on(body: bytes) -> None:
    """The body, read, for the view to read again as its stream or data."""
    request.environ["wsgi.input"] = io.BytesIO(body)
    request.environ["CONTENT_LENGTH"] = str(len(body))
    request.__dict__.pop("stream", None)  # not read yet; drop any stream built on the old input
