"""Web pages: lobby, play table, replay viewer, referee console, verify.

The pages are thin shells: each loads an ES module from ``static/js`` that talks to
the public HTTP API (docs/API.md) and nothing else. Tokens never reach the server in
a URL: seat and referee links carry them in the fragment (``#token=...``), which the
browser does not send; the page reads it and passes it as a Bearer header.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Blueprint, Response, render_template, send_from_directory

from service.http.error_messages import _l

bp = Blueprint("web", __name__, static_folder=None)

GAME_ID = "<string:game_id>"
STATIC = Path(__file__).parents[1] / "static"
Page = tuple[str, int, dict[str, str]]
"""A page's HTML, its status and its headers."""

# Page titles, translated in base.html; listed here for `pybabel extract`.
TITLES = [
    _l("Lobby"),
    _l("Table"),
    _l("Replay"),
    _l("Referee console"),
    _l("Verify an export"),
    _l("Tournaments"),
    _l("Tournament"),
    _l("Account"),
    _l("Player"),
    _l("Ratings"),
    _l("Open table"),
    _l("My games"),
]


def _page(template: str, title: str, module: str, **context: Any) -> Page:
    response = render_template(template, title=title, module=module, **context)
    return (
        response,
        200,
        {
            # The token lives in the fragment; keep referrers from leaking paths anyway.
            "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store",
            "X-Content-Type-Options": "nosniff",
        },
    )


@bp.get("/")
def lobby() -> Page:
    return _page("lobby.html", "Lobby", "lobby")


@bp.get(f"/games/{GAME_ID}")
def table(game_id: str) -> Page:
    return _page("table.html", "Table", "table", game_id=game_id)


@bp.get(f"/games/{GAME_ID}/replay")
def replay(game_id: str) -> Page:
    return _page("replay.html", "Replay", "replay", game_id=game_id)


@bp.get(f"/games/{GAME_ID}/referee")
def referee(game_id: str) -> Page:
    return _page("referee.html", "Referee console", "referee", game_id=game_id)


@bp.get("/tables/<string:table_id>")
def open_table(table_id: str) -> Page:
    return _page("open_table.html", "Open table", "open_table", table_id=table_id)


@bp.get("/my-games")
def my_games() -> Page:
    return _page("my_games.html", "My games", "my_games")


@bp.get("/account")
def account() -> Page:
    return _page("account.html", "Account", "account")


@bp.get("/players/<string:name>")
def player(name: str) -> Page:
    return _page("profile.html", "Player", "profile", player_name=name)


@bp.get("/ratings")
@bp.get("/ratings/<string:game>")
def ratings(game: str | None = None) -> Page:
    return _page("ratings.html", "Ratings", "ratings", game=game or "")


@bp.get("/verify")
def verify() -> Page:
    return _page("verify.html", "Verify an export", "verify")


@bp.get("/sw.js")
def service_worker() -> Response:
    """The service worker, served from the root so its scope is the whole site."""
    response = send_from_directory(STATIC, "sw.js", mimetype="text/javascript", max_age=0)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The web app manifest: the site installs as an app (PWA)."""
    return send_from_directory(STATIC, "manifest.webmanifest", mimetype="application/manifest+json", max_age=3600)
