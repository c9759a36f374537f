"""/api/docs: Swagger UI over /api/openapi.json, served by this server alone.

The assets come from the ``flask-swagger-ui`` package (pinned in requirements.txt; only
its ``dist`` folder is used), which ships Swagger UI 5's release files (5 reads OpenAPI
3.1): pip installs them with everything else, nothing
minified is committed here, and no page loads a script from a third-party CDN (which
the Content-Security-Policy would refuse anyway). The page's own start-up code is a
static file, as the policy forbids inline scripts.
"""

from __future__ import annotations

from pathlib import Path

import flask_swagger_ui
from flask import Blueprint, Response, render_template, send_from_directory

from service.services.errors import NotFound

SWAGGER_UI = Path(flask_swagger_ui.__file__).parent / "dist"
bp = Blueprint("api_docs", __name__, url_prefix="/api/docs", static_folder=None)
ASSETS = frozenset(
    {
        "swagger-ui.css",
        "swagger-ui-bundle.js",
        "swagger-ui-standalone-preset.js",
        "favicon-32x32.png",
        "favicon-16x16.png",
    }
)


@bp.get("")
@bp.get("/")
def page() -> tuple[str, int, dict[str, str]]:
    return render_template("api_docs.html"), 200, {"Cache-Control": "no-store"}


@bp.get("/assets/<name>")
def asset(name: str) -> Response:
    if name not in ASSETS:
        raise NotFound("not_found", "no such asset")
    return send_from_directory(SWAGGER_UI, name, max_age=86400)
