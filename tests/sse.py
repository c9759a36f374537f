"""Reading a live stream as EventSource does: a message's fields gathered up to its blank
line, then dispatched with its event type (``appended`` for an entry, ``chat`` for the
chat's mark); a message with no data is not dispatched."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator


def messages(lines: Iterable[bytes | str]) -> Iterator[tuple[str, str]]:
    """(event type, data) of each message in ``lines`` (a stream's lines, blank ones kept)."""
    event, data = "message", []
    for raw in lines:
        line = raw.decode() if isinstance(raw, bytes) else raw
        if not line:
            if data:
                yield event, "\n".join(data)
            event, data = "message", []
        elif not line.startswith(":"):
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "event":
                event = value
            elif name == "data":
                data.append(value)


def entries(lines: Iterable[bytes | str]) -> Iterator[dict]:
    """The entries (``appended`` messages) in ``lines``, parsed."""
    for event, data in messages(lines):
        if event == "appended":
            yield json.loads(data)
