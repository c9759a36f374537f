"""Per-client rate limits and quotas (Flask-Limiter on the server's own Redis).

Flask-Limiter (with its ``limits`` storage layer) rather than counters of our own: it
keeps sliding-window counters in Redis atomically (one Lua call per limit), shares them
between every worker and host, answers 429 with ``Retry-After`` and ``X-RateLimit-*``
headers, and is configured by plain strings ("10 per minute;200 per day"). Writing that
correctly by hand — atomic windows, clock edges, header arithmetic — is the kind of
code this project prefers not to own.

Who is counted (``caller_key``): a request carrying a token (``Authorization: Bearer``:
a seat's, a session's, a director's or a player's) is counted per *token*, so a room of
players behind one venue address each get their own budget; a request without one is
counted per *address* (``request.remote_addr``, an IPv6 address by its /64: one host
holds a whole /64; behind a proxy, set ``TRUSTED_PROXIES``
so ``X-Forwarded-For`` is believed, see docs/DEPLOY.md). Anyone can make up a fresh token
for each request, so the token-carrying requests of one address are also counted
together, under a ceiling (``RATE_LIMIT_ADDRESS``) far above one person's needs. The
routes that take no token (creating an account or a game, logging in) are counted per
address whatever the request carries.

A venue that puts a whole room behind one address can be named a trusted venue network
(``TRUSTED_VENUE_NETWORKS``, comma-separated CIDRs, set by the operator): requests from
it are not limited per address (no ceiling, no per-address budget, no cap on requests in
progress or on live streams per client); per-token budgets and failed logins per account
name still hold.

Budgets, one per kind of request, shared by every route of that kind (Flask-Limiter
shared limits; env var, default):
- every ``/api/`` request, all routes together: ``RATE_LIMIT_DEFAULT`` = 1200 per
  minute per caller;
- the token-carrying requests of one address together: ``RATE_LIMIT_ADDRESS`` = 6000
  per minute;
- creating a game, forking one, opening a table, offering a rematch, creating a
  tournament: ``RATE_LIMIT_CREATE``
  = 10 per minute;200 per day per address (the daily figure is the client's quota);
- posting an annotation: ``RATE_LIMIT_ANNOTATE`` = 20 per minute;500 per day per caller;
- registering for a tournament (one name, or a director's roster): ``RATE_LIMIT_REGISTER``
  = 100 per 10 minutes;500 per day per caller;
- logging in: ``RATE_LIMIT_LOGIN`` = 100 per 10 minutes;300 per day per address
  (counted for every attempt, right or wrong); changing a password, the same budget
  per session;
- creating an account: ``RATE_LIMIT_ACCOUNT`` = 100 per 10 minutes;300 per day per
  address (a room of players signing up at once fits);
- failed logins per *account name and address*: ``RATE_LIMIT_LOGIN_FAILURES`` = 10 per
  15 minutes, and per account name from every address it has not logged in from lately:
  ``RATE_LIMIT_LOGIN_FAILURES_NAME`` = 50 per 15 minutes;500 per day
  (``service/services/accounts.py``: ``FailedLogins``). Many addresses guessing one
  account's password each stay under the per-client limit; the ceiling counts them
  together, and spares the owner's own addresses, so a stranger cannot lock the owner
  out from where they log in. It is counted by the service, before Argon2 runs, with the
  same ``limits`` storage as Flask-Limiter's (a refusal costs a counter call or two and
  one read, no hashing), and a right password gives its count back.
A refusal is a 429 with ``Retry-After`` and the error body, whose message says the wait
in the request's language ("try again in 52 s"); successful answers carry no
rate-limit headers (a ``Retry-After`` on a 200 misleads clients, and filling
``X-RateLimit-*`` cost two Redis reads per request). So a refused request costs one
counter call and one read, a served one a counter call per limit.
``RATE_LIMITS=off`` turns them all off (the test suite does, except where it tests them).
If Redis cannot count within ``LIMITER_TIMEOUT`` (half a second), the request is let
through (the request itself then meets the storage error and answers it 503): a frozen
Redis must not hold every request, even those that need no storage, for a socket timeout.
"""

from __future__ import annotations

import hashlib
import ipaddress
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, cast

from flask import Flask, g, request
from flask.typing import RouteCallable
from flask_babel import force_locale, gettext
from flask_limiter import ApplicationLimit, Limiter
from limits import parse_many
from limits.storage import storage_from_string
from limits.strategies import SlidingWindowCounterRateLimiter
from werkzeug.middleware.proxy_fix import ProxyFix

from service import wiring
from service.http import i18n
from service.http.client_concurrency import MESSAGE as INFLIGHT_MESSAGE
from service.http.client_concurrency import InflightCap
from service.http.client_concurrency import body as inflight_body
from service.services.accounts import FailedLogins
from service.services.callers import bearer_token
from service.services.errors import Unauthenticated


@dataclass(frozen=True)
class Kind:
    """A kind of request: its budget's config key and whom it counts."""

    config: str
    per: str  # "caller" (the token, else the address) or "address"


KINDS = {
    "create": Kind("RATE_LIMIT_CREATE", "address"),
    "annotate": Kind("RATE_LIMIT_ANNOTATE", "caller"),
    "register": Kind("RATE_LIMIT_REGISTER", "caller"),
    "login": Kind("RATE_LIMIT_LOGIN", "address"),
    "password": Kind("RATE_LIMIT_LOGIN", "caller"),
    "account": Kind("RATE_LIMIT_ACCOUNT", "address"),
}

# endpoint -> its kind (on top of the budget every /api/ request counts against)
ROUTE_KINDS = {
    "games.create_game": "create",
    "games.fork_game": "create",
    "tables.open_table": "create",
    "tables.rematch": "create",
    "tournaments.create": "create",
    "games.add_annotation": "annotate",
    "tournaments.register": "register",
    "tournaments.roster": "register",
    "accounts.login": "login",
    "accounts.change_password": "password",
    "accounts.create_account": "account",
}


LIMITER_TIMEOUT = 0.5


def storage_uri(redis_url: str) -> str:
    """The ``limits`` storage URI of the server's Redis URL."""
    if redis_url.startswith("unix://"):
        return "redis+unix://" + redis_url[len("unix://") :]
    return redis_url  # redis://, rediss:// and redis+cluster:// (CLUSTER_SCHEME) read the same


def client_address() -> str:
    """The client an address stands for: an IPv4 address, or an IPv6 address's /64 (one
    host is given a whole /64; keyed per address it would be 2^64 clients)."""
    return client_of(request.remote_addr or "unknown")


def client_of(address: str) -> str:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        mapped = ip.ipv4_mapped
        return str(mapped) if mapped else str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def address_key() -> str:
    return "addr:" + client_address()


def _token() -> str | None:
    """The request's bearer token, read once per request (a malformed header is no token:
    the route answers it 401)."""
    if "limit_token" not in g:
        try:
            g.limit_token = bearer_token(request.headers)
        except Unauthenticated:
            g.limit_token = None
    token: str | None = g.limit_token
    return token


def caller_key() -> str:
    """The token's digest when the request carries one, else the address."""
    token = _token()
    if token:
        return "token:" + hashlib.sha256(token.encode()).hexdigest()[:32]
    return address_key()


Networks = tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]


def venue_networks(value: str) -> Networks:
    """``TRUSTED_VENUE_NETWORKS``: comma-separated addresses or CIDRs."""
    return tuple(ipaddress.ip_network(part.strip(), strict=False) for part in value.split(",") if part.strip())


def in_networks(address: str, networks: Networks) -> bool:
    if not networks:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def stream_client() -> str | None:
    """Who a live stream (SSE or move socket) counts against in the per-client cap: the
    address, or None for one of a trusted venue network."""
    decide = wiring.edge().stream_client
    return decide() if decide else client_address()


def _not_api() -> bool:
    return not request.path.startswith("/api/")


def retry_after() -> int:
    """Seconds until the breached limit lets this client in again (one Redis read, paid
    by the refused request only)."""
    limiter = wiring.edge().rate_limiter
    breached = limiter.current_limit if limiter else None
    try:
        return max(1, int(breached.reset_at - time.time())) if breached else 1
    except Exception:  # the counters became unreadable between the check and now
        return 1


def refusal_message(wait: int) -> str:
    """The English sentence of a 429 (service/http/error_messages.py translates it)."""
    return f"too many requests; try again in {wait} s"


def _inflight_bodies(app: Flask) -> dict[str, bytes]:
    """The in-flight refusal in each language: it is answered before Flask, so its words
    are translated once here."""
    out = {}
    with app.app_context():
        for tag, locale in i18n.LANGUAGES.items():
            with force_locale(locale):
                out[tag] = inflight_body(gettext(INFLIGHT_MESSAGE) if tag != "en" else INFLIGHT_MESSAGE)
    return out


def install(app: Flask, redis_url: str) -> Limiter:
    cfg = app.config
    networks = venue_networks(cfg["TRUSTED_VENUE_NETWORKS"])
    if cfg["RATE_LIMITS_ENABLED"] and cfg["MAX_INFLIGHT_PER_CLIENT"]:
        bodies = _inflight_bodies(app)
        app.wsgi_app = InflightCap(  # type: ignore[method-assign]
            app.wsgi_app,
            cfg["MAX_INFLIGHT_PER_CLIENT"],
            lambda addr: in_networks(addr, networks),
            lambda accept_language: bodies[i18n.tag_for(accept_language)],
        )  # inside ProxyFix: sees the client
    if cfg["TRUSTED_PROXIES"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=cfg["TRUSTED_PROXIES"])  # type: ignore[method-assign]

    def venue() -> bool:
        return in_networks(request.remote_addr or "unknown", networks)

    wiring.edge_of(app).stream_client = lambda: None if venue() else client_address()

    def anonymous_from_venue() -> bool:
        return not _token() and venue()

    api_limits = []
    if cfg["RATE_LIMIT_DEFAULT"]:
        api_limits.append(
            ApplicationLimit(
                cfg["RATE_LIMIT_DEFAULT"],
                key_function=caller_key,
                scope="api",
                exempt_when=lambda: _not_api() or anonymous_from_venue(),
            )
        )
    if cfg["RATE_LIMIT_ADDRESS"]:
        api_limits.append(
            ApplicationLimit(
                cfg["RATE_LIMIT_ADDRESS"],
                key_function=address_key,
                scope="address",
                exempt_when=lambda: _not_api() or not _token() or venue(),
            )
        )
    limiter = Limiter(
        caller_key,
        app=app,
        storage_uri=storage_uri(redis_url),
        strategy="sliding-window-counter",
        application_limits=api_limits,  # type: ignore[arg-type]
        headers_enabled=False,  # X-RateLimit-* on every answer cost two Redis reads each
        swallow_errors=True,
        # redis-py takes float timeouts; flask-limiter annotates these options as str | int
        storage_options={"socket_timeout": LIMITER_TIMEOUT, "socket_connect_timeout": LIMITER_TIMEOUT},  # type: ignore[dict-item]
        key_prefix="ratelimit",
        enabled=cfg["RATE_LIMITS_ENABLED"],
    )
    shared: dict[str, Callable[[Callable[..., Any]], Callable[..., Any]]] = {}
    for name, kind in KINDS.items():
        if cfg[kind.config]:
            shared[name] = limiter.shared_limit(
                cfg[kind.config],
                scope=name,
                key_func=caller_key if kind.per == "caller" else address_key,
                exempt_when=anonymous_from_venue if kind.per == "caller" else venue,
                override_defaults=False,
            )
    for endpoint, name in ROUTE_KINDS.items():
        if name in shared and endpoint in app.view_functions:
            limited = shared[name](app.view_functions[endpoint])
            app.view_functions[endpoint] = cast(RouteCallable, limited)  # the same view, wrapped
    wiring.edge_of(app).rate_limiter = limiter
    return limiter


def failed_logins(cfg: Mapping[str, Any], redis_url: str) -> FailedLogins | None:
    """The limits of failed logins per name and address and per name, on the same
    storage as the rate limits (None when limits are off)."""
    if not (cfg["RATE_LIMITS_ENABLED"] and (cfg["RATE_LIMIT_LOGIN_FAILURES"] or cfg["RATE_LIMIT_LOGIN_FAILURES_NAME"])):
        return None
    storage = storage_from_string(
        storage_uri(redis_url),
        socket_timeout=LIMITER_TIMEOUT,
        socket_connect_timeout=LIMITER_TIMEOUT,
    )
    return FailedLogins(
        SlidingWindowCounterRateLimiter(storage),
        parse_many(cfg["RATE_LIMIT_LOGIN_FAILURES"]) if cfg["RATE_LIMIT_LOGIN_FAILURES"] else [],
        parse_many(cfg["RATE_LIMIT_LOGIN_FAILURES_NAME"]) if cfg["RATE_LIMIT_LOGIN_FAILURES_NAME"] else [],
    )
