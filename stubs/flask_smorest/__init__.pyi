# The part of flask-smorest (untyped upstream) that the service uses: its decorators keep
# the view's type, so strict checking sees through them.
from collections.abc import Callable
from typing import Any, TypeVar

import flask
from apispec import APISpec
from marshmallow import Schema
from webargs.flaskparser import FlaskParser

_F = TypeVar("_F", bound=Callable[..., Any])

class Blueprint(flask.Blueprint):
    ARGUMENTS_PARSER: FlaskParser
    description: str
    def __init__(self, name: str, import_name: str, *args: Any, description: str = ..., **kwargs: Any) -> None: ...
    def arguments(
        self,
        schema: type[Schema] | Schema,
        *,
        location: str = ...,
        content_type: str | None = ...,
        required: bool = ...,
        description: str | None = ...,
        example: Any = ...,
        examples: Any = ...,
        **kwargs: Any,
    ) -> Callable[[_F], _F]: ...
    def response(
        self,
        status_code: int | str,
        schema: type[Schema] | Schema | None = ...,
        *,
        content_type: str | None = ...,
        description: str | None = ...,
        example: Any = ...,
        examples: Any = ...,
        headers: Any = ...,
    ) -> Callable[[_F], _F]: ...
    def alt_response(
        self,
        status_code: int | str,
        response: Any = ...,
        *,
        # a schema class, an instance, a registered schema's name or a schema object
        schema: type[Schema] | Schema | str | dict[str, Any] | None = ...,
        content_type: str | None = ...,
        description: str | None = ...,
        example: Any = ...,
        examples: Any = ...,
        headers: Any = ...,
        success: bool = ...,
    ) -> Callable[[_F], _F]: ...
    @staticmethod
    def doc(**kwargs: Any) -> Callable[[_F], _F]: ...

class Api:
    ERROR_SCHEMA: type[Schema]
    DEFAULT_ERROR_RESPONSE_NAME: str | None
    spec: APISpec
    def __init__(
        self, app: flask.Flask | None = ..., *, spec_kwargs: dict[str, Any] | None = ..., config_prefix: str = ...
    ) -> None: ...
    def init_app(self, app: flask.Flask, *, spec_kwargs: dict[str, Any] | None = ...) -> None: ...
    def register_blueprint(self, blp: Blueprint, *, parameters: list[Any] | None = ..., **options: Any) -> None: ...
