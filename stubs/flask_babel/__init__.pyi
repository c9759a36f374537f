# The part of Flask-Babel (no py.typed upstream) that the service uses.
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from babel import Locale
from flask import Flask

class Babel:
    def __init__(
        self,
        app: Flask | None = ...,
        date_formats: dict[str, Any] | None = ...,
        configure_jinja: bool = ...,
        *args: Any,
        locale_selector: Callable[[], str | None] | None = ...,
        **kwargs: Any,
    ) -> None: ...

def get_locale() -> Locale | None: ...
def gettext(string: str, **variables: Any) -> str: ...
@contextmanager
def force_locale(locale: str | Locale) -> Iterator[None]: ...
