"""Strict JSON input: what the API accepts before any schema looks at it.

Python's ``json`` accepts things the rest of the server cannot carry: ``NaN`` and
``1e400`` (infinite floats that cannot be written back as JSON), integers longer than
Python's 4,300-digit conversion limit (a ``ValueError`` that is not a decoding error),
nesting deep enough to exhaust the recursion limit, and lone surrogates (``"\\ud800"``,
which no UTF-8 encoder — Redis's included — accepts). Each of these is refused here as
a malformed body, before anything is written, by the one parser every JSON input goes
through (Flask's JSON provider and the body parser of every blueprint in
``service/http/json_input.py``, the move socket, the verifiers).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, NoReturn

MAX_DEPTH = 32
MAX_INT_DIGITS = 40  # far beyond any value a schema accepts; refused before int() is asked
_SURROGATE = re.compile("[\ud800-\udfff]")


class MalformedJSON(json.JSONDecodeError):
    """A ``JSONDecodeError`` (and so a ``ValueError``) so every caller that already
    treats undecodable JSON as a 400 treats these the same way."""

    def __init__(self, message: str, doc: str = "(the request body)", pos: int = 0):
        super().__init__(message, doc, pos)


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise MalformedJSON(f"an integer has more than {MAX_INT_DIGITS} digits")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise MalformedJSON(f"{text} is not a finite number")
    return value


def _parse_constant(name: str) -> NoReturn:
    raise MalformedJSON(f"{name} is not JSON")


def has_surrogate(text: str) -> bool:
    return _SURROGATE.search(text) is not None


def check_value(value: Any) -> None:
    """Depth and text checks over a decoded document, iteratively (no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise MalformedJSON(f"the document nests deeper than {MAX_DEPTH} levels")
        if isinstance(item, str):
            if has_surrogate(item):
                raise MalformedJSON("a string holds a lone surrogate (not valid Unicode)")
        elif isinstance(item, dict):
            for key, child in item.items():
                if has_surrogate(key):
                    raise MalformedJSON("a key holds a lone surrogate (not valid Unicode)")
                stack.append((child, depth + 1))
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)


def loads(text: str | bytes) -> Any:
    """``json.loads`` that raises :class:`MalformedJSON` for anything above."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise MalformedJSON(f"the body is not UTF-8: {exc.reason}") from exc
    try:
        value = json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except RecursionError as exc:
        raise MalformedJSON(f"the document nests deeper than {MAX_DEPTH} levels") from exc
    except MalformedJSON:
        raise
    except json.JSONDecodeError as exc:  # an empty document keeps its empty ``doc``: webargs reads it as absent
        raise MalformedJSON(exc.msg, exc.doc, exc.pos) from exc
    except ValueError as exc:  # anything int() or float() raise
        raise MalformedJSON(str(exc)) from exc
    check_value(value)
    return value
