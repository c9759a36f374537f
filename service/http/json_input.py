"""Every JSON body through one strict parser (``events/strict_json.py``): Flask's JSON
provider (``request.get_json``) and the webargs body parser every blueprint uses."""

from __future__ import annotations

from typing import Any

from flask.json.provider import DefaultJSONProvider

from events.strict_json import MalformedJSON, loads

__all__ = ["MalformedJSON", "StrictJSONProvider", "loads"]


class StrictJSONProvider(DefaultJSONProvider):
    """Flask's JSON provider with strict loading."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return loads(s)
