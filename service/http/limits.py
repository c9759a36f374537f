"""Per-client rate limits and quotas (Flask-Limiter on the server's own Redis).

Flask-Limiter (with its ``limits`` storage layer) rather than counters of our own: it
keeps sliding-window counters in Redis atomically (one Lua call per limit), shares them
between every worker and host, answers 429 with ``Retry-After`` and ``X-RateLimit-*``
headers, and is configured by plain strings ("10 per minute;200 per day"). Writing that
correctly by hand — atomic windows, clock edges, header arithmetic — is the kind of
code this project prefers not to own.

A client is its address (``request.remote_addr``; behind a proxy, set
``TRUSTED_PROXIES`` so ``X-Forwarded-For`` is believed, see docs/DEPLOY.md). Tokens
are not used as the key: anyone can send a fresh made-up token with every request.

Limits (env var, default):
- every ``/api/`` request: ``RATE_LIMIT_DEFAULT`` = 600 per minute;
- creating a game, forking one, creating a tournament: ``RATE_LIMIT_CREATE``
  = 10 per minute;200 per day (the daily figure is the client's quota);
- posting an annotation: ``RATE_LIMIT_ANNOTATE`` = 20 per minute;500 per day;
- registering for a tournament: ``RATE_LIMIT_REGISTER`` = 10 per minute;100 per day;
- logging in: ``RATE_LIMIT_LOGIN`` = 5 per minute;50 per day (counted for every
  attempt, right or wrong: guessing a password costs a guesser days);
- creating an account: ``RATE_LIMIT_ACCOUNT`` = 5 per minute;20 per day;
- failed logins per *account name*, whatever the address: ``RATE_LIMIT_LOGIN_FAILURES``
  = 10 per 15 minutes (``service/services/accounts.py``: ``FailedLogins``). Many
  addresses guessing one account's password each stay under the per-client limit; this
  one counts them together. It is counted by the service, before Argon2 runs, with the
  same ``limits`` storage as Flask-Limiter's (a refusal costs a counter call or two and
  one read, no hashing), and a right password gives its count back.
A refusal is a 429 with ``Retry-After`` and the error body; successful answers carry no
rate-limit headers (a ``Retry-After`` on a 200 misleads clients, and filling
``X-RateLimit-*`` cost two Redis reads per request). So a refused request costs one
counter call and one read, a served one a counter call per limit.
``RATE_LIMITS=off`` turns them all off (the test suite does, except where it tests them).
If Redis cannot count within ``LIMITER_TIMEOUT`` (half a second), the request is let
through (the request itself then meets the storage error and answers it 503): a frozen
Redis must not hold every request, even those that need no storage, for a socket timeout.
"""

from __future__ import annotations

import time

from flask import Flask, request
from flask_limiter import Limiter
from limits import parse_many
from limits.strategies import SlidingWindowCounterRateLimiter
from werkzeug.middleware.proxy_fix import ProxyFix

from service import wiring
from service.http.client_concurrency import InflightCap
from service.services.accounts import FailedLogins

# endpoint -> config key of its own limit (on top of the default one)
ROUTE_LIMITS = {
    "games.create_game": "RATE_LIMIT_CREATE",
    "games.fork_game": "RATE_LIMIT_CREATE",
    "tournaments.create": "RATE_LIMIT_CREATE",
    "games.add_annotation": "RATE_LIMIT_ANNOTATE",
    "tournaments.register": "RATE_LIMIT_REGISTER",
    "accounts.login": "RATE_LIMIT_LOGIN",
    "accounts.change_password": "RATE_LIMIT_LOGIN",
    "accounts.create_account": "RATE_LIMIT_ACCOUNT",
}


LIMITER_TIMEOUT = 0.5


def storage_uri(redis_url: str) -> str:
    """The ``limits`` storage URI of the server's Redis URL."""
    if redis_url.startswith("unix://"):
        return "redis+unix://" + redis_url[len("unix://") :]
    return redis_url  # redis://, rediss:// and redis+cluster:// (CLUSTER_SCHEME) read the same


def client_address() -> str:
    return request.remote_addr or "unknown"


def _not_api() -> bool:
    return not request.path.startswith("/api/")


def retry_after() -> int:
    """Seconds until the breached limit lets this client in again (one Redis read, paid
    by the refused request only)."""
    limiter = wiring.services().rate_limiter
    breached = limiter.current_limit if limiter else None
    try:
        return max(1, int(breached.reset_at - time.time())) if breached else 1
    except Exception:  # the counters became unreadable between the check and now
        return 1


def install(app: Flask, redis_url: str) -> Limiter:
    cfg = app.config
    if cfg["RATE_LIMITS_ENABLED"] and cfg["MAX_INFLIGHT_PER_CLIENT"]:
        app.wsgi_app = InflightCap(app.wsgi_app, cfg["MAX_INFLIGHT_PER_CLIENT"])  # inside ProxyFix: sees the client
    if cfg["TRUSTED_PROXIES"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=cfg["TRUSTED_PROXIES"])
    limiter = Limiter(
        client_address,
        app=app,
        storage_uri=storage_uri(redis_url),
        strategy="sliding-window-counter",
        default_limits=[cfg["RATE_LIMIT_DEFAULT"]] if cfg["RATE_LIMIT_DEFAULT"] else [],
        default_limits_exempt_when=_not_api,
        headers_enabled=False,  # X-RateLimit-* on every answer cost two Redis reads each
        swallow_errors=True,
        storage_options={"socket_timeout": LIMITER_TIMEOUT, "socket_connect_timeout": LIMITER_TIMEOUT},
        key_prefix="ratelimit",
        enabled=cfg["RATE_LIMITS_ENABLED"],
    )
    for endpoint, key in ROUTE_LIMITS.items():
        if cfg[key] and endpoint in app.view_functions:
            app.view_functions[endpoint] = limiter.limit(cfg[key], override_defaults=False)(
                app.view_functions[endpoint]
            )
    wiring.of(app).rate_limiter = limiter
    if cfg["RATE_LIMITS_ENABLED"] and cfg["RATE_LIMIT_LOGIN_FAILURES"]:
        wiring.of(app).platform.accounts.failed_logins = FailedLogins(
            SlidingWindowCounterRateLimiter(limiter.storage), parse_many(cfg["RATE_LIMIT_LOGIN_FAILURES"])
        )
    return limiter
