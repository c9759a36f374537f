"""marshmallow fields that take only the JSON type they name."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from marshmallow import fields


class StrictBoolean(fields.Boolean):
    """``true`` or ``false`` only (marshmallow also takes 1, "yes", "on" ...)."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class StrictFloat(fields.Float):
    """A JSON number only (marshmallow also takes the string "5")."""

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


class StrictInteger(fields.Integer):
    """A JSON integer: a number without a fraction, ``4`` or ``4.0`` (one number to JSON
    and to JSON Schema 2020-12, which the OpenAPI 3.1 document speaks), loaded as an
    ``int``; never a string, a boolean or ``4.5``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any) -> int:
        if isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return super()._deserialize(value, attr, data, **kwargs)
