"""A request id per request and one structured (JSON) log line per request.

The id is the caller's ``X-Request-Id`` when it is a short token of safe characters
(so a proxy's id carries through), else a fresh one; it is echoed in the answer, set
on every log record emitted while the request runs, and counted in the metrics by
route (the URL rule, never the path: paths carry game ids). The line is the access log:
route, path, client address, status, ms, request id and worker pid, so gunicorn's own
access log, which said the same, is off as shipped (deploy/gunicorn.conf.py). The line
costs 27 µs in one process, at most 0.2 ms of a 2 ms HTTP move under gunicorn
(docs/BENCHMARKS.md); ``REQUEST_LOG=0`` or ``ACCESS_LOG=`` (empty, the benchmark
configuration) turns it off; the metrics still count.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import time
import uuid

from flask import Flask, Response, g, has_request_context, request
from pythonjsonlogger.json import JsonFormatter

from service.metrics import LATENCY, REQUESTS

HEADER = "X-Request-Id"
SAFE_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
LOGGERS = ("service", "events", "projections")
access = logging.getLogger("service.requests")


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = g.get("request_id") if has_request_context() else None
        return True


class StructuredHandler(logging.StreamHandler):  # type: ignore[type-arg]  # a stream of any kind
    """The project's JSON-lines handler (one per logger, however many apps a process builds)."""


def configure_logging() -> None:
    """JSON lines on stderr for the project's loggers (once per process)."""
    handler = StructuredHandler(sys.stderr)
    handler.setFormatter(JsonFormatter("%(asctime)s %(levelname)s %(name)s %(message)s %(request_id)s"))
    handler.addFilter(RequestIdFilter())
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(h, StructuredHandler) for h in logger.handlers):
            logger.addHandler(handler)
            logger.setLevel(logging.INFO)


def install(app: Flask) -> None:
    configure_logging()
    lines = app.config.get("REQUEST_LOG", True)

    @app.before_request
    def start() -> None:
        given = request.headers.get(HEADER, "")
        g.request_id = given if SAFE_ID.match(given) else uuid.uuid4().hex
        g.started = time.perf_counter()

    @app.after_request
    def finish(response: Response) -> Response:
        response.headers[HEADER] = g.get("request_id") or uuid.uuid4().hex
        route = request.url_rule.rule if request.url_rule is not None else "unmatched"
        elapsed = time.perf_counter() - g.get("started", time.perf_counter())
        REQUESTS.labels(route, request.method, str(response.status_code)).inc()
        LATENCY.labels(route, request.method).observe(elapsed)
        if lines:
            access.info(
                "request",
                extra={
                    "method": request.method,
                    "route": route,
                    "path": request.path,
                    "client": request.remote_addr,
                    "status": response.status_code,
                    "ms": round(elapsed * 1000, 2),
                    "worker": os.getpid(),
                },
            )
        return response
