"""One body contract for every JSON blueprint.

Every route that takes a body or a query reads it through ``BodyParser``: a non-empty
body is JSON (the server's strict parser, ``json_input``) whatever its content type, an
empty one is no body, anything but an object is refused, and a schema's refusal is a 400
``bad_request`` whose details name the fields by location (``{"json": {...}}``): 422 is
kept for moves the rules forbid. Only webargs' public hooks are used.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, NoReturn, TypeVar

import flask_smorest
from flask import Request
from marshmallow import Schema, ValidationError
from webargs import core as webargs_core
from webargs.flaskparser import FlaskParser

from service.http import json_input
from service.services.errors import Invalid


class BodyParser(FlaskParser):
    DEFAULT_VALIDATION_STATUS = 400

    def load_json(self, req: Request, schema: Schema) -> Any:
        raw = req.get_data(cache=True)
        if not raw.strip():
            return webargs_core.missing
        try:
            data = json_input.loads(raw)
        except json_input.MalformedJSON as exc:
            raise Invalid("malformed", f"the body is not valid JSON: {exc.msg}") from exc
        if not isinstance(data, dict):
            raise Invalid("bad_request", "the body must be a JSON object")
        return data

    def handle_error(
        self,
        error: ValidationError,
        req: Request,
        schema: Schema,
        *,
        error_status_code: int | None,
        error_headers: Mapping[str, str] | None,
    ) -> NoReturn:
        messages = error.messages if isinstance(error.messages, dict) else {"json": error.messages}
        raise Invalid("bad_request", "the request fails its schema", messages) from error


@cache
def schema_instance(schema_class: type[Schema]) -> Schema:
    """One instance per schema class: webargs would build one (deep-copying its fields)
    on every request."""
    return schema_class()


_F = TypeVar("_F", bound=Callable[..., Any])


class Blueprint(flask_smorest.Blueprint):
    """A flask-smorest blueprint that parses with ``BodyParser`` and one schema instance
    per schema class."""

    ARGUMENTS_PARSER = BodyParser()

    def arguments(self, schema: type[Schema] | Schema, *args: Any, **kwargs: Any) -> Callable[[_F], _F]:
        if isinstance(schema, type):
            schema = schema_instance(schema)
        return super().arguments(schema, *args, **kwargs)
