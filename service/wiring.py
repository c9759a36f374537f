"""What an app's routes use, built once by ``create_app`` and looked up by type.

Routes call ``services().games`` or ``edge().live_tails`` rather than reading
``current_app.extensions`` by a string key, so a reader (or an IDE) can follow a route
into the service it calls. ``Services`` (``service/bootstrap.py``) holds the services and
ports; ``Edge`` what only the HTTP edge keeps (live streams, socket and rate limits).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from flask import Flask, current_app

if TYPE_CHECKING:
    from flask_limiter import Limiter

    from service.adapters.durability import DurabilityCheck
    from service.bootstrap import Services
    from service.http.live import LiveTails, StreamSlots
    from service.http.sockets import FrameLimits

KEY = "services"
EDGE = "edge"


@dataclass
class Edge:
    live_tails: LiveTails
    stream_slots: StreamSlots
    """The caps on open live streams (Server-Sent Events and move sockets)."""
    socket_limits: FrameLimits | None = None
    """Per-client frame limits of the move socket (set by ``sockets.install``)."""
    rate_limiter: Limiter | None = None
    """The HTTP rate limiter (set by ``limits.install``)."""
    durability: DurabilityCheck | None = None
    """Whether Redis keeps what it acknowledges (``/readyz`` asks it each time)."""
    stream_client: Callable[[], str | None] | None = None
    """Who a live stream counts against: the client's address, or None for an address of
    a trusted venue network, not capped per client (set by ``limits.install``)."""


def install(app: Flask, built: Services, edge: Edge) -> None:
    app.extensions[KEY] = built
    app.extensions[EDGE] = edge


def of(app: Flask) -> Services:
    return cast("Services", app.extensions[KEY])


def edge_of(app: Flask) -> Edge:
    return cast(Edge, app.extensions[EDGE])


def services() -> Services:
    """The current app's services (inside a request or an app context)."""
    return of(current_app)


def edge() -> Edge:
    return edge_of(current_app)
