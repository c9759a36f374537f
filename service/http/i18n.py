"""The interface's languages: English and Traditional Chinese (zh-Hant).

Flask-Babel (gettext catalogues under ``service/translations/``) translates the page
templates and the API's error messages; the JavaScript modules read one JSON catalogue
per language from ``static/i18n/``. A page's language is the one the player chose with
the switch (a ``lang`` cookie, kept a year) or else the browser's (Accept-Language); the
API answers in the request's Accept-Language only, so a client gets the same words for
the same request whatever cookies it holds. Error ``code`` values never change.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote, urlsplit

from flask import Blueprint, Flask, Response, redirect, request
from flask_babel import Babel, get_locale, gettext
from werkzeug.wrappers import Response as BaseResponse

from service.http.error_messages import TEMPLATES

# BCP 47 tag shown to browsers -> the gettext locale of its catalogue
LANGUAGES = {"en": "en", "zh-Hant": "zh_Hant"}
LANGUAGE_NAMES = {"en": "English", "zh-Hant": "繁體中文"}
COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600

bp = Blueprint("i18n", __name__)


def tag_for(header_value: str | None) -> str:
    """The language for an Accept-Language value or a chosen tag: any Chinese is
    zh-Hant (the only Chinese there is), anything else English."""
    best, best_q = "en", 0.0
    for part in (header_value or "").split(","):
        name, _, params = part.strip().partition(";")
        q = 1.0
        if "q=" in params:
            m = re.search(r"q=([0-9.]+)\s*$", params)
            try:
                q = float(m.group(1)) if m else 0.0
            except ValueError:
                q = 0.0
        name = name.strip().lower()
        if not name or q <= best_q:
            continue
        if name == "zh" or name.startswith("zh-") or name.startswith("zh_"):
            best, best_q = "zh-Hant", q
        elif name == "en" or name.startswith("en-") or name == "*":
            best, best_q = "en", q
    return best


def page_language() -> str:
    """The chosen language (cookie) or else the browser's."""
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return tag_for(request.headers.get("Accept-Language"))


def request_language() -> str:
    if request.path.startswith("/api/"):
        return tag_for(request.headers.get("Accept-Language"))
    return page_language()


def _locale_selector() -> str:
    return LANGUAGES[request_language()]


def current_tag() -> str:
    loc = get_locale()
    return "zh-Hant" if loc is not None and loc.language == "zh" else "en"


def _safe_next(target: str | None) -> str:
    """Only a path on this site (no scheme, no host, no '//' or '\\' tricks)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


@bp.get("/lang/<tag>")
def choose(tag: str) -> BaseResponse:
    """The language switch: remember the choice and go back to the page."""
    response = redirect(_safe_next(request.args.get("next")), code=303)
    if tag in LANGUAGES:
        response.set_cookie(COOKIE, tag, max_age=COOKIE_AGE, samesite="Lax", httponly=True, secure=request.is_secure)
    response.headers["Cache-Control"] = "no-store"
    return response


def _template_context() -> dict[str, Any]:
    here = request.full_path.rstrip("?") if request.query_string else request.path
    tag = current_tag()
    return {
        "lang": tag,
        "language_links": [
            {"tag": t, "name": LANGUAGE_NAMES[t], "current": t == tag, "href": f"/lang/{t}?next={_quote(here)}"}
            for t in LANGUAGES
        ],
    }


def _quote(path: str) -> str:
    return quote(path, safe="")


# -- API error messages -----------------------------------------------------------------
# The English messages the API sends, as templates: an error's message is matched against
# them and the values it carries are put into the translated template. A message no
# template matches keeps its English words after a translated lead ("Not allowed by the
# rules: ...") so nothing is lost; the code always says exactly what happened.

_COMPILED = [(re.compile("^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+?)", re.escape(t)) + "$"), t) for t in TEMPLATES]


def localize_error(code: str, message: str, status: int) -> str:
    if current_tag() == "en":
        return message
    for rx, template in _COMPILED:
        m = rx.match(message)
        if m:
            return gettext(template).format(**m.groupdict())
    if status == 422:
        return gettext("Not allowed by the rules ({code}): {message}").format(code=code, message=message)
    return gettext("Request refused ({code}): {message}").format(code=code, message=message)


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", "translations")
    Babel(app, locale_selector=_locale_selector)
    app.context_processor(_template_context)
    app.register_blueprint(bp)

    @app.after_request
    def _vary(response: Response) -> Response:
        if request.path.startswith("/api/"):
            _vary_on(response, "Accept-Language")
        elif response.mimetype == "text/html":
            _vary_on(response, "Accept-Language", "Cookie")
            response.headers.setdefault("Content-Language", current_tag())
        return response


def _vary_on(response: Response, *names: str) -> None:
    """Add ``names`` to the response's Vary header. The plain header when there is none
    yet (every API answer): Werkzeug's ``vary`` set parses and rewrites the header, a
    measurable share of a small request's CPU."""
    if "Vary" in response.headers:
        for name in names:
            response.vary.add(name)
    else:
        response.headers["Vary"] = ", ".join(names)
