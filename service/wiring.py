"""The services an app's routes use, built once by ``create_app`` and looked up by type.

Routes call ``services().platform`` or ``services().tournaments`` rather than reading
``current_app.extensions`` by a string key, so a reader (or an IDE) can follow a route
into the service it calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from flask import Flask, current_app

if TYPE_CHECKING:
    from flask_limiter import Limiter

    from service.http.live import LiveTails, StreamSlots
    from service.http.sockets import FrameLimits
    from service.services.games import Platform
    from service.services.tournaments import Tournaments

KEY = "services"


@dataclass
class Services:
    platform: Platform
    tournaments: Tournaments
    live_tails: LiveTails
    stream_slots: StreamSlots
    """The caps on open live streams (Server-Sent Events and move sockets)."""
    socket_limits: FrameLimits | None = None
    """Per-client frame limits of the move socket (set by ``sockets.install``)."""
    rate_limiter: Limiter | None = None
    """The HTTP rate limiter (set by ``limits.install``)."""


def install(app: Flask, built: Services) -> None:
    app.extensions[KEY] = built


def of(app: Flask) -> Services:
    return app.extensions[KEY]


def services() -> Services:
    """The current app's services (inside a request or an app context)."""
    return of(current_app)
