# The part of Flask-Sock (no py.typed upstream) that the service uses: a route's view
# takes the connection (a simple_websocket.Server) and the URL's values.
from collections.abc import Callable
from typing import Any, TypeVar

from flask import Blueprint, Flask

_F = TypeVar("_F", bound=Callable[..., Any])

class Sock:
    app: Flask | None
    bp: Blueprint | None
    def __init__(self, app: Flask | None = ...) -> None: ...
    def init_app(self, app: Flask) -> None: ...
    def route(self, path: str, bp: Blueprint | None = ..., **kwargs: Any) -> Callable[[_F], _F]: ...
