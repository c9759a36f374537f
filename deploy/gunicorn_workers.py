"""gunicorn's gevent and gthread workers, answering the requests gunicorn refuses itself
with the API's JSON error body instead of its HTML page.

A request line or a header over gunicorn's limits, a malformed request line or header,
an invalid method or Content-Length: gunicorn refuses these before Flask sees them
(``Worker.handle_error``), and writes every such answer through one function,
``gunicorn.util.write_error(sock, status, reason, message)``. These worker classes replace
that function in their own process (a worker process runs one worker) and change nothing
else: gunicorn still picks the status, logs the request and closes the connection.

No Flask app or request is involved, so the messages are English only. (Importing the
gevent worker class patches nothing: under gthread the process stays unpatched.)

The gevent worker also tells the app whether a live stream's tail may write to the
client's socket itself (``LIVE_DIRECT_WRITES``): only under plain HTTP, which gunicorn
chunks.

One more change, for restarts: under ``reuse_port`` gunicorn opens a worker's listening
socket as soon as the worker is forked, before it imports the app, which takes seconds
on a busy machine. The kernel spreads new connections over every socket of the port,
so the connections it gave the booting worker were accepted and left unanswered until
the app was loaded: the hangs of a restart under load. These workers open their
sockets once the app is loaded (``listen_when_loaded``); until then the port's other
sockets, of the other workers or the other server, take every connection.
"""

from __future__ import annotations

import json
import os
import socket

from gunicorn import sock, util
from gunicorn.workers.ggevent import GeventWorker
from gunicorn.workers.gthread import ThreadWorker

from service.http.security_headers import HEADERS

# status -> (code, message); another status gets ``http_error`` and gunicorn's reason
ERRORS = {
    400: ("malformed_request", "the request is not valid HTTP"),
    403: ("forbidden", "the request is forbidden"),
    414: ("uri_too_long", "the request line is too long"),
    417: ("expectation_failed", "the Expect header cannot be met"),
    431: ("headers_too_large", "the request headers are too large"),
    500: ("internal", "internal error"),
    501: ("not_implemented", "this transfer coding is not supported"),
}
DISCARD_AT_MOST = 1 << 20  # bytes of the refused request read away before answering


def error_response(status: int, reason: str) -> bytes:
    """The whole answer: status line, headers and ``{"error": {code, message, details}}``."""
    code, message = ERRORS.get(status, ("http_error", reason.lower()))
    body = json.dumps({"error": {"code": code, "message": message, "details": {}}}, separators=(",", ":")).encode()
    headers = {
        "Connection": "close",
        "Content-Type": "application/json",
        "Content-Length": str(len(body)),
        **HEADERS,
    }
    head = f"HTTP/1.1 {status} {reason}\r\n" + "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return head.encode("latin-1") + b"\r\n" + body


def write_json_error(sock: socket.socket, status_int: int, reason: str, mesg: str) -> None:
    """``gunicorn.util.write_error`` with the JSON body; gunicorn's ``mesg`` (which can
    echo the client's bytes) is left out. Never raises: the connection closes anyway."""
    try:
        _discard_unread(sock)
        util.write_nonblock(sock, error_response(status_int, reason))
    except Exception:  # a client gone already: nothing left to tell it
        pass


def _discard_unread(sock: socket.socket) -> None:
    """Reads what has arrived of the refused request, without waiting: closing a socket
    with unread bytes makes the kernel send a reset, which can destroy the answer before
    the client reads it (a 9,000-byte request line is refused after 4 KiB)."""
    timeout = sock.gettimeout()
    sock.setblocking(False)
    try:
        discarded = 0
        while discarded < DISCARD_AT_MOST:
            chunk = sock.recv(65536)
            if not chunk:
                break
            discarded += len(chunk)
    except OSError:  # BlockingIOError: nothing more has arrived
        pass
    finally:
        sock.settimeout(timeout)


def _write_errors_as_json() -> None:
    """In this worker process: gunicorn's ``handle_error`` looks ``util.write_error`` up
    at each call, and only it writes these answers."""
    util.write_error = write_json_error


def _close_early_sockets(worker: GeventWorker | ThreadWorker) -> None:
    """The sockets gunicorn opened at fork: closed at once, so no connection waits in them
    while the app loads (gunicorn gives a worker sockets of its own only under reuse_port;
    shared ones, inherited from the master, stay)."""
    if worker.cfg.reuse_port and hasattr(socket, "SO_REUSEPORT"):
        sock.close_sockets(worker.sockets, unlink=False)
        worker.sockets = []
        worker.listen_when_loaded = True


def _listen(worker: GeventWorker | ThreadWorker) -> list[object]:
    """The worker's own listening sockets, opened now that it can answer."""
    opened: list[object] = sock.create_sockets(worker.cfg, worker.log)
    for listener in opened:
        util.close_on_exec(listener)
    return opened


def _allow_direct_writes(worker: GeventWorker) -> None:
    """Tell the app (before it loads) that a live stream's tail may write HTTP chunks to a
    client's socket itself (service/http/live.py): only this worker's plain HTTP answers
    are chunked by gunicorn on a socket the app may write to; TLS and uWSGI are not."""
    plain = getattr(worker.cfg, "protocol", "http") == "http" and not worker.cfg.is_ssl
    os.environ["LIVE_DIRECT_WRITES"] = "1" if plain else "0"


class JsonErrorsGeventWorker(GeventWorker):
    listen_when_loaded = False

    def init_process(self) -> None:
        _write_errors_as_json()
        _close_early_sockets(self)
        _allow_direct_writes(self)
        super().init_process()

    def load_wsgi(self) -> None:
        super().load_wsgi()
        if self.listen_when_loaded:
            # gevent's own sockets, as GeventWorker.patch makes of the ones given at fork
            self.sockets = [socket.socket(s.FAMILY, socket.SOCK_STREAM, fileno=s.sock.detach()) for s in _listen(self)]


class JsonErrorsThreadWorker(ThreadWorker):
    listen_when_loaded = False

    def init_process(self) -> None:
        _write_errors_as_json()
        _close_early_sockets(self)
        super().init_process()

    def load_wsgi(self) -> None:
        super().load_wsgi()
        if self.listen_when_loaded:
            self.sockets = _listen(self)
