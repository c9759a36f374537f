"""/api/docs: Swagger UI over /api/openapi.json, served by this server alone.

The assets come from the ``swagger-ui-bundle`` package (pinned in requirements.txt),
which ships Swagger UI's release files: pip installs them with everything else, nothing
minified is committed here, and no page loads a script from a third-party CDN (which
the Content-Security-Policy would refuse anyway). The page's own start-up code is a
static file, as the policy forbids inline scripts.
"""

from __future__ import annotations

from flask import Blueprint, render_template, send_from_directory
from swagger_ui_bundle import swagger_ui_path

from service.services.errors import NotFound

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
def page():
    return render_template("api_docs.html"), 200, {"Cache-Control": "no-store"}


@bp.get("/assets/<name>")
def asset(name: str):
    if name not in ASSETS:
        raise NotFound("not_found", "no such asset")
    return send_from_directory(swagger_ui_path, name, max_age=86400)
